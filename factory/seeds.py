"""Seed scenarios: loading `seeds/<slug>/seed.toml` and its executable `toolbox.py`, and
resolving a user's `--domain` to a seed."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
import tomllib
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import Levenshtein
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import FactoryError, FactoryWarning, SeedError
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
    seed = Seed(slug, path, scenario, toolbox, specs)
    seed.build_world(0)  # a builder that always fails would otherwise stop every run that loads it
    return seed


@dataclass(frozen=True)
class BrokenSeed:
    slug: str
    domain: str | None  # from seed.toml, when that much could be read
    error: SeedError


@dataclass(frozen=True)
class SeedLibrary:
    """The seeds of a folder that load, and those that do not, with why."""

    seeds: dict[str, Seed]
    broken: dict[str, BrokenSeed]

    def broken_named(self, query: str) -> SeedError | None:
        """The load error of a broken seed that `query` names exactly (slug or domain)."""
        key = _norm(query.partition("/")[0])
        if not key:
            return None
        return next((b.error for b in self.broken.values() if key in {_norm(b.slug), _norm(b.domain or "")}), None)


def _declared_domain(folder: Path) -> str | None:
    try:
        domain = tomllib.loads((folder / "seed.toml").read_text()).get("domain")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return domain if isinstance(domain, str) else None


@cache
def load_library(seeds_dir: Path) -> SeedLibrary:
    """Every seed folder under `seeds_dir`, in name order. A seed that fails to load is kept
    aside with its error and a warning, so one broken seed does not block the others."""
    if not seeds_dir.is_dir():
        raise SeedError(f"seed folder {seeds_dir} does not exist; set FACTORY_SEEDS_DIR to a folder of seeds "
                        "(see seeds/README.md)")
    seeds, broken = {}, {}
    for folder in sorted(p for p in seeds_dir.iterdir() if p.is_dir() and (p / "seed.toml").exists()):
        try:
            seeds[folder.name] = load_seed(folder)
        except SeedError as exc:
            broken[folder.name] = BrokenSeed(folder.name, _declared_domain(folder), exc)
            warnings.warn(FactoryWarning(f"seed {folder.name} skipped: {exc}"), stacklevel=2)
    return SeedLibrary(seeds, broken)


def load_seeds(seeds_dir: Path) -> dict[str, Seed]:
    """Every seed under `seeds_dir` that loads, by slug, in name order; none at all is an error."""
    library = load_library(seeds_dir)
    if library.seeds:
        return library.seeds
    if library.broken:
        first = next(iter(library.broken.values()))
        raise SeedError(f"no seed in {seeds_dir} loads ({len(library.broken)} failed); {first.error}")
    raise SeedError(f"seed folder {seeds_dir} holds no seed (a folder with seed.toml and toolbox.py); set "
                    "FACTORY_SEEDS_DIR to a folder of seeds, such as the repository's seeds/ (see seeds/README.md)")


@dataclass(frozen=True)
class DomainMatch:
    seeds: list[Seed]  # one seed, or every seed covering a NesTools domain
    name: str  # the canonical name of what matched
    subdomain: str | None  # the requested subdomain, as the seed spells it
    unknown_subdomain: str | None = None  # a requested subdomain no matched seed lists


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("&", "and"))


def resolve_domain(query: str, seeds: dict[str, Seed]) -> DomainMatch | None:
    """Find the seeds a user means: a seed's name or slug; a NesTools domain (every seed
    covering it); a close misspelling of either. "Domain/Subdomain" narrows to the seed
    listing that subdomain."""
    top, _, sub = (part.strip() for part in query.partition("/"))
    key = _norm(top)
    if not key:
        return None
    names: dict[str, tuple[str, list[Seed]]] = {}  # normalised name → (name, seeds)
    for seed in seeds.values():
        for name in seed.scenario.nestools_domains:
            names.setdefault(_norm(name), (name, []))[1].append(seed)
    for seed in seeds.values():  # a seed's own name wins over a NesTools domain it shares
        for name in (seed.domain, seed.slug):
            names[_norm(name)] = (seed.domain, [seed])
    if key not in names:
        distance, key = min((Levenshtein.distance(key, n), n) for n in names)
        if distance > max(1, len(key) // 5):
            return None
    name, matched = names[key]
    if not sub:
        return DomainMatch(matched, name, None)
    for seed in matched:
        listed = {_norm(s): s for s in seed.scenario.subdomains}
        if _norm(sub) in listed:
            return DomainMatch([seed], seed.domain, listed[_norm(sub)])
    return DomainMatch(matched, name, None, unknown_subdomain=sub)


def unknown_domain_error(query: str, seeds: dict[str, Seed]) -> FactoryError:
    names = ", ".join(seed.domain for seed in seeds.values())
    return FactoryError(
        f"no seed toolbox matches domain {query!r}; offline generation covers the seed domains: {names}. "
        "For any other domain, pass a model: --model openai/gpt-4o-mini (key in FACTORY_API_KEY or OPENAI_API_KEY), "
        "or --model hosted_vllm/NAME --api-base http://localhost:8000/v1 for your own server; or add a seed folder "
        "(see seeds/README.md)."
    )
