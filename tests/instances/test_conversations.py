"""Conversational scenarios: ask the user and several user turns, their knowledge boundary,
milestones across the turns, and their own dataset config."""

from __future__ import annotations

import json

import pytest

from factory.checks.conversation import conversation_problems
from factory.checks.faithfulness import states
from factory.dataset.export import CONVERSATIONS, NESTOOLS, load_instances
from factory.records import Conversation, Instance, UserTurn


@pytest.fixture(scope="module")
def talks(conversation_run) -> list[Instance]:
    return [i for i in conversation_run.instances if i.conversation is not None]


def test_a_run_with_conversations_holds_both_kinds(conversation_run, talks):
    kinds = {i.conversation.kind for i in talks}
    assert kinds == {"ask_user", "multi_turn"}
    assert len(talks) >= 0.15 * len(conversation_run.instances)
    assert all(i.conversation.kind in i.categories for i in talks)


def test_ask_the_user_leaves_the_value_out_and_mines_a_guess(talks):
    asks = [i for i in talks if i.conversation.kind == "ask_user"]
    assert asks
    for instance in asks:
        held = instance.conversation.held
        assert len(held) == 1
        assert not states(instance.first_message, held[0].value)
        assert states(instance.query, held[0].value)  # the whole goal, as one request, states it
        mine = next(m for m in instance.minefields if m.invented)
        assert mine.tool == held[0].tool and mine.arguments[held[0].argument].value == held[0].value


def test_several_turns_answer_part_by_part(talks):
    multi = [i for i in talks if i.conversation.kind == "multi_turn"]
    assert multi
    for instance in multi:
        turns = instance.conversation.turns
        assert len(turns) == 2
        answers = [m for m in instance.milestones if m.kind == "answer"]
        assert [m.turn for m in answers] == [0, 1]
        assert [sorted(m.answer) for m in answers] == [sorted(t.answers) for t in turns]
        assert sorted(v for t in turns for v in t.answers) == sorted(instance.trace.answer)


def test_the_boundary_knows_every_literal_and_none_of_the_outputs(talks):
    for instance in talks:
        known = {json.dumps(k.value, sort_keys=True) for k in instance.conversation.knows}
        for call in instance.chain.calls:
            for arg in call.arguments.values():
                if hasattr(arg, "value"):
                    assert json.dumps(arg.value, sort_keys=True) in known
        assert not known & {json.dumps(u.value, sort_keys=True) for u in instance.conversation.unknown}


def test_the_check_catches_a_first_message_that_states_the_held_value(talks):
    instance = next(i for i in talks if i.conversation.kind == "ask_user")
    assert conversation_problems(instance) == []
    leaky = instance.conversation.model_copy(update={"turns": [UserTurn(text=instance.query,
                                                                       answers=instance.conversation.turns[0].answers)]})
    assert "states the held" in " ".join(conversation_problems(instance.model_copy(update={"conversation": leaky})))


def test_conversations_have_their_own_config_and_stay_out_of_nestools(conversation_run, talks):
    path = conversation_run.path
    default = load_instances(path / "dataset")
    assert all(i.conversation is None for i in default)
    both = load_instances(path / "dataset", conversations=True)
    assert [i.id for i in both[len(default):]] == [i.id for i in talks]
    assert both[len(default):] == talks  # the conversation round-trips exactly
    rows = [json.loads(line) for name in (NESTOOLS, "nestools_excluded.jsonl") for line in (path / name).open()]
    assert len(rows) == len(default)
    card = (path / "dataset" / "README.md").read_text()
    assert f"config_name: {CONVERSATIONS}" in card and "## Conversations" in card


def test_conversation_datasets_load_with_datasets(conversation_run, tmp_path):
    import datasets

    table = datasets.load_dataset(str(conversation_run.path / "dataset"), CONVERSATIONS, split="test",
                                  cache_dir=str(tmp_path / "hf"))
    assert len(table) and json.loads(json.dumps(table[0]["conversation"]))["turns"]


def test_single_request_records_keep_their_bytes():
    turn = UserTurn(text="hi")
    assert Conversation(kind="multi_turn", turns=[turn]).model_dump()["turns"] == [{"text": "hi", "answers": []}]
    from factory.records import Milestone, Minefield

    assert "turn" not in Milestone(index=0, kind="answer", description="x").model_dump()
    assert "invented" not in Minefield(tool="t", reason="r").model_dump()


def test_publishing_takes_the_conversations_config_along(conversation_run):
    from factory.dataset.publish import prepare

    upload = prepare(conversation_run.path)
    assert any(name.startswith(f"{CONVERSATIONS}/") for name in upload.files)
    assert f"config_name: {CONVERSATIONS}" in upload.card
