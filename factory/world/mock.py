"""A deterministic typed mock for tools without an implementation (e.g. imported NesTools tools).

Each declared return value gets a value of its declared type that looks plausible for its
name (ids, names, dates, urls, counts, prices, flags, lists), drawn from a generator seeded
by the tool, the arguments and the mock seed: the same call always gets the same answer.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

from factory.records import Output, ToolSpec, content_hash
from factory.toolbox.gazetteer import CITIES, COUNTRIES, CURRENCIES, FIRST_NAMES, LAST_NAMES, NOW

PERSON_WORDS = {"customer", "user", "author", "person", "contact", "employee", "volunteer", "guest", "owner",
                "patient", "student", "member", "manager", "artist", "player", "driver", "doctor", "speaker"}
TEXT_WORDS = {"description", "summary", "details", "detail", "message", "report", "text", "plan", "analysis",
              "recommendation", "feedback", "review", "notes", "content", "info", "information", "result",
              "prediction", "suggestion", "strategy", "explanation", "insights", "insight", "advice", "overview"}
STATUSES = ("active", "pending", "completed", "approved", "scheduled", "confirmed")
ADJECTIVES = ("Golden", "Silver", "Northern", "Classic", "Premier", "Blue", "Royal", "Green", "Grand", "Bright")
EXTENSIONS = {"image": "jpg", "photo": "jpg", "picture": "jpg", "video": "mp4", "audio": "mp3", "document": "pdf",
              "report": "pdf", "file": "txt", "model": "bin", "data": "csv"}


def words_of(name: str) -> list[str]:
    """`orderID` / `order_id` / `Order Id` → ["order", "id"]."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _has(words: list[str], *keys: str) -> bool:
    return any(w in keys or singular(w) in keys for w in words)


def _subject(words: list[str]) -> str:
    """The noun an output is about: "wine_name" → "wine", "book_details" → "book"."""
    rest = [w for w in words if w not in {"name", "id", "title", "list", "url", "link", "new", "the"}]
    return " ".join(rest[:2]) or "item"


def _mock_int(words: list[str], rng: random.Random) -> int:
    if _has(words, "id", "identifier", "number", "code") and not _has(words, "count", "total"):
        return rng.randint(1000, 99999)
    if _has(words, "year"):
        return rng.randint(2015, 2025)
    if _has(words, "age"):
        return rng.randint(18, 80)
    if _has(words, "rating", "stars", "level", "rank", "priority"):
        return rng.randint(1, 5)
    if _has(words, "percent", "percentage", "score", "rate"):
        return rng.randint(0, 100)
    if _has(words, "duration", "minute", "time", "hour", "day", "delay", "wait"):
        return rng.randint(5, 180)
    return rng.randint(1, 500)


def _mock_float(words: list[str], rng: random.Random) -> float:
    if _has(words, "price", "cost", "amount", "fee", "revenue", "sales", "salary", "value", "budget", "total", "balance"):
        return round(rng.uniform(5, 5000), 2)
    if _has(words, "rate", "ratio", "probability", "efficiency", "confidence", "accuracy", "share", "index"):
        return round(rng.uniform(0, 1), 3)
    if _has(words, "percent", "percentage", "score"):
        return round(rng.uniform(0, 100), 1)
    if _has(words, "rating"):
        return round(rng.uniform(1, 5), 1)
    if _has(words, "temperature"):
        return round(rng.uniform(-10, 40), 1)
    if _has(words, "latitude", "lat"):
        return round(rng.uniform(-60, 70), 4)
    if _has(words, "longitude", "lon", "lng"):
        return round(rng.uniform(-180, 180), 4)
    return round(rng.uniform(1, 1000), 2)


