"""A loaded seed: its `seed.toml` (the scenario) and its toolbox, with the specs of its tools.

Below the seed library (`factory.seeds.library`) and the sandboxed loader alike, so both, and the
simulator, can name a seed without importing each other.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import SeedError
from factory.records import ToolSpec
from factory.toolbox import Toolbox, World

# What a toolbox imported before the package followed the line of flow, and where it is now.
MOVED_MODULES = {"factory.sense": "factory.toolbox.sense", "factory.gazetteer": "factory.toolbox.gazetteer",
                 "factory.user": "factory.toolbox.user"}


def with_moved_hint(message: str) -> str:
    """An import failure of a module that moved, with where it is now."""
    for old, new in MOVED_MODULES.items():
        if f"No module named '{old}'" in message:
            return f"{message} ({old} is now {new}: change the toolbox's import)"
    return message


class SeedExample(BaseModel):
    """An in-context example for the model-driven stages: a query and its chain as code."""

    model_config = ConfigDict(extra="forbid")
    query: str
    chain: str


class SeedScenario(BaseModel):
    """The contents of `seed.toml`."""

    model_config = ConfigDict(extra="forbid")
    domain: str
    description: str
    subdomains: list[str] = Field(min_length=1)
    nestools_domains: list[str] = Field(default_factory=list)  # NesTools top-level domains it covers
    examples: list[SeedExample] = Field(default_factory=list)


@dataclass(frozen=True, eq=False)  # identity hash: cached worlds are keyed by the seed object
class Seed:
    slug: str
    path: Path
    scenario: SeedScenario
    toolbox: Toolbox
    specs: dict[str, ToolSpec]

    @property
    def domain(self) -> str:
        return self.scenario.domain

    def subdomain_text(self, subdomain: str) -> str:
        """A subdomain as embedded, to find the subdomain a tool belongs to."""
        return f"{self.domain}: {subdomain}"

    def build_world(self, seed: int) -> World:
        assert self.toolbox.build_world is not None
        try:
            built = self.toolbox.build_world(random.Random(f"{self.slug}:{seed}"))
        except Exception as exc:
            raise SeedError(f"{self.path / 'toolbox.py'}: world builder failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(built, World):
            raise SeedError(f"{self.path / 'toolbox.py'}: world builder must return a World, got {type(built).__name__}")
        return built


def scenario_of(path: Path) -> SeedScenario:
    """The checked contents of a seed folder's seed.toml."""
    manifest = path / "seed.toml"
    if not manifest.is_file():
        raise SeedError(f"{path}: missing seed.toml")
    try:
        return SeedScenario(**tomllib.loads(manifest.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as exc:
        raise SeedError(f"{manifest}: invalid TOML: {exc}") from exc
    except ValidationError as exc:
        problems = "; ".join(f"field {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise SeedError(f"{manifest}: {problems}") from exc
    except TypeError as exc:  # a top level that is not a table of fields
        raise SeedError(f"{manifest}: {exc}") from exc
