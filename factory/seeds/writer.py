"""`factory seed new DOMAIN --model M`: a model writes a seed (seed.toml, toolbox.py and
phrasings.toml), the
sandbox vets it, the model repairs what failed, and the seed is saved under
`generated/seeds/<slug>/` with a manifest. The code is model-written: it is only ever run in
the sandbox, here and in every later run (factory.world.sandboxed_seed).

Vetting, in the sandbox: the code imports; specs derive; the world is deterministic (two
builds in one worker, and the tables of a second worker, agree); every tool runs on sampled
valid arguments (from its value tables, or from other tools' outputs) and returns its
declared types; the declaration checks of `factory domains --check` pass or are reported;
at least one chain composes and runs. Problems go back to the model for `rounds` rounds;
tools that still fail are dropped (listed in the manifest with the reason).
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from factory import __version__
from factory.errors import FactoryError, SeedError
from factory.seeds.library import load_library, slugify
from factory.seeds.phrasings import PHRASINGS
from factory.seeds.record import scenario_of

PROMPTS = {"writer": "seed_writer.md", "repair": "seed_repair.md"}
# The worked example in the prompt: a compact seed with every core feature (a world, value
# tables, linked tools with phrasings and descriptions, a sense rule, a condition with its
# fix, a goal), so the prompt fits a small model's 16k-token context with room for the answer
# (about 9,000 tokens with the format; a library seed as the example made it 19,500).
EXAMPLE_SEED = "bike_sharing"
SAMPLES = 6  # argument sets tried per tool
MAX_PROBLEMS = 40  # problems sent back to the model per round


# ---------------------------------------------------------------- reading the model's answer

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_.+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)


@dataclass
class Draft:
    toml: str | None = None
    code: str | None = None
    phrasings: str | None = None  # optional: a toolbox may word its tools in its decorators
    problems: list[str] = field(default_factory=list)

    def files(self) -> dict[str, str]:
        """The seed folder's files, by name."""
        found = {"seed.toml": self.toml or "", "toolbox.py": self.code or ""}
        return found | ({PHRASINGS: self.phrasings} if self.phrasings else {})


_PHRASING_TABLE = re.compile(r"^\s*\[(?:tools|written|conditions|goals)\b", re.M)


def _kind_of(language: str, text: str) -> str | None:
    language = language.lower()
    if language.endswith(PHRASINGS) or (language in ("toml", "ini", "") and _PHRASING_TABLE.search(text)
                                        and not re.search(r'^\s*domain\s*=', text, re.M)):
        return "phrasings"
    if language in ("toml", "ini") or language.endswith("seed.toml"):
        return "toml"
    if language in ("python", "py", "python3") or language.endswith(".py"):
        return "code"
    if "Toolbox(" in text or re.search(r"^\s*(from|import) \w", text, re.M):
        return "code"
    if re.search(r'^\s*domain\s*=\s*"', text, re.M):
        return "toml"
    return None


def read_answer(text: str, truncated: bool = False, previous: Draft | None = None) -> Draft:
    """seed.toml, toolbox.py and phrasings.toml from a model's answer: fenced blocks with or
    without a language, prose around them, a missing closing fence, or no fences at all. A
    file the answer lacks is taken from `previous` (a repair that rewrote only the toolbox)."""
    draft = Draft()
    for language, body in FENCE.findall(text or ""):
        kind = _kind_of(language, body)
        if kind == "toml" and draft.toml is None:
            draft.toml = body.strip() + "\n"
        elif kind == "code" and draft.code is None:
            draft.code = body.rstrip() + "\n"
        elif kind == "phrasings" and draft.phrasings is None:
            draft.phrasings = body.strip() + "\n"
    if draft.toml is None and draft.code is None and text:  # no fences: split at the first line of code
        lines = text.splitlines()
        start = next((i for i, line in enumerate(lines) if re.match(r'\s*(from \w|import \w|""")', line)), None)
        head = "\n".join(lines[:start] if start is not None else lines)
        match = re.search(r'^domain\s*=\s*".*', head, re.M | re.S)
        draft.toml = match.group(0).strip() + "\n" if match else None
        draft.code = "\n".join(lines[start:]).rstrip() + "\n" if start is not None else None
    if previous is not None:
        draft.toml = draft.toml or previous.toml
        draft.code = draft.code or previous.code
        draft.phrasings = draft.phrasings or previous.phrasings
    if draft.toml is None:
        draft.problems.append("the answer holds no seed.toml (a ```toml block starting with domain = \"...\")")
    if draft.code is None:
        draft.problems.append("the answer holds no toolbox.py (a ```python block defining toolbox = Toolbox())")
    elif (problem := _syntax(draft.code)) is not None:
        cut = " The answer was cut off at the length limit: write a shorter toolbox (smaller tables, " \
              "shorter docstrings)." if truncated else ""
        draft.problems.append(f"toolbox.py does not parse: {problem}.{cut}")
    return draft


