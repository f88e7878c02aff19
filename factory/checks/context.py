"""What checks may consult besides the instance: seeds, the policy, an embedding cache."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from factory.checks.policy import Policy
from factory.lm.embeddings import EmbeddingCache
from factory.records import Instance, ToolSpec
from factory.seeds.record import Seed
from factory.toolbox import ToolEntry
from factory.world.simulator import base_world


@dataclass
class CheckContext:
    seeds: dict[str, Seed]
    policy: Policy
    embeddings: EmbeddingCache = field(default_factory=EmbeddingCache)
    judge: Callable[[Instance], tuple[bool | None, bool | None, str]] | None = None  # model judges, when configured

    def entry(self, spec: ToolSpec | None) -> ToolEntry | None:
        """A seed tool's registration (asks, sense rules, tags); None for tools without a seed."""
        seed = self.seeds.get(spec.toolbox or "") if spec else None
        return seed.toolbox.tools.get(spec.name) if seed else None

    def facts_of(self, kind: str | None, value: Any, world_seed: int, role: str | None = None) -> dict[str, Any]:
        """What a literal value implies about other kinds, by the seed that declares facts for
        its kind and role (or its kind)."""
        if not kind or not isinstance(value, (str, int, float)):
            return {}
        for key in ([f"{kind}/{role}"] if role else []) + [kind]:
            for seed in self.seeds.values():
                describe = seed.toolbox.facts.get(key)
                if describe is None:
                    continue
                try:
                    found = describe(base_world(seed, world_seed), value)
                except Exception:  # an unknown value implies nothing; the tools themselves reject it
                    found = None
                if found:
                    return found
        return {}

    @cached_property
    def bridges(self) -> dict[str, set[str]]:
        """Toolbox → the kinds its parameters take from other seeds."""
        return {slug: set(seed.toolbox.bridges) for slug, seed in self.seeds.items()}

    @cached_property
    def joint_kinds(self) -> list[tuple[str, ...]]:
        """Kinds whose values travel together (a latitude with its longitude), over every seed."""
        return sorted({kinds for seed in self.seeds.values() for kinds in seed.toolbox.joint_values})
