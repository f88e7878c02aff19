"""Seed scenarios: loading `seeds/<slug>/seed.toml` and its executable `toolbox.py`, and
resolving a user's `--domain` to a seed."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import Levenshtein

from factory.errors import FactoryError, FactoryWarning, SeedError
from factory.seeds.phrasings import apply_phrasings
from factory.seeds.record import Seed, scenario_of, with_moved_hint
from factory.seeds.specs import spec_from_function
from factory.toolbox import Toolbox
from factory.world.sandboxed_seed import load_sandboxed_seed


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
        raise SeedError(with_moved_hint(f"{path}: importing the toolbox failed: {type(exc).__name__}: {exc}")) from exc
    toolbox = getattr(module, "toolbox", None)
    if not isinstance(toolbox, Toolbox):
        raise SeedError(f"{path}: defines no `toolbox = Toolbox()`")
    return toolbox


def model_written(path: Path) -> bool:
    """A seed folder a model wrote (it carries the manifest of `factory seed new`): its code
    runs only in the sandbox."""
    return (path / "manifest.json").is_file()


def load_seed(path: Path, *, sandboxed: bool = False) -> Seed:
    """Load and check one seed folder; every problem is a SeedError naming file and field.
    A model-written seed (`sandboxed`, or a folder with manifest.json) is loaded through the
    sandbox and never imported here (factory.world.sandboxed_seed)."""
    if sandboxed or model_written(path):
        return load_sandboxed_seed(path)
    slug = path.name
    scenario = scenario_of(path)
    code = path / "toolbox.py"
    if not code.is_file():
        raise SeedError(f"{path}: missing toolbox.py")
    toolbox = _import_toolbox(slug, code)
    apply_phrasings(toolbox, path)
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
def load_library(seeds_dir: Path, sandboxed: bool = False) -> SeedLibrary:
    """Every seed folder under `seeds_dir`, in name order. A seed that fails to load is kept
    aside with its error and a warning, so one broken seed does not block the others.
    `sandboxed`: the folder holds model-written seeds, loaded only through the sandbox; where
    no sandbox can be had, none of them is used, and one warning says so."""
    if not seeds_dir.is_dir():
        raise SeedError(f"seed folder {seeds_dir} does not exist; set FACTORY_SEEDS_DIR to a folder of seeds "
                        "(see seeds/README.md)")
    seeds, broken = {}, {}
    folders = sorted(p for p in seeds_dir.iterdir() if p.is_dir() and (p / "seed.toml").exists())
    if folders and (sandboxed or any(model_written(p) for p in folders)):
        from factory.world.bubblewrap import unavailable_reason

        reason = unavailable_reason()
        if reason:
            written = [p for p in folders if sandboxed or model_written(p)]
            error = SeedError(f"model-written seed not used: no sandbox here ({reason}); its code never runs "
                              "outside the sandbox")
            broken.update({p.name: BrokenSeed(p.name, _declared_domain(p), error) for p in written})
            warnings.warn(FactoryWarning(
                f"{len(written)} model-written seed(s) in {seeds_dir} not used ({', '.join(p.name for p in written)}): "
                f"no sandbox here ({reason}); their code never runs outside the sandbox"), stacklevel=2)
            folders = [p for p in folders if p.name not in broken]
    for folder in folders:
        try:
            seeds[folder.name] = load_seed(folder, sandboxed=sandboxed)
        except SeedError as exc:
            broken[folder.name] = BrokenSeed(folder.name, _declared_domain(folder), exc)
            warnings.warn(FactoryWarning(f"seed {folder.name} skipped: {exc}"), stacklevel=2)
    return SeedLibrary(seeds, broken)


def library_for(settings: Any) -> SeedLibrary:
    """The seeds a command uses: the trusted seeds (`seeds_dir`) and the model-written ones
    (`generated_seeds_dir`, when that folder exists), run only in the sandbox. A model-written
    seed whose slug or domain a trusted seed already has is left out, with why."""
    trusted = load_library(settings.seeds_dir) if settings.seeds_dir.is_dir() else SeedLibrary({}, {})
    extra = settings.generated_seeds_path
    if extra is None or not extra.is_dir() or extra.resolve() == settings.seeds_dir.resolve():
        return trusted
    written = load_library(extra.resolve(), True)
    seeds, broken = dict(trusted.seeds), dict(trusted.broken)
    domains = {_norm(s.domain) for s in seeds.values()}
    for slug, seed in written.seeds.items():
        if slug in seeds or slug in broken or _norm(seed.domain) in domains:
            broken[slug] = BrokenSeed(slug, seed.domain, SeedError(
                f"model-written seed {seed.path} not used: a seed of {settings.seeds_dir} has its name or domain"))
            warnings.warn(FactoryWarning(f"seed {seed.path} skipped: {broken[slug].error}"), stacklevel=2)
            continue
        seeds[slug] = seed
        domains.add(_norm(seed.domain))
    for slug, b in written.broken.items():
        broken.setdefault(slug, b)
    return SeedLibrary(seeds, broken)


def seeds_for(settings: Any) -> dict[str, Seed]:
    """`library_for(settings).seeds`; none at all is an error (as `load_seeds`)."""
    library = library_for(settings)
    if library.seeds:
        return library.seeds
    return load_seeds(settings.seeds_dir)  # raises the error that says what is missing


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
    misspelled: bool = False  # the name matched only as a close misspelling (said, never silent)


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
    misspelled = key not in names
    if misspelled:
        distance, key = min((Levenshtein.distance(key, n), n) for n in names)
        if distance > max(1, len(key) // 5):
            return None
    name, matched = names[key]
    if not sub:
        return DomainMatch(matched, name, None, misspelled=misspelled)
    for seed in matched:
        listed = {_norm(s): s for s in seed.scenario.subdomains}
        if _norm(sub) in listed:
            return DomainMatch([seed], seed.domain, listed[_norm(sub)], misspelled=misspelled)
    return DomainMatch(matched, name, None, unknown_subdomain=sub, misspelled=misspelled)


def unknown_domain_error(query: str, seeds: dict[str, Seed]) -> FactoryError:
    names = ", ".join(seed.domain for seed in seeds.values())
    return FactoryError(
        f"no seed toolbox matches domain {query!r}; offline generation covers the seed domains: {names}. "
        "For any other domain, pass a model: --model openai/gpt-4o-mini (key in FACTORY_API_KEY or OPENAI_API_KEY), "
        "or --model hosted_vllm/NAME --api-base http://localhost:8000/v1 for your own server; or add a seed folder "
        "(see seeds/README.md)."
    )
