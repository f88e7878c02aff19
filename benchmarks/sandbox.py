"""Sandbox overhead: a warm sandboxed call against the same call in process and in a fresh process.

Three ways to run one small tool function with JSON arguments and get its JSON result:
in this process; in the warm sandbox worker (bubblewrap, limits, pipe, type check); and in a
fresh `python -c` per call, the cost a sandbox without a warm worker would start from (with
and without `-S`, which skips site-packages). The target is a warm sandboxed call at most 2x
the fresh process's cost. Then the calls of the committed sample's traces (seed toolboxes
over their worlds) in the in-process simulator against the sandbox; and what starting a
sandbox costs. Each figure is the median of several repetitions.

    python benchmarks/sandbox.py [--calls 300] [--spawns 20] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from factory.records import Instance
from factory.seeds.library import load_seeds
from factory.world.bubblewrap import unavailable_reason
from factory.world.sandbox import Sandbox
from factory.world.simulator import Simulator

ROOT = Path(__file__).resolve().parents[1]
TOOL = '''
def convert_price(amount: float, rate: float, currency: str) -> tuple[float, str]:
    return round(amount * rate, 2), currency.upper()
'''
ARGUMENTS = {"amount": 12.5, "rate": 1.0843, "currency": "eur"}
ONE_SHOT = TOOL + "import json, sys\nprint(json.dumps(convert_price(**json.loads(sys.argv[1]))))\n"


def per_call(fn, calls: int, repeats: int) -> float:
    """Median over repetitions of the mean seconds per call."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def fresh_process(*flags: str):
    def run():
        done = subprocess.run([sys.executable, *flags, "-c", ONE_SHOT, json.dumps(ARGUMENTS)],
                              capture_output=True, check=True)
        return json.loads(done.stdout)
    return run


def sample_steps() -> list[tuple[Instance, str]]:
    lines = (ROOT / "generated" / "sample" / "instances.jsonl").read_text().splitlines()
    instances = [Instance.model_validate(json.loads(line)["instance"]) for line in lines]
    return [(i, i.world.toolboxes[0]) for i in instances if i.world and len(i.world.toolboxes) == 1]


def replay_in_process(steps, seeds) -> int:
    calls = 0
    for instance, _ in steps:
        simulator = Simulator(seeds, instance.world)
        specs = {s.name: s for s in instance.tools + instance.withheld_tools}
        for step in instance.trace.steps:
            simulator.call(specs[step.tool], step.arguments)
            calls += 1
    return calls


def replay_in_sandboxes(steps, boxes) -> int:
    calls = 0
    for instance, slug in steps:
        box = boxes[slug]
        box.open_world(instance.world.seed, instance.world.state.get(slug, {}))
        specs = {s.name: s for s in instance.tools + instance.withheld_tools}
        for step in instance.trace.steps:
            box.call(step.tool, step.arguments, [o.type for o in specs[step.tool].returns])
            calls += 1
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per repetition, in process and sandboxed")
    parser.add_argument("--spawns", type=int, default=20, help="fresh processes per repetition")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    reason = unavailable_reason()
    if reason:
        raise SystemExit(f"sandbox unavailable: {reason}")
    print(f"sandbox probe (once per process): {(time.perf_counter() - start) * 1e3:.1f} ms")

    with tempfile.TemporaryDirectory() as folder:
        code = Path(folder) / "tool.py"
        code.write_text(TOOL)
        namespace: dict = {}
        exec(TOOL, namespace)  # our own benchmark function, run in process as the baseline
        in_process = per_call(lambda: namespace["convert_price"](**json.loads(json.dumps(ARGUMENTS))),
                              args.calls, args.repeats)
        starts = []
        for _ in range(args.repeats):
            begun = time.perf_counter()
            with Sandbox(code) as box:
                box.start()
                starts.append(time.perf_counter() - begun)
        with Sandbox(code) as box:
            assert box.call("convert_price", ARGUMENTS).values == [13.55, "EUR"]
            sandboxed = per_call(lambda: box.call("convert_price", ARGUMENTS, ["float", "str"]), args.calls, args.repeats)
            assert box.starts == 1
        fresh = per_call(fresh_process(), args.spawns, args.repeats)
        fresh_s = per_call(fresh_process("-S"), args.spawns, args.repeats)

    print(f"sandbox start (bubblewrap, interpreter, import), median of {args.repeats}: {statistics.median(starts) * 1e3:.1f} ms")
    print(f"\none tool call, median over {args.repeats} repetitions:")
    print(f"  in process                 {in_process * 1e6:10.1f} us")
    print(f"  warm sandbox               {sandboxed * 1e6:10.1f} us   {sandboxed / in_process:8.0f}x in process")
    print(f"  fresh `python -c`          {fresh * 1e6:10.1f} us   warm sandbox = {sandboxed / fresh:.3f}x this (target <= 2x)")
    print(f"  fresh `python -S -c`       {fresh_s * 1e6:10.1f} us   warm sandbox = {sandboxed / fresh_s:.3f}x this")

    steps = sample_steps()
    seeds = load_seeds(ROOT / "seeds")
    boxes = {slug: Sandbox(ROOT / "seeds" / slug / "toolbox.py") for slug in {slug for _, slug in steps}}
    try:
        for box in boxes.values():
            box.start()
        replay_in_sandboxes(steps, boxes)  # warm: worlds built once per seed, as in a long run
        calls = replay_in_process(steps, seeds)
        simulated = per_call(lambda: replay_in_process(steps, seeds), 1, args.repeats) / calls
        boxed = per_call(lambda: replay_in_sandboxes(steps, boxes), 1, args.repeats) / calls
    finally:
        for box in boxes.values():
            box.close()
    print(f"\nthe sample's {calls} traced seed-tool calls ({len(boxes)} toolboxes), per call, world opening included:")
    print(f"  in-process simulator       {simulated * 1e6:10.1f} us")
    print(f"  warm sandboxes             {boxed * 1e6:10.1f} us   {boxed / simulated:8.1f}x in process")


if __name__ == "__main__":
    main()
