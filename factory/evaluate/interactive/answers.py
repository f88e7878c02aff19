"""Final-answer match, with ToolComp's rules, of gold answer values against a free-text reply.

Rules: a number matches any number stated in the reply within a relative tolerance (10%,
as ToolComp grades); a string matches when its normalised words appear in the reply
(case, accents, punctuation and spacing ignored; ISO dates also match their written
forms); a list matches as a set, or as a sequence when the query asks for an order; a
dict matches when its values do. Only the reply's final answer is read (see final_answer:
the part after its last answer marker, the JSON value stated last, the last boolean), so
values the model mentions while reasoning or in a draft it corrects do not count. A JSON
list in the answer is compared element by element so extra or missing items count against
it. When the gold answer is empty (the task cannot be completed), the reply must say so.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from factory.evaluate.interactive.final_answer import answer_part, json_values, stated_boolean

REL_TOL = 0.10
ORDER_WORDS = re.compile(
    r"\b(sort(ed)?|order(ed)?|ascending|descending|alphabetical(ly)?|rank(ed|ing)?|chronological(ly)?)\b", re.I
)
REFUSAL = re.compile(
    r"\b(cannot|can ?not|can't|unable|not (be )?(able|possible|available)|impossible|no (tool|way|function)|"
    r"do(es)? not have|don't have|lack|insufficient|missing)\b",
    re.I,
)
_NUMBER = re.compile(
    r"(?<![\w.])([-+−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:[eE]([-+]?\d+))?"
    r"(?:\s*(thousand|million|billion|k|bn)\b)?",
    re.I,
)
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "billion": 1e9, "bn": 1e9}
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
_MONTHS.update({name[:3]: num for name, num in list(_MONTHS.items())})
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_PATTERNS = (
    (re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), ("m", "d", "y")),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\.?,?\s+(\d{{4}})\b", re.I), ("d", "m", "y")),
    (re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), ("m", "d", "y")),
)


def asks_for_order(query: str) -> bool:
    """Whether the query asks for a specific order, so lists must match as sequences."""
    return bool(ORDER_WORDS.search(query or ""))


def normalise(text: str) -> str:
    """Case, accents, punctuation and spacing removed: 'Château  Palmer!' → 'chateau palmer'."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def numbers_in(text: str) -> list[float]:
    """Numbers stated in the text ("1,570.5", "-3", "2.1 million"), dates left out."""
    for pattern, _ in _DATE_PATTERNS:
        text = pattern.sub(" ", text)
    found = []
    for sign, whole, frac, exp, scale in _NUMBER.findall(text):
        value = float(whole.replace(",", "") + (frac or "") + (f"e{exp}" if exp else ""))
        value *= _SCALE.get(scale.lower(), 1.0) if scale else 1.0
        found.append(-value if sign in "-−" and sign else value)
    return found


def dates_in(text: str) -> set[str]:
    """Every date written in the text, as ISO strings."""
    found = set()
    for pattern, order in _DATE_PATTERNS:
        for groups in pattern.findall(text):
            parts = dict(zip(order, groups, strict=True))
            month = parts["m"]
            month_num = int(month) if month.isdigit() else _MONTHS.get(month.lower().rstrip("."))
            try:
                found.add(date(int(parts["y"]), month_num or 0, int(parts["d"])).isoformat())
            except ValueError:
                continue
    return found


_TIME = re.compile(r"\b(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])\.?m\.?(?![a-z])|\b(\d{1,2}):(\d{2})\b", re.I)


def times_in(text: str) -> set[str]:
    """Every clock time written in the text, as 24-hour HH:MM ("9:30 pm" → "21:30")."""
    found = set()
    for hour, minute, half, hour24, minute24 in _TIME.findall(text):
        if hour24:
            h, m = int(hour24), int(minute24)
        else:
            h, m = int(hour) % 12 + (12 if half.lower() == "p" else 0), int(minute or 0)
        if h < 24 and m < 60:
            found.add(f"{h:02d}:{m:02d}")
    return found


def structured_values(text: str) -> list[Any]:
    """The JSON value the answer states last, as a list (empty without one)."""
    values = json_values(text)
    return values[-1:]


def _leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


@dataclass
class Reply:
    """A final reply, with what can be read from it computed once."""

    text: str
    ordered: bool = False
    rel_tol: float = REL_TOL

    @cached_property
    def words(self) -> str:
        return f" {normalise(self.text)} "

    @cached_property
    def numbers(self) -> list[float]:
        return numbers_in(self.text)

    @cached_property
    def dates(self) -> set[str]:
        return dates_in(self.text)

    @cached_property
    def times(self) -> set[str]:
        return times_in(self.text)

    @cached_property
    def structured(self) -> list[Any]:
        return structured_values(self.text)

    @cached_property
    def lists(self) -> list[list[Any]]:
        found = []
        stack = list(self.structured)
        while stack:
            value = stack.pop()
            if isinstance(value, list):
                found.append(value)
                stack.extend(value)
            elif isinstance(value, dict):
                stack.extend(value.values())
        return found

    def position(self, value: Any) -> int:
        """Where a scalar's first mention starts in the normalised reply (-1: absent)."""
        needle = normalise(str(value))
        return self.words.find(f" {needle} ") if needle else -1


def number_close(gold: float, got: float, rel_tol: float = REL_TOL) -> bool:
    if gold == 0:
        return abs(got) <= 1e-9
    return math.isclose(got, gold, rel_tol=rel_tol)


