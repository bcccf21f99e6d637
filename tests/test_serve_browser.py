"""The page in a real browser: headless Chromium (Debian's ``chromium``) loads ``GET /`` from a running
``chinese-poker serve``, picks the rules, deals and settles by clicking the page's buttons, and the test
checks what the page shows (each player's net units, fouls and naturals, the pairs) against the API's own
answer for the same round; it also arranges a hand, and keeps a screenshot as a test artefact. A second
test opens a link to a 6-player round of the six-player pack, checks the players each pack offers and the
link the page gives a round it deals.

The browser is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: JSON messages
ending in a NUL byte on file descriptors 3 and 4), so the test needs nothing but the standard library.
Without chromium the test skips, unless ``CP_REQUIRE_BROWSER=1`` (CI sets it), which makes that a failure.
``CP_ARTIFACTS_DIR``, when set, receives a copy of the screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from chinese_poker.presets import PRESET_NAMES
from conftest import LiveServer

TIMEOUT = 60.0  # seconds for any one wait on the browser


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CP_REQUIRE_BROWSER") == "1":
        pytest.fail("CP_REQUIRE_BROWSER=1 but chromium is not installed (apt-get install -y chromium)")
    pytest.skip("chromium is not installed (apt-get install -y chromium); CI requires it")


def _browser_environment() -> dict[str, str]:
    """This process's environment without the sanitizer settings of a sanitized run (.ci/sanitized_pytest):
    they are for this project's extension, not for the browser."""
    drop = {"LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS", "PYTHONMALLOC"}
    return {key: value for key, value in os.environ.items() if key not in drop}


class Browser:
    """A headless Chromium started by the test, spoken to over the DevTools protocol on a pipe."""

    def __init__(self, executable: str, profile: Path) -> None:
        self._commands_read, self._commands = os.pipe()
        self._events, self._events_write = os.pipe()
        fds = (self._commands_read, self._events_write)
        arguments = [
            "--headless",
            "--no-sandbox",  # the tests run as root
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "--window-size=1280,1600",
            "about:blank",
        ]
        # bash, not sh: dash reads only one-digit descriptors in a redirection.
        redirect = f'exec "$@" 3<&{fds[0]} 4>&{fds[1]} {fds[0]}<&- {fds[1]}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", redirect, "bash", executable, *arguments],
            pass_fds=fds,
            env=_browser_environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(self._commands_read)
        os.close(self._events_write)
        self._buffer = b""
        self._next_id = 0
        self.session = ""

    def send(self, method: str, params: dict[str, Any] | None = None, *, session: bool = True) -> Any:
        """Send one command and wait for its result (events in between are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer to {method}")
            ready, _, _ = select.select([self._events], [], [], left)
            if ready:
                chunk = os.read(self._events, 1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed the pipe")
                self._buffer += chunk

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str) -> Any:
        """Poll until the expression is truthy; its value."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(f"the page never made true: {expression}")

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False
        )["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 1600, "deviceScaleFactor": 1, "mobile": False},
        )
        self.send("Page.navigate", {"url": url})

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):  # it may be gone already
            self.send("Browser.close", session=False)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=20)
        os.close(self._commands)
        os.close(self._events)


def _post_json(url: str, body: bytes) -> Any:
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        return json.loads(answer.read())


_SHOWN = """JSON.stringify({
  names: [...document.querySelectorAll('#seats .seat-name')].map(e => e.firstChild.textContent),
  nets: [...document.querySelectorAll('#seats .net-value')].map(e => e.textContent),
  fouls: [...document.querySelectorAll('#seats .seat')].map(e => !!e.querySelector('.badge.foul')),
  naturals: [...document.querySelectorAll('#seats .seat')].map(e => !!e.querySelector('.badge.natural')),
  cards: [...document.querySelectorAll('#seats .seat')].map(e => e.querySelectorAll('.card').length),
  pairs: [...document.querySelectorAll('#pairs tbody tr')].map(r => r.lastChild.textContent),
  explain: document.getElementById('explain').textContent,
  round: document.getElementById('round').value,
  error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
})"""


