"""Whether a request states a literal value the way a person writes it, where the exact forms of
`factory.checks.faithfulness.value_groups` do not find it: numbers with separators and currency
signs ("$5,000.00" for 5000.0), percentages ("85%" for 0.85), scale words ("15 million",
"2.5k"), number words up to twenty, dates in any common order with or without ordinals and
"of", text in another case, with other separators, accents or number ("humans" for "human").

A reader's test, not a fuzzy one: a number must be the same number (no rounding), a date the
same day, text the same words; a value not in the request stays unstated. The forms recognised
are listed in tests/checks/test_written_forms.py.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from typing import Any

_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "mio": 1e6, "million": 1e6, "millions": 1e6,
           "b": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "trillion": 1e12, "tn": 1e12}
_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "dozen": 12}
# a number: sign, currency, digits with thousands separators, decimals; then a percent sign or
# word, or a scale (a scale letter only when attached: "5 m" is five metres, "5m" five million)
_NUMBER = re.compile(
    r"(?<![\w.])(?<![0-9][-−/:])(?P<sign>[-−])?\s?(?:[$€£¥₹]|usd|eur|gbp)?\s?(?P<sign2>[-−])?"
    r"(?P<digits>\d{1,3}(?:[,\u00a0\u202f]\d{3})+|\d+)(?P<frac>\.\d+)?"
    r"(?:(?P<pct>\s?%|\s(?:percent|per cent)\b)|(?P<attached>k|m|mn|bn|b|tn)\b|\s(?P<word>thousand|millions?|"
    r"billions?|trillion|mio)\b)?(?![\w])(?![-−/:.]\d)", re.IGNORECASE)
_WORD_NUMBER = re.compile(r"\b(?:a\s)?(" + "|".join(_WORDS) + r")\b(?:\s(million|thousand|billion))?", re.IGNORECASE)
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?")


def fold(text: str) -> str:
    """Lower case, accents dropped, every run of non-alphanumerics one space."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z0-9]+", plain.lower()))


def numbers_in(text: str) -> list[float]:
    """Every number the text states, in each way a reader could take it ("85%" is 0.85 and 85)."""
    found: list[float] = []
    for m in _NUMBER.finditer(text):
        base = float(re.sub(r"[,\u00a0\u202f]", "", m.group("digits")) + (m.group("frac") or ""))
        if m.group("sign") or m.group("sign2"):
            base = -base
        scale = (m.group("attached") or m.group("word") or "").lower()
        if m.group("pct"):
            found += [base / 100, base]
        elif scale:
            found.append(base * _SCALES[scale])
        else:
            found.append(base)
    for m in _WORD_NUMBER.finditer(text):
        base = float(_WORDS[m.group(1).lower()])
        found.append(base * _SCALES[m.group(2).lower()] if m.group(2) else base)
    return found


def _same_number(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _ordinal(day: int) -> str:
    return f"{day}{'th' if 11 <= day <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"


def _day_forms(d: date) -> list[str]:
    """A day in the folded forms people write: month named (in full or short, "sept"), with or
    without an ordinal and "of", or in digits in either order (day first or month first)."""
    month = _MONTHS[d.month - 1]
    names = {month, month[:3], *(["sept"] if d.month == 9 else [])}
    days = {str(d.day), _ordinal(d.day), f"{d.day:02d}"}
    forms = set()
    for m in names:
        for day in days:
            forms |= {f"{m} {day} {d.year}", f"{day} {m} {d.year}", f"{day} of {m} {d.year}",
                      f"{m} the {day} {d.year}", f"{d.year} {m} {day}"}
    for day in {str(d.day), f"{d.day:02d}"}:
        for mon in {str(d.month), f"{d.month:02d}"}:
            forms |= {f"{d.year} {mon} {day}", f"{mon} {day} {d.year}", f"{day} {mon} {d.year}"}
    return sorted(forms)


def _clock_forms(t: datetime) -> list[str]:
    hour12 = t.hour % 12 or 12
    ampm = "am" if t.hour < 12 else "pm"
    forms = {f"{t.hour:02d} {t.minute:02d}", f"{t.hour} {t.minute:02d}", f"{hour12} {t.minute:02d} {ampm}",
             f"{hour12} {t.minute:02d}{ampm}", f"{hour12} {t.minute:02d} {ampm[0]} m"}
    if t.minute == 0:
        forms |= {f"{hour12} {ampm}", f"{hour12}{ampm}", f"{hour12} o clock", f"{hour12} {ampm[0]} m"}
    if (t.hour, t.minute) == (12, 0):
        forms.add("noon")
    if (t.hour, t.minute) == (0, 0):
        forms.add("midnight")
    return sorted(forms)


def _inflections(word: str) -> set[str]:
    """A word and its other number: human/humans, city/cities, box/boxes, leaf/leaves."""
    forms = {word}
    if not word.isalpha() or len(word) < 3:
        return forms
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    elif word.endswith("ves"):
        forms |= {word[:-3] + "f", word[:-3] + "fe"}
    elif word.endswith("es"):
        forms |= {word[:-2], word[:-1]}
    elif word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    if word.endswith("y") and word[-2] not in "aeiou":
        forms.add(word[:-1] + "ies")
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        forms.add(word + "es")
    else:
        forms.add(word + "s")
    if word.endswith("f"):
        forms.add(word[:-1] + "ves")
    elif word.endswith("fe"):
        forms.add(word[:-2] + "ves")
    return forms


def _words_found(words: list[str], text: str) -> bool:
    """The words in order in the folded text, each in either number."""
    if not words:
        return False
    pattern = r"\s".join("(?:" + "|".join(re.escape(f) for f in sorted(_inflections(w))) + ")" for w in words)
    return re.search(rf"(?<![0-9a-z]){pattern}(?![0-9a-z])", text) is not None


def _phrase_found(form: str, text: str) -> bool:
    return re.search(rf"(?<![0-9a-z]){re.escape(form)}(?![0-9a-z])", text) is not None


def written_groups(value: Any) -> list[Any]:
    """What must each be found, one entry per part of the value: a number, a date, a
    (date, time) pair's two parts, the words of a text."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, list):
        return [g for item in value for g in written_groups(item)]
    if isinstance(value, dict):
        return [g for item in value.values() for g in written_groups(item)]
    text = str(value).strip()
    if _DATE.fullmatch(text):
        return [("forms", _day_forms(date.fromisoformat(text)))]
    if _DATETIME.fullmatch(text):
        moment = datetime.fromisoformat(text.replace(" ", "T"))
        return [("forms", _day_forms(moment.date())), ("forms", _clock_forms(moment))]
    return [("words", fold(text).split())]


def stated_as_written(value: Any, query: str) -> bool:
    """Whether a reader of `query` would take it to state `value` (every part of it). Booleans
    are left to the exact forms."""
    groups = written_groups(value)
    if not groups:
        return False
    folded = fold(query)
    numbers: list[float] | None = None
    for group in groups:
        if isinstance(group, float):
            numbers = numbers_in(query) if numbers is None else numbers
            if not any(_same_number(group, n) for n in numbers):
                return False
        elif group[0] == "forms":
            if not any(_phrase_found(form, folded) for form in group[1]):
                return False
        elif not _words_found(group[1], folded):
            return False
    return True
