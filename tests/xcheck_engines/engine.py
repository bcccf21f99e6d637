"""A mutant engine for the cross-check tests: reads rounds as JSON Lines on stdin, answers nets.

``engine.py library RULES_JSON [ignore_stakes|rich|rich_foul_hidden]``: the library under rules the tool is
not told; ``ignore_stakes`` plants a bug (a round's stakes matrix is not read), ``rich`` answers the full
output of ``chinese-poker score`` (fouls, naturals, pairs' rows and units), and ``rich_foul_hidden`` does
with a bug only the richer fields show (every player reported as not fouled; the nets are right).
``engine.py reference PRESET BUG``: the pure-Python reference under a preset, with a planted bug no knob
expresses (``two_pair_low``, ``wheel_back``, ``royalty_to_loser``, ``natural_tiebreak_reversed``,
``cap_off_by_one``, or ``none``). Protocol faults for the protocol tests: ``fault KIND`` (``crash``,
``garbage``, ``silent``, ``missing``, ``error``).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from typing import Any

from chinese_poker.formats.rounds import parse_round, round_output, settle_round
from chinese_poker.rules import Rules

# The package's face re-exports functions of these names: the modules themselves are needed to plant bugs.
ref_evaluate = importlib.import_module("chinese_poker.reference.evaluate")
ref_settle = importlib.import_module("chinese_poker.reference.settle")


def _plant(bug: str) -> None:
    if bug == "two_pair_low":
        original_five = ref_evaluate._evaluate_five

        def five(cards: Any, wheel: str) -> int:
            strength = original_five(cards, wheel)
            if ref_evaluate.category_of(strength) == ref_evaluate.TWO_PAIR:
                high, low, kicker = ref_evaluate.tiebreak_vector(strength)[:3]
                return ref_evaluate.encode(ref_evaluate.TWO_PAIR, [low, high, kicker])
            return strength

        ref_evaluate._evaluate_five = five
    elif bug == "wheel_back":
        # A-2-3-4-5 beats A-K-Q-J-10 (and every other straight) in the back only.
        original_compare = ref_settle.compare_rows
        calls = [0]

        def is_wheel(row: Any) -> bool:
            ranks = sorted(c // 4 for c in row)
            return len(row) == 5 and ranks == [0, 1, 2, 3, 12] and len({c % 4 for c in row}) > 1

        def is_straight(row: Any) -> bool:
            s = ref_evaluate.evaluate(row)
            return ref_evaluate.category_of(s) == ref_evaluate.STRAIGHT

        def compare(a: Any, b: Any, rules: Any) -> int:
            calls[0] += 1
            result = original_compare(a, b, rules)
            if calls[0] % 3 == 0 and is_straight(a) and is_straight(b):
                if is_wheel(a) and not is_wheel(b):
                    return 1
                if is_wheel(b) and not is_wheel(a):
                    return -1
            return result

        ref_settle.compare_rows = compare
    elif bug == "royalty_to_loser":
        original_row = ref_settle._row_value

        def row_value(result: int, r_i: int, r_j: int, rules: Any, base: int = 1) -> int:
            # The winner of a row is paid the loser's royalty instead of its own.
            if result != 0 and (r_i > 0) != (r_j > 0):
                return original_row(result, r_j, r_i, rules, base)
            return original_row(result, r_i, r_j, rules, base)

        ref_settle._row_value = row_value
    elif bug == "natural_tiebreak_reversed":
        original_key = ref_settle.natural_key

        def key(kind: Any, cards: Any, rules: Any) -> Any:
            value = original_key(kind, cards, rules)
            return tuple(-v if isinstance(v, int) else v for v in value)

        ref_settle.natural_key = key
    elif bug == "cap_off_by_one":

        def clamp(value: int, cap: int) -> int:
            # A capped pair pays one unit less than the cap.
            if abs(value) > cap:
                return (cap - 1) if value > 0 else -(cap - 1)
            return value

        ref_settle._clamp = clamp


def _reference_net(data: dict[str, Any], rules: dict[str, Any]) -> list[int]:
    players = []
    for player in data["players"]:
        if player.get("declare_natural"):
            players.append({"declared": player["cards"]})
        else:
            players.append({row: player[row] for row in ("front", "middle", "back")})
    flags = [bool(p.get("surrender")) for p in data["players"]]
    surrender = flags if any(flags) else None
    settled = ref_settle.settle(
        players, rules, data.get("stakes"), surrender, banker=data.get("banker"), bets=data.get("bets")
    )
    return list(settled["net"])


def main() -> int:
    mode = sys.argv[1]
    rules_value: Any = None
    ref_rules: dict[str, Any] = {}
    fault = ""
    variant = sys.argv[3] if mode == "library" and len(sys.argv) > 3 else ""
    if mode == "library":
        rules_value = Rules.from_dict(json.loads(sys.argv[2])).to_dict()
    elif mode == "reference":
        ref_rules = ref_settle.resolve_rules(sys.argv[2])
        _plant(sys.argv[3])
    else:
        fault = sys.argv[2]
        rules_value = "pagat"
    for count, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        data = json.loads(line)
        if fault == "crash" and count == 3:
            sys.stderr.write("engine: cannot score this round\n")
            return 3
        if fault == "garbage" and count == 2:
            print("this is not json", flush=True)
            continue
        if fault == "silent" and count == 2:
            time.sleep(30)
        if fault == "missing" and count == 2:
            print(json.dumps({"id": data["id"]}), flush=True)
            continue
        try:
            if mode == "reference":
                net = _reference_net(data, ref_rules)
            else:
                data["rules"] = rules_value
                if variant == "ignore_stakes":
                    data.pop("stakes", None)
                rnd = parse_round(data)
                net = list(settle_round(rnd).net)
            answer: dict[str, Any] = {"id": data["id"], "net": net}
            if variant.startswith("rich"):
                answer = round_output(rnd, settle_round(rnd))
                answer["net"] = net
                if variant == "rich_foul_hidden":
                    for player in answer["players"]:
                        player["foul"] = False
        except ValueError as error:
            answer = {"id": data["id"], "error": str(error)}
        if fault == "error":
            sys.stderr.write(f"engine: scored {data['id']}\n")
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
