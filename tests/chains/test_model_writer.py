"""The model chain writer sends a problem it can mend back to the model once, with the exact
problem and the earlier answer; a problem still there after that is a reject naming it."""

import random
from pathlib import Path

import pytest

from factory.chains.model_writer import ChainWriter
from factory.config import resource_dir
from factory.lm.dspy_bridge import fake_dspy_lm
from factory.lm.fake import FakeLM
from tests.chains.test_stubs import ANSWER

PROMPTS = Path(resource_dir("prompts"))


def as_field(text: str) -> str:
    """An answer in DSPy's field format, prose and fence inside (as a model writes it)."""
    return f"[[ ## code ## ]]\n{text}\n\n[[ ## completed ## ]]"


GOOD = as_field(ANSWER)
UNTYPED = as_field(ANSWER.replace("site: str, year: int", "site, year: int"))
NO_MAIN = as_field(ANSWER[: ANSWER.index("def main")] + "```\n\nThe main function would call these tools in order.")
ONE_CALL = as_field(ANSWER.replace("data2 = count_species(data0", 'data2 = count_species("SV-1"'))


@pytest.fixture
def writer():
    return ChainWriter((PROMPTS / "chain_writer.md").read_text(), [], (PROMPTS / "chain_repair.md").read_text())


@pytest.mark.parametrize("first, problem", [
    (UNTYPED, "tool 'get_reef_survey' parameter 'site' has no type annotation"),
    (NO_MAIN, "no main() function with the calls"),
    (ONE_CALL, "main() must make 2 calls: call 2 takes values that call 1 returns, but it makes 2 calls; "
               "no call takes another's values"),
])
def test_a_mendable_problem_goes_back_once_with_the_reason(writer, first, problem):
    fake = FakeLM([first, as_field(f"You're right, sorry about that. Here is the fixed code:\n\n{ANSWER}")])
    written = writer(fake_dspy_lm(fake), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is not None and written.reason == "" and problem in written.repaired
    assert len(fake.requests) == 2
    repair = fake.requests[1].prompt
    assert problem in repair and "site" in repair and "previous_code" in repair


def test_a_problem_still_there_after_the_repair_is_a_reject_naming_it(writer):
    fake = FakeLM([UNTYPED, ONE_CALL])
    written = writer(fake_dspy_lm(fake), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is None and written.reason.startswith("chain writer: after a repair, asked for shape 2:1>2")
    assert "count_species(\"SV-1\"" in written.raw


def test_a_good_first_answer_costs_one_call_and_no_repair_prompt_none(writer):
    fake = FakeLM([GOOD])
    assert writer(fake_dspy_lm(fake), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0)).repaired == ""
    assert len(fake.requests) == 1
    plain = ChainWriter((PROMPTS / "chain_writer.md").read_text(), [])
    fake = FakeLM([UNTYPED, GOOD])
    assert "no type annotation" in plain(fake_dspy_lm(fake), "Marine Biology", "Reefs", "2:1>2", random.Random(0)).reason
    assert len(fake.requests) == 1
