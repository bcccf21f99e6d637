"""One hand for the service: ``check_one`` (is a setting legal, which natural, why a foul: the verdict of
``chinese-poker check``, as data), ``arrange_one`` (a legal setting chosen by ``arrange``) and
``suggest_one`` (the best few distinct settings and why, by ``suggest``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chinese_poker._render import sorted_text
from chinese_poker.advice import suggest
from chinese_poker.arrange import DEFAULT_STRATEGY, STRATEGIES, arrange
from chinese_poker.cards import format_card
from chinese_poker.checking import check_hand
from chinese_poker.cli.common import dumps, one_line
from chinese_poker.evaluation import category, describe
from chinese_poker.formats.players import cards_value, parse_player, type_name
from chinese_poker.formats.rounds import rules_reference
from chinese_poker.hand import ROW_NAMES, Hand
from chinese_poker.rules import Rules
from chinese_poker.serve.bodies import Reply, json_object, rules_field
from chinese_poker.serve.dealt import DEALT_KEY, dealt_codes
from chinese_poker.serve.errors import ApiError

__all__ = ["MAX_SUGGESTIONS", "arrange_one", "check_one", "row_objects", "suggest_one"]

_CHECK_EXTRA_KEYS = ("rules", DEALT_KEY)
_ARRANGE_KEYS = ("cards", "rules", "strategy", "opponents")
_SUGGEST_KEYS = ("cards", "rules", "k", "opponents")
#: The most settings one ``/v1/suggest`` request may ask for.
MAX_SUGGESTIONS = 10


def row_objects(
    rows: Sequence[Sequence[int]], strengths: Sequence[int], royalties: Sequence[int] | None = None
) -> dict[str, dict[str, Any]]:
    """The three rows as the output format writes them: cards, strength, category, text, royalty."""
    out: dict[str, dict[str, Any]] = {}
    for index, (row, codes, strength) in enumerate(zip(ROW_NAMES, rows, strengths)):
        out[row] = {
            "cards": " ".join(format_card(code) for code in codes),
            "strength": strength,
            "category": category(strength).name.lower(),
            "text": describe(strength),
            "royalty": royalties[index] if royalties is not None else 0,
        }
    return out


def _hand_rows(hand: Hand) -> list[Sequence[int]]:
    return [hand.front or (), hand.middle or (), hand.back or ()]


def check_one(body: bytes) -> Reply:
    """``POST /v1/check``: a player object of the round format (``front``/``middle``/``back``, or
    ``cards`` with ``declare_natural``), plus optional ``rules`` and ``dealt``. The answer: ``foul`` and its
    ``reasons``, the ``natural`` the rules count, every natural kind ``held``, the ``rows``, a legal
    ``suggestion`` when fouled, and ``lines``: the text ``chinese-poker check`` prints."""
    data = json_object(body, "a check request")
    rules = rules_field(data)
    player = {key: value for key, value in data.items() if key not in _CHECK_EXTRA_KEYS}
    try:
        _, hand, _ = parse_player(player, rules.extra_suits, rules.jokers)
    except ValueError as error:
        raise ApiError(422, "bad_hand", one_line(error)) from None
    if data.get(DEALT_KEY) is not None:
        try:
            dealt = dealt_codes(data[DEALT_KEY])
        except ValueError as error:
            raise ApiError(422, "bad_hand", one_line(error)) from None
        extra = [code for code in hand.cards if code not in set(dealt)]
        if extra:
            raise ApiError(
                422, "bad_hand", f"{DEALT_KEY}: card {format_card(extra[0])} was submitted but not dealt"
            )
    verdict = check_hand(hand, rules)
    facts = hand.facts(rules)
    suggestion = None
    if verdict.foul:
        legal = arrange(hand.cards, rules).hand
        suggestion = {row: sorted_text(codes) for row, codes in zip(ROW_NAMES, _hand_rows(legal))}
    rows = None
    if not hand.is_declared and facts.strengths is not None:
        rows = row_objects(_hand_rows(hand), list(facts.strengths), list(facts.royalties))
    answer: dict[str, Any] = {
        "rules": rules_reference(rules),
        "declared": hand.is_declared,
        "foul": verdict.foul,
        "reasons": list(verdict.reasons),
        "natural": verdict.natural,
        "held": list(verdict.held),
        "rows": rows,
        "suggestion": suggestion,
        "lines": list(verdict.lines),
    }
    return Reply((dumps(answer) + "\n").encode("utf-8"))


def _strategy(data: Mapping[str, Any]) -> str:
    strategy = data.get("strategy", DEFAULT_STRATEGY)
    if strategy not in STRATEGIES:
        choices = ", ".join(repr(name) for name in STRATEGIES)
        shown = repr(strategy) if isinstance(strategy, str) else type_name(strategy)
        raise ApiError(422, "bad_request", f"strategy must be one of {choices}, got {shown}")
    return str(strategy)


def _bounded(data: Mapping[str, Any], key: str, default: int, *, low: int, high: int, allowed: str) -> int:
    """The integer ``data[key]`` (``default`` when absent), which must be ``low..high`` (a 422 saying
    ``allowed`` otherwise; a bool is no integer here)."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = str(value) if isinstance(value, int) and not isinstance(value, bool) else type_name(value)
        raise ApiError(422, "bad_request", f"{key} must be {allowed}, got {shown}")
    return value


