"""Behaviour of every Real Estate tool, including its error cases."""

from datetime import timedelta

import pytest

from factory.toolbox.gazetteer import CITIES, CITY_BY_NAME, NOW
from tests.seeds.toolbox_helpers import ToolboxSession

TODAY = NOW.date()
TOMORROW_10 = f"{TODAY + timedelta(days=1)}T10:00"


@pytest.fixture(scope="module")
def homes():
    return ToolboxSession("real_estate")


def test_every_city_has_listings_and_a_market(homes):
    for city in CITIES:
        found = homes.ok("search_property_listings", city=city.name)
        assert len(found) == 6 and all(homes.world.listings[i]["city"] == city.name for i in found)
        median, currency, count = homes.ok("get_city_market_summary", city=city.name)
        assert median > 0 and count == 6 and len(currency) == 3
    assert "no property data" in homes.error("search_property_listings", city="Atlantis")
    assert "no property data" in homes.error("get_city_market_summary", city="Gotham")


def test_search_filters_and_order(homes):
    tokyo = homes.ok("search_property_listings", city="Tokyo")
    prices = [homes.world.listings[i]["price"] for i in tokyo]
    assert prices == sorted(prices)
    cap = prices[2]
    assert homes.ok("search_property_listings", city="Tokyo", max_price=cap) == tokyo[:3]
    two_plus = homes.ok("search_property_listings", city="Tokyo", min_bedrooms=2)
    assert all(homes.world.listings[i]["bedrooms"] >= 2 for i in two_plus)
    kind = homes.world.listings[tokyo[0]]["type"]
    assert tokyo[0] in homes.ok("search_property_listings", city="Tokyo", property_type=kind)
    assert "between 0 and 10" in homes.error("search_property_listings", city="Tokyo", min_bedrooms=11)
    assert "positive amount" in homes.error("search_property_listings", city="Tokyo", max_price=-1.0)
    assert "must be one of" in homes.error("search_property_listings", city="Tokyo", property_type="castle")


def test_omnisearch(homes):
    hits = homes.ok("find_properties", query="Old Town Paris")
    assert hits and all(homes.world.listings[i]["neighbourhood"] == "Old Town" and homes.world.listings[i]["city"] == "Paris"
                        for i in hits)
    assert all(homes.ok("find_properties", query=q) for q in homes.values("property_search_terms"))
    assert homes.ok("find_properties", query="castle atlantis") == []
    assert len(homes.ok("find_properties", query="apartment", max_results=4)) == 4
    assert "between 1 and 50" in homes.error("find_properties", query="loft", max_results=0)
    assert "at least one word" in homes.error("find_properties", query="??")


def test_listing_facts(homes):
    address, price, currency, bedrooms, area = homes.ok("get_listing_details", listing_id="LYO-103")
    row = homes.world.listings["LYO-103"]
    assert (address, price, currency, bedrooms, area) == (row["address"], row["price"], "EUR", row["bedrooms"], row["area"])
    lat, lon, city, hood = homes.ok("get_listing_location", listing_id="lyo-103")
    assert city == "Lyon" and abs(lat - CITY_BY_NAME["Lyon"].latitude) < 0.05 and hood == row["neighbourhood"]
    per_m2, cur = homes.ok("get_price_per_square_metre", listing_id="LYO-103")
    assert per_m2 == float(round(price / area)) and cur == "EUR"
    gross, rent = homes.ok("get_rental_yield", listing_id="LYO-103")
    assert gross == round(rent * 12 / price * 100, 2) and 1.5 < gross < 9
    for tool in ("get_listing_details", "get_listing_location", "get_listing_agent", "get_rental_yield",
                 "get_price_per_square_metre", "get_comparable_sales"):
        assert "unknown listing" in homes.error(tool, listing_id="XXX-999")


def test_agents_and_contacts(homes):
    agent, agency = homes.ok("get_listing_agent", listing_id="PAR-101")
    email, phone = homes.ok("get_agent_contact", agent_name=agent)
    assert email.startswith(agent.split()[0].lower() + ".") and phone.startswith("+33-") and agency
    assert homes.ok("get_agent_contact", agent_name=agent.upper()) == (email, phone)
    assert "no estate agent named" in homes.error("get_agent_contact", agent_name="Sherlock Holmes")


