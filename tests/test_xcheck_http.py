"""The cross-check tool against HTTP endpoints (``--url``): the project's own service, and a small server
on 127.0.0.1 with planted faults (a 5xx, a line that is not JSON, a missing answer, a slow answer, a
refused connection), each a message naming the round, never a hang."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.cli import main
from chinese_poker.formats.rounds import parse_round, settle_round
from chinese_poker.rules import Rules
from chinese_poker.xcheck.cases import targeted_rounds
from chinese_poker.xcheck.engine import EngineError
from chinese_poker.xcheck.oracle import Pool
from chinese_poker.xcheck.remote import HttpEngine
from conftest import LiveServer


def _answer(line: bytes) -> dict[str, Any]:
    data = json.loads(line)
    data["rules"] = "pagat"
    try:
        return {"id": data["id"], "net": list(settle_round(parse_round(data)).net)}
    except ValueError as error:
        return {"id": data["id"], "error": str(error)}


class FaultHandler(BaseHTTPRequestHandler):
    """Settles JSON Lines under pagat; the path picks a fault: ``/ok``, ``/500``, ``/garbage`` (the second
    line is not JSON), ``/short`` (the last answer is missing), ``/slow`` (answers after 3 s),
    ``/refuse`` (a 422 naming the request's second round, as the service refuses a batch)."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        lines = [line for line in body.splitlines() if line.strip()]
        self.server.requests += 1  # type: ignore[attr-defined]
        if self.path == "/500":
            self._send(500, b"internal trouble\n")
            return
        if self.path == "/refuse" and len(lines) > 1:
            error = {"error": {"status": 422, "code": "bad_round", "message": "line 2: no", "round": 1}}
            self._send(422, json.dumps(error).encode())
            return
        if self.path == "/slow":
            time.sleep(3)
        answers = [json.dumps(_answer(line)).encode() for line in lines]
        if self.path == "/garbage":
            answers[1] = b"<html>oops</html>"
        if self.path == "/short":
            answers.pop()
        self._send(200, b"\n".join(answers) + b"\n")

    def _send(self, status: int, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def fault_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FaultHandler)
    server.requests = 0  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


ROUNDS = targeted_rounds(1)[:4]


def test_an_endpoint_answers_in_order(fault_server: str) -> None:
    with HttpEngine(fault_server + "/ok", timeout=5) as engine:
        answers = engine.ask([r.to_json() for r in ROUNDS])
    assert [a.net for a in answers] == Pool(ROUNDS).nets(Rules())
    assert engine.rounds_sent == 4


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/500", "round t1-edge-E1: the endpoint answered HTTP 500 Internal Server Error: internal trouble"),
        ("/garbage", "round t2-edge-E2: the endpoint's answer is not JSON"),
        ("/short", "round t4-edge-E4: no answer: the endpoint's response ended after 3 of 4 answers"),
        ("/slow", "round t1-edge-E1: no answer within 0.5 s from http://127.0.0.1:"),
    ],
)
def test_endpoint_faults_name_the_round(fault_server: str, path: str, message: str) -> None:
    started = time.monotonic()
    with pytest.raises(EngineError) as caught:
        HttpEngine(fault_server + path, timeout=0.5).ask([r.to_json() for r in ROUNDS])
    assert message in str(caught.value)
    assert time.monotonic() - started < 2.5  # the slow answer (3 s) is not waited for


def test_a_refused_round_is_an_error_answer_and_the_rest_resent(fault_server: str) -> None:
    answers = HttpEngine(fault_server + "/refuse", timeout=5).ask([r.to_json() for r in ROUNDS[:3]])
    # The server refuses the second round of every request of two or more: t2, then t3 (of [t1, t3]).
    assert [a.error for a in answers] == [None, "line 2: no", "line 2: no"]
    assert answers[0].net == Pool(ROUNDS[:1]).nets(Rules())[0]


def test_a_refused_connection_names_the_round() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(EngineError) as caught:
        HttpEngine(f"http://127.0.0.1:{port}/v1/settle/batch", timeout=2).ask([ROUNDS[0].to_json()])
    assert f"round t1-edge-E1: cannot reach http://127.0.0.1:{port}/v1/settle/batch:" in str(caught.value)
    assert "refused" in str(caught.value).lower()


def test_a_url_that_is_not_http_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["xcheck", "--url", "ftp://example.org/x"]) == 2
    assert "the engine URL must be http:// or https:// with a host" in capsys.readouterr().err


def test_cli_reports_a_5xx_with_exit_2(fault_server: str, tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    code = main(
        ["xcheck", "--url", fault_server + "/500", "--budget", "40", "--json", str(report), "--quiet"]
    )
    assert code == 2
    data = json.loads(report.read_text())
    assert data["error"].startswith("round t1-edge-E1: the endpoint answered HTTP 500")
    assert data["engine"] == fault_server + "/500"


def test_check_against_the_service(live_server: LiveServer, tmp_path: Path) -> None:
    url = live_server.url + "/v1/settle/batch?rules=pagat-bonus&output=net"
    report = tmp_path / "r.json"
    code = main(["xcheck", "--url", url, "--rules", "pagat-bonus", "--budget", "300", "--json", str(report)])
    data = json.loads(report.read_text())
    assert code == 0, data["classes"]
    assert data["disagreements"] == 0
    assert data["rounds_sent"] == 240
    assert data["error"] is None


def test_fit_against_the_service(live_server: LiveServer, tmp_path: Path) -> None:
    url = live_server.url + "/v1/settle/batch?rules=shisanzhang-hk&output=net"
    report = tmp_path / "r.json"
    code = main(["xcheck", "--url", url, "--fit", "--budget", "500", "--json", str(report), "--quiet"])
    data = json.loads(report.read_text())
    assert code == 0, data["classes"]
    fitted = Rules.from_toml(data["rules_file"])
    fresh = Pool(targeted_rounds(42)[::3])
    truth = Rules.preset("shisanzhang-hk")
    assert [r.rid for r, a, b in zip(fresh.rounds, fresh.nets(fitted), fresh.nets(truth)) if a != b] == []
