"""Whether a run's shape request can be met at all, decided before any candidate is made:
first from the shape catalogue and the depth bounds alone, then by the composer on the target
seeds' tools (each seed alone, and with each seed it links to), a bounded number of tries.

A request the composer cannot fill here is refused with advice; one it can fill is let
through even when only a few seeds reach it, so nothing a seed can make is forbidden."""

from __future__ import annotations

import random

from factory.chains.composer import compose
from factory.chains.pool import ToolPool
from factory.chains.shapes import (
    FAMILIES,
    MAX_CALLS,
    candidates,
    catalogue,
    depth_of,
    validate_shape_request,
)
from factory.errors import ConfigError
from factory.records import Chain, parse_shape, shape_of

BUDGET = 3000  # composer steps per try, as when generating
TRIES = 2  # random orders tried per (tools, shape)
MAX_TRIES = 1500  # over every pool and shape; a try takes about 2 ms


def check_shape_request(min_depth: int, max_depth: int, shape: str | None) -> None:
    """Refuse a --shape that no shape of the catalogue meets within the depth bounds, saying
    which bound to change."""
    if shape is not None and shape not in FAMILIES:
        try:
            n, edges = parse_shape(shape)
        except ValueError:
            n, edges = 0, []
        if n > MAX_CALLS and all(0 <= i < j < n for i, j in edges):
            raise ConfigError(f"--shape {shape!r} has {n} calls (depth {depth_of(n, edges)}); shapes have 1 to "
                              f"{MAX_CALLS} calls, so a depth of at most {MAX_CALLS}")
    validate_shape_request(shape)
    if shape is None or candidates(min_depth, max_depth, shape):
        return
    exact = None if shape in FAMILIES else shape_of(*parse_shape(shape))
    depths = sorted({d for s, _, d, family in catalogue() if family == shape or s == exact})
    bound = (f"lower --min-depth to {depths[-1]}" if depths[-1] < min_depth
             else f"raise --max-depth to {depths[0]}")
    what = f"--shape {shape!r} has depth {depths[0]}" if exact else (
        f"--shape {shape} shapes have depth {depths[0]}" + (f" to {depths[-1]}" if len(depths) > 1 else ""))
    raise ConfigError(f"{what}, outside --min-depth {min_depth} to --max-depth {max_depth}; {bound}")


def _crosses(chain: Chain, pool: ToolPool) -> bool:
    """A cross-domain chain passes a value from one seed's tool to another seed's."""
    toolbox = [pool.specs[c.tool].toolbox for c in chain.calls]
    return any(toolbox[i] != toolbox[j] for i, j in chain.graph().edges)


class ShapeSearch:
    """Tries shapes on tool pools with the composer, counting tries against MAX_TRIES.
    Each pool comes with whether its chains must cross seeds (a seed with a partner)."""

    def __init__(self, pools: list[tuple[ToolPool, bool]]):
        self.pools = pools
        self.tries = 0

    def fills(self, shape: str) -> bool:
        n, edges = parse_shape(shape)
        for pool, cross in self.pools:
            if n > len(pool.specs):
                continue
            for k in range(TRIES):
                if self.tries >= MAX_TRIES:
                    return False
                self.tries += 1
                chain = compose(pool, n, edges, random.Random(f"{shape}:{k}"), budget=BUDGET)
                if chain is not None and (not cross or _crosses(chain, pool)):
                    return True
        return False

    def deepest_chain(self) -> int:
        """The largest depth a plain chain of calls reaches on these pools (0: none)."""
        for depth in range(MAX_CALLS, 0, -1):
            if self.fills(shape_of(depth, [(i, i + 1) for i in range(depth - 1)])):
                return depth
        return 0


def check_fillable(pools: list[tuple[ToolPool, bool]], domain: str, min_depth: int, max_depth: int,
                   shape: str | None) -> None:
    """Refuse a request whose shapes none of the pools can fill, with advice that holds."""
    rows = sorted(candidates(min_depth, max_depth, shape), key=lambda r: (r[1], r[0].count(">"), r[0]))
    if any(ShapeSearch(pools).fills(s) for s, _, _ in rows):
        return
    deepest = ShapeSearch(pools).deepest_chain()
    request = f"--shape {shape} within depth {min_depth} to {max_depth}" if shape else f"a depth of {min_depth} to {max_depth}"
    advice = (f"lower --min-depth to {deepest}" if deepest < min_depth else "choose another --shape or --domain")
    raise ConfigError(f"the seed tools of {domain} cannot fill {request}, alone or with the seeds they link to "
                      f"(the deepest nesting they reach is depth {deepest}); {advice}")
