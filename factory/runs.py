"""A run directory: per-stage JSONL streamed as attempts finish, the manifest, and resume.

An attempt is committed when its line lands in instances.jsonl or rejects.jsonl (written
after its stage lines). On resume, lines of uncommitted attempts and a torn last line are
dropped, so a killed run continues without losing or duplicating instances.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import IO, Any

from factory.errors import RunError
from factory.pipeline import Outcome
from factory.records import GenerateConfig, Instance, Manifest, Reject

STAGES = ("chains", "traces", "queries")
RESULTS = ("instances", "rejects")


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """Parsed JSONL lines; a torn final line (killed mid-write) is ignored."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def _line(row: dict[str, Any]) -> str:
    # Key order is kept (not sorted): argument order must survive a resume byte for byte.
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


class RunDir:
    def __init__(self, path: Path):
        self.path = path
        self.handles: dict[str, IO[str]] = {}

    def file(self, name: str) -> Path:
        return self.path / f"{name}.jsonl"

    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def read_manifest(self) -> Manifest | None:
        if not self.manifest_path.exists():
            return None
        try:
            return Manifest.model_validate_json(self.manifest_path.read_text())
        except ValueError as exc:
            raise RunError(f"{self.manifest_path} is not a run manifest: {exc}") from exc

    def write_manifest(self, manifest: Manifest) -> None:
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(manifest.model_dump_json(indent=2) + "\n")
        os.replace(tmp, self.manifest_path)

    def open(self, config: GenerateConfig, fresh: bool) -> tuple[list[Instance], list[Reject]]:
        """Create the run directory, or reopen it for resuming: (kept instances, rejects)."""
        if fresh and self.path.exists():
            shutil.rmtree(self.path)
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise RunError(f"cannot write to output directory {self.path}: {exc.strerror or exc}") from exc
        previous = self.read_manifest()
        if previous is None and any(self.path.iterdir()):
            raise RunError(f"{self.path} is not empty and holds no run; choose another --out")
        if previous is not None and previous.config != config:
            diff = {k: (v, getattr(config, k)) for k, v in previous.config if getattr(config, k) != v}
            changes = ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in diff.items())
            raise RunError(f"{self.path} holds a run with other settings ({changes}); use another --out or --fresh")
        return self._recover()

    def _recover(self) -> tuple[list[Instance], list[Reject]]:
        committed = {name: _read_lines(self.file(name)) for name in RESULTS}
        attempts = sorted({row["attempt"] for rows in committed.values() for row in rows})
        done = next((i for i, a in enumerate(attempts) if a != i), len(attempts))  # first gap
        for name in (*STAGES, *RESULTS):
            rows = [r for r in _read_lines(self.file(name)) if r.get("attempt", -1) < done]
            self.file(name).write_text("".join(_line(r) for r in rows))
        instances = [Instance.model_validate(r["instance"]) for r in committed["instances"] if r["attempt"] < done]
        rejects = [Reject.model_validate(r) for r in committed["rejects"] if r["attempt"] < done]
        return instances, rejects

    def append(self, outcome: Outcome) -> None:
        """Write an attempt's stage records, then the committing instance or reject line."""
        for name, record in outcome.stages.items():
            self._write(name, {"attempt": outcome.attempt, **record})
        if outcome.instance is not None:
            self._write("instances", {"attempt": outcome.attempt, "instance": outcome.instance.model_dump(mode="json")})
        elif outcome.reject is not None:
            self._write("rejects", outcome.reject.model_dump(mode="json"))

    def _write(self, name: str, row: dict[str, Any]) -> None:
        handle = self.handles.get(name)
        if handle is None:
            handle = self.handles[name] = self.file(name).open("a", encoding="utf-8")
        handle.write(_line(row))
        handle.flush()

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()
        self.handles.clear()
