"""Behaviour of every Food and Beverage tool, including its error cases, and the declarations
that keep its requests sensible."""

from pathlib import Path

import pytest

from factory.chains.pool import links_to
from factory.checks.context import CheckContext
from factory.checks.policy import load_policy
from factory.config import resource_dir
from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW
from factory.toolbox.sense import violations
from tests.seeds.toolbox_helpers import ToolboxSession, chain_problems

SLUG = "food_and_beverage"
DAY = "2025-05-08"


@pytest.fixture(scope="module")
def fb():
    return ToolboxSession(SLUG)


@pytest.fixture(scope="module")
def ctx(fb):
    return CheckContext(fb.seeds, load_policy(Path(resource_dir("validators"))))


def problems(fb, ctx, code: str) -> list[str]:
    """The plausibility check's findings on a chain of this seed, executed in a fresh world."""
    return chain_problems(fb.seeds, code, toolboxes=[SLUG], ctx=ctx)


def broken(fb, tool: str, **args) -> list:
    return violations(fb.seed.toolbox.tools[tool].sense, args, {})


# --- tools ----------------------------------------------------------------------------------


def test_top_selling_wine_chain_has_a_real_answer(fb):
    wine, sales = fb.ok("get_top_selling_wine", location="California", date=DAY)
    assert wine in fb.world.wines and 400 <= sales <= 4000
    origin = fb.ok("get_product_origin", product=wine)
    quantity = fb.ok("get_export_quantity", location=origin, date=DAY, product=wine)
    assert isinstance(quantity, int) and quantity >= 500
    # Deterministic: the same question gives the same answer.
    assert fb.ok("get_top_selling_wine", location="California", date=DAY) == (wine, sales)


def test_best_sellers_are_mostly_local(fb):
    """A wine region's best seller is one of its own wines (no Italian red tops Marlborough:
    reading 25 #8); a beer may come from further away."""
    days = fb.values("date")[:40]
    wines = {fb.ok("get_top_selling_wine", location="Marlborough", date=d)[0] for d in days}
    assert len(wines) > 1 and {fb.ok("get_product_origin", product=w) for w in wines} == {"New Zealand"}
    beers = [fb.ok("get_best_selling_beer", location="Rioja", date=d)[0] for d in days]
    assert sum(fb.world.beers[b]["country"] == "Spain" for b in beers) > len(beers) / 3


def test_sales_reject_unknown_region_and_dates_outside_the_data(fb):
    assert "unknown sales region" in fb.error("get_top_selling_wine", location="Narnia", date=DAY)
    assert "YYYY-MM-DD" in fb.error("get_top_selling_wine", location="California", date="10/08/2023")
    assert "data covers" in fb.error("get_best_selling_beer", location="Oregon", date="2025-07-01")
    assert "data covers" in fb.error("get_best_selling_beer", location="Oregon", date="2025-04-13")
    assert fb.ok("get_best_selling_beer", location="Oregon", date=NOW.date().isoformat())
    assert "unknown sales region" in fb.error("get_total_beverage_sales", location="Mars", date=DAY)


def test_beer_sales_and_origin(fb):
    beer, units = fb.ok("get_best_selling_beer", location="Oregon", date="2025-04-20")
    assert beer in fb.world.beers and units > 0
    assert fb.ok("get_beer_origin", beer=beer) == fb.world.beers[beer]["country"]
    assert fb.ok("get_beer_origin", beer="Kronenbourg 1664") == "France"
    assert "unknown beer" in fb.error("get_beer_origin", beer="Duff")


def test_trade_volumes_follow_origin(fb):
    origin = fb.ok("get_product_origin", product="Poggio Alto")
    assert origin == "Italy"
    own = fb.ok("get_export_quantity", location=origin, date=DAY, product="Poggio Alto")
    reexport = fb.ok("get_export_quantity", location="France", date=DAY, product="Poggio Alto")
    assert own >= 500 and 0 <= reexport <= 400  # re-exports are small next to the origin's exports
    assert fb.ok("get_import_quantity", country=origin, date=DAY, product="Poggio Alto") == 0
    assert fb.ok("get_import_quantity", country="Germany", date=DAY, product="Poggio Alto") >= 0
    assert "unknown wine" in fb.error("get_product_origin", product="Chateau Nowhere")
    assert "unknown wine" in fb.error("get_export_quantity", location="Italy", date=DAY, product="Chateau Nowhere")
    assert "unknown country" in fb.error("get_export_quantity", location="Narnia", date=DAY, product="Poggio Alto")
    assert fb.ok("get_export_quantity", location="italy", date=DAY, product="Poggio Alto") == own  # as people name it


