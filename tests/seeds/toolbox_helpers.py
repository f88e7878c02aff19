"""Calling one seed's tools by name against a fresh world, for behaviour tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factory.config import resource_dir
from factory.records import WorldSetup
from factory.seeds import load_seeds
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
