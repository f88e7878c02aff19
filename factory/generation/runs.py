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
from array import array
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple, overload

from factory.errors import RunError
from factory.generation.pipeline import Outcome
from factory.records import FileDigest, GenerateConfig, Instance, Manifest, Reject

STAGES = ("chains", "traces", "queries")
RESULTS = ("instances", "rejects")
JSONL = tuple(f"{name}.jsonl" for name in (*STAGES, *RESULTS))
REWRITTEN = tuple(f"{name}.tmp" for name in JSONL)  # a stage file being cut back on resume
MANIFEST = "manifest.json"
LOCK = "run.lock"
VALIDATION_FAILURES = "validation-failures.jsonl"  # written by `factory validate`
# Everything a run (or `factory validate` on it) writes: --fresh removes these and nothing else.
# A run with a model keeps its call caches beside the stage files (a rerun asks nothing twice).
CACHES = frozenset(f"{name}.sqlite{suffix}" for name in ("calls", "simulated") for suffix in ("", "-journal", "-wal", "-shm"))
NESTOOLS_FILES = ("nestools.jsonl", "nestools_excluded.jsonl")  # factory.dataset.export.NESTOOLS, NESTOOLS_EXCLUDED
CONTAMINATION_FILES = ("contamination.json", "contamination.md")  # factory.dataset.contamination.REPORT, TABLE
RUN_FILES = frozenset({*JSONL, *REWRITTEN, MANIFEST, f"{MANIFEST}.tmp", LOCK, "dataset", "dataset.tmp", *NESTOOLS_FILES,
                       VALIDATION_FAILURES, *CONTAMINATION_FILES, *CACHES})
# What a run may hold before its manifest exists (older versions wrote it at candidate 25).
EARLY_FILES = frozenset({*JSONL, *REWRITTEN, f"{MANIFEST}.tmp", *CACHES})


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """Parsed JSONL lines; a torn final line (killed mid-write) is ignored."""
    return [row for _, row in _iter_lines(path)]


def _iter_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(byte offset, parsed line) of each JSONL line, read one at a time: a long run's stage
    files are not held in memory. A line that does not parse (a torn last one) is skipped."""
    if not path.exists():
        return
    offset = 0
    with path.open("rb") as handle:
        # Binary lines end at b"\n" only: a value may hold U+2028 or U+0085, which text-mode
        # line splitting (str.splitlines) also cuts at.
        for line in handle:
            try:
                yield offset, json.loads(line.decode("utf-8"))
            except (json.JSONDecodeError, UnicodeDecodeError):
                pass
            offset += len(line)


def _line(row: dict[str, Any]) -> str:
    # Key order is kept (not sorted): argument order must survive a resume byte for byte.
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n"


CHUNK = 1 << 20  # files are hashed a megabyte at a time, never read whole


def _file_sha256(path: Path, size: int | None = None) -> str:
    """The sha256 of a file's first `size` bytes (all of it when None), read in chunks."""
    digest = hashlib.sha256()
    left = path.stat().st_size if size is None else size
    with path.open("rb") as handle:
        while left > 0:
            chunk = handle.read(min(CHUNK, left))
            if not chunk:
                break
            digest.update(chunk)
            left -= len(chunk)
    return digest.hexdigest()


def _starts_with(path: Path, recorded: FileDigest, exact: bool) -> bool:
    """Whether a file still begins with (or, exact, still is) what the manifest recorded."""
    if not path.is_file():
        return False
    size = path.stat().st_size
    if size < recorded.bytes or (exact and size != recorded.bytes):
        return False
    return _file_sha256(path, recorded.bytes) == recorded.sha256


def _instance(line: bytes) -> Instance:
    return Instance.model_validate(json.loads(line.decode("utf-8"))["instance"])


class KeptInstances(Sequence[Instance]):
    """A run's kept instances in attempt order, read from instances.jsonl when asked for: the
    run holds each one's place in the file and its id, not the instance (about 70 KB of
    objects each), so memory stays flat however many a run keeps. Each read parses anew."""

    def __init__(self, path: Path, offsets: array | None = None, ids: list[str] | None = None):
        self.path = path
        self.offsets = offsets if offsets is not None else array("q")
        self.ids = ids if ids is not None else []

    def add(self, offset: int, instance_id: str) -> None:
        self.offsets.append(offset)
        self.ids.append(instance_id)

    def __len__(self) -> int:
        return len(self.offsets)

    @overload
    def __getitem__(self, index: int) -> Instance: ...

    @overload
    def __getitem__(self, index: slice) -> KeptInstances: ...

    def __getitem__(self, index: int | slice) -> Instance | KeptInstances:
        if isinstance(index, slice):
            return KeptInstances(self.path, self.offsets[index], self.ids[index])
        with self.path.open("rb") as handle:
            handle.seek(self.offsets[index])
            return _instance(handle.readline())

    def __iter__(self) -> Iterator[Instance]:
        if not self.offsets:
            return
        with self.path.open("rb") as handle:
            for offset in self.offsets:
                handle.seek(offset)
                yield _instance(handle.readline())

    def where(self, keep: Callable[[str], bool]) -> KeptInstances:
        """The instances whose id `keep` accepts, in the same order."""
        chosen = [k for k, instance_id in enumerate(self.ids) if keep(instance_id)]
        return KeptInstances(self.path, array("q", (self.offsets[k] for k in chosen)), [self.ids[k] for k in chosen])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KeptInstances):
            return self.path == other.path and self.offsets == other.offsets
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"KeptInstances({self.path}, {len(self)} instances)"