def test_catalog_search_and_lookups(fb):
    hits = fb.ok("search_wine_catalog", query="pinot oregon")
    assert hits and hits == sorted(hits) and len(hits) <= 5
    assert all(fb.world.wines[h]["variety"] == "Pinot Noir" for h in hits)
    assert fb.ok("search_wine_catalog", query="antinori", max_results=20) == ["Colle Ventoso", "Poggio Alto", "Vigna Rossa"]
    assert fb.ok("search_wine_catalog", query="zzz") == []
    assert "between 1 and 20" in fb.error("search_wine_catalog", query="pinot", max_results=0)
    assert "at least one word" in fb.error("search_wine_catalog", query="  ")
    assert all(fb.ok("search_wine_catalog", query=q) for q in fb.values("wine_search_terms"))
    wine = hits[0]
    producer = fb.ok("get_product_manufacturer", product=wine)
    assert producer in ("Eyrie", "Beaux Freres") and producer not in wine  # the label does not give it away
    assert fb.ok("get_producer_region", producer=producer) == "Oregon"
    assert "unknown producer" in fb.error("get_producer_region", producer="Nobody")
    score, reviewer = fb.ok("get_wine_rating", wine_name=wine)
    assert 84 <= score <= 99 and reviewer
    assert 2012 <= fb.ok("get_vintage", wine_name=wine) <= 2021


def test_prices_convert_currencies(fb):
    wine = "Poggio Alto"
    usd = fb.ok("get_wine_price", wine_name=wine)
    assert usd == fb.world.wines[wine]["price_usd"]
    assert fb.ok("get_wine_price", wine_name=wine, currency="JPY") == round(usd * CURRENCY_BY_CODE["JPY"].per_usd, 2)
    assert "unsupported currency" in fb.error("get_wine_price", wine_name=wine, currency="XYZ")
    assert set(fb.values("currency_code")) <= set(CURRENCY_BY_CODE) and "USD" not in fb.values("currency_code")


def test_grapes_grow_where_they_belong(fb):
    regions = {}
    for name, row in fb.world.wines.items():
        regions.setdefault(fb.ok("get_producer_region", producer=row["producer"]), set()).add(row["variety"])
        assert row["variety"].lower() not in name.lower()  # the grape is a question, not part of the name
    assert regions["Mosel"] <= {"Riesling", "Pinot Noir"} and regions["Rioja"] <= {"Tempranillo", "Garnacha"}
    assert regions["Burgundy"] <= {"Chardonnay", "Pinot Noir"} and "Malbec" in regions["Mendoza"]


def test_variety_pairing_and_calories(fb):
    wine = "Les Cailloux"
    variety = fb.ok("get_grape_variety", wine_name=wine)
    assert variety == "Cabernet Sauvignon"
    assert wine in fb.ok("find_wines_by_variety", variety=variety, country=fb.ok("get_product_origin", product=wine))
    assert "unknown grape variety" in fb.error("find_wines_by_variety", variety="Grapefruit", country="Italy")
    dish = fb.ok("get_food_pairing", variety=variety)
    assert 320 <= fb.ok("get_dish_calories", dish=dish) <= 1100
    assert "no pairing" in fb.error("get_food_pairing", variety="Concord")
    assert "no nutrition data" in fb.error("get_dish_calories", dish="gruel")
    for variety, country in fb.seed.toolbox.joint_values[("grape_variety", "country")](fb.world):
        assert fb.ok("find_wines_by_variety", variety=variety, country=country), (variety, country)


def test_harvest_yield_covers_known_years(fb):
    assert fb.ok("get_harvest_yield", region="Rioja", year=2015) > 0
    assert "no harvest records" in fb.error("get_harvest_yield", region="Rioja", year=1990)
    assert "unknown region" in fb.error("get_harvest_yield", region="Atlantis", year=2015)


def test_malformed_calls_are_observations(fb):
    assert "must be int" in fb.error("get_harvest_yield", region="Rioja", year="2015")
    assert "no parameter" in fb.error("get_vintage", wine_name="x", colour="red")


