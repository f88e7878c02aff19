"""The dataset card: YAML header (configs, splits, features, license, tags) and a body with
the generation config and the distribution report. No paths, times or secrets: the card is
part of the byte-identical output of a run."""

from __future__ import annotations

from collections import Counter
from typing import Any

import yaml

from factory import __version__
from factory.dataset.export import CONVERSATIONS, LICENSE, NESTOOLS, NESTOOLS_EXCLUDED, features
from factory.dataset.stats import markdown
from factory.records import GenerateConfig


def _size_category(n: int) -> str:
    return "n<1K" if n < 1000 else "1K<n<10K" if n < 10_000 else "10K<n<100K"


# Why a stock NesTools scorer (which reads the request, the tools and the gold calls, and no
# field of ours) would misjudge an item: factory.dataset.nestools.stock_unfair's reasons.
_EXCLUDED_WHY = {
    "unsolvable": "a gold tool is withheld, so the right answer is to say the rest cannot be done; the row's "
                  "`call` holds only what can still be done (the whole chain is in `call_if_offered`), and a stock "
                  "scorer, which reads neither `solvable: false` nor the answer, cannot reward saying so",
    "unstated_condition": "a fix-up call restores a condition the request does not say holds (at most it allows "
                          "the fix if needed: \"if location sharing is off, turn it on\"): an agent learns that it "
                          "holds from a tool error, which a static call list never sees",
    "unstated_value": "a gold call needs a literal the request does not state (a fix-up's free argument, which "
                      "any value fills): a stock scorer demands the gold's own value",
}


def _nestools_section(split: dict[str, Counter[str]]) -> str:
    fair, excluded = sum(split[NESTOOLS].values()), split[NESTOOLS_EXCLUDED]
    rows = "\n".join(f"| `{reason}` | {count} | {_EXCLUDED_WHY.get(reason, reason)} |"
                      for reason, count in sorted(excluded.items()))
    table = f"\n\n| reason | instances | why |\n| --- | --- | --- |\n{rows}" if excluded else ""
    return f"""## NesTools files

Beside this folder, `{NESTOOLS}` holds the {fair} instances a stock NesTools scorer scores
fairly: every gold call follows from the request and the offered tools, and every literal
argument of every gold call is stated in the request. `{NESTOOLS_EXCLUDED}` holds the other
{sum(excluded.values())}, each row with `excluded` saying why (a row's `test_id` is the
instance's position in this dataset in either file, and each tool and gold call carries the
`api_id` that `factory evaluate` shows a model). As in NesTools' own test set, a row's `api`
lists the gold tools alone; the distractors an instance offers are in this dataset's `tools`,
and `factory evaluate` offers them.{table}

Every instance, these included, is in this dataset and is scored fairly by `factory evaluate`
in interactive mode (the agent meets the tools' errors and may say it cannot finish).
"""


def _splits_section(config: GenerateConfig, report: dict[str, Any]) -> str:
    from factory.dataset.stats import split_markdown
    from factory.generation.splits import held_split

    sizes = ", ".join(f"`{name}` ({size})" for name, size in config.splits.items())
    if config.hold_out:
        held = held_split(config.splits)
        how = {
            "tools": f"whole goals (what a person wants and the tools that serve it), drawn with the run seed, were set "
                     f"apart until their tools made the `{held}` split's share of all tools (then goals filling common "
                     "shapes or scenarios the others did not, by a trial of each through the checks), with the "
                     "fix-up tools of their conditions; "
                     f"`{held}` instances call those tools only (fix-ups and withheld tools included), the others never",
            "domains": f"seed domains, drawn with the run seed, were set apart for `{held}`; its instances come from "
                       "them, the others' from the rest",
            "skeletons": f"a skeleton (tools and wiring, literals aside) belongs to `{held}` when its hash with the run "
                         "seed falls in that split's share; no other split has one of its skeletons",
        }[config.hold_out]
        rule = f"Held out: {config.hold_out}. {how[0].upper()}{how[1:]}. "
    else:
        rule = ""
    return f"""## Splits

{sizes}. {rule}Each kept instance went, in the order the candidates were made, to the split
furthest below its share (a candidate whose split was full, that mixed held-out units with
others, or that was held out and of a shape its split had its share of, was a counted reject),
so the same command gives the same splits byte for byte.

{split_markdown(report)}
"""


def _conversations_section(talks: dict[str, tuple[int, int]]) -> str:
    count = sum(n for n, _ in talks.values())
    return f"""## Conversations

The `{CONVERSATIONS}` config ({CONVERSATIONS}/*.parquet, {count} instances; `load_dataset(path,
"{CONVERSATIONS}")`) holds the conversational items, in their own config because no single-request
format can hold them: they are not in the default config nor in `{NESTOOLS}`. Each has a
`conversation` column: `kind` (`ask_user`: a value only the person knows, such as the day they
want, is left out of the first message and the agent must ask for it; a call with any other
value is a minefield marked `invented`; `multi_turn`: the goal arrives in parts, each follow-up
given once the agent has answered the part before), `turns` (the first message, then the
follow-ups, each with the answer variables its reply must state), and the person's knowledge
boundary: `knows` (every value they may say, `held` for those they must be asked for) and
`unknown` (the values only a tool gives, which they must not say). An agent opens with the
first turn; `query` is the whole goal as one request, for reference. Answer milestones carry
the `turn` they belong to. Score them with `factory evaluate --mode interactive` (a simulated
user answers: `--user offline` or a model).
"""