def _syntax(code: str) -> str | None:
    """A syntax error, found by parsing only (nothing of the code runs here)."""
    try:
        ast.parse(code)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return None


# ---------------------------------------------------------------- vetting in the sandbox

@dataclass
class Vetting:
    """What the sandbox found about a draft. `fatal`: the seed cannot be used at all;
    `tools`: per-tool failures (such a tool is dropped if they remain); `problems`:
    declaration problems (reported); `dropped`: declarations left out (code, not data)."""

    fatal: list[str] = field(default_factory=list)
    tools: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    ran: dict[str, str] = field(default_factory=dict)  # tool → "ok" | "tool errors only" | ...
    chains: list[str] = field(default_factory=list)  # chains that composed and ran, as code
    deterministic: bool | None = None

    @property
    def clean(self) -> bool:
        return not (self.fatal or self.tools or self.problems or self.dropped or not self.chains)

    def messages(self) -> list[str]:
        found = [*self.fatal]
        found += [f"tool {name}: {why}" for name, whys in sorted(self.tools.items()) for why in whys]
        found += self.problems + self.dropped
        if not self.fatal and not self.chains:
            found.append("no chain of two linked tools composes: give an output the kind of another tool's parameter")
        return found[:MAX_PROBLEMS]

    def report(self) -> dict[str, Any]:
        return {"fatal": self.fatal, "tool_failures": self.tools, "declaration_problems": self.problems,
                "dropped_declarations": self.dropped, "tools_run": self.ran, "chains": self.chains,
                "deterministic": self.deterministic}


def vet(folder: Path, drop_tools: dict[str, str] | None = None) -> tuple[Vetting, Any]:
    """Vet the seed in `folder` in the sandbox; (findings, the loaded seed or None)."""
    from factory.seeds.phrasings import apply_phrasings
    from factory.world.sandboxed_seed import ModelWrittenSeed, SandboxRunner, describe_toolbox, settle

    found = Vetting()
    try:
        scenario = scenario_of(folder)
    except SeedError as exc:
        found.fatal.append(f"seed.toml: {exc}")
        return found, None
    runner = SandboxRunner((folder / "toolbox.py").resolve(), folder.name)
    try:
        declarations, specs, spec_errors = describe_toolbox(runner)
    except SeedError as exc:
        runner.close()
        found.fatal.append(f"the toolbox does not load in the sandbox: {exc}")
        return found, None
    for name, why in spec_errors.items():
        found.tools.setdefault(name, []).append(f"no tool spec: {why}")
    if not declarations.world:
        found.fatal.append("no world builder registered (decorate one with @toolbox.world)")
        runner.close()
        return found, None
    settled = settle(declarations, specs, spec_errors, runner, drop_tools)
    try:
        apply_phrasings(settled.toolbox, folder, dropped=set(declarations.tools) - set(settled.toolbox.tools))
    except SeedError as exc:
        found.fatal.append(str(exc))
        runner.close()
        return found, None
    found.dropped = [d for d in settled.dropped if "no spec" not in d and "dropped by the vetting" not in d]
    seed = ModelWrittenSeed(folder.name, folder, scenario, settled.toolbox, settled.specs, runner=runner,
                            dropped=tuple(settled.dropped))
    if not _deterministic(seed, found):
        return found, seed
    if not settled.specs:
        found.fatal.append("no tool is left")
        return found, seed
    _run_tools(seed, found)
    _declaration_checks(seed, found)
    _compose(seed, found)
    return found, seed