class RejectNote(NamedTuple):
    """What a run holds of a reject while it runs: its stage and reasons (the candidate and
    its checks stay in rejects.jsonl)."""

    attempt: int
    stage: str
    reasons: list[str]

    @classmethod
    def of(cls, reject: Reject) -> RejectNote:
        return cls(reject.attempt, reject.stage, reject.reasons)


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
        self.kept = KeptInstances(self.file("instances"))  # filled by `open`, then by `append`
        self.fresh = False  # claimed with --fresh: what the folder holds now, this run wrote

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
        exported files once the run has exported them); returns it as written."""
        files = {name: FileDigest(bytes=self._sizes[name], sha256=h.hexdigest()) for name, h in self._hashes.items()}
        if manifest.status != "running":  # complete, or incomplete with what it kept exported
            files.update(self._export_digests())
        manifest = manifest.model_copy(update={"files": files})
        tmp = self.manifest_path.with_suffix(".json.tmp")
        tmp.write_text(manifest.model_dump_json(indent=2) + "\n")
        os.replace(tmp, self.manifest_path)
        return manifest

    def _export_digests(self) -> dict[str, FileDigest]:
        exported = [*(self.path / name for name in NESTOOLS_FILES), *sorted((self.path / "dataset").rglob("*"))]
        return {p.relative_to(self.path).as_posix(): FileDigest(bytes=p.stat().st_size, sha256=_file_sha256(p))
                for p in exported if p.is_file()}

    # --- opening ----------------------------------------------------------------------

    def claim(self, fresh: bool) -> None:
        """Lock the run directory and, with `fresh`, remove what an earlier run wrote there (only
        run files): before anything opens a file in it, such as a model's call cache, which
        would otherwise be deleted open and lost to a resume. Claiming twice does nothing."""
        if self.lock.fd is not None:
            return
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            self.lock.acquire()
        except OSError as exc:
            raise RunError(f"cannot write to output directory {self.path}: {exc.strerror or exc}") from exc
        try:
            if fresh:
                self._remove_run_files(self._run_files("--fresh removes only what a run wrote, so nothing was deleted"))
        except BaseException:
            self.close()
            raise
        self.fresh = fresh

    def open(self, config: GenerateConfig, fresh: bool,
             rebuild_first: Callable[[], dict[str, dict[str, Any]]] | None = None) -> tuple[KeptInstances, list[RejectNote]]:
        """Claim the run directory (unless done), then start a run in it, start it over
        (`fresh`) or reopen it for resuming: (kept instances, read when asked for; rejects,
        without their candidates). `append` adds to the kept instances returned. Stage files left
        without a manifest are resumed only if `rebuild_first` gives their first attempt's lines."""
        self.claim(fresh)
        try:
            if not self.fresh:
                names = self._run_files("choose another --out")
                previous = self.read_manifest()
                if previous is not None:
                    self._check_settings(previous.config, config)
                    self._check_files(previous)
                elif names and rebuild_first is not None:  # stage files without a manifest
                    self._check_adopted(rebuild_first)
            return self._recover()
        except BaseException:
            self.close()
            raise

    def _run_files(self, advice: str) -> set[str]:
        """The names in the folder (but the lock); refuses a folder holding files no run wrote."""
        names = {p.name for p in self.path.iterdir()} - {LOCK}
        if MANIFEST not in names and not names <= EARLY_FILES:
            foreign = sorted(names - RUN_FILES) or sorted(names)
            listed = ", ".join(foreign[:4]) + (", ..." if len(foreign) > 4 else "")
            raise RunError(f"{self.path} is not empty and holds no run ({listed}); {advice}")
        return names

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

    def records(self, name: str) -> Iterator[dict[str, Any]]:
        """The lines of one stage file, one at a time (after `open`, only those of committed attempts)."""
        return (row for _, row in _iter_lines(self.file(name)))

    def rows(self, attempt: int) -> dict[str, dict[str, Any]]:
        """The lines an attempt left, by file stem."""
        found = {}
        for name in (*STAGES, *RESULTS):
            row = next((r for r in self.records(name) if r.get("attempt") == attempt), None)
            if row is not None:
                found[name] = row
        return found

    def _recover(self) -> tuple[KeptInstances, list[RejectNote]]:
        """Keep the lines of committed attempts (up to the first missing one), file by file and
        line by line; the kept instances are noted by place, the rejects without candidates."""
        attempts = sorted({row["attempt"] for name in RESULTS for row in self.records(name)})
        done = next((i for i, a in enumerate(attempts) if a != i), len(attempts))  # first gap
        self.kept = KeptInstances(self.file("instances"))
        rejects = []
        for name in (*STAGES, *RESULTS):
            path = self.file(name)
            digest, size = hashlib.sha256(), 0
            tmp = path.with_name(path.name + ".tmp")
            with tmp.open("wb") as out:
                for _, row in _iter_lines(path):
                    if row.get("attempt", -1) >= done:
                        continue
                    if name == "instances":
                        self.kept.add(size, row["instance"]["id"])
                    elif name == "rejects":
                        rejects.append(RejectNote(row["attempt"], row["stage"], row["reasons"]))
                    data = _line(row).encode("utf-8")
                    out.write(data)
                    digest.update(data)
                    size += len(data)
            os.replace(tmp, path)
            self._hashes[path.name], self._sizes[path.name] = digest, size
        return self.kept, rejects

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
        if name == "instances":
            self.kept.add(self._sizes[self.file(name).name], row["instance"]["id"])
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
