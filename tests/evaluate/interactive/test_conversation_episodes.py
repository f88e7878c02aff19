"""Conversational episodes: the offline user, the reference agents that ask (or guess), the
step labels and the checks of the simulated user."""

from __future__ import annotations

import json

import pytest

from factory.evaluate.interactive.agents import reference_agent
from factory.evaluate.interactive.episode import run_interactive
from factory.evaluate.interactive.transcript import Episode, Exchange
from factory.evaluate.interactive.user import OfflineUser, about, asks_person
from factory.evaluate.interactive.user_checks import check_user


@pytest.fixture(scope="module")
def talks(conversation_run):
    return [i for i in conversation_run.instances if i.conversation is not None]


@pytest.fixture(scope="module")
def asks(talks):
    return [i for i in talks if i.conversation.kind == "ask_user"]


def _user_says(instance, *texts):
    session = OfflineUser().session(instance, 0)
    messages = [{"role": "user", "content": instance.first_message}]
    replies = []
    for text in texts:
        messages.append({"role": "assistant", "content": text})
        replies.append(session.respond(messages))
    return replies


def test_the_offline_user_says_a_held_value_when_asked_and_nothing_it_does_not_know(asks):
    from factory.checks.faithfulness import states

    instance = asks[0]
    held = instance.conversation.held[0]
    unknown = instance.conversation.unknown[0]
    reply, dont = _user_says(instance, f"Which {held.label} should I use?", f"What is the {unknown.label}?")
    assert reply.about == "held" and states(reply.text, held.value)
    assert dont.about == "unknown" and "know" in dont.text and not states(dont.text, unknown.value)


def test_the_offline_user_phrases_a_value_several_ways(asks):
    texts = set()
    for trial in range(12):
        session = OfflineUser().session(asks[0], trial)
        label = asks[0].conversation.held[0].label
        texts.add(session.respond([{"role": "assistant", "content": f"Which {label}?"}]).text)
    assert len(texts) >= 3


def test_the_offline_user_gives_the_follow_up_then_ends(talks):
    instance = next(i for i in talks if i.conversation.kind == "multi_turn")
    follow, end = _user_says(instance, "Final answer: done.", "Final answer: also done.")
    assert follow.text == instance.conversation.turns[1].text and follow.answered and not follow.end
    assert end.end and end.answered


def test_the_offline_user_ends_when_the_agent_gives_up(talks):
    instance = next(i for i in talks if i.conversation.kind == "multi_turn")
    (reply,) = _user_says(instance, "I cannot complete this request with the tools I have.")
    assert reply.end and not reply.answered


def test_a_closing_courtesy_is_no_question():
    assert not asks_person("Final answer: 42. Is there anything else I can help with?")
    assert asks_person("Which card should I use?")


def test_a_question_in_other_words_is_about_the_one_value_still_held(asks):
    conversation = asks[0].conversation
    assert about("Could you tell me what you had in mind there?", conversation, set()) == conversation.held[0]


def test_the_oracle_succeeds_on_every_conversation_and_every_step_is_correct(talks):
    samples = run_interactive(talks, reference_agent("oracle"))
    assert all(s.scores["success"] == 1.0 and s.scores["milestone_similarity"] == 1.0 for s in samples)
    assert all(step.correct for s in samples for step in s.steps)
    asked = [step for s in samples for step in s.steps if step.kind == "question"]
    assert asked and all(step.label == "asked_needed" for step in asked)
    assert sum(len(i.conversation.held) for i in talks) == len(asked)  # exactly when it must
    assert all(s.user.hallucination == 0 and not s.user.ended_early and not s.user.never_ended for s in samples)


def test_every_step_of_the_oracle_is_correct_on_single_requests_too(conversation_run):
    samples = run_interactive(conversation_run.instances, reference_agent("oracle"))
    assert all(step.label in ("advances", "asked_needed") for s in samples for step in s.steps)
    assert any(s.categories.count("insufficient_information") for s in samples)  # (a call serving nothing is not made)


def test_the_guesser_walks_into_the_minefield_of_every_ask_the_user_item(asks):
    samples = run_interactive(asks, reference_agent("guesser"))
    assert all(s.scores["success"] == 0.0 and "invented_value" in s.errors for s in samples)
    assert all(any(step.label == "minefield" for step in s.steps) for s in samples)


def test_noisy_agents_skip_needed_questions_and_ask_needless_ones(talks):
    # every error at once: the run holds a handful of ask-the-user items, and at any lower rate
    # every needed question can happen to be asked
    samples = run_interactive(talks, reference_agent("noisy:1"))
    labels = {step.label for s in samples for step in s.steps}
    assert {"asked_needless", "minefield", "wrong_call"} <= labels
    assert sum(s.scores["success"] for s in samples) < len(samples)