def _deterministic(seed: Any, found: Vetting) -> bool:
    from factory.world.sandbox import SandboxFailure
    from factory.world.sandboxed_seed import SandboxRunner

    world_seed = f"{seed.slug}:0"
    try:
        same = seed.runner.rebuild(world_seed)
        tables = seed.runner.tables(world_seed)
        other = SandboxRunner(seed.runner.code, seed.slug)  # a second worker: a fresh interpreter
        try:
            again = other.tables(world_seed)
        finally:
            other.close()
    except (SandboxFailure, SeedError) as exc:
        found.fatal.append(f"the world cannot be built or its value tables drawn: {exc}")
        return False
    problems = [what for what, ok in (("world state", same.get("same_state")), ("world tables", same.get("same_world")),
                                      ("generated values", same.get("same_values")),
                                      ("value tables across processes", tables == again)) if not ok]
    found.deterministic = not problems
    if problems:
        found.fatal.append(f"the world is not deterministic for a seed: two builds differ in {', '.join(problems)} "
                           "(build it only from the random.Random the builder is given; no clock, no set order)")
    return not problems


def _arguments(seed: Any, pool: Any, spec: Any, produced: dict, rng: random.Random) -> dict[str, Any] | str:
    """One set of valid arguments for a tool: literals from its tables, or values other tools
    returned; a string says why none can be drawn."""
    arguments: dict[str, Any] = {}
    for group in pool.groups.get(spec.name, []):
        tuples = pool.joint_options(spec, group)
        if tuples:
            arguments.update(zip(group.params, rng.choice(tuples), strict=False))
    for p in spec.parameters:
        if p.name in arguments or not p.required:
            continue
        options = pool.options(spec, p) or produced.get((p.kind, p.role, p.type), [])
        if not options:
            return f"parameter {p.name!r} cannot be given a value (no values_for({p.kind!r}) and no tool returns one)"
        arguments[p.name] = rng.choice(options)
    return arguments


def _run_tools(seed: Any, found: Vetting) -> None:
    """Every tool on sampled valid arguments, in its own copy of the base world."""
    from dataclasses import replace

    from factory.chains.pool import pool_of
    from factory.world.simulator import ToolCrash

    pool = pool_of({seed.slug: seed}, [seed.slug], 0)
    base = seed.build_world(0)
    produced: dict[tuple, list[Any]] = {}
    rng = random.Random(0)
    pending = sorted(seed.specs)
    for _ in range(2):  # a second pass for tools that take what others return
        waiting = []
        for name in pending:
            spec = seed.specs[name]
            errors, crashes, ok, unsampled = [], [], 0, None
            for _ in range(SAMPLES):
                arguments = _arguments(seed, pool, spec, produced, rng)
                if isinstance(arguments, str):
                    unsampled = arguments
                    break
                world = replace(base, state=json.loads(json.dumps(base.state)))
                try:
                    result = seed.run(world, spec, arguments)
                except ToolCrash as exc:
                    crashes.append(str(exc).split(" crashed on ", 1)[-1])
                    continue
                if result.error is not None:
                    errors.append(f"{arguments!r}: {result.error}")
                    continue
                ok += 1
                for out, value in zip(spec.returns, result.values, strict=False):
                    produced.setdefault((out.kind, out.role, out.type), []).append(value)
            if unsampled:
                waiting.append(name)
                found.ran[name] = unsampled
                continue
            if crashes:
                found.tools.setdefault(name, []).append(f"crashed or returned undeclared types in {len(crashes)} of "
                                                        f"{SAMPLES} sampled calls, e.g. {crashes[0]}")
            elif not ok:
                found.tools.setdefault(name, []).append(f"raised ToolError on every sampled valid call, e.g. {errors[0]}")
            found.ran[name] = "ok" if ok and not crashes else "failed"
        pending = waiting
    for name in pending:
        found.tools.setdefault(name, []).append(found.ran[name])


def _declaration_checks(seed: Any, found: Vetting) -> None:
    from factory.seeds.checks import library_pool, seed_problems

    found.problems += seed_problems(seed, library_pool({seed.slug: seed}), require_goals=False)