def _header(title: str, n: int, sizes: dict[str, tuple[int, int]], talks: dict[str, tuple[int, int]] | None) -> dict:
    """The card's YAML front matter: licence, tags, the configs and their splits' sizes."""
    from datasets import DatasetInfo

    configs = [{"config_name": "default",
                "data_files": [{"split": name, "path": f"data/{name}-*.parquet"} for name in sizes]}]
    info: Any = {
        **DatasetInfo(features=features())._to_yaml_dict(),
        "splits": [{"name": name, "num_bytes": num_bytes, "num_examples": count}
                   for name, (count, num_bytes) in sizes.items()],
    }
    if talks:
        configs.append({"config_name": CONVERSATIONS,
                        "data_files": [{"split": name, "path": f"{CONVERSATIONS}/{name}-*.parquet"} for name in talks]})
        info = [{"config_name": "default", **info},
                {"config_name": CONVERSATIONS, **DatasetInfo(features=features(True))._to_yaml_dict(),
                 "splits": [{"name": name, "num_bytes": num_bytes, "num_examples": count}
                            for name, (count, num_bytes) in talks.items()]}]
    return {
        "license": LICENSE,
        "pretty_name": title,
        "language": ["en"],
        "tags": ["synthetic", "tool-use", "function-calling", "nested-tool-calls", "benchmark"],
        "task_categories": ["text-generation"],
        "size_categories": [_size_category(n)],
        "configs": configs,
        "dataset_info": info,
    }


def _shortfall(kept: int, wanted: int, attempts: int) -> str:
    if kept >= wanted:
        return ""
    return (f"\n\n**Incomplete run:** {kept} of the {wanted} instances asked for were kept in {attempts} attempts; "
            "the run stopped at its attempt budget.")


def dataset_card(config: GenerateConfig, stats: dict[str, Any], reject_reasons: dict[str, int],
                 attempts: int, title: str, sizes: dict[str, tuple[int, int]],
                 nestools: dict[str, Counter[str]] | None = None, splits: dict[str, Any] | None = None,
                 talks: dict[str, tuple[int, int]] | None = None) -> str:
    """`sizes`: split → (instances, bytes), in the order the card lists them; `splits`: the
    split report (factory.dataset.stats.split_report) of a run cut into several; `talks`: split →
    (instances, bytes) of the `conversations` config, when the run made conversational items."""
    n = stats["instances"]
    header = _header(title, n, sizes, talks)
    settings = "\n".join(f"| `{k}` | `{v}` |" for k, v in config.model_dump().items())
    return f"""---
{yaml.safe_dump(header, sort_keys=False, allow_unicode=True).strip()}
---

# {title}

A synthetic, verified benchmark of nested tool use. Every instance holds the tools offered to
the model (gold tools and retrieved distractors), a natural-language query, the gold call
chain (later calls take earlier calls' outputs as arguments), the executed trace with real
values, the final answer, milestones and minefields, and scenario categories. Every
instance was executed against the seed toolbox's simulated world and passed the format,
signature, data-flow, execution, query-faithfulness, distractor and near-duplicate checks.

Generated by toolbench-factory {__version__} ({config.generator}).{_shortfall(n, config.n, attempts)}

## Columns

- `query`: the task; `query_variants` holds the template wording and a variant without
  conjunctions.
- `tools`: JSON list of tool specs offered to the model (name, description, parameters with
  type/required/description, returns); `gold_tools` the tools the chain calls;
  `withheld_tools` gold tools deliberately not offered (insufficient-information instances).
- `chain`: the gold calls, in the order the query speaks of them; an argument is
  `{{"value": ...}}` (stated in the query) or `{{"ref": "dataN"}}` (an earlier call's output);
  `asked` marks the calls the query asks for. `chain_code` shows the same chain as Python.
- `trace`: each executed call with concrete arguments, outputs and world-state snapshot;
  `answer` the final answer (every value the query asks for: the outputs of the asked calls).
- `milestones` / `minefields`: what a correct trajectory must reach / must avoid.
- `depth` (longest dependency path, in calls), `shape` (call count and dependency edges
  over call positions, e.g. `3:1>2,1>3,2>3`), `categories`, `world` (how to rebuild the
  simulated world), `provenance`, `checks`.

`datasets` decodes `Json` columns with a fast parser that can change the last digit of a
float (0.7 may come back as 0.7000000000000001). The Parquet files hold exact JSON text:
read it with pyarrow, or with `factory.dataset.export.load_instances`, when exact values matter.

{_nestools_section(nestools) if nestools is not None else ""}
{_conversations_section(talks) + chr(10) if talks else ""}{_splits_section(config, splits) + chr(10) if splits is not None else ""}## Generation settings

| setting | value |
| --- | --- |
{settings}

## Statistics

{n} instances kept from {attempts} candidates.

{markdown(stats, reject_reasons)}
"""