def test_the_page_deals_settles_and_shows_the_apis_net_units(live_server: LiveServer, tmp_path: Path) -> None:
    browser = Browser(_chromium(), tmp_path / "profile")
    try:
        browser.open(live_server.url + "/")
        browser.wait_for("document.body && document.body.dataset.ready === 'true'")
        assert browser.evaluate("document.querySelectorAll('#rules option').length") == len(PRESET_NAMES)
        browser.evaluate(
            "document.getElementById('rules').value = 'pagat-bonus';"
            "document.getElementById('players').value = '4';"
            "document.getElementById('seed').value = '11';"
            "document.getElementById('deal').click(); true"
        )
        browser.wait_for("document.body.dataset.settled === 'deal-11'")
        shown = json.loads(browser.evaluate(_SHOWN))
        assert shown["error"] == ""

        # What the API says about the round the page dealt and settled.
        dealt = json.loads(shown["round"])
        with urllib.request.urlopen(
            f"{live_server.url}/v1/deal?players=4&seed=11&rules=pagat-bonus"
        ) as answer:
            assert dealt == json.loads(answer.read())
        api = _post_json(live_server.url + "/v1/settle?explain=true", shown["round"].encode())
        assert [int(text) for text in shown["nets"]] == api["net"]
        assert sum(api["net"]) == 0
        assert (
            shown["names"]
            == [player["name"] for player in api["players"]]
            == ["North", "East", "South", "West"]
        )
        assert shown["fouls"] == [player["foul"] for player in api["players"]]
        assert shown["naturals"] == [player["natural"] is not None for player in api["players"]]
        assert shown["cards"] == [13, 13, 13, 13]
        assert [int(text) for text in shown["pairs"]] == [pair["units"] for pair in api["pairs"]]
        assert shown["explain"] == api["explain"]

        # A pasted round with a foul: marked as one, and the net units again the API's.
        fouled = {
            "id": "pasted",
            "rules": "pagat",
            "players": [
                {"name": "Amy", "front": "As Ah 2c", "middle": "Ks Kh 3c 4d 5h", "back": "Qs Qh Qd 7c 8c"},
                {"name": "Bob", "front": "2d 3d 4s", "middle": "9s 9h 6c 6d 7h", "back": "Js Jh Jd Jc 8h"},
            ],
        }
        browser.evaluate(
            f"document.getElementById('round').value = {json.dumps(json.dumps(fouled))};"
            "document.getElementById('settle').click(); true"
        )
        browser.wait_for("document.body.dataset.settled === 'pasted'")
        shown = json.loads(browser.evaluate(_SHOWN))
        api = _post_json(live_server.url + "/v1/settle", json.dumps(fouled).encode())
        assert api["players"][0]["foul"] is True
        assert shown["fouls"] == [True, False]
        assert [int(text) for text in shown["nets"]] == api["net"] == [-3, 3]

        # Back to a dealt round for the picture, and a hand arranged.
        browser.evaluate("document.getElementById('deal').click(); true")
        browser.wait_for("document.body.dataset.settled === 'deal-11'")
        browser.evaluate("document.getElementById('arrange').click(); true")
        rows = browser.wait_for(
            "document.querySelectorAll('#arrange-result .card').length === 13 &&"
            "[...document.querySelectorAll('#arrange-result .row-text')].map(e => e.textContent)"
        )
        assert rows[2].startswith("Royal flush")  # As Ks Qs Js Ts at the back
        picture = tmp_path / "serve-page.png"
        browser.screenshot(picture)
    finally:
        browser.close()
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 20_000  # a drawn page, not a blank one
    artefacts = os.environ.get("CP_ARTIFACTS_DIR")
    if artefacts:
        Path(artefacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(artefacts) / picture.name)


_OFFERED = "[...document.querySelectorAll('#players option')].map(e => e.value).join(',')"


def _api_round(live_server: LiveServer, query: str) -> tuple[dict[str, Any], Any]:
    """The round ``GET /v1/deal?QUERY`` deals and the API's settlement of it."""
    with urllib.request.urlopen(f"{live_server.url}/v1/deal?{query}") as answer:
        dealt = json.loads(answer.read())
    return dealt, _post_json(live_server.url + "/v1/settle?explain=true", json.dumps(dealt).encode())