def _compose(seed: Any, found: Vetting) -> None:
    """At least one chain of two linked calls composes and runs (a single call, at worst)."""
    from factory.chains.code import render_chain
    from factory.chains.composer import compose
    from factory.chains.pool import pool_of
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, ToolCrash, run_chain

    pool = pool_of({seed.slug: seed}, [seed.slug], 0)
    rng = random.Random(0)
    for n, edges in ((2, [(0, 1)]), (3, [(0, 1), (1, 2)]), (3, [(0, 2), (1, 2)])):
        for _ in range(8):
            chain = compose(pool, n, edges, rng)
            if chain is None:
                break
            try:
                trace = run_chain(chain, pool.specs, Simulator({seed.slug: seed}, WorldSetup(toolboxes=[seed.slug], seed=0)))
            except ToolCrash:
                continue  # the tool runs report it
            if all(step.error is None for step in trace.steps):
                found.chains.append(render_chain(chain))
                break
    if not found.chains and compose(pool, 1, [], rng) is None:
        found.fatal.append("no chain composes, not even a single call: check the value generators and kinds")


# ---------------------------------------------------------------- writing, repairing, saving

@dataclass
class Written:
    folder: Path
    slug: str
    rounds: int
    vetting: Vetting
    dropped_tools: dict[str, str]
    manifest: dict[str, Any]


def example_dir(prompts_dir: Path | None = None) -> Path:
    """Where the worked example of the seed prompt lives: `seed_example/` beside the prompts."""
    from factory.config import resource_dir

    return (prompts_dir or resource_dir("prompts")) / "seed_example" / EXAMPLE_SEED


def writer_prompt(template: str, domain: str, seeds_dir: Path, example: Path | None = None) -> str:
    example = example or example_dir()
    if not (example / "toolbox.py").is_file():
        raise FactoryError(f"the worked example of the seed prompt, {example}, is missing (FACTORY_PROMPTS_DIR)")
    fmt = (seeds_dir / "README.md").read_text(encoding="utf-8") if (seeds_dir / "README.md").is_file() else ""
    fills = {"{domain}": domain, "{format}": fmt, "{example_slug}": EXAMPLE_SEED,
             "{example_toml}": (example / "seed.toml").read_text(encoding="utf-8").strip(),
             "{example_toolbox}": (example / "toolbox.py").read_text(encoding="utf-8").strip(),
             "{example_phrasings}": (example / PHRASINGS).read_text(encoding="utf-8").strip()
             if (example / PHRASINGS).is_file() else ""}
    return re.sub("|".join(re.escape(k) for k in fills), lambda m: fills[m.group(0)], template)