def scalar_equal(gold: Any, got: Any, rel_tol: float = REL_TOL) -> bool:
    """One gold scalar against one stated scalar (from parsed JSON)."""
    if isinstance(gold, bool) or isinstance(got, bool):
        return gold is got or (isinstance(got, str) and normalise(got) == str(gold).lower())
    if isinstance(gold, (int, float)):
        got_num = got if isinstance(got, (int, float)) else (numbers_in(got) or [None])[0]
        return got_num is not None and number_close(float(gold), float(got_num), rel_tol)
    if gold is None:
        return got is None
    if isinstance(got, (int, float)):
        stated = numbers_in(str(gold))
        return len(stated) == 1 and number_close(stated[0], float(got), 0.0)
    return normalise(str(gold)) == normalise(str(got))


def _bool_found(gold: bool, reply: Reply) -> bool:
    stated = [v for v in _leaves(reply.structured) if isinstance(v, bool)]
    if stated:
        return gold in stated
    return stated_boolean(reply.text) is gold


def scalar_found(gold: Any, reply: Reply) -> bool:
    if isinstance(gold, bool):
        return _bool_found(gold, reply)
    if isinstance(gold, (int, float)):
        return any(number_close(float(gold), n, reply.rel_tol) for n in reply.numbers)
    if gold is None:
        return re.search(r" (none|null) ", reply.words) is not None
    text = str(gold)
    if not text.strip():
        return True  # an empty value: nothing to state
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) and text in reply.dates:
        return True
    moment = re.fullmatch(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:00)?", text)
    if moment and moment.group(1) in reply.dates and moment.group(2) in reply.times:
        return True
    if re.fullmatch(r"[-+]?\d[\d,]*(\.\d+)?", text.strip()):
        return any(number_close(float(text.replace(",", "")), n, 0.0) for n in reply.numbers)
    return reply.position(text) >= 0


def list_found(gold: list[Any], reply: Reply) -> bool:
    """A stated JSON list must hold exactly the gold items (as a set, or in order); without
    one, every item must be mentioned (in order when the query asks for it)."""
    related = [s for s in reply.lists if _overlaps(gold, s, reply)]
    if related:
        return any(_list_equal(gold, stated, reply) for stated in related)
    if not gold:
        return re.search(r" (none|no|empty|nothing|zero) ", reply.words) is not None
    if not all(value_found(item, reply) for item in gold):
        return False
    if reply.ordered and all(not isinstance(i, (dict, list)) for i in gold):
        where = [reply.position(item) for item in gold]
        return all(p >= 0 for p in where) and where == sorted(where)
    return True


def _overlaps(gold: list[Any], stated: list[Any], reply: Reply) -> bool:
    """Whether a stated list is an answer to this gold list (shares an item, or both empty)."""
    if not gold or not stated:
        return not gold and not stated
    return any(_deep_equal(g, s, reply.rel_tol) for g in gold for s in stated)


def _list_equal(gold: list[Any], stated: list[Any], reply: Reply) -> bool:
    if len(gold) != len(stated):
        return False
    flat = all(not isinstance(v, (dict, list)) for v in gold + stated)
    if reply.ordered or not flat:
        return all(_deep_equal(g, s, reply.rel_tol) for g, s in zip(gold, stated, strict=True))
    remaining = list(stated)
    for g in gold:
        hit = next((k for k, s in enumerate(remaining) if scalar_equal(g, s, reply.rel_tol)), None)
        if hit is None:
            return False
        remaining.pop(hit)
    return True


def _deep_equal(gold: Any, got: Any, rel_tol: float) -> bool:
    if isinstance(gold, dict):
        return isinstance(got, dict) and all(
            any(_deep_equal(v, w, rel_tol) for w in got.values()) for v in gold.values()
        )
    if isinstance(gold, list):
        return isinstance(got, list) and len(gold) == len(got) and all(
            _deep_equal(g, s, rel_tol) for g, s in zip(gold, got, strict=True)
        )
    return scalar_equal(gold, got, rel_tol)


def value_found(gold: Any, reply: Reply) -> bool:
    if isinstance(gold, list):
        return list_found(gold, reply)
    if isinstance(gold, dict):
        return all(value_found(v, reply) for v in gold.values())
    return scalar_found(gold, reply)


def says_impossible(text: str) -> bool:
    return bool(REFUSAL.search(text or ""))


def answer_similarity(
    gold: dict[str, Any], text: str | None, *, query: str = "", refusal: bool = False, rel_tol: float = REL_TOL
) -> float:
    """Share of gold answer values the reply states. A `refusal` task (part of it cannot be
    done) also needs the reply to say so, which counts as one more value; with no gold values
    that is all it needs. Otherwise an empty gold answer takes any reply. No reply scores 0."""
    if text is None or not text.strip():
        return 0.0
    if not gold:
        return float(says_impossible(text)) if refusal else 1.0
    reply = Reply(answer_part(text), ordered=asks_for_order(query), rel_tol=rel_tol)
    found = sum(value_found(v, reply) for v in gold.values())
    if refusal:
        return (found + says_impossible(text)) / (len(gold) + 1)
    return found / len(gold)


def answer_match(
    gold: dict[str, Any], text: str | None, *, query: str = "", refusal: bool = False, rel_tol: float = REL_TOL
) -> bool:
    """ToolComp's exact match: every gold value is stated in the reply."""
    return answer_similarity(gold, text, query=query, refusal=refusal, rel_tol=rel_tol) == 1.0
