from pathlib import Path

from factory.chains.code import parse_chain
from factory.config import resource_dir
from factory.queries import render_value, template_query
from factory.seeds import load_seeds


def food():
    return load_seeds(Path(resource_dir("seeds")))["food_and_beverage"]


def test_template_states_literals_describes_references_and_asks_for_the_answer():
    seed = food()
    chain = parse_chain(
        'data0, data1 = get_top_selling_wine(location="California", date="2025-05-08")\n'
        "data2 = get_product_origin(product=data0)\n"
        'data3 = get_export_quantity(location=data2, date="2025-05-08", product=data0)\n'
    )
    query = template_query(chain, seed.specs, seed.toolbox.tools)
    text = query["template"]
    assert "California" in text and text.count("2025-05-08") == 2
    assert "the best-selling wine from step 1" in text  # a reference two steps back names its step
    assert text.endswith("Tell me the units exported that day.")
    assert not any(name in text for name in seed.specs)
    bare = query["no_conjunctions"]
    assert not any(word in bare for word in ("First,", "Then", "Finally"))


def test_fix_up_calls_are_not_asked_for():
    seed = food()
    chain = parse_chain(
        'data0 = get_cellar_value(currency="EUR")\n'
        'data1 = get_vintage(wine_name="Ramey Chardonnay")\n'
    )
    chain.calls[0].fixes = "some_condition"
    text = template_query(chain, seed.specs, seed.toolbox.tools)["template"]
    assert "EUR" not in text and "Ramey Chardonnay" in text


def test_values_render_as_people_write_them():
    assert render_value(True) == "on" and render_value(3.0) == "3" and render_value(2.5) == "2.5"
    assert render_value(["a", "b", "c"]) == "a, b and c"
