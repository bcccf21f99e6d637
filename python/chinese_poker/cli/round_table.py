"""A settled round (an output object of the JSON format) as aligned, readable text."""

from __future__ import annotations

from typing import Any

from chinese_poker._render import signed, text_table
from chinese_poker.cli.common import dumps
from chinese_poker.hand import ROW_NAMES

__all__ = ["format_round_table"]


def format_round_table(out: dict[str, Any]) -> str:
    """A settled round (an output object of the JSON format) as aligned, readable text: each player's rows
    and net, then each pair's rows (who won each), how it was decided and its units, then the net line."""
    names = [p["name"] for p in out["players"]]
    rules = out["rules"] if isinstance(out["rules"], str) else "custom rules"
    lines = [f"Round {dumps(out['id'])} under {rules}"]
    rows: list[list[str] | str] = []
    for player in out["players"]:
        status = []
        if player["foul"]:
            status.append("FOUL")
        if player["natural"]:
            status.append(f"natural: {player['natural'].replace('_', ' ')}")
        if player["surrendered"]:
            status.append("surrendered")
        if player["home_run"]:
            status.append("HOME RUN")
        if player["rows"] is None:
            rows.append(
                [player["name"], "(declares a natural)", "", "", signed(player["net"]), ", ".join(status)]
            )
            rows.append(str(player.get("declared", "")))
            continue
        cards = [player["rows"][row]["cards"] for row in ROW_NAMES]
        texts = []
        for row in ROW_NAMES:
            cell = player["rows"][row]["text"]
            if player["rows"][row]["royalty"]:
                cell += f" (royalty {player['rows'][row]['royalty']})"
            texts.append(cell)
        rows.append([player["name"], *cards, signed(player["net"]), ", ".join(status)])
        rows.append(["", *texts, "", ""])
    lines += [
        "  " + line for line in text_table(["Player", "Front", "Middle", "Back", "Net", ""], rows, right=(4,))
    ]
    lines.append("")
    pair_rows = []
    for pair in out["pairs"]:
        i, j = pair["i"], pair["j"]
        if pair["rows"] is None:
            won = ["-", "-", "-"]
        else:
            won = [names[i] if r > 0 else names[j] if r < 0 else "tie" for r in pair["rows"]]
        units = pair["units"]
        result = f"{names[i]} {units:+d}" if units > 0 else f"{names[j]} {-units:+d}" if units < 0 else "0"
        notes = []

        def to(value: int, i: int = i, j: int = j) -> str:
            return f"{names[i]} +{value}" if value > 0 else f"{names[j]} +{-value}"

        if pair["decided_by"] == "natural":
            kinds = [kind.replace("_", " ") if kind else "no natural" for kind in pair["natural"]]
            notes.append(f"{kinds[0]} v {kinds[1]}")
        if pair["surrender_units"]:
            notes.append(f"surrender {to(pair['surrender_units'])}")
        if pair["royalty_units"]:
            notes.append(f"royalties {to(pair['royalty_units'])}")
        if pair["overall_units"]:
            notes.append(f"overall {to(pair['overall_units'])}")
        if pair["scoop"]:
            notes.append(f"scoop by {names[i] if pair['scoop'] > 0 else names[j]}")
        if pair["scoop_bonus_units"]:
            notes.append(f"scoop bonus {to(pair['scoop_bonus_units'])}")
        if pair["multiplier"] != 1:
            notes.append(f"x{pair['multiplier']}")
        if pair["stake"] != 1:
            notes.append(f"stake x{pair['stake']}")
        if pair["home_run"] != 1:
            notes.append(f"home run x{pair['home_run']}")
        pair_rows.append([f"{names[i]} v {names[j]}", *won, pair["decided_by"], result, ", ".join(notes)])
    lines += [
        "  " + line for line in text_table(["Pair", "Front", "Middle", "Back", "By", "Units", ""], pair_rows)
    ]
    lines.append("")
    lines.append("Net: " + ", ".join(f"{name} {signed(net)}" for name, net in zip(names, out["net"])))
    if out.get("explain"):
        lines.append("")
        lines.append(out["explain"])
    return "\n".join(lines)


def __dir__() -> list[str]:
    return list(__all__)
