"""Reading model-written tools and chains: lenient where meaning is clear, strict where not."""

import pytest

from factory.chains.stubs import StubError, read_written
from factory.records import Ref, Value

ANSWER = '''Sure! Here are the tools and the main function:

```python
from typing import Optional, Literal

def get_reef_survey(site: str, year: int) -> tuple[str, float]:
    """Get the latest coral survey of a reef site.

    Args:
        site: Name of the reef site, e.g. "Lizard Island".
        year: Survey year.

    Returns:
        survey_id: Identifier of the survey.
        coral_cover: Share of the seabed covered by live coral (percent).
    """
    pass

def count_species(survey_id: str, group: Literal["fish", "coral"] = "fish", depth_m: Optional[float] = None) -> int:
    """Count the species recorded in a survey.

    Args:
        survey_id: Survey identifier.
        group: Which species group to count.
        depth_m: Only records shallower than this depth.

    Returns:
        species: Number of species recorded.
    """

def main():
    # How many fish species did the 2024 survey of Lizard Island record?
    site = "Lizard Island"
    data0, data1 = get_reef_survey(site=site, year=2024)  # -> ["SV-2024-17", 31.5]
    data2 = count_species(data0, group="fish")  # -> [212]
    print(data2)
    return data2
```

This main() first finds the survey, then counts the species.'''


def test_a_messy_but_clear_answer_is_read():
    written = read_written(ANSWER)
    assert set(written.tools) == {"get_reef_survey", "count_species"}
    count = written.tools["count_species"]
    assert [(p.name, p.type, p.required) for p in count.parameters] == [
        ("survey_id", "str", True), ("group", "str", False), ("depth_m", "float", False)]
    assert count.param("group").enum == ["fish", "coral"]
    assert [o.name for o in written.tools["get_reef_survey"].returns] == ["survey_id", "coral_cover"]
    first, second = written.chain.calls
    assert first.arguments == {"site": Value(value="Lizard Island"), "year": Value(value=2024)}  # temporary inlined
    assert second.arguments["survey_id"] == Ref(ref="data0")  # positional argument named from the stub
    assert written.task.startswith("How many fish species") and "->" not in written.task
    assert written.returns == [["SV-2024-17", 31.5], [212]]


@pytest.mark.parametrize("broken, reason", [
    (ANSWER.replace("site: str, year: int", "site, year: int"), "parameter 'site' has no type annotation"),
    (ANSWER.replace("count_species(data0", "count_fish(data0"), "not defined"),
    (ANSWER.replace("get_reef_survey(site=site", "get_reef_survey(site=place"), "used before any call binds it"),
    (ANSWER[: ANSWER.index("def main")] + "def main():\n    data0 = get_reef_survey(site=", "not valid Python"),
    (ANSWER.replace("def main():", "def run():"), "no main()"),
    (ANSWER.replace("-> int:", ":"), "declares no return type"),
    (ANSWER.replace("        species: Number of species recorded.\n", ""), "returns"),
])
def test_unclear_answers_are_rejected_with_the_reason(broken, reason):
    with pytest.raises(StubError, match=reason):
        read_written(broken)


def test_an_answer_without_fences_is_read_from_its_first_line_of_code():
    bare = ANSWER.split("```python\n")[1].split("```")[0]
    assert len(read_written("Here you go:\n" + bare).chain.calls) == 2
