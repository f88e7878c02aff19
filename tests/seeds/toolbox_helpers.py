"""Calling one seed's tools by name against a fresh world, for behaviour tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factory.config import resource_dir
from factory.records import WorldSetup
from factory.seeds.library import load_seeds
from factory.world.simulator import Simulator, ToolResult


class ToolboxSession:
    """One world of one seed (plus any other toolboxes named), called tool by tool."""

    def __init__(self, slug: str, world_seed: int = 0, state: dict[str, Any] | None = None):
        self.seeds = load_seeds(Path(resource_dir("seeds")))
        self.seed = self.seeds[slug]
        setup = WorldSetup(toolboxes=[slug], seed=world_seed, state={slug: state or {}})
        self.sim = Simulator(self.seeds, setup)

    @property
    def world(self):
        return self.sim.worlds[self.seed.slug]

    def values(self, kind: str) -> list[Any]:
        return self.seed.toolbox.values[kind](self.world)

    def call(self, tool: str, **arguments: Any) -> ToolResult:
        return self.sim.call(self.seed.specs[tool], arguments)

    def ok(self, tool: str, **arguments: Any) -> Any:
        """The call's value (a tuple for several return values); fails the test on an error."""
        result = self.call(tool, **arguments)
        assert result.error is None, f"{tool}({arguments}) failed: {result.error}"
        return result.values[0] if len(result.values) == 1 else tuple(result.values)

    def error(self, tool: str, **arguments: Any) -> str:
        """The error message of a call that must fail."""
        result = self.call(tool, **arguments)
        assert result.error is not None, f"{tool}({arguments}) should have failed, returned {result.values}"
        return result.error


def chain_problems(seeds: dict[str, Any], code: str, *, toolboxes: list[str] | None = None,
                   state: dict[str, Any] | None = None, world_seed: int = 0, withheld: str | None = None,
                   ctx: Any = None, fixes: dict[int, str] | None = None, asked: set[int] | None = None,
                   goal: str = "", query: str = "q", offered: tuple[str, ...] = ()) -> list[str]:
    """The plausibility check's findings on a chain written as code, executed in a fresh world
    of `toolboxes` (by default those of its tools); `withheld`: a gold tool that is not offered
    (an insufficient-information item); `offered`: tools offered besides the gold ones."""
    from factory import __version__
    from factory.chains.code import parse_chain
    from factory.checks.context import CheckContext
    from factory.checks.plausibility import plausibility_problems
    from factory.checks.policy import load_policy
    from factory.records import Instance, Provenance
    from factory.world.simulator import run_chain

    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    chain = parse_chain(code, specs)
    if fixes or asked:  # calls made to restore a condition (call index → condition); calls the request asks for
        chain = chain.model_copy(update={"calls": [c.model_copy(update={"fixes": (fixes or {}).get(i),
                                                                         "asked": i in (asked or set())})
                                                   for i, c in enumerate(chain.calls)]})
    setup = WorldSetup(toolboxes=list(toolboxes or sorted({specs[c.tool].toolbox for c in chain.calls})),
                       seed=world_seed, state=state or {})
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    assert trace.ok, [s.error for s in trace.steps if s.error]
    made = Instance(domain=seeds[setup.toolboxes[0]].domain, query=query,
                    tools=[specs[c.tool] for c in chain.calls if c.tool != withheld] + [specs[t] for t in offered],
                    withheld_tools=[specs[withheld]] if withheld else [], gold_tools=[c.tool for c in chain.calls],
                    chain=chain, trace=trace, depth=chain.depth(), shape=chain.shape(), world=setup, goal=goal,
                    provenance=Provenance(generator="t", seed=0, attempt=0, factory_version=__version__))
    ctx = ctx or CheckContext(seeds, load_policy(Path(resource_dir("validators"))))
    return plausibility_problems(made, ctx)
