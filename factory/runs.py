"""A run directory: per-stage JSONL streamed as attempts finish, the manifest, one writer at a
time, and resume.

An attempt is committed when its line lands in instances.jsonl or rejects.jsonl (written
after its stage lines), and vouched for when the manifest written after it records each
file's length and digest. On resume, a file that no longer starts with what the manifest
vouches for is named and refused; lines beyond it, lines of uncommitted attempts and a torn
last line are dropped, so a killed run continues without losing or duplicating instances.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from factory.errors import RunError
from factory.pipeline import Outcome
from factory.records import FileDigest, GenerateConfig, Instance, Manifest, Reject

STAGES = ("chains", "traces", "queries")
RESULTS = ("instances", "rejects")
JSONL = tuple(f"{name}.jsonl" for name in (*STAGES, *RESULTS))
MANIFEST = "manifest.json"
LOCK = "run.lock"
VALIDATION_FAILURES = "validation-failures.jsonl"  # written by `factory validate`
# Everything a run (or `factory validate` on it) writes: --fresh removes these and nothing else.
# A run with a model keeps its call caches beside the stage files (a rerun asks nothing twice).
CACHES = frozenset(f"{name}.sqlite{suffix}" for name in ("calls", "simulated") for suffix in ("", "-journal", "-wal", "-shm"))
NESTOOLS_FILES = ("nestools.jsonl", "nestools_excluded.jsonl")  # factory.export.NESTOOLS, NESTOOLS_EXCLUDED
CONTAMINATION_FILES = ("contamination.json", "contamination.md")  # factory.contamination.REPORT, TABLE
RUN_FILES = frozenset({*JSONL, MANIFEST, f"{MANIFEST}.tmp", LOCK, "dataset", "dataset.tmp", *NESTOOLS_FILES,
                       VALIDATION_FAILURES, *CONTAMINATION_FILES, *CACHES})
# What a run may hold before its manifest exists (older versions wrote it at candidate 25).
EARLY_FILES = frozenset({*JSONL, f"{MANIFEST}.tmp", *CACHES})


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """Parsed JSONL lines; a torn final line (killed mid-write) is ignored."""
    if not path.exists():
        return []
    rows = []
    # Split on "\n" only: a value may hold U+2028 or U+0085, which str.splitlines also cuts at.
    for line in path.read_text(encoding="utf-8").split("\n"):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows


def _line(row: dict[str, Any]) -> str:
    # Key order is kept (not sorted): argument order must survive a resume byte for byte.
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _starts_with(path: Path, recorded: FileDigest, exact: bool) -> bool:
    """Whether a file still begins with (or, exact, still is) what the manifest recorded."""
    if not path.is_file():
        return False
    data = path.read_bytes()
    if len(data) < recorded.bytes or (exact and len(data) != recorded.bytes):
        return False
    return _sha256(data[: recorded.bytes]) == recorded.sha256


def outcome_rows(outcome: Outcome) -> dict[str, dict[str, Any]]:
    """The lines an attempt writes, by file stem: its stage records, then the committing line."""
    rows = {name: {"attempt": outcome.attempt, **record} for name, record in outcome.stages.rows().items()}
    if outcome.instance is not None:
        rows["instances"] = {"attempt": outcome.attempt, "instance": outcome.instance.model_dump(mode="json")}
    elif outcome.reject is not None:
        rows["rejects"] = outcome.reject.model_dump(mode="json")
    return rows


class RunLock:
    """One writer per run directory: an exclusive flock on run.lock. The kernel drops it when
    its process ends, however it ends, so a crash leaves no stale lock behind. The file holds
    the writer's pid, for the message a second process gets."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK
        self.fd: int | None = None

    def acquire(self) -> None:
        while self.fd is None:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
                os.close(fd)
                raise RunError(f"another process (pid {holder}) is writing to {self.path.parent}; wait for it "
                               "to finish, or choose another --out") from None
            if self.path.exists() and os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
                self.fd = fd
            else:  # the holder released it (and removed the file) between our open and flock
                os.close(fd)

    def release(self) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)  # while still holding it, so no one locks a removed file
            os.close(self.fd)
            self.fd = None