def test_wine_mentions_resolve_to_catalog_names(fb):
    mentions = fb.values("wine_mention")
    for mention in mentions:
        assert fb.ok("resolve_wine_name", mention=mention) in fb.world.wines
    assert fb.ok("resolve_wine_name", mention="red hills") == "Red Hills Reserve"
    assert fb.ok("resolve_wine_name", mention="The Clos Saint Andre") == "Clos Saint-Andre"
    # A mention never names the producer or the grape, so asking for them afterwards is a real question.
    for mention in mentions:
        row = fb.world.wines[fb.ok("resolve_wine_name", mention=mention)]
        assert row["producer"].lower() not in mention and row["variety"].lower() not in mention
    assert "no single catalog wine" in fb.error("resolve_wine_name", mention="a nice red")
    assert "no single catalog wine" in fb.error("resolve_wine_name", mention="red")  # Red Hills and Red Gum


def test_cellar_starts_stocked_and_adding_changes_it():
    session = ToolboxSession(SLUG)
    owned = dict(session.world.state["cellar"])
    assert owned, "a cellar worth asking about"
    value = round(sum(session.world.wines[w]["price_usd"] * n for w, n in owned.items()), 2)
    assert session.ok("get_cellar_value", currency="USD") == value
    wine = next(w for w in sorted(session.world.wines) if w not in owned)
    assert session.ok("add_wine_to_cellar", wine_name=wine, bottles=6) == 6
    assert session.ok("add_wine_to_cellar", wine_name=wine, bottles=2) == 8
    kept = next(iter(owned))
    assert session.ok("add_wine_to_cellar", wine_name=kept, bottles=1) == owned[kept] + 1
    assert session.world.state["cellar"][wine] == 8
    assert "between 1 and 48" in session.error("add_wine_to_cellar", wine_name=wine, bottles=0)
    assert "unsupported currency" in session.error("get_cellar_value", currency="DOGE")
    # A new session starts from the seed's world again: state does not leak between episodes.
    assert ToolboxSession(SLUG).ok("get_cellar_value", currency="USD") == value


# --- declarations -------------------------------------------------------------------------


def test_sense_rules_reject_requests_nobody_makes(fb):
    today = NOW.date().isoformat()
    assert broken(fb, "get_top_selling_wine", location="Rioja", date="2025-06-20")  # sales not yet made
    assert broken(fb, "get_top_selling_wine", location="Rioja", date="2024-06-13")
    assert not broken(fb, "get_top_selling_wine", location="Rioja", date=today)
    trade = {"date": DAY, "product": "Poggio Alto"}
    assert broken(fb, "get_export_quantity", location="France", **trade)  # France only re-exports it
    assert not broken(fb, "get_export_quantity", location="Italy", **trade)
    assert broken(fb, "get_import_quantity", country="Italy", **trade)  # nil by definition
    assert not broken(fb, "get_import_quantity", country="Japan", **trade)
    assert broken(fb, "find_wines_by_variety", variety="Nebbiolo", country="Argentina")
    assert not broken(fb, "find_wines_by_variety", variety="Malbec", country="Argentina")
    assert broken(fb, "add_wine_to_cellar", wine_name="Poggio Alto", bottles=300)
    assert broken(fb, "search_wine_catalog", query="merlot", max_results=500)
    # literal values the composer draws obey the rules
    assert all(not broken(fb, "get_top_selling_wine", location="Rioja", date=d) for d in fb.values("date"))
    assert all(not broken(fb, "add_wine_to_cellar", wine_name="Poggio Alto", bottles=n) for n in fb.values("bottle_count"))


def test_sensible_chains_pass_the_plausibility_check(fb, ctx):
    assert problems(fb, ctx, 'w, s = get_top_selling_wine(location="California", date="2025-05-08")\n'
                             'c = get_product_origin(product=w)\n'
                             'q = get_export_quantity(location=c, date="2025-05-08", product=w)') == []
    assert problems(fb, ctx, 'w = resolve_wine_name(mention="red hills")\n'
                             'y = get_vintage(wine_name=w)\n'
                             'p = get_product_manufacturer(product=w)\n'
                             'r = get_producer_region(producer=p)\n'
                             't = get_harvest_yield(region=r, year=y)') == []
    assert problems(fb, ctx, 'g = get_grape_variety(wine_name="Les Cailloux")\n'
                             'd = get_food_pairing(variety=g)\nk = get_dish_calories(dish=d)') == []
    assert problems(fb, ctx, 'n = add_wine_to_cellar(wine_name="Poggio Alto", bottles=6)') == []


