"""The simulated user on a real model: the oracle agent talks with a model user on the first K
conversational items of a run (`factory generate --domain all -n 300 --seed 5 --conversations`),
half of them ask-the-user items, once per prompt variant (full, no-boundary, no-demonstrations),
and the user checks count the
simulator's own errors (ToolSandbox's Table 2: hallucination and instruction-following per user
turn, conversations ended early or never ended).

Prints one table row per variant and writes every conversation, with the checks' findings, to
OUT/<variant>.md so the replies can be read. Needs an OpenAI-compatible endpoint, for example the
local model of ../shared/real_llm (slow: use a long --timeout and concurrency 1).

    python benchmarks/model_user.py --model openai/local --api-base http://127.0.0.1:8931/v1 \
        [-k 50] [--variants full,no-boundary] [--dataset RUN_DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

VARIANTS = {"full": {}, "no-boundary": {"boundary": False}, "no-demonstrations": {"demonstrations": False}}


def _conversation_text(sample, instance) -> str:
    """The conversation as the agent and the person had it, with the checks' findings."""
    lines = [f"### {instance.id} ({instance.conversation.kind})", ""]
    for message in sample.output or []:
        role, content = message.get("role"), str(message.get("content") or "").strip()
        if role == "user" and content:
            lines.append(f"- **user:** {content}")
        elif role == "assistant" and content:
            lines.append(f"- **assistant:** {content}")
    checked = sample.user
    findings = [name for name in ("hallucination", "instruction", "ended_early", "never_ended") if getattr(checked, name)]
    lines += ["", f"success {sample.scores.get('success')}; user checks: {', '.join(findings) or 'none'}"
              + (f" ({'; '.join(checked.problems)})" if checked.problems else ""), ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="the user model, e.g. openai/local")
    parser.add_argument("--api-base", required=True)
    parser.add_argument("-k", type=int, default=50, help="conversational items to run")
    parser.add_argument("--variants", default="full,no-boundary")
    parser.add_argument("--dataset", type=Path, help="a run with conversations (default: generate seed 5's)")
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--out", type=Path, default=Path("model-user"))
    args = parser.parse_args()
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "LITELLM_LOCAL_MODEL_COST_MAP"):
        os.environ.setdefault(name, "True" if name.startswith("LITELLM") else "1")
    os.environ.setdefault("FACTORY_API_KEY", "local")
    from factory.config import load_settings
    from factory.dataset.export import load_instances
    from factory.evaluate.interactive.agents import reference_agent
    from factory.evaluate.interactive.episode import run_interactive
    from factory.evaluate.interactive.model_user import ModelUser
    from factory.evaluate.report import user_rates
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="model-user-") as tmp:
        settings = load_settings({"output_dir": tmp, "timeout": args.timeout, "concurrency": 1})
        run = args.dataset or generate(GenerateConfig(domain="all", n=300, seed=5, conversations=True),
                                       settings, Path(tmp) / "split").path
        every = [i for i in load_instances(run / "dataset", conversations=True) if i.conversation is not None]
        asks = [i for i in every if i.conversation.kind == "ask_user"][:(args.k + 1) // 2]
        talks = asks + [i for i in every if i.conversation.kind != "ask_user"][:args.k - len(asks)]  # both kinds
        kinds = {kind: sum(i.conversation.kind == kind for i in talks) for kind in ("ask_user", "multi_turn")}
        print(f"# Model user {args.model} on {len(talks)} conversations of {run} ({kinds})\n")
        print("| prompt | conversations | user turns | hallucination | instruction following | ended early "
              "| never ended | oracle success | minutes |")
        print("| --- |" + " ---: |" * 8)
        for variant in args.variants.split(","):
            user = ModelUser.connect(args.model, args.api_base, settings, args.out / "cache", **VARIANTS[variant])
            start = time.perf_counter()
            samples = run_interactive(talks, reference_agent("oracle"), user=user)
            minutes = (time.perf_counter() - start) / 60
            rates = user_rates(samples)
            success = sum(s.scores.get("success", 0.0) for s in samples) / len(samples)
            cells = [f"{100 * rates[k]:.1f}%" if rates[k] is not None else "-" for k in
                     ("hallucination_rate", "instruction_following_error_rate", "ended_early_rate", "never_ended_rate")]
            print(f"| {variant} | {rates['conversations']} | {rates['user_turns']} | " + " | ".join(cells)
                  + f" | {100 * success:.1f}% | {minutes:.1f} |", flush=True)
            (args.out / f"{variant}.md").write_text("\n".join(_conversation_text(s, i) for s, i in zip(samples, talks, strict=True)))


if __name__ == "__main__":
    main()
