from pathlib import Path

import pytest

from factory.config import resource_dir
from factory.errors import SeedError
from factory.seeds.library import load_seed, load_seeds, resolve_domain, unknown_domain_error
from tests.conftest import write_seed

GOOD_TOOLBOX = '''
    import random
    from dataclasses import dataclass
    from factory.toolbox import Toolbox, World, world

    toolbox = Toolbox()

    @dataclass
    class W(World):
        n: int = 0

    @toolbox.world
    def build(rng: random.Random) -> W:
        return W(n=rng.randint(1, 9))

    @toolbox.tool
    def double(x: int) -> int:
        """Double a number.

        Args:
            x: The number.

        Returns:
            doubled: the doubled number.
        """
        return 2 * x
'''


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


def test_shipped_seeds_load(seeds):
    assert "food_and_beverage" in seeds
    food = seeds["food_and_beverage"]
    assert food.domain == "Food and Beverage" and len(food.specs) >= 15
    assert all(spec.toolbox == "food_and_beverage" for spec in food.specs.values())


def test_a_minimal_seed_loads(tmp_path):
    seed = load_seed(write_seed(tmp_path, "tiny", GOOD_TOOLBOX))
    assert list(seed.specs) == ["double"] and seed.build_world(1).n == seed.build_world(1).n


WORDS = """
[written]
number = "the number {}"

[tools.double]
asks = ["double {x}", "what is twice {x}?", "multiply {x} by two"]
[tools.double.gives]
doubled = ["twice {x}", "double {x}"]

[goals.arithmetic]
role = "pupil"
wants = "work numbers out"
tools = ["double"]
"""


def test_a_seed_s_words_come_from_its_phrasings_file(tmp_path):
    folder = write_seed(tmp_path, "tiny", GOOD_TOOLBOX)
    (folder / "phrasings.toml").write_text(WORDS)
    toolbox = load_seed(folder).toolbox
    entry = toolbox.tools["double"]
    assert entry.asks == ("double {x}", "what is twice {x}?", "multiply {x} by two")
    assert entry.gives == {("doubled",): ("twice {x}", "double {x}")}
    assert toolbox.written == {"number": "the number {}"}
    goal = toolbox.goals["arithmetic"]
    assert (goal.role, goal.wants, goal.tools, goal.conditions) == ("pupil", "work numbers out", ("double",), None)


@pytest.mark.parametrize("words, code, message", [
    ('[tools.triple]\nasks = "triple {x}"', "", r"\[tools.triple\] names no tool"),
    ('[tools.double]\nasks = "double {x}"', "asks='twice {x}'", r"\[tools.double\] words a tool .* one place"),
    ('[tools.double]\nasks = 3', "", r"\[tools.double\] asks: a text or a list of texts"),
    ('[tools.double]\nasked = ["double {x}"]', "", r"\[tools.double\] may hold only asks, gives, groups, not asked"),
    ('[conditions.on]\nsays = "it is off"', "", r"\[conditions.on\] names no condition"),
    ('[goals.g]\nrole = "pupil"', "", r"\[goals.g\] lacks tools, wants"),
    ('[tool.double]\nasks = "x"', "", r"unknown table\(s\) tool"),
    ('[tools.double\nasks = "x"', "", r"phrasings.toml: cannot be read as TOML"),
])
def test_a_wrong_phrasings_file_is_a_seed_error_naming_the_entry(tmp_path, words, code, message):
    toolbox = GOOD_TOOLBOX.replace("@toolbox.tool\n", f"@toolbox.tool({code})\n") if code else GOOD_TOOLBOX
    folder = write_seed(tmp_path, "tiny", toolbox)
    (folder / "phrasings.toml").write_text(words)
    with pytest.raises(SeedError, match=message):
        load_seed(folder)


def test_a_toolbox_that_imports_a_moved_module_is_told_where_it_went(tmp_path):
    old = GOOD_TOOLBOX.replace("from factory.toolbox import Toolbox, World, world",
                               "from factory.toolbox import Toolbox, World, world\n    from factory.gazetteer import NOW")
    with pytest.raises(SeedError, match=r"factory.gazetteer is now factory.toolbox.gazetteer"):
        load_seed(write_seed(tmp_path, "old", old))


