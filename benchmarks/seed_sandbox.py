"""Generation over a model-written toolbox (its tools in the sandbox) against the same toolbox
as a trusted seed (in process): the same run, the same instances, the time it takes.

The model-written seed is a folder with seed.toml, toolbox.py and manifest.json (default: the
Marine Biology toolbox of the tests, tests/data/seed_writer/); the trusted twin is the same two
files in a temporary seeds folder beside links to the repository's seeds. Both runs generate
`--n` instances offline with the same settings, alternating, `--repeats` times each, in one
process (after one untimed run per mode: the embedding model, tool embeddings and tables load once). Each run's nestools.jsonl must be
the same in both modes. Prints every time, the medians and their ratio (target: at most 3x).

    python benchmarks/seed_sandbox.py [--n 1000] [--repeats 3] [--seed-dir generated/seeds/marine-biology]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

from factory.config import load_settings
from factory.generation.generate import generate
from factory.records import GenerateConfig
from factory.world.bubblewrap import unavailable_reason

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "seed_writer"


def folders(tmp: Path, seed_dir: Path | None) -> tuple[Path, Path, str]:
    """(trusted seeds folder, model-written seeds folder, domain)."""
    written, trusted = tmp / "written", tmp / "trusted"
    written.mkdir()
    trusted.mkdir()
    if seed_dir is None:
        slug = "marine-biology"
        (written / slug).mkdir()
        shutil.copyfile(DATA / "marine_seed.toml", written / slug / "seed.toml")
        shutil.copyfile(DATA / "marine_toolbox.py", written / slug / "toolbox.py")
        (written / slug / "manifest.json").write_text(json.dumps({"written_by": "model", "note": "benchmark"}))
    else:
        slug = seed_dir.name
        shutil.copytree(seed_dir, written / slug)
    (trusted / slug).mkdir()
    for name in ("seed.toml", "toolbox.py"):  # the same code, as a trusted seed (no manifest)
        shutil.copyfile(written / slug / name, trusted / slug / name)
    for folder in sorted((ROOT / "seeds").iterdir()):
        if folder.is_dir() and (folder / "seed.toml").is_file():
            (trusted / folder.name).symlink_to(folder)
    import tomllib

    domain = tomllib.loads((written / slug / "seed.toml").read_text())["domain"]
    return trusted, written, domain


def one_run(mode: str, n: int, seeds: tuple[Path, Path], domain: str, out: Path) -> tuple[float, str, int]:
    trusted, written = seeds
    flags = {"output_dir": str(out.parent)}
    flags |= {"seeds_dir": str(ROOT / "seeds"), "generated_seeds_dir": str(written)} if mode == "sandbox" else \
        {"seeds_dir": str(trusted), "generated_seeds_dir": str(out.parent / "none")}
    started = time.perf_counter()
    result = generate(GenerateConfig(domain=domain, n=n, seed=7), load_settings(flags), out, fresh=True)
    seconds = time.perf_counter() - started
    backends = {s.backend for i in result.instances for s in i.trace.steps}
    assert ("sandbox" in backends) == (mode == "sandbox"), backends
    digest = hashlib.sha256((out / "nestools.jsonl").read_bytes()).hexdigest()
    return seconds, digest, result.manifest.attempts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed-dir", type=Path, default=None, help="a model-written seed folder (default: the tests' one)")
    args = parser.parse_args()
    reason = unavailable_reason()
    if reason:
        print(f"no sandbox here ({reason}): nothing to measure")
        return 1
    warnings.simplefilter("ignore")
    times: dict[str, list[float]] = {"in process": [], "sandbox": []}
    with tempfile.TemporaryDirectory(prefix="seed-sandbox-bench-") as tmp_name:
        tmp = Path(tmp_name)
        trusted, written, domain = folders(tmp, args.seed_dir)
        for mode in ("in process", "sandbox"):  # the embedding model, embeddings of every tool, value tables
            one_run(mode, min(args.n, 200), (trusted, written), domain, tmp / "out" / f"warm-{mode.replace(' ', '-')}")
        digests = set()
        for repeat in range(args.repeats):
            for mode in ("sandbox", "in process") if repeat % 2 else ("in process", "sandbox"):
                seconds, digest, attempts = one_run(mode, args.n, (trusted, written), domain,
                                                    tmp / "out" / f"{mode.replace(' ', '-')}-{repeat}")
                times[mode].append(seconds)
                digests.add(digest)
                print(f"{domain}, n={args.n}, {mode:10s}: {seconds:7.2f} s ({attempts} candidates)", flush=True)
    inproc, boxed = statistics.median(times["in process"]), statistics.median(times["sandbox"])
    print(f"median in process {inproc:.2f} s, sandbox {boxed:.2f} s, ratio {boxed / inproc:.2f}x (target <= 3x); "
          f"{'identical' if len(digests) == 1 else 'DIFFERENT'} nestools.jsonl across modes and repeats")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
