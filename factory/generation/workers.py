"""Where offline attempts are computed: in the writing process, in worker processes forked from
it, or as Ray tasks on a local or remote cluster; the writing process gets their outcomes in
attempt order whichever computes them.

A unit of work is a block of attempts (`factory.generation.pipeline.BLOCK`) with the tally of the run's
kept instances it balances against; the writing process hands out blocks up to `LAG` ahead of
the first it has not written, and only as many as the instances still needed are likely to
take. Which attempts are made and what each produces does not depend on where or when it ran,
so the output is the same bytes for any number of workers."""

from __future__ import annotations

import math
import os
import signal
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Protocol

from factory.config import Settings
from factory.errors import ConfigError
from factory.generation.pipeline import BLOCK, Generator, Outcome, Tally, block_of, tally_cutoff
from factory.records import GenerateConfig, Instance, content_hash


def available_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class Tallies:
    """The run's kept instances in attempt order, with their requests' phrasings, and the tally
    of those before the latest cutoff asked for (cutoffs only grow)."""

    kept: list[tuple[int, Instance, list]] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    counted: int = 0  # entries of `kept` already in `tally`

    def add(self, attempt: int, instance: Instance, phrasings: list) -> None:
        self.kept.append((attempt, instance, phrasings))

    def before(self, cutoff: int) -> Tally:
        while self.counted < len(self.kept) and self.kept[self.counted][0] < cutoff:
            _, instance, phrasings = self.kept[self.counted]
            self.tally.add(instance, phrasings)
            self.counted += 1
        self.tally.counted = (cutoff, self.counted)
        return self.tally.copy()


class Engine(Protocol):
    slots: int  # blocks it computes at once

    def submit(self, block: int, tally: Tally, start: int, limit: int) -> Future: ...

    def close(self) -> None: ...


def outcomes(generator: Generator, engine: Engine | None, tallies: Tallies, start: int, limit: int,
             wanted: Callable[[], int]) -> Iterator[Outcome]:
    """Outcomes of attempts start, start+1, ... (before `limit`) in order. The consumer adds
    each kept instance to `tallies` before asking for the next outcome. Without an engine the
    attempts run here, one at a time; with one, blocks run there, up to its slots at once."""
    if engine is None:
        for block in range(block_of(start), block_of(limit - 1) + 1):
            yield from generator.block(block, tallies.before(tally_cutoff(block)), start, limit)
        return
    pending: dict[int, Future] = {}
    launch = first = block_of(start)
    done = kept = 0  # outcomes yielded, and how many of them kept an instance
    while first * BLOCK < limit:
        # The instances still needed, at the keep rate seen so far (a half before any is seen),
        # and a block more: a run does not compute much it would throw away.
        rate = (kept + 1) / (done + 2)
        needed = math.ceil(wanted() / rate) + BLOCK
        while (launch * BLOCK < limit and len(pending) < engine.slots and tally_cutoff(launch) <= first * BLOCK
               and (launch - first) * BLOCK < needed):
            pending[launch] = engine.submit(launch, tallies.before(tally_cutoff(launch)), start, limit)
            launch += 1
        for outcome in pending.pop(first).result():
            done += 1
            kept += outcome.instance is not None
            yield outcome
        first += 1


# --- worker processes on this machine -------------------------------------------------------

_GENERATOR: Generator | None = None  # what a forked worker computes with


def _forked_worker() -> None:
    """A forked worker ends with the process that writes the run, however that ends (a worker
    left behind would hold nothing of the run, but would go on computing)."""
    if sys.platform == "linux":
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the writing process's to handle


def with_vectors(generator: Generator, tally: Tally, outcomes: Iterator[Outcome]) -> list[Outcome]:
    """Outcomes with the embedding, computed alone, of each request the writing process's
    duplicate check will compare (one whose gold tools a kept instance already has): it then
    looks them up instead of embedding them itself, one at a time."""
    done, gold = [], set(tally.gold)
    embeddings = next(iter(generator.contexts.values())).embeddings
    for outcome in outcomes:
        if outcome.instance is not None:
            tools = tuple(outcome.instance.gold_tools)
            if tools in gold:
                outcome.vectors[outcome.instance.query] = embeddings.vectors([outcome.instance.query])[0]
            gold.add(tools)
        done.append(outcome)
    return done


def _forked_block(block: int, tally: Tally, start: int, limit: int) -> list[Outcome]:
    assert _GENERATOR is not None
    return with_vectors(_GENERATOR, tally, _GENERATOR.block(block, tally, start, limit))


class ProcessPool:
    """Worker processes forked from this one once its generator and the embedding model are
    loaded: they start with its seeds, tool pools, embeddings and model, and load none again."""

    def __init__(self, generator: Generator, workers: int):
        global _GENERATOR
        _GENERATOR = generator
        from factory.lm.embeddings import load_model

        load_model()
        self.slots = 2 * workers  # one block running and one waiting in each worker
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"), initializer=_forked_worker)
        # Fork now, before the run folder is locked and its files are opened.
        for future in [self.pool.submit(os.getpid) for _ in range(workers)]:
            future.result()

    def submit(self, block: int, tally: Tally, start: int, limit: int) -> Future:
        return self.pool.submit(_forked_block, block, tally, start, limit)

    def close(self) -> None:
        global _GENERATOR
        self.pool.shutdown(wait=False, cancel_futures=True)
        _GENERATOR = None


# --- Ray -------------------------------------------------------------------------------------

_RAY_GENERATORS: dict[str, Generator] = {}  # per Ray worker process, by run recipe
# Builds an offline run's generator from its settings alone (factory.generation.generate.offline_generator),
# handed in by the run so that this module stays below it.
Builder = Callable[[GenerateConfig, Settings], Generator]


def _ray_block(build: Builder, recipe: dict[str, Any], block: int, tally: Tally, start: int, limit: int) -> list[Outcome]:
    """A block computed by a Ray worker, which builds the run's generator once from its recipe
    (the run's settings and configuration: the seeds must be at the same paths there)."""
    key = content_hash(recipe)
    if key not in _RAY_GENERATORS:
        _RAY_GENERATORS.clear()
        config = GenerateConfig.model_validate(recipe["config"])
        _RAY_GENERATORS[key] = build(config, Settings.model_validate(recipe["settings"]))
    generator = _RAY_GENERATORS[key]
    return with_vectors(generator, tally, generator.block(block, tally, start, limit))


class RayCluster:
    """Blocks as Ray tasks on the cluster at `address` ("local": a Ray started here for the
    run; "auto": the cluster this machine joined). Each task takes one CPU; the cluster's CPUs
    set how many run at once."""

    def __init__(self, address: str, recipe: dict[str, Any], build: Builder):
        try:
            import ray
        except ImportError:
            raise ConfigError('--ray needs Ray: pip install "toolbench-factory[ray]"') from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = 2 * max(1, cpus)
        self.task = ray.remote(num_cpus=1)(_ray_block)
        self.recipe = ray.put(recipe)
        self.build = build

    def submit(self, block: int, tally: Tally, start: int, limit: int) -> Future:
        return self.task.remote(self.build, self.recipe, block, tally, start, limit).future()

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
