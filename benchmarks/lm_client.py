"""Throughput of the model client against the fake OpenAI-compatible server with a fixed
latency: calls per second at concurrency 1 and 16, and their ratio to the limit
(concurrency / latency). Target: at least 90% of the limit at concurrency 16.

    python benchmarks/lm_client.py [--latency 0.5] [--repeat 3] [--per-slot 8]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from factory.lm.client import LMClient  # noqa: E402
from factory.lm.reply import Call  # noqa: E402
from factory.lm.settings import LMSettings  # noqa: E402
from tests.fake_server import serve, text  # noqa: E402


def one_round(client: LMClient, calls: int, tag: str) -> float:
    """Calls per second for `calls` distinct requests (no cache: every one reaches the server)."""
    batch = [Call(messages=[{"role": "user", "content": f"{tag} question {i}"}]) for i in range(calls)]
    started = time.perf_counter()
    replies = client.complete_many(batch)
    seconds = time.perf_counter() - started
    assert all(r.ok for r in replies), [r.error for r in replies if not r.ok][:3]
    return calls / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-slot", type=int, default=8, help="calls per concurrency slot in a round")
    args = parser.parse_args()
    with serve(lambda request: text("ok"), latency=args.latency) as server:
        for concurrency in (1, 16):
            # One client per setting, as a run has: its connections are opened by the warm-up.
            client = LMClient(LMSettings(model="openai/bench", api_base=server.api_base, concurrency=concurrency,
                                         max_retries=0))
            one_round(client, concurrency, f"warm-up {concurrency}")
            limit = concurrency / args.latency
            rates = []
            for r in range(args.repeat):
                rate = one_round(client, concurrency * args.per_slot, f"c{concurrency}r{r}")
                rates.append(rate)
                print(f"concurrency {concurrency:2d} round {r + 1}: {rate:6.2f} calls/s = {rate / limit:6.1%} of the limit "
                      f"({limit:.1f} calls/s)")
            median = statistics.median(rates)
            print(f"concurrency {concurrency:2d}: median {median:.2f} calls/s, {median / limit:.1%} of the limit "
                  f"(min {min(rates) / limit:.1%}, max {max(rates) / limit:.1%})"
                  + ("  [target >= 90%: met]" if concurrency == 16 and median / limit >= 0.9 else
                     "  [target >= 90%: NOT met]" if concurrency == 16 else ""))
            client.close()


if __name__ == "__main__":
    main()