def _opponents(data: Mapping[str, Any]) -> int:
    return _bounded(data, "opponents", 3, low=1, high=3, allowed="1, 2 or 3")


def _hand_request(body: bytes, what: str, keys: Sequence[str]) -> dict[str, Any]:
    """The JSON object of an arrange or suggest request: only ``keys``, and ``cards`` among them."""
    data = json_object(body, what)
    for key in data:
        if key not in keys:
            raise ApiError(422, "bad_request", f"unknown key {key!r}; allowed: {', '.join(keys)}")
    if "cards" not in data:
        raise ApiError(422, "bad_request", "cards missing (13 cards to arrange)")
    return data


def arrange_one(body: bytes) -> Reply:
    """``POST /v1/arrange``: ``{"cards": 13 cards, "rules"?, "strategy"?, "opponents"?}``; the answer is
    the setting ``arrange`` chooses: its rows (as the output format writes them), ``expected_units``
    against ``opponents`` opponents, the natural to ``declare`` (or ``null``) and the ``strategy``."""
    data = _hand_request(body, "an arrange request", _ARRANGE_KEYS)
    rules: Rules = rules_field(data)
    strategy = _strategy(data)
    opponents = _opponents(data)
    try:
        cards = cards_value(data["cards"], "cards")
        chosen = arrange(cards, rules, strategy, opponents=opponents)
    except (ValueError, TypeError) as error:
        raise ApiError(422, "bad_hand", one_line(error)) from None
    hand = chosen.hand
    answer = {
        "rules": rules_reference(rules),
        "strategy": chosen.strategy,
        "front": sorted_text(hand.front or ()),
        "middle": sorted_text(hand.middle or ()),
        "back": sorted_text(hand.back or ()),
        "rows": row_objects(_hand_rows(hand), chosen.strengths, list(hand.facts(rules).royalties)),
        "expected_units": chosen.expected_units,
        "opponents": opponents,
        "declare": chosen.declare,
    }
    return Reply((dumps(answer) + "\n").encode("utf-8"))


def _suggestions(data: Mapping[str, Any]) -> int:
    return _bounded(data, "k", 3, low=1, high=MAX_SUGGESTIONS, allowed=f"1 to {MAX_SUGGESTIONS}")


def suggest_one(body: bytes) -> Reply:
    """``POST /v1/suggest``: ``{"cards": 13 cards, "rules"?, "k"?: 1..10, "opponents"?: 1..3}``; the
    answer: ``suggestions``, the ``k`` best distinct settings ``suggest`` gives (best first; the first is
    the setting ``/v1/arrange`` chooses by ``expected``), each with its ``rank``, ``front``, ``middle``,
    ``back``, ``rows`` (as the output format writes them, plus each row's ``win``, ``tie`` and ``loss``
    chances against the field), ``expected_units`` against ``opponents`` opponents, ``scoop``, the natural
    to ``declare`` (or ``null``) and ``why``."""
    data = _hand_request(body, "a suggest request", _SUGGEST_KEYS)
    rules: Rules = rules_field(data)
    k = _suggestions(data)
    opponents = _opponents(data)
    try:
        cards = cards_value(data["cards"], "cards")
        found = suggest(cards, rules, k, opponents=opponents)
    except (ValueError, TypeError) as error:
        raise ApiError(422, "bad_hand", one_line(error)) from None
    suggestions = []
    for s in found:
        hand = s.hand
        rows = row_objects(_hand_rows(hand), s.strengths, [row.royalty for row in s.rows])
        for reason in s.rows:
            rows[reason.row].update(win=reason.win, tie=reason.tie, loss=reason.loss)
        suggestions.append(
            {
                "rank": s.rank,
                "front": sorted_text(hand.front or ()),
                "middle": sorted_text(hand.middle or ()),
                "back": sorted_text(hand.back or ()),
                "rows": rows,
                "expected_units": s.expected_units,
                "scoop": s.scoop,
                "declare": s.declare,
                "why": s.why,
            }
        )
    answer = {"rules": rules_reference(rules), "opponents": opponents, "suggestions": suggestions}
    return Reply((dumps(answer) + "\n").encode("utf-8"))


def __dir__() -> list[str]:
    return list(__all__)