def _emptied(folder: Path) -> Path:
    """`folder`, made empty: what an earlier round or run wrote there (a phrasings file this
    round's draft has not) is not this one's."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def _stage(folder: Path, draft: Draft) -> None:
    _emptied(folder)
    for name, text in draft.files().items():
        (folder / name).write_text(text, encoding="utf-8")


def write_seed(domain: str, client: Any, prompts: dict[str, str], seeds_dir: Path, out_dir: Path, *,
               rounds: int = 3, model: str = "", on_round: Any = None, example: Path | None = None) -> Written:
    """Ask, vet, repair up to `rounds` rounds, drop what still fails, save. FactoryError when
    no usable seed came out (the report says why)."""
    slug = _can_write(domain, rounds)
    system = writer_prompt(prompts["writer"], domain, seeds_dir, example)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                      {"role": "user", "content": f"Write the seed for the domain: {domain}"}]
    draft: Draft | None = None
    found, seed, used = Vetting(), None, 0
    answers: list[str] = []
    with tempfile.TemporaryDirectory(prefix="seed-vetting-") as tmp:
        staging = Path(tmp) / slug
        for used in range(1, rounds + 1):
            reply = client.complete(messages)
            if not reply.ok:
                raise FactoryError(f"the model could not be asked: {reply.error}")
            answers.append(reply.text or "")
            draft = read_answer(reply.text or "", reply.truncated, draft)
            if seed is not None:
                seed.close()
                seed = None
            if draft.problems:
                found = Vetting(fatal=list(draft.problems))
            else:
                _stage(staging, draft)
                found, seed = vet(staging)
            if on_round:
                on_round(used, found)
            if found.clean:
                break
            problems = "\n".join(f"- {p}" for p in found.messages())
            messages += [{"role": "assistant", "content": reply.text or ""},
                         {"role": "user", "content": prompts["repair"].replace("{problems}", problems)}]
        if seed is not None:
            seed.close()
        dropped = {name: "; ".join(whys) for name, whys in sorted(found.tools.items())}
        final, failure = found, ""
        if found.fatal or draft is None or draft.problems:
            failure = f"no usable seed for {domain!r} after {used} round(s): " + "; ".join(found.messages()[:6])
        elif dropped:
            try:
                final = _vet_without(staging, dropped, domain)
            except FactoryError as exc:
                failure = str(exc)
        if failure:
            kept = _keep_rejected(rejected_dir(out_dir) / slug, draft, answers, found)
            raise FactoryError(f"{failure} (the last draft, every answer and the whole vetting report are in {kept})")
        manifest = {
            "domain": domain, "slug": slug, "written_by": "model", "model": model,
            "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "rounds": used,
            "prompts": {PROMPTS[k]: hashlib.sha256(v.encode()).hexdigest()[:16] for k, v in prompts.items()},
            "example_seed": EXAMPLE_SEED, "factory_version": __version__,
            "files": {name: hashlib.sha256((staging / name).read_bytes()).hexdigest() for name in draft.files()},
            "vetting": {**final.report(), "dropped_tools": dropped},
        }
        target = _save(staging, out_dir / slug, list(draft.files()), manifest)
    load_library.cache_clear()  # a later load in this process sees the new seed
    return Written(target, slug, used, final, dropped, manifest)


def _can_write(domain: str, rounds: int) -> str:
    """The folder name of the seed to write; an error for bad flags or where no sandbox can vet it."""
    from factory.world.bubblewrap import SandboxUnavailable, unavailable_reason

    if rounds < 1:
        raise FactoryError(f"--rounds must be at least 1, got {rounds}")
    reason = unavailable_reason()
    if reason:
        raise SandboxUnavailable(f"no sandbox here ({reason}): a model-written toolbox is only ever run in the sandbox, "
                                 "so it cannot be vetted or used; install bubblewrap")
    slug = slugify(domain)
    if not slug:
        raise FactoryError(f"domain {domain!r} has no letters or digits to name its folder")
    return slug


def _vet_without(staging: Path, dropped: dict[str, str], domain: str) -> Vetting:
    """Vet again without the tools that still fail: a chain must still compose."""
    final, seed = vet(staging, dropped)
    if seed is not None:
        seed.close()
    if final.fatal or not final.chains and not [n for n in final.ran if n not in dropped]:
        raise FactoryError(f"no usable seed for {domain!r}: after dropping {', '.join(dropped)}: "
                           + "; ".join(final.messages()[:6]))
    return final


def rejected_dir(out_dir: Path) -> Path:
    """Where a seed that did not pass its vetting is kept to read: beside the seeds' folder,
    never in it (the library would load it)."""
    return out_dir.with_name(f"{out_dir.name}-rejected")


def _keep_rejected(target: Path, draft: Draft | None, answers: list[str], found: Vetting) -> Path:
    """The last draft's files, the model's answer of each round and the vetting report, so a
    failed `seed new` loses nothing its rounds cost: the files can be mended by hand and vetted."""
    from factory.lm.secrets import redact

    _emptied(target)
    for name, text in (draft.files() if draft is not None else {}).items():
        (target / name).write_text(text, encoding="utf-8")
    for round_, answer in enumerate(answers, 1):
        (target / f"answer-round-{round_}.md").write_text(redact(answer), encoding="utf-8")
    report = {**found.report(), "problems": found.messages()}
    (target / "vetting.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def _save(staging: Path, target: Path, names: list[str], manifest: dict[str, Any]) -> Path:
    """The vetted files and the manifest (never a key) in the seed's folder, replacing an older one."""
    from factory.lm.secrets import redact

    _emptied(target)
    for name in names:
        shutil.copyfile(staging / name, target / name)
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    (target / "manifest.json").write_text(redact(text), encoding="utf-8")
    return target


