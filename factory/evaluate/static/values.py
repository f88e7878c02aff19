"""How NesTools scores one predicted argument value against the gold value.

Equal values score 1. Two strings score their ROUGE-L F-measure (computed as the `rouge`
1.0.1 package does, which NesTools' scorer calls: sentences split on ".", words on single
spaces, LCS word sets united across sentences, distinct words counted), lower-cased, and
again after rewriting dates like "October 8th, 2023" as "2023-10-08"; the higher counts.
Numbers score 1 only when equal; lists of the same length score the mean of their items;
dicts with the same number of keys score the items whose keys match (ignoring case, "_"
and " ") divided by the key count; anything else 0. A comparison that cannot be made (an
empty string has no sentence) scores 0.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from typing import Any

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
WRITTEN_DATE = re.compile(r"\b[A-Za-z]+ \d+(st|nd|rd|th)?, \d{4}\b")
DAY = re.compile(r"\b(\d+)(st|nd|rd|th)?\b")
ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)")
SUFFIX_DAYS = {"st": {1, 21, 31}, "nd": {2, 22}, "rd": {3, 23}, "th": set(range(4, 21)) | set(range(24, 31))}


class NotComparable(ValueError):
    """ROUGE is undefined for a text without sentences."""


def _sentences(text: str) -> list[str]:
    return [" ".join(part.split()) for part in text.split(".") if part]


def _words(sentences: list[str]) -> list[str]:
    return [w for s in sentences for w in s.split(" ")]


def _lcs_words(ref: list[str], hyp: list[str]) -> set[str]:
    """The words of one longest common subsequence, traced back from the end (ties move along `hyp`)."""
    table = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            table[i][j] = table[i - 1][j - 1] + 1 if ref[i - 1] == hyp[j - 1] else max(table[i - 1][j], table[i][j - 1])
    words, i, j = set(), len(ref), len(hyp)
    while i and j:
        if ref[i - 1] == hyp[j - 1]:
            words.add(ref[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return words


def rouge_l(hypothesis: str, reference: str) -> float:
    """Summary-level ROUGE-L F-measure over distinct words."""
    hyp, ref = _sentences(hypothesis), _sentences(reference)
    if not hyp or not ref:
        raise NotComparable("a text without sentences")
    union: set[str] = set()
    for ref_sentence in ref:
        for hyp_sentence in hyp:
            union |= _lcs_words(ref_sentence.split(" "), hyp_sentence.split(" "))
    recall = len(union) / len(set(_words(ref)))
    precision = len(union) / len(set(_words(hyp)))
    return 2.0 * ((precision * recall) / (precision + recall + 1e-8))


def normalize_date(text: str) -> str:
    """ISO form of a date written "Month D[st|nd|rd|th], YYYY"; other text unchanged
    (ordinal suffixes are dropped even when the rest does not parse, as NesTools does)."""
    try:
        if ISO_DATE.match(text):
            return datetime.strptime(text, "%Y-%m-%d").strftime("%Y-%m-%d")
        if not WRITTEN_DATE.search(text):
            return text
        day = DAY.search(text)
        if day is None:
            return text
        if day.group(2) and int(day.group(1)) not in SUFFIX_DAYS[day.group(2)]:
            return text
        text = ORDINAL.sub(r"\1", text)
        return datetime.strptime(text, "%B %d, %Y").strftime("%Y-%m-%d")
    except ValueError:
        return text


@functools.lru_cache(maxsize=1 << 16)  # the taxonomy asks again for the pairs the matching scored
def _text_score(gold: str, predicted: str) -> float:
    plain = rouge_l(predicted.lower(), gold.lower())
    dated = rouge_l(normalize_date(predicted).lower(), normalize_date(gold).lower())
    return max(plain, dated)


def _key(name: Any) -> list[str]:
    return [c for c in name.lower() if c not in ("_", " ")]  # a key that is not text cannot be compared: raises


def value_score(gold: Any, predicted: Any) -> float:
    """Credit in [0, 1] for one argument value; raises NotComparable where NesTools' scorer errs."""
    if gold == predicted:
        return 1.0
    if isinstance(gold, str) and isinstance(predicted, str):
        return _text_score(gold, predicted)
    if isinstance(gold, (int, float)) and isinstance(predicted, (int, float)):
        return 0.0  # numbers (and booleans) are right only when equal, handled above
    if isinstance(gold, list) and isinstance(predicted, list):
        if len(gold) != len(predicted):
            return 0.0
        return sum(value_score(g, p) for g, p in zip(gold, predicted)) / len(gold)
    if isinstance(gold, dict) and isinstance(predicted, dict):
        if len(gold) != len(predicted):
            return 0.0
        pairs = zip(gold.items(), predicted.items())
        return sum(value_score(gv, pv) for (gk, gv), (pk, pv) in pairs if _key(gk) == _key(pk)) / len(gold)
    return 0.0


def safe_value_score(gold: Any, predicted: Any) -> float:
    try:
        return value_score(gold, predicted)
    except (NotComparable, RecursionError, AttributeError, TypeError, ValueError):
        return 0.0