def test_absurd_chains_are_rejected(fb, ctx):
    # exporting a wine from the origin of a different wine
    found = problems(fb, ctx, 'w, s = get_top_selling_wine(location="Tuscany", date="2025-05-08")\n'
                              'c = get_product_origin(product="Alta Montana")\n'
                              'q = get_export_quantity(location=c, date="2025-05-08", product=w)')
    assert any("together" in p or "exported from the country" in p for p in found), found
    # the harvest of one wine's region in another wine's vintage
    found = problems(fb, ctx, 'y = get_vintage(wine_name="Poggio Alto")\n'
                              'p = get_product_manufacturer(product="Sonnenhang")\n'
                              'r = get_producer_region(producer=p)\n'
                              't = get_harvest_yield(region=r, year=y)')
    assert any("together" in p for p in found), found
    # a literal region that contradicts the wine named beside it
    found = problems(fb, ctx, 'y = get_vintage(wine_name="Poggio Alto")\nt = get_harvest_yield(region="Mosel", year=y)')
    assert any(p.startswith("coherent:") and "Tuscany" in p for p in found), found
    # the producer named beside a wine is that wine's producer
    found = problems(fb, ctx, 'r = get_producer_region(producer="Muga")\ns, v = get_wine_rating(wine_name="Poggio Alto")')
    assert any(p.startswith(("coherent:", "unrelated:")) for p in found), found
    # imports of a wine into its own country
    found = problems(fb, ctx, 'q = get_import_quantity(country="Italy", date="2025-05-08", product="Poggio Alto")')
    assert any("imported into a country other than its own" in p for p in found), found


def test_links_follow_roles(fb):
    specs = fb.seed.specs
    origin = specs["get_product_origin"].returns[0]
    assert (origin.kind, origin.role) == ("country", "wine_origin")
    assert specs["get_export_quantity"].param("location").role == "wine_origin"
    assert specs["get_import_quantity"].param("country").role == "importer"  # the origin never feeds an import
    assert specs["get_beer_origin"].returns[0].kind is None  # nothing sensible consumes where a beer is brewed
    assert specs["get_wine_price"].param("currency").role == "currency"  # a currency named elsewhere ("yen")
    assert fb.seed.toolbox.bridges == {"currency_code"}
    # across seeds: "the price of that wine in yen" links; a contact's next birthday is no sales day
    finance, phone = fb.seeds["finance_stocks"].specs, fb.seeds["phone_assistant"].specs
    bridges = {slug: set(seed.toolbox.bridges) for slug, seed in fb.seeds.items()}
    code = finance["currency_name_to_code"]
    assert links_to(code.returns[0], specs["get_wine_price"].param("currency"), code, specs["get_wine_price"], bridges)
    birthday = phone["get_contact_birthday"]
    sales = specs["get_total_beverage_sales"]
    assert not any(links_to(out, sales.param("date"), birthday, sales, bridges) for out in birthday.returns)
    assert set(fb.values("country/importer")) >= {"United Kingdom", "Japan"}
    assert fb.seed.toolbox.written["country"]("USA") == "the USA"
    assert fb.seed.toolbox.written["wine_name"].format("Poggio Alto") == "the wine Poggio Alto"


def test_facts_tie_a_wine_to_its_producer_grape_and_region(fb):
    facts = fb.seed.toolbox.facts
    assert facts["wine_name"](fb.world, "Sonnenhang") == {"producer": "Dr. Loosen", "grape_variety": "Riesling",
                                                          "wine_region": "Mosel"}
    assert facts["wine_mention"](fb.world, "red hills")["producer"] == "Eyrie"
    assert facts["wine_mention"](fb.world, "red") == {}
    assert facts["producer"](fb.world, "Catena") == {"wine_region": "Mendoza"}


def test_worlds_are_deterministic():
    a, b = ToolboxSession(SLUG, world_seed=2), ToolboxSession(SLUG, world_seed=2)
    assert a.world.wines == b.world.wines and a.world.state == b.world.state
    assert ToolboxSession(SLUG, world_seed=3).world.wines != a.world.wines
    assert set(ToolboxSession(SLUG, world_seed=3).world.wines) == set(a.world.wines)  # the catalog is fixed


def test_goals_keep_the_market_apart_from_the_table(fb):
    # "Dinner chosen through the grape of the wine that sold best in a producer's region":
    # a region's sales are an analyst's, a dish and a cellar a drinker's, and a region's sales
    # are not asked through the home region of its own best seller's maker.
    sales = {"get_top_selling_wine", "get_best_selling_beer", "get_total_beverage_sales"}
    table = {"get_food_pairing", "get_dish_calories", "add_wine_to_cellar", "get_cellar_value", "get_producer_region"}
    for goal in fb.seed.toolbox.goals.values():
        assert not (sales & set(goal.tools) and table & set(goal.tools)), goal.name
