"""Seed scenarios: loading `seeds/<slug>/seed.toml` and its executable `toolbox.py`, and
resolving a user's `--domain` to a seed."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import Levenshtein
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import FactoryError, SeedError
from factory.records import ToolSpec
from factory.specs import spec_from_function
from factory.toolbox import Toolbox, World


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

    def build_world(self, seed: int) -> World:
        assert self.toolbox.build_world is not None
        try:
            built = self.toolbox.build_world(random.Random(f"{self.slug}:{seed}"))
        except Exception as exc:
            raise SeedError(f"{self.path / 'toolbox.py'}: world builder failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(built, World):
            raise SeedError(f"{self.path / 'toolbox.py'}: world builder must return a World, got {type(built).__name__}")
        return built


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _import_toolbox(slug: str, path: Path) -> Toolbox:
    module_name = f"factory_seed_{slug.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise SeedError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and typing resolve names through sys.modules
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise SeedError(f"{path}: importing the toolbox failed: {type(exc).__name__}: {exc}") from exc
    toolbox = getattr(module, "toolbox", None)
    if not isinstance(toolbox, Toolbox):
        raise SeedError(f"{path}: defines no `toolbox = Toolbox()`")
    return toolbox


def load_seed(path: Path) -> Seed:
    """Load and check one seed folder; every problem is a SeedError naming file and field."""
    slug = path.name
    manifest = path / "seed.toml"
    if not manifest.is_file():
        raise SeedError(f"{path}: missing seed.toml")
    try:
        scenario = SeedScenario(**tomllib.loads(manifest.read_text()))
    except tomllib.TOMLDecodeError as exc:
        raise SeedError(f"{manifest}: invalid TOML: {exc}") from exc
    except ValidationError as exc:
        problems = "; ".join(f"field {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise SeedError(f"{manifest}: {problems}") from exc
    code = path / "toolbox.py"
    if not code.is_file():
        raise SeedError(f"{path}: missing toolbox.py")
    toolbox = _import_toolbox(slug, code)
    if toolbox.build_world is None:
        raise SeedError(f"{code}: no world builder registered (decorate one with @toolbox.world)")
    if not toolbox.tools:
        raise SeedError(f"{code}: registers no tools")
    specs = {name: spec_from_function(entry.fn, slug) for name, entry in toolbox.tools.items()}
    for name, entry in toolbox.tools.items():
        for condition in entry.requires:
            if condition not in toolbox.conditions:
                raise SeedError(f"{code}: tool {name!r} requires undeclared condition {condition!r}")
    for condition in toolbox.conditions.values():
        if condition.fix_tool not in specs:
            raise SeedError(f"{code}: condition {condition.name!r} is fixed by unknown tool {condition.fix_tool!r}")
    return Seed(slug, path, scenario, toolbox, specs)


@cache
def load_seeds(seeds_dir: Path) -> dict[str, Seed]:
    """Every seed under `seeds_dir`, by slug, in name order."""
    if not seeds_dir.is_dir():
        raise SeedError(f"seed folder {seeds_dir} does not exist")
    folders = sorted(p for p in seeds_dir.iterdir() if p.is_dir() and (p / "seed.toml").exists())
    return {p.name: load_seed(p) for p in folders}


@dataclass(frozen=True)
class DomainMatch:
    seed: Seed
    subdomain: str | None


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def resolve_domain(query: str, seeds: dict[str, Seed]) -> DomainMatch | None:
    """Find the seed a user means: exact name or slug, a NesTools domain it covers, a close
    misspelling; "Domain/Subdomain" also picks the subdomain when the seed lists it."""
    top, _, sub = query.partition("/")
    key = _norm(top)
    if not key:
        return None

    def pick(seed: Seed) -> DomainMatch:
        subs = {_norm(s): s for s in seed.scenario.subdomains}
        return DomainMatch(seed, subs.get(_norm(sub)) if sub else None)

    for seed in seeds.values():
        if key in (_norm(seed.domain), _norm(seed.slug)):
            return pick(seed)
    for seed in seeds.values():
        if any(key == _norm(d) for d in seed.scenario.nestools_domains):
            return pick(seed)
    scored = sorted(
        (Levenshtein.distance(key, _norm(name)), seed.slug)
        for seed in seeds.values()
        for name in (seed.domain, seed.slug, *seed.scenario.nestools_domains)
    )
    if scored and scored[0][0] <= max(1, len(key) // 5):
        return pick(seeds[scored[0][1]])
    return None


def unknown_domain_error(query: str, seeds: dict[str, Seed]) -> FactoryError:
    names = ", ".join(seed.domain for seed in seeds.values())
    return FactoryError(
        f"no seed toolbox matches domain {query!r}; offline generation covers the seed domains: {names}. "
        "To cover another domain, add a seed folder (see seeds/README.md)."
    )