class RunDir:
    def __init__(self, path: Path):
        self.path = path
        self.handles: dict[str, IO[bytes]] = {}
        self.lock = RunLock(path)
        self._hashes: dict[str, Any] = {}  # file name → running sha256 of what this run wrote
        self._sizes: dict[str, int] = {}

    def file(self, name: str) -> Path:
        return self.path / f"{name}.jsonl"

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def read_manifest(self) -> Manifest | None:
        if not self.manifest_path.exists():
            return None
        try:
            return Manifest.model_validate_json(self.manifest_path.read_text())
        except ValueError as exc:
            raise RunError(f"{self.manifest_path} is not a run manifest: {exc}") from exc

    def write_manifest(self, manifest: Manifest) -> Manifest:
        """Write the manifest with the digests of what the run has written so far (and of the
        exported files once the run is complete); returns it as written."""
        files = {name: FileDigest(bytes=self._sizes[name], sha256=h.hexdigest()) for name, h in self._hashes.items()}
        if manifest.status == "complete":
            files.update(self._export_digests())
        manifest = manifest.model_copy(update={"files": files})
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(manifest.model_dump_json(indent=2) + "\n")
        os.replace(tmp, self.manifest_path)
        return manifest

    def _export_digests(self) -> dict[str, FileDigest]:
        exported = [*(self.path / name for name in NESTOOLS_FILES), *sorted((self.path / "dataset").rglob("*"))]
        return {p.relative_to(self.path).as_posix(): FileDigest(bytes=len(data := p.read_bytes()), sha256=_sha256(data))
                for p in exported if p.is_file()}

    # --- opening ----------------------------------------------------------------------

    def open(self, config: GenerateConfig, fresh: bool,
             rebuild_first: Callable[[], dict[str, dict[str, Any]]] | None = None) -> tuple[list[Instance], list[Reject]]:
        """Lock the run directory, then start a run in it, start it over (`fresh`: only run files
        are removed) or reopen it for resuming: (kept instances, rejects). Stage files left
        without a manifest are resumed only if `rebuild_first` gives their first attempt's lines."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.lock.acquire()
        except OSError as exc:
            raise RunError(f"cannot write to output directory {self.path}: {exc.strerror or exc}") from exc
        try:
            previous, adopted = self._previous_run(fresh)
            if previous is not None:
                self._check_settings(previous.config, config)
                self._check_files(previous)
            if adopted and rebuild_first is not None:
                self._check_adopted(rebuild_first)
            return self._recover()
        except BaseException:
            self.close()
            raise

    def _previous_run(self, fresh: bool) -> tuple[Manifest | None, bool]:
        """(the manifest of the run held here, whether stage files without one were found);
        refuses a folder holding files no run wrote, and with `fresh` deletes only run files."""
        names = {p.name for p in self.path.iterdir()} - {LOCK}
        manifest = self.read_manifest() if MANIFEST in names else None
        if manifest is None and not names <= EARLY_FILES:
            foreign = sorted(names - RUN_FILES) or sorted(names)
            listed = ", ".join(foreign[:4]) + (", ..." if len(foreign) > 4 else "")
            advice = "--fresh removes only what a run wrote, so nothing was deleted" if fresh else "choose another --out"
            raise RunError(f"{self.path} is not empty and holds no run ({listed}); {advice}")
        if fresh:
            self._remove_run_files(names)
            return None, False
        return manifest, manifest is None and bool(names)

    def _remove_run_files(self, names: set[str]) -> None:
        for name in sorted(names & RUN_FILES):
            path = self.path / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()

    def _check_settings(self, previous: GenerateConfig, config: GenerateConfig) -> None:
        if previous != config:
            diff = {k: (v, getattr(config, k)) for k, v in previous if getattr(config, k) != v}
            changes = ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in diff.items())
            raise RunError(f"{self.path} holds a run with other settings ({changes}); use another --out or --fresh")

    def _check_files(self, manifest: Manifest) -> None:
        """Each stage file must still start with what the manifest vouches for; what follows
        (lines written after the last manifest) is dropped, to be generated again."""
        for name in JSONL:
            recorded = manifest.files.get(name)
            if recorded is None:  # a manifest from before digests were recorded
                continue
            path = self.path / name
            if not _starts_with(path, recorded, exact=False):
                raise RunError(f"{path} changed since the run wrote it (it no longer starts with the {recorded.bytes} "
                               "bytes the manifest vouches for); restore it, or start over with --fresh")
            os.truncate(path, recorded.bytes)

    def _check_adopted(self, rebuild_first: Callable[[], dict[str, dict[str, Any]]]) -> None:
        """Stage files without a manifest carry no settings: resume them only if these
        settings rebuild their first attempt line for line."""
        stored = self.rows(0)
        if not stored.keys() & set(RESULTS):  # nothing committed: nothing is kept, nothing to check
            return
        if json.loads(json.dumps(rebuild_first())) != stored:
            raise RunError(f"{self.path} holds candidates of a run with other settings and no manifest; "
                           "use --fresh to start over, or choose another --out")

    def records(self, name: str) -> list[dict[str, Any]]:
        """The lines of one stage file (after `open`, only those of committed attempts)."""
        return _read_lines(self.file(name))

    def rows(self, attempt: int) -> dict[str, dict[str, Any]]:
        """The lines an attempt left, by file stem."""
        found = {}
        for name in (*STAGES, *RESULTS):
            row = next((r for r in _read_lines(self.file(name)) if r.get("attempt") == attempt), None)
            if row is not None:
                found[name] = row
        return found

    def _recover(self) -> tuple[list[Instance], list[Reject]]:
        committed = {name: _read_lines(self.file(name)) for name in RESULTS}
        attempts = sorted({row["attempt"] for rows in committed.values() for row in rows})
        done = next((i for i, a in enumerate(attempts) if a != i), len(attempts))  # first gap
        for name in (*STAGES, *RESULTS):
            rows = [r for r in _read_lines(self.file(name)) if r.get("attempt", -1) < done]
            data = "".join(_line(r) for r in rows).encode("utf-8")
            self.file(name).write_bytes(data)
            self._hashes[self.file(name).name], self._sizes[self.file(name).name] = hashlib.sha256(data), len(data)
        instances = [Instance.model_validate(r["instance"]) for r in committed["instances"] if r["attempt"] < done]
        rejects = [Reject.model_validate(r) for r in committed["rejects"] if r["attempt"] < done]
        return instances, rejects

    # --- writing ----------------------------------------------------------------------

    def append(self, outcome: Outcome) -> None:
        """Write an attempt's stage records, then the committing instance or reject line."""
        for name, row in outcome_rows(outcome).items():
            self._write(name, row)

    def _write(self, name: str, row: dict[str, Any]) -> None:
        handle = self.handles.get(name)
        if handle is None:
            handle = self.handles[name] = self.file(name).open("ab")
        data = _line(row).encode("utf-8")
        handle.write(data)
        handle.flush()
        self._hashes[self.file(name).name].update(data)
        self._sizes[self.file(name).name] += len(data)

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()
        self.handles.clear()
        self.lock.release()

    # --- reading a finished run -------------------------------------------------------

    def changed_files(self, manifest: Manifest) -> list[str]:
        """Recorded files that are missing or differ from what the run wrote; a complete run's
        files must match exactly, an unfinished run's need only start with it."""
        exact = manifest.status == "complete"
        return [f"{name} changed since the run wrote it" if (self.path / name).is_file() else f"{name} is missing"
                for name, recorded in sorted(manifest.files.items())
                if not _starts_with(self.path / name, recorded, exact)]

    def kept_instances(self) -> list[Instance]:
        """The committed instances of instances.jsonl, in attempt order."""
        rows = sorted(_read_lines(self.file("instances")), key=lambda r: r["attempt"])
        return [Instance.model_validate(r["instance"]) for r in rows]