def test_no_shipped_toolbox_holds_a_phrasing():
    """What people say lives in phrasings.toml: no decorator or declaration in a seed's code
    carries asks, gives, groups, a condition's sentences, a goal or a written form's template."""
    import ast

    for code in sorted(Path(resource_dir("seeds")).glob("*/toolbox.py")):
        for node in ast.walk(ast.parse(code.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and getattr(node.func.value, "id", None) == "toolbox"):
                continue
            words = {kw.arg for kw in node.keywords} & {"asks", "gives", "groups", "context", "says", "wants"}
            assert not words, f"{code}:{node.lineno} words {words} in code"
            assert node.func.attr != "goal", f"{code}:{node.lineno} declares a goal in code"
            assert not (node.func.attr == "written_as" and isinstance(node.args[1], ast.Constant)), \
                f"{code}:{node.lineno} writes a template in code"


@pytest.mark.parametrize(
    "manifest, message",
    [
        ('domain = "X"\ndescription = "d"\nsubdomains = [', "invalid TOML"),
        ('domain = "X"\ndescription = "d"', "field subdomains: Field required"),
        ('domain = "X"\ndescription = "d"\nsubdomains = []', "field subdomains"),
        ('domain = "X"\ndescription = "d"\nsubdomains = ["a"]\ncolour = "red"', "field colour: Extra inputs"),
    ],
)
def test_malformed_seed_toml_names_file_and_field(tmp_path, manifest, message):
    folder = write_seed(tmp_path, "bad", GOOD_TOOLBOX, manifest=manifest)
    with pytest.raises(SeedError) as err:
        load_seed(folder)
    assert message in str(err.value) and str(folder / "seed.toml") in str(err.value)


@pytest.mark.parametrize(
    "code, message",
    [
        ("import nonexistent_module_xyz", "importing the toolbox failed: ModuleNotFoundError"),
        ("x = 1", "defines no `toolbox = Toolbox()`"),
        ("from factory.toolbox import Toolbox\ntoolbox = Toolbox()", "no world builder"),
        (GOOD_TOOLBOX.replace('"""Double a number.', '"""').replace("x: The number.", "x: The number."), "no one-line summary"),
        (GOOD_TOOLBOX.replace("def double(x: int)", "def double(x)"), "has no type annotation"),
    ],
)
def test_broken_toolboxes_are_seed_errors(tmp_path, code, message):
    folder = write_seed(tmp_path, "broken", code)
    with pytest.raises(SeedError) as err:
        load_seed(folder)
    assert message in str(err.value) and "broken" in str(err.value)


def test_world_builder_that_raises_is_a_seed_error_when_loading(tmp_path):
    folder = write_seed(tmp_path, "crashy", GOOD_TOOLBOX.replace("return W(n=rng.randint(1, 9))", "return 1 / 0"))
    with pytest.raises(SeedError, match="world builder failed: ZeroDivisionError"):
        load_seed(folder)


def test_domain_resolution_is_forgiving(seeds):
    def slugs(query):
        return [s.slug for s in resolve_domain(query, seeds).seeds]

    assert slugs("Food and Beverage") == slugs("food-and-beverage") == slugs("food & beverage") == ["food_and_beverage"]
    assert slugs("FOOD AND BEVERGE") == ["food_and_beverage"]  # misspelt
    match = resolve_domain("Food and Beverage/wine sales", seeds)
    assert [s.slug for s in match.seeds] == ["food_and_beverage"] and match.subdomain == "Wine Sales"
    assert slugs("Culinary Arts") == ["food_and_beverage"]  # a NesTools domain it covers
    unknown = resolve_domain("Food and Beverage/Molecular Gastronomy", seeds)
    assert unknown.unknown_subdomain == "Molecular Gastronomy" and unknown.subdomain is None
    assert resolve_domain("Quantum Chromodynamics", seeds) is None
    message = str(unknown_domain_error("Quantum Chromodynamics", seeds))
    assert "Food and Beverage" in message and "Quantum Chromodynamics" in message


# --- a broken seed is skipped, unless asked for by name ---------------------------------


def test_a_broken_seed_is_skipped_with_a_warning_and_the_others_load(tmp_path):
    from factory.errors import FactoryWarning
    from factory.seeds.library import load_library

    write_seed(tmp_path, "sound", GOOD_TOOLBOX)
    write_seed(tmp_path, "cracked", GOOD_TOOLBOX.replace("toolbox = Toolbox()", "toolbox = Toolbox(); 1 / 0"))
    with pytest.warns(FactoryWarning, match=r"seed cracked skipped: .*toolbox.py: importing the toolbox failed: ZeroDivisionError"):
        library = load_library(tmp_path)
    assert list(library.seeds) == ["sound"] and list(library.broken) == ["cracked"]
    assert list(load_seeds(tmp_path)) == ["sound"]
    assert "ZeroDivisionError" in str(library.broken_named("Cracked"))  # by its domain
    assert library.broken_named("cracked/Everything") is library.broken_named("cracked")  # by slug, with a subdomain
    assert library.broken_named("sound") is None


@pytest.mark.parametrize("make, message", [
    (lambda root: root.mkdir(), "holds no seed"),
    (lambda root: None, "does not exist"),
])
def test_an_empty_or_missing_seed_folder_is_one_error(tmp_path, make, message):
    make(tmp_path / "seeds")
    with pytest.raises(SeedError, match=message):
        load_seeds(tmp_path / "seeds")


def test_a_folder_of_broken_seeds_names_the_first_problem(tmp_path):
    write_seed(tmp_path, "cracked", "x = 1")
    with pytest.warns(UserWarning), pytest.raises(SeedError, match=r"no seed in .* loads \(1 failed\); .*defines no `toolbox"):
        load_seeds(tmp_path)


def test_no_fix_up_value_is_a_documented_example(seeds):
    """A fix-up call's stated arguments are the seed's constants (the traveller's own name and
    passport), which the composer cannot draw otherwise: no tool of the library may show one as
    its example, or an agent could copy it from the tool description instead of the request."""
    from factory.seeds.specs import documented_examples, shows_example

    shown = {name: documented_examples(spec) for seed in seeds.values() for name, spec in seed.specs.items()}
    found = [f"{seed.slug} {condition.name}: {condition.fix_tool}.{arg}={value!r} is an example of {tool}"
             for seed in seeds.values() for condition in seed.toolbox.conditions.values()
             for arg, value in condition.fix_arguments.items() if arg not in condition.free
             for tool, examples in shown.items() if shows_example(value, examples)]
    assert found == []
