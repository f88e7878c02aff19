"""An impossible shape request is refused before anything is generated, with advice that
holds; whatever a seed can reach is let through."""

import pytest

from factory.chains.feasibility import check_fillable, check_shape_request
from factory.config import load_settings
from factory.errors import ConfigError
from factory.generation.generate import _pools, generate
from factory.records import GenerateConfig
from tests.conftest import write_seed


@pytest.mark.parametrize("min_depth, max_depth, shape, message", [
    (1, 3, "4:1>2,2>3,3>4", r"--shape '4:1>2,2>3,3>4' has depth 4, outside --min-depth 1 to --max-depth 3; raise --max-depth to 4"),
    (1, 2, "diamond", r"--shape diamond shapes have depth 3, outside --min-depth 1 to --max-depth 2; raise --max-depth to 3"),
    (3, 5, "fan-out", r"--shape fan-out shapes have depth 2, outside --min-depth 3 to --max-depth 5; lower --min-depth to 2"),
    (1, 5, "9:1>2,2>3,3>4,4>5,5>6,6>7,7>8,8>9", r"has 9 calls \(depth 9\); shapes have 1 to 5 calls"),
    (1, 3, "spiral", r"--shape 'spiral' is neither a family"),
])
def test_a_shape_outside_the_catalogue_or_the_depth_bounds_is_refused(min_depth, max_depth, shape, message):
    with pytest.raises(ConfigError, match=message):
        check_shape_request(min_depth, max_depth, shape)


@pytest.mark.parametrize("min_depth, max_depth, shape", [(1, 3, None), (1, 5, "chain"), (4, 4, "4:1>2,2>3,3>4"), (5, 5, None)])
def test_requests_the_catalogue_meets_pass(min_depth, max_depth, shape):
    check_shape_request(min_depth, max_depth, shape)


LONE_TOOL = '''
    import random
    from typing import Annotated
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    @toolbox.values_for("number")
    def numbers(w: World) -> list[int]:
        return [1, 2, 3]

    @toolbox.tool(asks="double {x}")
    def double(x: Annotated[int, Kind("number")]) -> Annotated[int, Kind("doubled")]:
        """Double a number.

        Args:
            x: The number.

        Returns:
            doubled: the doubled number.
        """
        return 2 * x
'''


@pytest.mark.slow  # a generation run end to end
@pytest.mark.parametrize("change, message", [
    ({"shape": "2:1>2"}, r"cannot fill --shape 2:1>2 within depth 1 to 3, .*the deepest nesting they reach is depth 1\); choose another --shape"),
    ({"min_depth": 2}, r"cannot fill a depth of 2 to 3, .*depth 1\); lower --min-depth to 1"),
])
def test_a_shape_no_seed_tool_can_fill_is_refused_before_any_output(tmp_path, change, message):
    write_seed(tmp_path / "seeds", "lone", LONE_TOOL)
    settings = load_settings({"seeds_dir": str(tmp_path / "seeds")})
    config = GenerateConfig(domain="lone", n=3, max_depth=3, distractors=0).model_copy(update=change)
    with pytest.raises(ConfigError, match=message):
        generate(config, settings, tmp_path / "never")
    assert not (tmp_path / "never").exists()


@pytest.fixture(scope="module")
def every_seed():
    from factory.chains.seeded import SeedComposer
    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.lm.embeddings import EmbeddingCache
    from factory.seeds.library import load_seeds

    settings = load_settings()
    seeds = load_seeds(settings.seeds_dir)
    embeddings = EmbeddingCache()
    contexts = {s: CheckContext(seeds, load_policy(settings.validators_dir, s), embeddings) for s in seeds}

    def generator(config: GenerateConfig, slugs: list[str]) -> SeedComposer:
        return SeedComposer(config, seeds, [seeds[s] for s in slugs], None, contexts)

    return seeds, generator


@pytest.mark.slow  # every seed composed at the deepest nesting
def test_the_deepest_nesting_is_allowed_wherever_a_seed_reaches_it(every_seed):
    """--min-depth 5 --domain all must run; so must a seed that reaches depth 5 only with a
    tool its goal borrows from another seed (travel: the forecast where a flight lands)."""
    seeds, generator = every_seed
    config = GenerateConfig(domain="all", n=5, min_depth=5, max_depth=5)
    check_fillable(_pools(generator(config, list(seeds))), "all", 5, 5, None)
    check_fillable(_pools(generator(config, ["travel"])), "Travel", 5, 5, None)


@pytest.mark.slow
def test_a_shape_the_food_tools_cannot_fill_is_refused(every_seed):
    _, generator = every_seed
    config = GenerateConfig(domain="Food and Beverage", n=5, max_depth=5, shape="5:1>5,2>5,3>5,4>5")
    with pytest.raises(ConfigError, match=r"cannot fill --shape 5:1>5,2>5,3>5,4>5 within depth 1 to 5, .*; choose another --shape or --domain"):
        check_fillable(_pools(generator(config, ["food_and_beverage"])), "Food and Beverage", 1, 5, config.shape)
