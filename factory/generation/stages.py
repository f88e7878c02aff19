"""A run's model stages, built once from the settings and the editable prompts: the chain
writer (domains no seed covers), the query writer, the tool simulator and the judges, all
through one model client per model (factory.lm) with the run's call cache. A stage can use
another model than the run's: `[tool.factory.stage_models]` in the config file maps a stage
(chain_writer, query_writer, simulator, judge) to a model name."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.config import Settings, read_prompts
from factory.errors import ConfigError
from factory.generation.pipeline import ModelStages
from factory.records import GenerateConfig

PROMPTS = {
    "chain_writer": "chain_writer.md",
    "chain_repair": "chain_repair.md",
    "chain_tools_json": "chain_tools_json.md",
    "chain_calls_json": "chain_calls_json.md",
    "chain_repair_json": "chain_repair_json.md",
    "query_writer": "query_writer.md",
    "query_repair": "query_repair.md",
    "simulator": "tool_simulator.md",
    "judge": "judge.md",
}
STAGES = ("chain_writer", "query_writer", "simulator", "judge")


@dataclass
class RunModels:
    """The clients of a run (one per model) and the stages' DSPy programs."""

    stages: ModelStages
    clients: dict[str, Any]  # model name → LMClient
    chain_writer: Any
    writer_lm_for: Any  # attempt → the chain writer's dspy.LM
    judge: Any

    def usage(self) -> dict[str, Any]:
        """Calls, tokens and cost per model, as the manifest records them."""
        return {name: client.usage.summary().model_dump() for name, client in self.clients.items()}

    def carry(self, usage: dict[str, Any]) -> None:
        """Count the calls an earlier process of a resumed run made (its manifest's usage)."""
        from factory.lm.usage import UsageSummary

        for name, client in self.clients.items():
            if name in usage:
                client.usage.carry(UsageSummary.model_validate(usage[name]))

    def line(self) -> str:
        return "; ".join(client.usage.summary().line() for client in self.clients.values())

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


def build_models(config: GenerateConfig, settings: Settings, run_path: Path, seeds: dict[str, Any]) -> RunModels:
    """The model stages of a run whose generator is a model (`config.generator`)."""
    from factory.chains.model_writer import ChainWriter, seed_demos
    from factory.checks.judges import Judge
    from factory.lm.cache import CallCache
    from factory.lm.client import LMClient
    from factory.lm.dspy_bridge import dspy_lm
    from factory.lm.settings import lm_settings
    from factory.queries.model_writer import QueryWriter
    from factory.world.model_simulator import ModelToolSimulator, SimulatedCalls

    unknown = sorted(set(settings.stage_models) - set(STAGES))
    if unknown:
        raise ConfigError(f"stage_models names unknown stages {unknown}; the stages are {', '.join(STAGES)}")
    texts = read_prompts(settings.prompts_dir, PROMPTS)
    cache = CallCache(run_path / "calls.sqlite")
    clients: dict[str, LMClient] = {}

    def client_for(stage: str) -> LMClient:
        model = settings.stage_models.get(stage, config.generator)
        if model not in clients:
            clients[model] = LMClient(lm_settings(settings, model=model, temperature=config.temperature), cache)
            clients[model].check()  # a missing key or --api-base is one line before anything runs
        return clients[model]

    writer_client, query_client = client_for("chain_writer"), client_for("query_writer")
    query_writer = QueryWriter(texts["query_writer"], texts["query_repair"], query_demos(seeds))
    def structured(stage: str) -> bool:
        return client_for(stage).settings.structured_output != "off"

    simulator = ModelToolSimulator(dspy_lm(client_for("simulator")), texts["simulator"],
                                   SimulatedCalls(run_path / "simulated.sqlite"), structured("simulator"))
    stages = ModelStages(
        label=config.generator,
        lm_for=lambda k: dspy_lm(query_client, sample=k),
        query_writer=query_writer,
        simulator=simulator,
        prompts={PROMPTS[s]: hashlib.sha256(t.encode()).hexdigest()[:16] for s, t in texts.items()},
    )
    chain_writer = ChainWriter(texts["chain_writer"], seed_demos(seeds, config.seed), texts["chain_repair"],
                               (texts["chain_tools_json"], texts["chain_calls_json"]) if structured("chain_writer") else None,
                               texts["chain_repair_json"])
    judge = Judge(dspy_lm(client_for("judge")), texts["judge"], structured("judge"), config.judge_precision)
    return RunModels(stages, clients, chain_writer, lambda k: dspy_lm(writer_client, sample=k), judge)


def model_judge(settings: Settings, cache_path: Path, temperature: float = 0.7) -> tuple[Any, str, Any]:
    """The judges of `settings.model` as a run builds them (its prompt, its structured output),
    outside a run: (judge, the prompt's digest, close). `factory calibrate` measures it."""
    from factory.checks.judges import Judge
    from factory.lm.cache import CallCache
    from factory.lm.client import LMClient
    from factory.lm.dspy_bridge import dspy_lm
    from factory.lm.settings import lm_settings

    text = read_prompts(settings.prompts_dir, {"judge": PROMPTS["judge"]})["judge"]
    client = LMClient(lm_settings(settings, model=settings.model, temperature=temperature), CallCache(cache_path))
    client.check()
    judge = Judge(dspy_lm(client), text, client.settings.structured_output != "off")
    return judge, hashlib.sha256(text.encode()).hexdigest()[:16], client.close


def query_demos(seeds: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(draft, values, request) demos from the seed examples: the draft is the offline wording
    of the example's chain, the request what a person wrote for it."""
    import random

    from factory.chains.code import parse_chain
    from factory.queries import template_query
    from factory.queries.model_writer import values_to_state

    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    entries = {name: e for seed in seeds.values() for name, e in seed.toolbox.tools.items()}
    joint = sorted({kinds for seed in seeds.values() for kinds in seed.toolbox.joint_values})
    written = {slug: seed.toolbox.written for slug, seed in seeds.items()}
    demos = []
    for seed in seeds.values():
        for example in seed.scenario.examples:
            try:
                chain = parse_chain(example.chain, specs)
                draft = template_query(chain, specs, entries, joint, random.Random(0), written=written).variants["template"]
            except Exception:  # seed examples are checked by the seed tests; a broken one is no demo
                continue
            demos.append((draft, "\n".join(values_to_state(chain)), example.query))
    return demos
