"""The final answer inside a reply, read deliberately rather than from the first value found.

Models reason before they answer, restate the question's values, draft and then correct:
"the price was 120 last week; after the discount it is 90. Final answer: 90". The answer is
the part of the reply after its last answer marker ("Final answer:", "**Answer:**", "So the
answer is", "In summary,", opening a line or a sentence), or the whole reply without one.
Within it, the JSON value stated last (a fenced block or an inline object or list) is the
structured answer; when the reply ends with that value (a short sign-off aside), the value is
the whole answer and the reasoning before it does not count. A boolean is the last one
stated: an explicit true/false, else a yes/no that opens a sentence ("Yes, it is open; no
booking needed" says yes).
"""

from __future__ import annotations

import json
import re
from typing import Any

# A marker opens a line or a sentence ("... Final answer: 90", "So the answer is 90"), so a
# value that merely contains the word ("Takeoff result: active") is not one.
_MARKER = re.compile(
    r"(?:^|[.!?]\s+)[\s#>*_-]*(?:(?:so|therefore|thus|hence),?\s+)?(?:the\s+)?"
    r"(?:final\s+answer|answer|in\s+summary|to\s+summari[sz]e)(?:\*\*|__)?\s*(?:is\b|[:：,])(?:\*\*|__)?",
    re.I | re.M,
)
_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.S)
_OPENER = re.compile(r"[\[{]")
SIGN_OFF = 80  # characters a reply may add after its closing JSON ("Anything else?")
_EXPLICIT = re.compile(r"\b(true|false)\b", re.I)
_OPENING = re.compile(r"(?:^|[.!?:]\s+|\n\s*|[-*]\s+)(yes|no)\b", re.I)


def answer_part(text: str) -> str:
    """The text after the last answer marker (the whole reply without one, or when nothing
    follows it); from there, a reply that ends with a JSON value answers with that value."""
    last = None
    for last in _MARKER.finditer(text):
        pass
    part = text
    if last is not None:
        rest = text[last.end():].strip()
        part = rest if rest.strip("*_ \n") else text
    spans = json_spans(part)
    if spans and len(part[spans[-1][1]:].strip()) <= SIGN_OFF:
        return part[spans[-1][0]:]
    return part


def json_spans(text: str) -> list[tuple[int, int, Any]]:
    """Top-level JSON values stated in the text, in order, as (start, end, value): fenced
    blocks, and inline objects or lists (a value inside another is not listed again)."""
    found: list[tuple[int, int, Any]] = []
    for block in _FENCE.finditer(text):
        try:
            found.append((block.start(), block.end(), json.loads(block.group(1))))
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    position = 0
    while (match := _OPENER.search(text, position)) is not None:
        if any(start <= match.start() < end for start, end, _ in found):
            position = match.start() + 1
            continue
        try:
            value, end = decoder.raw_decode(text, match.start())
        except ValueError:
            position = match.start() + 1
            continue
        found.append((match.start(), end, value))
        position = end
    return sorted(found, key=lambda item: item[0])


def json_values(text: str) -> list[Any]:
    return [value for _, _, value in json_spans(text)]


def stated_json(text: str) -> Any | None:
    """The JSON value the answer states last (None without one)."""
    values = json_values(text)
    return values[-1] if values else None


def stated_boolean(text: str) -> bool | None:
    """The last boolean the answer states, or None."""
    explicit = _EXPLICIT.findall(text)
    if explicit:
        return explicit[-1].lower() == "true"
    opening = _OPENING.findall(text)
    return opening[-1].lower() == "yes" if opening else None
