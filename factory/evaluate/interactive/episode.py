"""Interactive mode: an agent calls tools one at a time against the simulator.

The agent sees the instance's available tools as OpenAI function definitions and the
query; every tool call it makes is executed by the simulator (seed implementations, or
the typed mock for tools without one) and the result goes back as a tool message. Tool
errors and malformed calls (unknown tool, arguments that are not a JSON object, wrong
types) go back the same way, as observations it can recover from. The episode ends with
an assistant message without tool calls (the final answer) or at the turn limit. In a
conversational item that message goes to the simulated user instead (`user`: a question is
answered, an answer brings the next part of the goal), and the episode ends when the user
ends the conversation. The trajectory is then scored: milestone similarity with minefields,
final-answer match (in a conversation, each user turn's in the reply to it), turn count; each
agent step is labelled (`step_labels`) and the user's turns are checked (`user_checks`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

from factory.errors import ConfigError
from factory.evaluate.interactive.answers import answer_match
from factory.evaluate.interactive.step_labels import label_steps
from factory.evaluate.interactive.transcript import Episode, Exchange, Message, needs_refusal
from factory.evaluate.interactive.user import OfflineUser, User, UserError, UserSession
from factory.evaluate.interactive.user_checks import check_user
from factory.evaluate.matching import Step, score_milestones
from factory.records import Instance, SampleResult, ToolSpec
from factory.world.simulator import Simulator, ToolCrash, check_arguments

MAX_TURNS = 15
PROMPT_FILE = "interactive_agent.md"  # the system message, editable under prompts/



class Policy(Protocol):
    """One episode of an agent: given the messages so far, the next assistant message."""

    def act(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message: ...


class Agent(Protocol):
    name: str

    def policy(self, instance: Instance, trial: int) -> Policy: ...


class PolicyError(Exception):
    """The agent could not produce a message: the model endpoint failed after its retries
    (`endpoint`: the episode says nothing about the model and is not scored), or refused the
    request (the episode ends as the model's failure)."""

    def __init__(self, message: str, endpoint: bool = False):
        super().__init__(message)
        self.endpoint = endpoint


def load_system_prompt(prompts_dir: Path | None = None) -> str:
    if prompts_dir is None:
        from factory.config import load_settings

        prompts_dir = load_settings().prompts_dir
    path = prompts_dir / PROMPT_FILE
    if not path.is_file():
        raise ConfigError(f"missing prompt file {path}")
    return " ".join(path.read_text().split())


def opening_messages(instance: Instance, system_prompt: str) -> list[Message]:
    return [{"role": "system", "content": system_prompt}, {"role": "user", "content": instance.first_message}]


def parse_arguments(raw: Any) -> dict[str, Any] | None:
    """A call's arguments as a dict, or None when they are not a JSON object."""
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _observation(content: dict[str, Any]) -> str:
    return json.dumps(content, ensure_ascii=False, default=str)


def execute_call(call: Message, specs: dict[str, ToolSpec], simulator: Simulator, episode: Episode) -> Message:
    """Run one tool call, record it as a step, and return the tool message that answers it."""
    function = call.get("function") or {}
    name = str(function.get("name") or "")
    arguments = parse_arguments(function.get("arguments"))
    episode.steps.append(Step(name, arguments, ok=False))  # first: a crash leaves the attempt recorded
    before, state = simulator.holding(), simulator.snapshot()
    content, error = _outcome(name, arguments, function.get("arguments"), specs, simulator)
    if error:
        episode.label(error)
    else:
        restored = frozenset(simulator.holding() - before)
        episode.steps[-1] = Step(name, arguments, outputs=tuple(content.values()), restored=restored,
                                 changed=simulator.snapshot() != state)
    return {"role": "tool", "tool_call_id": call.get("id", ""), "content": _observation(content)}


def _outcome(
    name: str, arguments: dict[str, Any] | None, raw: Any, specs: dict[str, ToolSpec], simulator: Simulator
) -> tuple[dict[str, Any], str | None]:
    """What the tool answers, and the error label when the call did not run."""
    spec = specs.get(name)
    if spec is None:
        return {"error": f"unknown tool {name!r}; available tools: {', '.join(sorted(specs))}"}, "unknown_tool"
    if arguments is None:
        return {"error": f"arguments must be a JSON object, got: {str(raw)[:200]}"}, "malformed_arguments"
    problem = check_arguments(spec, arguments)
    if problem:
        return {"error": problem}, "invalid_arguments"
    result = simulator.call(spec, arguments)
    if result.error is not None:
        return {"error": result.error}, "tool_error"
    return {out.name: value for out, value in zip(spec.returns, result.values, strict=False)}, None


def run_episode(
    instance: Instance, policy: Policy, simulator: Simulator, system_prompt: str, max_turns: int = MAX_TURNS,
    user: UserSession | None = None,
) -> Episode:
    """One episode; with a `user` (a conversational item), a message without tool calls goes to
    the simulated user, and the episode ends when the user ends the conversation."""
    specs = {t.name: t for t in instance.tools}
    tools = [t.to_openai() for t in instance.tools]
    episode = Episode(opening_messages(instance, system_prompt))
    for _ in range(max_turns):
        try:
            message = policy.act(list(episode.messages), tools)
        except PolicyError as exc:
            episode.label("endpoint_error" if exc.endpoint else "model_error")
            episode.messages.append({"role": "assistant", "content": None, "error": str(exc)})
            return episode
        episode.turns += 1
        calls = message.get("tool_calls") or []
        if message.pop("text_tool_calls", False):
            episode.label("text_tool_call")
        if message.pop("truncated", False):
            episode.label("truncated")
        episode.messages.append(message)
        if not calls:
            episode.final = message.get("content") or ""
            if user is None or _hand_to_user(episode, user):
                return episode
            continue
        for call in calls:
            try:
                episode.messages.append(execute_call(call, specs, simulator, episode))
            except ToolCrash as exc:  # a toolbox bug: recorded with its evidence, the run goes on
                episode.label("tool_crash")
                episode.messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "error": str(exc)})
                return episode
    episode.label("turn_limit")
    return episode


