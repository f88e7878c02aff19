"""Secrets stay out of every artifact: one redaction function for everything written.

The secrets are read from the environment when a redaction runs: the API key variables
(FACTORY_API_KEY and any *_API_KEY), Hugging Face tokens, and every FACTORY_* variable whose
name says KEY, TOKEN or SECRET, plus keys registered by code that holds one. Whatever path a
secret takes (a server echoing the key in its answer, an error message quoting a header), it
is replaced by REDACTED before a cache row, a sample, a result or a manifest is written.
Values shorter than MIN_LENGTH are not treated as secrets: redacting "x" or "EMPTY" would
mangle ordinary text, and no real key is that short.
"""

from __future__ import annotations

import os
import re
import threading
from typing import Any

REDACTED = "[REDACTED]"
MIN_LENGTH = 8
_SECRET_NAME = re.compile(r"(^FACTORY_.*(KEY|TOKEN|SECRET))|(_API_KEY$)|(^HF_TOKEN$)|(^HUGGING_FACE_HUB_TOKEN$)"
                          r"|(^HUGGINGFACE_HUB_TOKEN$)|(_(ACCESS|AUTH|API)_TOKEN$)")
_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """A secret that did not come from a recognised variable (a key passed in code)."""
    if value and len(value) >= MIN_LENGTH:
        with _lock:
            _registered.add(value)


def configured_secrets() -> list[str]:
    """Every secret to redact, longest first (so a key containing another is removed whole)."""
    found = {v for name, v in os.environ.items() if _SECRET_NAME.search(name.upper()) and len(v) >= MIN_LENGTH}
    with _lock:
        found |= _registered
    return sorted(found, key=len, reverse=True)


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """The value with every secret replaced: strings, and strings inside lists and dicts
    (keys included); other values unchanged."""
    secrets = configured_secrets() if secrets is None else secrets
    if not secrets:
        return value
    return _redact(value, secrets)


def _redact(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value
    if isinstance(value, dict):
        return {_redact(k, secrets): _redact(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_redact(v, secrets) for v in value)
    return value
