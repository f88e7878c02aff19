from typing import Annotated, Literal

import pytest

from factory.errors import SeedError
from factory.seeds.specs import spec_from_function
from factory.toolbox import Kind


def top_wine(location: Annotated[str, Kind("region")], date: str, limit: int = 3) -> tuple[str, float]:
    """Retrieve the top-selling wine in a location on a date.

    Args:
        location: Region or city, e.g. "California".
        date: Sales date in YYYY-MM-DD,
            spanning two lines.
        limit: How many to consider.

    Returns:
        wine_name: the best-selling wine.
        sales_value: the sales that day
            in US dollars.
    """
    return "x", 1.0


def test_spec_comes_from_signature_and_docstring():
    spec = spec_from_function(top_wine, "food")
    assert spec.name == "top_wine" and spec.description == "Retrieve the top-selling wine in a location on a date."
    location, date, limit = spec.parameters
    assert (location.type, location.kind, location.required) == ("str", "region", True)
    assert date.description == "Sales date in YYYY-MM-DD, spanning two lines."
    assert (limit.required, limit.default) == (False, 3)
    assert [(r.name, r.type) for r in spec.returns] == [("wine_name", "str"), ("sales_value", "float")]
    assert spec.returns[1].description == "the sales that day in US dollars."
    assert spec.to_openai()["function"]["parameters"]["required"] == ["location", "date"]


def test_literal_and_list_types():
    def pick(mode: Literal["fast", "slow"], ids: list[int]) -> list[str]:
        """Pick things.

        Args:
            mode: Speed.
            ids: Ids.

        Returns:
            names: the names.
        """
        return []

    spec = spec_from_function(pick)
    assert spec.parameters[0].enum == ["fast", "slow"] and spec.parameters[1].type == "list[int]"
    assert spec.returns[0].type == "list[str]"


def no_doc(a: str) -> str:
    return a


def untyped(a) -> str:
    """Do.

    Args:
        a: A.

    Returns:
        b: the b.
    """


def undocumented_arg(a: str, b: str) -> str:
    """Do.

    Args:
        a: A.

    Returns:
        out: the out.
    """


def wrong_return_count(a: str) -> tuple[str, int]:
    """Do.

    Args:
        a: A.

    Returns:
        out: the out.
    """


def no_return(a: str):
    """Do.

    Args:
        a: A.
    """


@pytest.mark.parametrize(
    "fn, message",
    [
        (no_doc, "no docstring"),
        (untyped, "parameter 'a' has no type annotation"),
        (undocumented_arg, "parameter 'b' is not described"),
        (wrong_return_count, "has 2 value(s) but the docstring's Returns names 1"),
        (no_return, "no return annotation"),
    ],
)
def test_bad_tools_are_seed_errors_naming_file_and_function(fn, message):
    with pytest.raises(SeedError) as err:
        spec_from_function(fn)
    assert message in str(err.value) and "test_specs.py" in str(err.value) and fn.__name__ in str(err.value)


def test_documented_examples_are_the_values_a_description_shows():
    from factory.seeds.specs import documented_examples, examples_in, shows_example

    assert examples_in('Words to look for, e.g. "budget review" or "maria"; all words must match.') == ["budget review", "maria"]
    assert examples_in('Mark in percent, 0-100 (e.g. 87.5).') == ["87.5"]
    assert examples_in("the named course (its canonical code, e.g. CS201).") == ["CS201"]
    assert examples_in('the patient\'s record (its id, like "P-10001").') == ["P-10001"]
    assert examples_in("Ids to compare, e.g. [\"PL-48213\", \"PL-70561\"]; ties go first.") == ["PL-48213", "PL-70561"]
    assert examples_in("A city the user likes.") == []
    examples = documented_examples(spec_from_function(top_wine, "food"))
    assert examples == {"california"}
    assert shows_example("California", examples) and shows_example(["Oregon", "california"], examples)
    assert not shows_example("Oregon", examples) and not shows_example(True, examples)
    assert shows_example(87.5, frozenset({"87.5"})) and not shows_example(87, frozenset({"87.5"}))


def test_a_summary_that_runs_past_one_line_is_refused():
    """A summary cut at its line break would reach the model as half a sentence."""
    def guide(shelf: str) -> str:
        """Start a walk to a book's shelf, or to the holds
        desk when every copy is out.

        Args:
            shelf: Shelf mark.

        Returns:
            message: the directions.
        """
        return shelf

    with pytest.raises(SeedError, match="summary runs past one line"):
        spec_from_function(guide)