def test_step_labels_of_a_hand_made_trajectory(asks):
    from factory.config import load_settings
    from factory.evaluate.interactive.episode import run_episode
    from factory.evaluate.interactive.step_labels import label_steps
    from factory.seeds.library import seeds_for
    from factory.world.simulator import Simulator

    instance = asks[0]
    held = instance.conversation.held[0]
    gold = instance.chain.calls
    stated = next(k for k in instance.conversation.knows if not k.held)
    arguments = {n: a.value for n, a in next(c for c in gold if c.tool == held.tool).arguments.items()
                 if hasattr(a, "value")}

    class Script:
        def __init__(self):
            self.moves = [
                {"role": "assistant", "content": f"Could you confirm the {stated.label}?"},
                {"role": "assistant", "content": f"Which {held.label} should I use?"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
                    "name": "no_such_tool", "arguments": "{}"}}]},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "c2", "type": "function", "function": {
                    "name": held.tool, "arguments": json.dumps({**arguments, held.argument: "made up"})}}]},
                {"role": "assistant", "content": "Final answer: nothing."},
            ]

        def act(self, messages, tools):
            return self.moves.pop(0)

    episode = run_episode(instance, Script(), Simulator(seeds_for(load_settings()), instance.world), "system",
                          user=OfflineUser().session(instance, 0))
    labels = [s.label for s in label_steps(instance, episode)]
    assert labels == ["asked_needless", "asked_needed", "wrong_call", "minefield", "wrong_answer"]


def _episode(instance, said: str, end: bool = False, answered: bool = False) -> Episode:
    messages = [{"role": "user", "content": instance.first_message}, {"role": "assistant", "content": "Which one?"},
                {"role": "user", "content": said}]
    episode = Episode(messages, exchanges=[Exchange(1, said, end=end, answered=answered)], ended=end)
    return episode


def test_the_user_checks_catch_a_hallucination_an_assistant_voice_and_an_early_end(asks):
    instance = asks[0]
    unknown = next(u for u in instance.conversation.unknown if isinstance(u.value, str) and len(u.value) > 3)
    check = check_user(instance, _episode(instance, f"I think it is {unknown.value}."))
    assert check.hallucination == 1
    assert check_user(instance, _episode(instance, "It's 1987-03-05.")).hallucination == 1  # a day nobody said
    held = instance.conversation.held[0]
    assert check_user(instance, _episode(instance, f"It's {held.value}.")).hallucination == 0
    assert check_user(instance, _episode(instance, "How can I help you today?")).instruction == 1
    # what a real 1.5B model said as the person
    assert check_user(instance, _episode(instance, "I'm glad to help! Let's move on to the next part of your goal.")).instruction == 1
    assert check_user(instance, _episode(instance, "I'm sorry, but I don't have the information you need to answer that part "
                                                   "of your goal. Can you please clarify what you're looking for?")).instruction == 1
    assert check_user(instance, _episode(instance, "Thanks, that helps. I'm glad it worked out.")).instruction == 0
    # asked for the value it holds back, the real model gave another or kept it back
    asked = Episode(_episode(instance, "").messages[:2] + [{"role": "user", "content": "Lyon"}],
                    exchanges=[Exchange(1, "Lyon", about="held")])
    assert check_user(instance, asked).hallucination == 1
    kept = Episode(asked.messages[:2] + [{"role": "user", "content": "Sorry, I don't know that."}],
                   exchanges=[Exchange(1, "Sorry, I don't know that.", about="held")])
    assert check_user(instance, kept).instruction == 1 and check_user(instance, kept).hallucination == 0
    given = Episode(asked.messages[:2] + [{"role": "user", "content": f"It's {held.value}."}],
                    exchanges=[Exchange(1, f"It's {held.value}.", about="held")])
    assert check_user(instance, given).hallucination == 0 and check_user(instance, given).instruction == 0
    early = check_user(instance, _episode(instance, "Bye.", end=True))
    assert early.ended_early and not early.never_ended
    assert check_user(instance, _episode(instance, "Thanks.", answered=True)).never_ended


def test_an_offline_user_is_deterministic(talks):
    a = run_interactive(talks[:10], reference_agent("noisy:0.3"))
    b = run_interactive(talks[:10], reference_agent("noisy:0.3"))
    assert [s.to_json() for s in a] == [s.to_json() for s in b]


def test_the_persons_value_in_another_form_is_no_invented_value():
    from factory.evaluate.matching import Step, minefield_hit
    from factory.records import Expected, Minefield

    mine = Minefield(tool="book", arguments={"start": Expected(value="2025-06-21T16:30")}, reason="r", invented=True)
    assert not minefield_hit(mine, Step("book", {"start": "2025-06-21T16:30"}))
    assert not minefield_hit(mine, Step("book", {"start": "2025-06-21 16:30"}))
    assert minefield_hit(mine, Step("book", {"start": "2025-06-20T16:30"}))
    assert not minefield_hit(mine, Step("other", {"start": "2025-06-20T16:30"}))