def test_geocoding_and_nearest_listing(homes):
    row = homes.world.listings["BER-102"]
    assert homes.ok("geocode_property_address", address=row["address"]) == (row["latitude"], row["longitude"])
    lat, lon = homes.ok("geocode_property_address", address="12 Elm Street, Paris")
    assert abs(lat - 48.8566) < 0.05 and abs(lon - 2.3522) < 0.05
    assert homes.ok("geocode_property_address", address="12 Elm Street, Paris") == (lat, lon)  # deterministic
    # the one geocoder every seed shares (factory.toolbox.gazetteer.geocode), with its errors
    assert "'<number> <street>, <city>'" in homes.error("geocode_property_address", address="12 Elm Street")
    assert "must end with a known city" in homes.error("geocode_property_address", address="1 Main St, Springfield")
    listing, km = homes.ok("find_nearest_listing", latitude=row["latitude"], longitude=row["longitude"])
    assert (listing, km) == ("BER-102", 0.0)
    listing, km = homes.ok("find_nearest_listing", latitude=lat, longitude=lon)
    assert homes.world.listings[listing]["city"] == "Paris" and km < 10
    for city in CITIES:  # every city centre has a listing nearby
        assert homes.ok("find_nearest_listing", latitude=city.latitude, longitude=city.longitude)[1] < 10
    assert "no home for sale within 50 km" in homes.error("find_nearest_listing", latitude=41.8781, longitude=103.8198)
    assert "between -90 and 90" in homes.error("find_nearest_listing", latitude=95.0, longitude=0.0)
    assert "between -180 and 180" in homes.error("find_nearest_listing", latitude=0.0, longitude=200.0)


def test_neighbourhoods_and_comparables(homes):
    school, crime = homes.ok("get_neighbourhood_stats", neighbourhood="Riverside", city="Lyon")
    assert 1 <= school <= 10 and 0 <= crime <= 100
    assert "unknown neighbourhood" in homes.error("get_neighbourhood_stats", neighbourhood="Downtown", city="Lyon")
    assert "no property data" in homes.error("get_neighbourhood_stats", neighbourhood="Riverside", city="Narnia")
    addresses, median, latest = homes.ok("get_comparable_sales", listing_id="LYO-103")
    assert len(addresses) == 5 and all(a.endswith(", Lyon") for a in addresses) and median > 0
    assert TODAY - timedelta(days=110) <= TODAY.fromisoformat(latest) < TODAY


def test_valuation_and_area_conversion(homes):
    value, currency = homes.ok("estimate_property_value", city="Zurich", floor_area_m2=100.0, bedrooms=3)
    assert currency == "CHF" and value == float(round(16500 * 0.88 * 100 * 1.06))
    bigger, _ = homes.ok("estimate_property_value", city="Zurich", floor_area_m2=150.0, bedrooms=3)
    assert bigger > value
    assert "between 10 and 2000" in homes.error("estimate_property_value", city="Zurich", floor_area_m2=5.0, bedrooms=1)
    assert "between 0 and 10" in homes.error("estimate_property_value", city="Zurich", floor_area_m2=80.0, bedrooms=12)
    assert homes.ok("convert_floor_area", area="1,076 sq ft") == (100.0, 1076.0)
    assert homes.ok("convert_floor_area", area="95 m²") == (95.0, 1023.0)
    assert homes.ok("convert_floor_area", area="72 Square Metres") == (72.0, 775.0)
    assert homes.ok("convert_floor_area", area="850 square feet")[0] == 79.0
    for text in homes.values("floor_area_text"):
        m2, sqft = homes.ok("convert_floor_area", area=text)
        assert abs(m2 * 10.7639 - sqft) < 10
    assert "unknown unit" in homes.error("convert_floor_area", area="90 acres")
    assert "cannot read" in homes.error("convert_floor_area", area="spacious")
    assert "greater than 0" in homes.error("convert_floor_area", area="0 m2")


def test_mortgage_arithmetic(homes):
    payment, interest = homes.ok("calculate_mortgage_payment", principal=400000.0, annual_rate_percent=5.0, term_years=30)
    assert (payment, interest) == (2147.29, 373023.14)  # the standard annuity formula
    assert homes.ok("calculate_mortgage_payment", principal=1200.0, annual_rate_percent=0.0, term_years=1) == (100.0, 0.0)
    assert "greater than 0" in homes.error("calculate_mortgage_payment", principal=0.0, annual_rate_percent=5.0, term_years=30)
    assert "between 0 and 25" in homes.error("calculate_mortgage_payment", principal=1.0, annual_rate_percent=30.0, term_years=30)
    assert "between 1 and 40" in homes.error("calculate_mortgage_payment", principal=1.0, annual_rate_percent=3.0, term_years=50)


def test_viewings_book_list_and_cancel():
    s = ToolboxSession("real_estate")
    before = s.ok("list_property_viewings")
    assert before == ["VW-101", "VW-102"]
    viewing, agent = s.ok("schedule_property_viewing", listing_id="ROM-102", start_time=TOMORROW_10)
    assert viewing == "VW-103" and agent == s.world.listings["ROM-102"]["agent"]
    assert s.ok("list_property_viewings") == [viewing, "VW-101", "VW-102"]  # soonest first
    assert "already has a viewing" in s.error("schedule_property_viewing", listing_id="ROM-102", start_time=TOMORROW_10)
    assert s.ok("cancel_property_viewing", viewing_id=viewing) == ("cancelled", "ROM-102")
    assert s.ok("list_property_viewings") == before
    assert "already cancelled" in s.error("cancel_property_viewing", viewing_id=viewing)
    assert "unknown viewing" in s.error("cancel_property_viewing", viewing_id="VW-999")
    # The slot is free again once the earlier viewing is cancelled.
    assert s.ok("schedule_property_viewing", listing_id="ROM-102", start_time=TOMORROW_10)[0] == "VW-104"