def _hand_to_user(episode: Episode, user: UserSession) -> bool:
    """The simulated user's answer to the agent's last message, added to the transcript;
    whether the conversation is over."""
    try:
        reply = user.respond(list(episode.messages))
    except UserError as exc:  # the user simulator failed: the episode says nothing about the agent
        episode.label("user_error")
        episode.messages.append({"role": "user", "content": None, "error": str(exc)})
        return True
    episode.exchanges.append(Exchange(len(episode.messages) - 1, reply.text, reply.end, reply.answered, reply.about))
    if reply.answered:
        episode.replies.append(episode.final or "")
    if reply.text is not None or reply.end:
        message: Message = {"role": "user", "content": reply.text}
        if reply.end:
            message["end_conversation"] = True
        episode.messages.append(message)
    episode.ended = reply.end
    return reply.end


def expected_answer(instance: Instance) -> dict[str, Any]:
    """The values the final answer must state: the answer milestone's (for a task that cannot
    be fully completed, what can still be done), else the gold answer."""
    if not instance.trace.ok:
        return {}
    answer = next((m for m in instance.milestones if m.kind == "answer"), None)
    if needs_refusal(instance):
        return dict(answer.answer) if answer else {}
    return dict(instance.trace.answer)


def score_episode(instance: Instance, episode: Episode) -> tuple[dict[str, float], list[str]]:
    """The sample's scores and error labels.

    milestone_similarity: ToolSandbox's score, zero after a minefield (milestone_matched: the
    same before minefields); answer_match: 1 when the final reply states every gold value
    (ToolComp's rules); success: answer_match without a minefield, the outcome pass^k counts;
    turns: assistant messages; tool_calls: calls attempted, malformed ones included."""
    refusal = needs_refusal(instance)
    replies = episode.replies if instance.conversation is not None else []
    score = score_milestones(
        instance.milestones, instance.minefields, episode.steps, episode.final, query=instance.query, refusal=refusal,
        replies=replies,
    )
    if instance.conversation is not None:
        answered = conversation_answered(instance, episode)
    else:
        answered = answer_match(expected_answer(instance), episode.final, query=instance.query, refusal=refusal)
    scores = {
        "milestone_similarity": score.similarity,
        "milestone_matched": score.matched,
        "answer_match": float(answered),
        "turns": float(episode.turns),
        "tool_calls": float(len(episode.steps)),
        "minefield_hit": float(bool(score.minefields_hit)),
        "success": float(answered and not score.minefields_hit),
    }
    errors = list(dict.fromkeys(episode.errors))
    if score.minefields_hit:
        errors.append("minefield")
    if any(instance.minefields[k].invented for k in score.minefields_hit):
        errors.append("invented_value")  # a value only the person knows, used without asking
    if episode.final is None:
        errors.append("no_final_answer")
    elif not answered:
        errors.append("wrong_answer")
    calls = [s for m, s in zip(instance.milestones, score.per_milestone, strict=True) if m.kind == "call"]
    if any(s < 1.0 for s in calls):
        errors.append("missed_milestone")
    return scores, errors


