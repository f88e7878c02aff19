"""Behaviour of every Food and Beverage tool, including its error cases."""

import pytest

from tests.seeds.toolbox_helpers import ToolboxSession


@pytest.fixture(scope="module")
def fb():
    return ToolboxSession("food_and_beverage")


def test_top_selling_wine_chain_has_a_real_answer(fb):
    wine, sales = fb.ok("get_top_selling_wine", location="California", date="2025-05-08")
    assert wine in fb.world.wines and 400 <= sales <= 4000
    origin = fb.ok("get_product_origin", product=wine)
    quantity = fb.ok("get_export_quantity", location=origin, date="2025-05-08", product=wine)
    assert isinstance(quantity, int) and quantity >= 500
    # Deterministic: the same question gives the same answer.
    assert fb.ok("get_top_selling_wine", location="California", date="2025-05-08") == (wine, sales)


def test_sales_reject_unknown_region_and_dates_outside_the_data(fb):
    assert "unknown sales region" in fb.error("get_top_selling_wine", location="Narnia", date="2025-05-08")
    assert "YYYY-MM-DD" in fb.error("get_top_selling_wine", location="California", date="10/08/2023")
    assert "data covers" in fb.error("get_best_selling_beer", location="Oregon", date="2025-07-01")
    assert "unknown sales region" in fb.error("get_total_beverage_sales", location="Mars", date="2025-05-08")


def test_beer_sales_and_origin(fb):
    beer, units = fb.ok("get_best_selling_beer", location="Oregon", date="2025-04-20")
    assert beer in fb.world.beers and units > 0
    assert fb.ok("get_beer_origin", beer=beer) == fb.world.beers[beer]["country"]
    assert "unknown beer" in fb.error("get_beer_origin", beer="Duff")


def test_trade_volumes_follow_origin(fb):
    wine = "Antinori Sangiovese" if "Antinori Sangiovese" in fb.world.wines else sorted(fb.world.wines)[0]
    origin = fb.ok("get_product_origin", product=wine)
    own = fb.ok("get_export_quantity", location=origin, date="2025-05-08", product=wine)
    reexport = fb.ok("get_export_quantity", location="Chile" if origin != "Chile" else "Italy", date="2025-05-08", product=wine)
    assert own >= 500 and 0 <= reexport <= 400  # re-exports are small next to the origin's exports
    assert fb.ok("get_import_quantity", country=origin, date="2025-05-08", product=wine) == 0
    other = next(c for c in fb.values("country") if c != origin)
    assert fb.ok("get_import_quantity", country=other, date="2025-05-08", product=wine) >= 0
    assert "unknown wine" in fb.error("get_product_origin", product="Chateau Nowhere")


def test_catalog_search_and_lookups(fb):
    hits = fb.ok("search_wine_catalog", query="pinot")
    assert hits and all("Pinot" in h for h in hits) and hits == sorted(hits) and len(hits) <= 5
    assert fb.ok("search_wine_catalog", query="zzz") == []
    assert "between 1 and 20" in fb.error("search_wine_catalog", query="pinot", max_results=0)
    assert "at least one word" in fb.error("search_wine_catalog", query="  ")
    wine = hits[0]
    producer = fb.ok("get_product_manufacturer", product=wine)
    assert wine.startswith(producer)
    assert fb.ok("get_producer_region", producer=producer) in fb.values("sales_region")
    assert "unknown producer" in fb.error("get_producer_region", producer="Nobody")
    score, reviewer = fb.ok("get_wine_rating", wine_name=wine)
    assert 84 <= score <= 99 and reviewer
    assert 2012 <= fb.ok("get_vintage", wine_name=wine) <= 2021


def test_prices_convert_currencies(fb):
    wine = sorted(fb.world.wines)[0]
    usd = fb.ok("get_wine_price", wine_name=wine)
    eur = fb.ok("get_wine_price", wine_name=wine, currency="EUR")
    assert eur == round(fb.world.wines[wine]["price_usd"] * 0.92, 2) and usd > 0
    assert "unsupported currency" in fb.error("get_wine_price", wine_name=wine, currency="XYZ")


def test_variety_pairing_and_calories(fb):
    wine = sorted(fb.world.wines)[0]
    variety = fb.ok("get_grape_variety", wine_name=wine)
    assert wine in fb.ok("find_wines_by_variety", variety=variety, country=fb.ok("get_product_origin", product=wine))
    assert "unknown grape variety" in fb.error("find_wines_by_variety", variety="Grapefruit", country="Italy")
    dish = fb.ok("get_food_pairing", variety=variety)
    assert 320 <= fb.ok("get_dish_calories", dish=dish) <= 1100
    assert "no pairing" in fb.error("get_food_pairing", variety="Concord")
    assert "no nutrition data" in fb.error("get_dish_calories", dish="gruel")


def test_harvest_yield_covers_known_years(fb):
    assert fb.ok("get_harvest_yield", region="Rioja", year=2015) > 0
    assert "no harvest records" in fb.error("get_harvest_yield", region="Rioja", year=1990)
    assert "unknown region" in fb.error("get_harvest_yield", region="Atlantis", year=2015)


def test_malformed_calls_are_observations(fb):
    assert "must be int" in fb.error("get_harvest_yield", region="Rioja", year="2015")
    assert "no parameter" in fb.error("get_vintage", wine_name="x", colour="red")


def test_wine_mentions_resolve_to_catalog_names(fb):
    for mention in fb.values("wine_mention")[:10]:
        assert fb.ok("resolve_wine_name", mention=mention) in fb.world.wines
    name = sorted(fb.world.wines)[0]
    row = fb.world.wines[name]
    assert fb.ok("resolve_wine_name", mention=f"{row['variety']} by {row['producer']}") == name
    assert "name both the producer and the grape" in fb.error("resolve_wine_name", mention="a nice red")


def test_search_terms_find_wines(fb):
    hits = [fb.ok("search_wine_catalog", query=q) for q in fb.values("wine_search_terms")]
    assert all(hits), "every generated search phrase finds at least one wine"


def test_cellar_changes_state_and_value():
    session = ToolboxSession("food_and_beverage")
    wine = sorted(session.world.wines)[0]
    assert session.ok("get_cellar_value", currency="USD") == 0.0
    assert session.ok("add_wine_to_cellar", wine_name=wine, bottles=6) == 6
    assert session.ok("add_wine_to_cellar", wine_name=wine, bottles=2) == 8
    assert session.world.state["cellar"] == {wine: 8}
    assert session.ok("get_cellar_value", currency="USD") == round(8 * session.world.wines[wine]["price_usd"], 2)
    assert "between 1 and 48" in session.error("add_wine_to_cellar", wine_name=wine, bottles=0)
    assert "unsupported currency" in session.error("get_cellar_value", currency="DOGE")
    # A new session starts from the seed's world again: state does not leak between episodes.
    assert ToolboxSession("food_and_beverage").ok("get_cellar_value", currency="USD") == 0.0
