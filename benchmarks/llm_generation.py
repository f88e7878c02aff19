"""Generation with a model against a fake OpenAI-compatible server with a fixed latency.

For each concurrency (default 1 and 16) the script generates a "Marine Biology" run (a domain
no seed covers: the model writes the tools and the chain, the queries, and simulates tool
results) against the fake server of the tests, which answers like a real model (prose, fences,
flawed answers the run rejects) after `--latency` seconds, and like a sampling model gives a
new answer when asked the same prompt again. It prints instances per second,
model calls per instance, and the achieved calls per second as a share of the limit the
latency allows (concurrency / latency). Each repetition starts from an empty run folder and
call cache, so every call reaches the server; an untimed small run first pays the imports.

    python benchmarks/llm_generation.py [--latency 0.5] [--concurrency 1 16] [-n 8 320] [--repeat 2] [--flawed]

By default the fake answers as a flawless model, so the figures measure the pipeline's own
overhead and concurrency; `--flawed` makes it answer with the flaws of the tests' fake. A run's
start and its last attempts (three calls in a row, fewer in flight) weigh less the longer the
run: at concurrency 16, 160 instances reach about 86% of the call limit, 320 about 90%.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.update(HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", LITELLM_LOCAL_MODEL_COST_MAP="True")

from factory.config import load_settings  # noqa: E402
from factory.generation.generate import generate  # noqa: E402
from factory.records import GenerateConfig  # noqa: E402
from tests.fake_server import serve  # noqa: E402
from tests.generation_model import server_responder  # noqa: E402


def sampling(responder):
    """The responder as a sampling model: asked the same prompt again, it answers differently
    (the run asks again for a new sample after a reject, as it would a real model)."""
    seen: Counter[str] = Counter()
    lock = threading.Lock()

    def respond(body: dict) -> dict:
        key = json.dumps(body.get("messages"), sort_keys=True)
        with lock:
            seen[key] += 1
            n = seen[key] - 1
        if n:
            body = copy.deepcopy(body)
            body["messages"][-1]["content"] = f"{body['messages'][-1].get('content') or ''}\n(sample {n})"
        return responder(body)

    return respond


def _serve(conn, latency: float, flawed: bool) -> None:
    """The fake server, in its own process as a real server would be (its work does not share
    the generator's interpreter); sends its address, serves until told to stop."""
    with serve(sampling(functools.partial(server_responder, flawless=not flawed)), latency=latency) as server:
        conn.send(server.api_base)
        conn.recv()


def one_run(concurrency: int, n: int, latency: float, seed: int, flawed: bool) -> tuple[float, float, float]:
    """(instances/s, model calls per instance, share of the call limit) of one fresh run."""
    parent, child = multiprocessing.get_context("spawn").Pipe()
    server = multiprocessing.get_context("spawn").Process(target=_serve, args=(child, latency, flawed), daemon=True)
    server.start()
    try:
        api_base = parent.recv()
        with tempfile.TemporaryDirectory() as tmp:
            settings = load_settings({"api_base": api_base, "output_dir": tmp, "concurrency": concurrency,
                                      "max_retries": 2})
            config = GenerateConfig(domain="Marine Biology", n=n, seed=seed, generator="openai/bench")
            start = time.perf_counter()
            result = generate(config, settings, Path(tmp) / "run")
            seconds = time.perf_counter() - start
    finally:
        parent.send("stop")
        server.join(timeout=10)
    calls = result.manifest.model_usage["openai/bench"]["requests"]
    kept = len(result.instances)
    return kept / seconds, calls / max(kept, 1), (calls / seconds) / (concurrency / latency)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16])
    parser.add_argument("-n", type=int, nargs="+", default=[8, 320], help="instances per run, one per concurrency")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flawed", action="store_true",
                        help="the model answers flawed now and then (near-miss formats, truncation, dropped values), "
                             "so calls per instance include the rejects")
    args = parser.parse_args()
    sizes = args.n if len(args.n) == len(args.concurrency) else [args.n[0]] * len(args.concurrency)
    model = "a model with flaws" if args.flawed else "a flawless model"
    print(f"fake server answering as {model}, latency {args.latency} s; {args.repeat} repetition(s) each; medians shown")
    print(f"{'concurrency':>11} {'n':>5} {'inst/s':>8} {'calls/inst':>11} {'share of call limit':>20}   (each run)")
    one_run(2, 2, 0.01, args.seed + 1, args.flawed)  # untimed: the first run in a process pays the imports
    for concurrency, n in zip(args.concurrency, sizes, strict=True):
        runs = [one_run(concurrency, n, args.latency, args.seed, args.flawed) for _ in range(args.repeat)]
        rate, calls, share = (statistics.median(r[i] for r in runs) for i in range(3))
        each = ", ".join(f"{r[0]:.2f}" for r in runs)
        print(f"{concurrency:>11} {n:>5} {rate:>8.2f} {calls:>11.2f} {share:>19.0%}   ({each} inst/s)")


if __name__ == "__main__":
    main()
