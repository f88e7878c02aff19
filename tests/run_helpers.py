"""Helpers of the tests that stop a run and resume it: a digest of a folder's bytes, and a run
interrupted at an attempt (as a kill would) then resumed."""

import hashlib
from pathlib import Path

import pytest

from factory.config import load_settings
from factory.generation.generate import RunResult, generate
from factory.records import GenerateConfig


class Interrupt(Exception):
    pass


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def resumed_after(config: GenerateConfig, out: Path, attempt: int) -> RunResult:
    """The run of `config` into `out`, stopped after `attempt` attempts, then resumed."""
    def stop(kept, tried, note=""):
        if tried == attempt:
            raise Interrupt

    with pytest.raises(Interrupt):
        generate(config, load_settings(), out, on_attempt=stop)
    return generate(config, load_settings(), out)