def conversation_answered(instance: Instance, episode: Episode) -> bool:
    """Every user turn's values stated in the agent's reply to that turn (the reply the user
    took as its answer; without one, the last message)."""
    finals = episode.replies or [episode.final]
    for milestone in (m for m in instance.milestones if m.kind == "answer"):
        at = len(finals) - 1 if milestone.turn is None else milestone.turn
        if at >= len(finals) or not answer_match(milestone.answer, finals[at], query=instance.query):
            return False
    return True


def _load_seeds() -> dict[str, Any]:
    from factory.config import load_settings
    from factory.seeds.library import seeds_for

    return seeds_for(load_settings())


def run_one(
    instance: Instance, agent: Agent, trial: int, *, seeds: dict[str, Any], max_turns: int, mock_seed: int,
    system_prompt: str, user: User | None = None,
) -> SampleResult:
    simulator = Simulator(seeds, instance.world, mock_seed=mock_seed)
    session = (user or OfflineUser()).session(instance, trial) if instance.conversation is not None else None
    episode = run_episode(instance, agent.policy(instance, trial), simulator, system_prompt, max_turns, session)
    steps, checked = [], None
    if {"endpoint_error", "user_error"} & set(episode.errors):  # unscored: an endpoint failed, not the model
        scores, errors = {}, list(dict.fromkeys(episode.errors))
    else:
        scores, errors = score_episode(instance, episode)
        steps = label_steps(instance, episode)
        checked = check_user(instance, episode) if session is not None else None
    return SampleResult(
        instance_id=instance.id,
        mode="interactive",
        agent=agent.name,
        trial=trial,
        prompt=episode.messages[:2],
        output=episode.messages,
        scores=scores,
        errors=errors,
        depth=instance.depth,
        shape=instance.shape,
        categories=list(instance.categories),
        steps=steps,
        user=checked,
    )


def run_interactive(
    instances: Sequence[Instance],
    agent: Agent,
    *,
    trials: int = 1,
    max_turns: int = MAX_TURNS,
    seeds: dict[str, Any] | None = None,
    mock_seed: int = 0,
    workers: int = 1,
    system_prompt: str | None = None,
    on_done: Callable[[int], None] | None = None,
    user: User | None = None,
) -> list[SampleResult]:
    """One SampleResult per instance per trial, in instance order then trial order.

    `seeds` defaults to the configured seed folder, `system_prompt` to
    prompts/interactive_agent.md; `mock_seed` must be the one the instances' traces were
    made with when their tools have no implementation; `workers` > 1 runs episodes in
    threads (for model endpoints); `on_done(n)` hears how many episodes have ended; `user`
    answers the agent in conversational items (default: the offline user)."""
    if max_turns < 1 or trials < 1:
        raise ConfigError(f"need at least one turn and one trial (got max_turns={max_turns}, trials={trials})")
    seeds = _load_seeds() if seeds is None and any(i.world for i in instances) else (seeds or {})
    for instance in instances:
        missing = sorted(set(instance.world.toolboxes if instance.world else ()) - set(seeds))
        if missing:
            raise ConfigError(
                f"instance {instance.id} runs in seed toolbox(es) {', '.join(missing)}, which are not among the "
                f"loaded seeds ({', '.join(sorted(seeds)) or 'none'}); point seeds_dir at the seeds it was generated from"
            )
    prompt = system_prompt or load_system_prompt()
    jobs = [(instance, trial) for instance in instances for trial in range(trials)]

    ended = 0
    lock = threading.Lock()

    def run(job: tuple[Instance, int]) -> SampleResult:
        nonlocal ended
        sample = run_one(
            job[0], agent, job[1], seeds=seeds, max_turns=max_turns, mock_seed=mock_seed, system_prompt=prompt,
            user=user,
        )
        with lock:
            ended += 1
            if on_done:
                on_done(ended)
        return sample

    if workers <= 1:
        return [run(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run, jobs))