def test_the_page_deals_shows_and_links_six_player_rounds(live_server: LiveServer, tmp_path: Path) -> None:
    browser = Browser(_chromium(), tmp_path / "profile")
    try:
        # A link to a 6-player round of the preset whose pack seats six opens on that round.
        browser.open(live_server.url + "/?players=6&rules=shisanshui-puxian-six&seed=5")
        browser.wait_for("document.body && document.body.dataset.ready === 'true'")
        browser.wait_for("document.body.dataset.settled === 'deal-5'")
        shown = json.loads(browser.evaluate(_SHOWN))
        assert shown["error"] == ""
        dealt, api = _api_round(live_server, "players=6&seed=5&rules=shisanshui-puxian-six")
        assert json.loads(shown["round"]) == dealt
        assert shown["names"] == ["North", "East", "South", "West", "Fifth", "Sixth"]
        assert shown["cards"] == [13] * 6
        assert [int(text) for text in shown["nets"]] == api["net"]
        assert len(shown["pairs"]) == 15  # every pair of six players
        assert [int(text) for text in shown["pairs"]] == [pair["units"] for pair in api["pairs"]]
        assert shown["explain"] == api["explain"]
        assert browser.evaluate(_OFFERED) == "2,3,4,5,6"

        # Rules of one deck offer 2 to 4 players; going back to the six-player pack offers 6 again, and a
        # 5-player round dealt by clicking is linked from the page and the address bar.
        browser.evaluate(
            "const rules = document.getElementById('rules'); rules.value = 'pagat';"
            "rules.dispatchEvent(new Event('change')); true"
        )
        browser.wait_for(f"{_OFFERED} === '2,3,4'")
        assert browser.evaluate("document.getElementById('players').value") == "4"
        browser.evaluate(
            "const again = document.getElementById('rules'); again.value = 'shisanshui-puxian-six';"
            "again.dispatchEvent(new Event('change')); true"
        )
        browser.wait_for(f"{_OFFERED} === '2,3,4,5,6'")
        browser.evaluate(
            "document.getElementById('players').value = '5';"
            "document.getElementById('seed').value = '8';"
            "document.getElementById('deal').click(); true"
        )
        browser.wait_for("document.body.dataset.settled === 'deal-8'")
        shown = json.loads(browser.evaluate(_SHOWN))
        _, api = _api_round(live_server, "players=5&seed=8&rules=shisanshui-puxian-six")
        assert shown["names"] == ["North", "East", "South", "West", "Fifth"]
        assert [int(text) for text in shown["nets"]] == api["net"]
        link = "/?rules=shisanshui-puxian-six&players=5&seed=8"
        assert browser.evaluate("document.getElementById('link').hidden") is False
        assert browser.evaluate("document.getElementById('link').getAttribute('href')") == link
        assert browser.evaluate("window.location.pathname + window.location.search") == link

        # A round dealt without a seed is linked with the seed it was dealt from.
        browser.evaluate(
            "document.getElementById('seed').value = ''; document.body.dataset.settled = '';"
            "document.getElementById('deal').click(); true"
        )
        settled = browser.wait_for("document.body.dataset.settled")
        href = browser.evaluate("document.getElementById('link').getAttribute('href')")
        assert href == f"/?rules=shisanshui-puxian-six&players=5&seed={settled.removeprefix('deal-')}"

        # A link asking more players than its rules seat says so on the page, and nothing is dealt.
        browser.open(live_server.url + "/?players=6&rules=pagat&seed=5")
        browser.wait_for("document.body && document.body.dataset.ready === 'true'")
        shown = json.loads(browser.evaluate(_SHOWN))
        assert shown["error"] == 'the link\'s players "6": pagat seats 2 to 4 players'
        assert browser.evaluate("document.body.dataset.settled") is None
        assert browser.evaluate("document.getElementById('result').hidden") is True
    finally:
        browser.close()