def _mock_named(words: list[str], rng: random.Random) -> str | None:
    """Strings with a recognisable format, or None."""
    subject = _subject(words)
    slug = subject.replace(" ", "-")
    if _has(words, "url", "link", "website", "webpage", "href"):
        return f"https://example.com/{slug}/{rng.randint(1000, 99999)}"
    if _has(words, "email", "mail"):
        return f"{rng.choice(FIRST_NAMES).lower()}.{rng.choice(LAST_NAMES).lower()}@example.com"
    if _has(words, "phone", "telephone", "mobile"):
        return f"+1-555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"
    if _has(words, "datetime", "timestamp"):
        return (NOW + timedelta(days=rng.randint(-30, 30), minutes=15 * rng.randint(0, 60))).isoformat(timespec="minutes")
    if _has(words, "date", "day", "deadline", "birthday"):
        return (NOW.date() + timedelta(days=rng.randint(-60, 60))).isoformat()
    if _has(words, "time"):
        return f"{rng.randint(7, 21):02d}:{rng.choice((0, 15, 30, 45)):02d}"
    if _has(words, "id", "identifier", "code", "number", "reference", "token", "key", "sku", "isbn"):
        prefix = (words[0] if words[0] not in {"id", "code"} else "ref")[:3].upper()
        return f"{prefix}-{rng.randint(10000, 99999)}"
    if _has(words, "path", "file", "filename"):
        ext = next((e for w in words for k, e in EXTENSIONS.items() if singular(w) == k), "dat")
        return f"/data/{slug.replace('-', '_')}_{rng.randint(1, 999):03d}.{ext}"
    if _has(words, "status", "state"):
        return rng.choice(STATUSES)
    if _has(words, "currency"):
        return rng.choice(CURRENCIES).code
    if _has(words, "country", "nationality"):
        return rng.choice(COUNTRIES).name
    if _has(words, "city", "location", "destination", "origin", "place", "region", "venue"):
        return rng.choice(CITIES).name
    if _has(words, "address"):
        return f"{rng.randint(1, 999)} {rng.choice(LAST_NAMES)} Street, {rng.choice(CITIES).name}"
    if _has(words, *PERSON_WORDS) or words == ["name"]:
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
    return None


def _mock_str(words: list[str], arguments: dict[str, Any], rng: random.Random) -> str:
    named = _mock_named(words, rng)
    if named is not None:
        return named
    subject = _subject(words)
    if _has(words, *TEXT_WORDS):
        about = next((v for v in arguments.values() if isinstance(v, str) and 0 < len(v) <= 60), None)
        kind = " ".join(words).capitalize()
        return f"{kind} for {about}" if about else f"{kind}: {rng.choice(STATUSES)}, ref {rng.randint(100, 999)}"
    return f"{rng.choice(ADJECTIVES)} {subject.title()}"


def mock_value(name: str, type_: str, rng: random.Random, arguments: dict[str, Any] | None = None) -> Any:
    """A value of `type_` that looks plausible for a value called `name`."""
    words = words_of(name) or ["value"]
    arguments = arguments or {}
    if type_ == "bool":
        return rng.random() < 0.7
    if type_ == "int":
        return _mock_int(words, rng)
    if type_ == "float":
        return _mock_float(words, rng)
    if type_ == "str":
        return _mock_str(words, arguments, rng)
    if type_ == "dict":
        subject = _subject(words).replace(" ", "_")
        return {"name": mock_value(f"{subject}_name", "str", rng), "value": mock_value(f"{subject}_value", "float", rng)}
    if type_.startswith("list"):
        item = type_[5:-1] if type_ != "list" else "str"
        item_name = "_".join(singular(w) for w in words)
        items = [mock_value(item_name, item, rng, arguments) for _ in range(rng.randint(1, 3))]
        return [f"{v} #{i + 1}" if isinstance(v, str) and v in items[:i] else v for i, v in enumerate(items)]
    return None


def _output_rng(spec: ToolSpec, out: Output, arguments: dict[str, Any], seed: int) -> random.Random:
    return random.Random(content_hash([spec.name, out.name, arguments, seed], length=32))


def mock_outputs(spec: ToolSpec, arguments: dict[str, Any], seed: int) -> list[Any]:
    """One value per declared return value, in order; the same call and seed give the same values."""
    return [mock_value(out.name, out.type, _output_rng(spec, out, arguments, seed), arguments) for out in spec.returns]
