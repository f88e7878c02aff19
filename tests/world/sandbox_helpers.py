"""Helpers of the sandbox tests: skip loudly where no sandbox can be had, write code files,
and look for processes a sandbox left on the host."""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest

from factory.world.bubblewrap import unavailable_reason

MISSING = unavailable_reason()
needs_sandbox = pytest.mark.skipif(
    MISSING is not None,
    reason=f"no sandbox here: {MISSING} (install the Debian package bubblewrap; .ci/run does)",
)


def write_code(folder: Path, name: str, code: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(code))
    return path


def _processes() -> dict[int, tuple[int, bytes]]:
    """Every host process: pid → (parent pid, command line)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        found[int(entry)] = (parent, cmdline)
    return found


def leftovers(marker: str, live_root: int | None = None, wait: float = 5.0) -> list[int]:
    """Host processes whose command line holds `marker`, other than the live sandbox under
    `live_root` (its bubblewrap pid); waits up to `wait` seconds for killed ones to vanish."""
    deadline = time.monotonic() + wait
    while True:
        table = _processes()
        live = set()
        if live_root is not None:
            live.add(live_root)
            grew = True
            while grew:
                children = {pid for pid, (parent, _) in table.items() if parent in live} - live
                live |= children
                grew = bool(children)
        left = [pid for pid, (_, cmdline) in table.items() if marker.encode() in cmdline and pid not in live]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)