def test_viewing_times_are_checked():
    s = ToolboxSession("real_estate")
    assert "in the past" in s.error("schedule_property_viewing", listing_id="ROM-102", start_time=f"{TODAY}T09:00")
    assert "60 days" in s.error("schedule_property_viewing", listing_id="ROM-102",
                                 start_time=f"{TODAY + timedelta(days=90)}T10:00")
    assert "between 08:00 and 19:59" in s.error("schedule_property_viewing", listing_id="ROM-102",
                                                 start_time=f"{TODAY + timedelta(days=1)}T21:00")
    assert "YYYY-MM-DDTHH:MM" in s.error("schedule_property_viewing", listing_id="ROM-102", start_time="tomorrow 10am")
    assert all(s.call("schedule_property_viewing", listing_id="OSA-101", start_time=t).error is None
               for t in s.values("datetime")[:20])


def test_viewings_need_a_buyer_profile():
    s = ToolboxSession("real_estate", state={"buyer_profile": None})
    assert "create a buyer profile" in s.error("schedule_property_viewing", listing_id="ROM-102", start_time=TOMORROW_10)
    assert "first and a last name" in s.error("create_buyer_profile", full_name="Maria", email="maria@example.com")
    assert "not a valid email" in s.error("create_buyer_profile", full_name="Maria Lopez", email="maria-at-example")
    buyer = s.ok("create_buyer_profile", full_name="Maria Lopez", email="Maria.Lopez@example.com")
    assert buyer.startswith("BUY-") and s.world.state["buyer_profile"]["email"] == "maria.lopez@example.com"
    assert s.ok("schedule_property_viewing", listing_id="ROM-102", start_time=TOMORROW_10)[0].startswith("VW-")
    condition = s.seed.toolbox.conditions["buyer_profile"]
    assert condition.holds(ToolboxSession("real_estate").world) and not condition.holds(
        ToolboxSession("real_estate", state=condition.broken_state).world)


def test_worlds_are_deterministic():
    a, b = ToolboxSession("real_estate"), ToolboxSession("real_estate")
    assert a.world.listings == b.world.listings and a.world.sales == b.world.sales and a.world.agents == b.world.agents
    assert ToolboxSession("real_estate", world_seed=2).world.listings != a.world.listings


def test_addresses_offered_are_not_listings_and_each_has_a_home_nearby(homes):
    own = {row["address"] for row in homes.world.listings.values()}
    addresses = homes.values("address")
    assert addresses and not own & set(addresses)  # the home nearest to a listing is the listing itself
    for address in addresses:
        lat, lon = homes.ok("geocode_property_address", address=address)
        listing, km = homes.ok("find_nearest_listing", latitude=lat, longitude=lon)
        assert km <= 50 and homes.world.listings[listing]["city"] == address.rsplit(", ", 1)[1]


def test_values_that_belong_together_are_drawn_together(homes):
    joint = homes.seed.toolbox.joint_values
    for name, email in joint[("person_name", "email")](homes.world):
        assert email == name.lower().replace(" ", ".") + "@example.com"
    for hood, city in joint[("neighbourhood", "city")](homes.world):
        assert homes.ok("get_neighbourhood_stats", neighbourhood=hood, city=city)
    assert homes.seed.toolbox.tools["get_neighbourhood_stats"].groups == {"area": "{neighbourhood} in {city}"}


def test_a_valued_home_has_rooms_that_fit_its_floor_area(homes):
    from factory.toolbox.sense import violations

    rules = homes.seed.toolbox.tools["estimate_property_value"].sense
    assert not violations(rules, {"city": "Lyon", "floor_area_m2": 72.5, "bedrooms": 2}, {})
    assert violations(rules, {"city": "Lyon", "floor_area_m2": 35.0, "bedrooms": 4}, {})  # four bedrooms in 35 m²
    assert violations(rules, {"city": "Lyon", "floor_area_m2": 210.0, "bedrooms": 1}, {})


def test_prices_travel_with_their_currency_and_listing_points_feed_no_nearest_listing(homes):
    specs = homes.seed.specs
    for name, spec in specs.items():
        kinds = [out.kind for out in spec.returns]
        if "money_amount" in kinds:
            assert "currency_code" in kinds, name
    location = specs["get_listing_location"].returns
    nearest = specs["find_nearest_listing"].parameters
    assert {out.role for out in location[:2]} == {"listing"} and {p.role for p in nearest} == {None}
