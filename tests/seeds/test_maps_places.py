"""Behaviour of every Maps and Places tool, including its error cases."""

import pytest

from factory.toolbox.user import USER
from tests.seeds.goal_helpers import consumers_of, requests_without_the_seed
from tests.seeds.toolbox_helpers import ToolboxSession


@pytest.fixture(scope="module")
def maps():
    return ToolboxSession("maps_places")


def pid(session, city, category, n):
    """The id of a city's n-th place of a category (ids are opaque)."""
    return session.world.slots[(city, category, n)]


def test_world_is_dense_and_deterministic(maps):
    # every city has every category, and the same seed builds the same world
    cities = maps.values("city")
    assert len(cities) == 40
    for city in ("Paris", "Nairobi", "Auckland"):
        for category in ("restaurant", "cafe", "museum", "park", "landmark", "mall"):
            assert maps.ok("list_places_in_city", city=city, category=category)
    # hotels are the travel seed's and pharmacies the healthcare seed's: one register of each
    assert "invalid" in maps.error("list_places_in_city", city="Paris", category="hotel").lower() or \
        "hotel" in maps.error("list_places_in_city", city="Paris", category="hotel")
    again = ToolboxSession("maps_places")
    assert again.world.places == maps.world.places
    other = ToolboxSession("maps_places", world_seed=7)
    assert other.world.places != maps.world.places


def test_search_places_matches_every_word(maps):
    hits = maps.ok("search_places", query="museums paris")
    assert sorted(hits) == sorted([pid(maps, "Paris", "museum", 1), pid(maps, "Paris", "museum", 2)])
    ratings = [maps.world.places[p]["rating"] for p in hits]
    assert ratings == sorted(ratings, reverse=True)
    assert len(maps.ok("search_places", query="restaurant", max_results=3)) == 3
    assert maps.ok("search_places", query="museum atlantis") == []
    assert "between 1 and 20" in maps.error("search_places", query="cafe", max_results=0)
    assert "at least one word" in maps.error("search_places", query=" ?! ")
    assert all(maps.ok("search_places", query=q) for q in maps.values("place_search_query"))


def test_find_place_by_name_resolves_mentions(maps):
    for mention in maps.values("place_mention")[:60]:
        found, lat, lon = maps.ok("find_place_by_name", name=mention)
        row = maps.world.places[found]
        assert row["name"].lower() in mention.lower() and (lat, lon) == (row["latitude"], row["longitude"])
    museum = pid(maps, "Rome", "museum", 1)
    name = maps.world.places[museum]["name"]
    assert maps.ok("find_place_by_name", name=f"The {name.upper()} in Rome")[0] == museum
    assert "no mapped place" in maps.error("find_place_by_name", name="the moon base cafe")


def test_dms_conversion(maps):
    assert maps.ok("convert_dms_coordinates", coordinates="48°51'24\"N 2°21'08\"E") == (48.85667, 2.35222)
    assert maps.ok("convert_dms_coordinates", coordinates="33°52'08\"S 151°12'33\"E") == (-33.86889, 151.20917)
    assert maps.ok("convert_dms_coordinates", coordinates="40 42 46 N 74 00 22 W") == (40.71278, -74.00611)
    for text in maps.values("dms_coordinates"):
        lat, lon = maps.ok("convert_dms_coordinates", coordinates=text)
        assert -90 <= lat <= 90 and -180 <= lon <= 180
    assert "latitude (N/S) must come before" in maps.error("convert_dms_coordinates", coordinates="2°21'08\"E 48°51'24\"N")
    assert "cannot read" in maps.error("convert_dms_coordinates", coordinates="somewhere in Paris")


def test_geocoding_round_trip(maps):
    assert maps.ok("geocode_city", city="Lyon") == (45.764, 4.8357, "France")
    assert "unknown city" in maps.error("geocode_city", city="Gotham")
    row = maps.world.places[pid(maps, "Tokyo", "park", 1)]
    lat, lon, city = maps.ok("geocode_address", address=row["address"])
    assert (lat, lon, city) == (row["latitude"], row["longitude"], "Tokyo")
    # Any well-formed address in a known city geocodes, with or without the country
    assert maps.ok("geocode_address", address="7 Harbour Street, Tokyo, Japan")[2] == "Tokyo"
    assert "'<number> <street>, <city>'" in maps.error("geocode_address", address="Harbour Street")
    assert "must end with a known city" in maps.error("geocode_address", address="7 Harbour Street, Springfield")
    address, city = maps.ok("reverse_geocode", latitude=lat, longitude=lon)
    assert (address, city) == (row["address"], "Tokyo")
    assert "out of range" in maps.error("reverse_geocode", latitude=95.0, longitude=0.0)


def test_nearest_city_and_distance(maps):
    city, country, km = maps.ok("get_nearest_city", latitude=48.9, longitude=2.4)
    assert (city, country) == ("Paris", "France") and km < 10
    assert "out of range" in maps.error("get_nearest_city", latitude=10.0, longitude=200.0)
    london_paris = maps.ok("calculate_distance", from_latitude=51.5074, from_longitude=-0.1278,
                           to_latitude=48.8566, to_longitude=2.3522)
    assert 340 <= london_paris <= 345
    assert maps.ok("calculate_distance", from_latitude=1.0, from_longitude=1.0, to_latitude=1.0, to_longitude=1.0) == 0.0
    assert "out of range" in maps.error("calculate_distance", from_latitude=-91.0, from_longitude=0.0,
                                        to_latitude=0.0, to_longitude=0.0)


def test_listing_and_picking_places(maps):
    ids = maps.ok("list_places_in_city", city="Berlin", category="restaurant")
    assert len(ids) == 3 and all(maps.world.places[p]["city"] == "Berlin" for p in ids)
    best, rating, name = maps.ok("pick_top_rated_place", place_ids=ids)
    assert best == ids[0] and rating == max(maps.world.places[p]["rating"] for p in ids)
    assert name == maps.world.places[best]["name"]
    assert "must be one of" in maps.error("list_places_in_city", city="Berlin", category="zoo")
    assert "unknown city" in maps.error("list_places_in_city", city="Atlantis", category="park")
    assert "is empty" in maps.error("pick_top_rated_place", place_ids=[])
    assert "unknown place id" in maps.error("pick_top_rated_place", place_ids=["berlin-zoo-1"])
    assert "place_ids" not in maps.seed.toolbox.values  # lists come from listings and searches
    mixed = [pid(maps, "Berlin", kind, 1) for kind in ("museum", "park", "landmark")]
    assert maps.ok("pick_top_rated_place", place_ids=mixed)[0] in mixed


def test_nearest_place_of_a_category(maps):
    row = maps.world.places[pid(maps, "Madrid", "cafe", 1)]
    found, km, name = maps.ok("find_nearest_place", latitude=row["latitude"], longitude=row["longitude"], category="cafe")
    assert found == pid(maps, "Madrid", "cafe", 1) and km == 0.0 and name == row["name"]
    found, km, _ = maps.ok("find_nearest_place", latitude=row["latitude"], longitude=row["longitude"], category="museum")
    assert maps.world.places[found]["city"] == "Madrid" and km > 0
    assert "out of range" in maps.error("find_nearest_place", latitude=0.0, longitude=-190.0, category="park")


def test_place_details_and_location(maps):
    name, address, phone, rating = maps.ok("get_place_details", place_id=pid(maps, "Sydney", "cafe", 2))
    row = maps.world.places[pid(maps, "Sydney", "cafe", 2)]
    assert (name, address, rating) == (row["name"], row["address"], row["rating"]) and phone.startswith("+61-")
    assert maps.ok("get_place_location", place_id=pid(maps, "Sydney", "cafe", 2)) == (row["latitude"], row["longitude"], "Sydney")
    assert "unknown place id" in maps.error("get_place_details", place_id="sydney-cafe-9")
    assert "unknown place id" in maps.error("get_place_location", place_id="nowhere")


def test_opening_hours_follow_the_weekly_schedule(maps):
    museum = next(p for p, r in maps.world.places.items() if r["category"] == "museum" and r["closed_on"] == "Monday")
    assert maps.ok("get_opening_hours", place_id=museum, date="2025-06-16") == ("closed", "closed")  # a Monday
    opens, closes = maps.ok("get_opening_hours", place_id=museum, date="2025-06-17")
    assert opens < closes and len(opens) == 5
    assert maps.ok("check_place_open", place_id=museum, when="2025-06-16T12:00") == (False, "closed")
    assert maps.ok("check_place_open", place_id=museum, when=f"2025-06-17T{opens}") == (True, closes)
    assert maps.ok("check_place_open", place_id=museum, when="2025-06-17T05:00")[0] is False
    hotel = pid(maps, "Paris", "park", 1)
    assert maps.ok("check_place_open", place_id=hotel, when="2025-06-18T03:10")[0] is False
    assert "YYYY-MM-DD format" in maps.error("get_opening_hours", place_id=hotel, date="18/06/2025")
    refused = maps.error("get_opening_hours", place_id=hotel, date="2026-01-01")
    assert "within 30 days of today" in refused and "2025" not in refused  # no window that gives today away
    assert "YYYY-MM-DDTHH:MM" in maps.error("check_place_open", place_id=hotel, when="tomorrow noon")


def test_travel_time_depends_on_mode(maps):
    args = {"from_latitude": 48.8566, "from_longitude": 2.3522, "to_latitude": 48.8738, "to_longitude": 2.2950}
    walk = maps.ok("estimate_travel_time", mode="walking", **args)
    cycle = maps.ok("estimate_travel_time", mode="cycling", **args)
    assert walk[0] > cycle[0] > 0 and walk[1] < cycle[1]
    far = maps.ok("estimate_travel_time", from_latitude=51.5074, from_longitude=-0.1278,
                  to_latitude=48.8566, to_longitude=2.3522, mode="driving")
    assert 300 <= far[0] <= 420  # intercity speeds
    assert "must be one of" in maps.error("estimate_travel_time", mode="teleport", **args)


def test_route_to_nearest_stays_in_the_city(maps):
    destination, km, minutes, name = maps.ok("get_route_to_nearest", place_id=pid(maps, "Rome", "museum", 1), category="cafe", mode="walking")
    assert destination in (pid(maps, "Rome", "cafe", 1), pid(maps, "Rome", "cafe", 2)) and km > 0 and minutes >= 1
    assert name == maps.world.places[destination]["name"]
    other, _, _, _ = maps.ok("get_route_to_nearest", place_id=pid(maps, "Rome", "cafe", 1), category="cafe", mode="cycling")
    assert other == pid(maps, "Rome", "cafe", 2)
    assert "only landmark mapped in Rome" in maps.error("get_route_to_nearest", place_id=pid(maps, "Rome", "landmark", 1),
                                                        category="landmark", mode="walking")


def test_my_location_needs_location_sharing():
    session = ToolboxSession("maps_places")
    lat, lon, city = session.ok("get_my_location")
    # the user every seed shares (factory.toolbox.user), out in their home city: a point, not a mapped doorstep
    assert (lat, lon, city) == (USER.latitude, USER.longitude, USER.home_city)
    assert all((lat, lon) != (row["latitude"], row["longitude"]) for row in session.world.places.values())
    nearest, near_city = session.ok("reverse_geocode", latitude=lat, longitude=lon)
    assert near_city == city
    broken = ToolboxSession("maps_places", state={"location_sharing": "off"})
    cond = broken.seed.toolbox.conditions["location_sharing"]
    assert not cond.holds(broken.world) and cond.holds(session.world)
    assert "turn location sharing on" in broken.error("get_my_location")
    assert broken.ok("enable_location_sharing", precision="approximate") == "approximate"
    lat, lon, city = broken.ok("get_my_location")
    assert city == USER.home_city and (lat, lon) == (round(USER.city.latitude, 2), round(USER.city.longitude, 2))
    assert "must be one of" in broken.error("enable_location_sharing", precision="exact")


def test_favourites_change_state():
    session = ToolboxSession("maps_places")
    assert session.world.state["favourites"] == []
    assert session.ok("save_favourite_place", place_id=pid(session, "Osaka", "cafe", 1)) == [pid(session, "Osaka", "cafe", 1)]
    assert session.ok("save_favourite_place", place_id=pid(session, "Cairo", "park", 2)) == [pid(session, "Osaka", "cafe", 1), pid(session, "Cairo", "park", 2)]
    assert session.ok("save_favourite_place", place_id=pid(session, "Osaka", "cafe", 1)) == [pid(session, "Osaka", "cafe", 1), pid(session, "Cairo", "park", 2)]
    assert "unknown place id" in session.error("save_favourite_place", place_id="oslo-cafe-1")
    assert session.world.state["favourites"] == [pid(session, "Osaka", "cafe", 1), pid(session, "Cairo", "park", 2)]
    assert ToolboxSession("maps_places").world.state["favourites"] == []  # no leak between episodes


def test_coordinate_pairs_are_real_points(maps):
    pairs = maps.seed.toolbox.joint_values[("latitude", "longitude")](maps.world)
    assert {city for city, _, _ in (maps.ok("get_nearest_city", latitude=lat, longitude=lon) for lat, lon in pairs)} \
        == set(maps.values("city"))  # spots in every covered city
    for lat, lon in pairs:
        _, _, km = maps.ok("get_nearest_city", latitude=lat, longitude=lon)
        assert km < 30  # every pair lies in or next to a covered city
    addresses = {row["address"] for row in maps.world.places.values()}
    centres = {(48.8566, 2.3522)}
    assert not set(pairs) & centres
    assert all(maps.ok("reverse_geocode", latitude=lat, longitude=lon)[0] in addresses for lat, lon in pairs[:10])


def _rules(maps, tool):
    return maps.seed.toolbox.tools[tool].sense


def test_sense_rules_reject_requests_nobody_makes(maps):
    from factory.toolbox.sense import violations

    limits = {"max_trip_km": {"walking": 6, "cycling": 25, "transit": 60, "driving": 800}}
    london, sydney = {"from_latitude": 51.5074, "from_longitude": -0.1278}, {"to_latitude": -33.8688, "to_longitude": 151.2093}
    assert violations(_rules(maps, "estimate_travel_time"), {**london, **sydney, "mode": "cycling"}, limits)
    near = {"to_latitude": 51.5101, "to_longitude": -0.1340}
    assert not violations(_rules(maps, "estimate_travel_time"), {**london, **near, "mode": "walking"}, limits)
    # nobody asks the way for 500 m (from a city's centre to a point just off it)
    assert violations(_rules(maps, "estimate_travel_time"), {**london, **near, "mode": "walking"},
                      {**limits, "min_trip_km": 1.0})
    same = {"to_latitude": 51.5074, "to_longitude": -0.1278}
    assert violations(_rules(maps, "calculate_distance"), {**london, **same}, limits)
    # reverse geocoding a geocoded address or a city centre only walks back to what was known
    row = maps.world.places[pid(maps, "Tokyo", "park", 1)]
    lat, lon, _ = maps.ok("geocode_address", address=row["address"])
    assert violations(_rules(maps, "reverse_geocode"), {"latitude": lat, "longitude": lon}, limits)
    assert violations(_rules(maps, "get_nearest_city"), {"latitude": 48.8566, "longitude": 2.3522}, limits)
    assert not violations(_rules(maps, "get_nearest_city"), {"latitude": 48.8571, "longitude": 2.3519}, limits)
    assert violations(_rules(maps, "pick_top_rated_place"), {"place_ids": [pid(maps, "Rome", "landmark", 1)]}, limits)
    assert violations(_rules(maps, "get_opening_hours"), {"place_id": pid(maps, "Rome", "park", 1), "date": "2025-06-01"}, limits)


def test_facts_tie_places_to_their_city(maps):
    facts = maps.seed.toolbox.facts
    assert {"place_id", "place_ids"} <= maps.seed.toolbox.internal  # ids only come from a call that found them
    # an address implies nothing here: the plausibility check applies facts to every seed's literals, and
    # a shipment from one city to an address in another is as sensible as a trip between two places
    assert "address" not in facts
    for mention in maps.values("place_mention")[:30]:
        found = maps.ok("find_place_by_name", name=mention)[0]
        assert facts["place_mention"](maps.world, mention)["city"] == maps.world.places[found]["city"]
    assert facts["place_search_query"](maps.world, "museum paris") == {"city": "Paris", "country": "France"}
    assert facts["dms_coordinates"](maps.world, "48°51'24\"N 2°21'08\"E")["city"] == "Paris"


def test_every_goal_request_is_about_places():
    # The forecast or the daylight a goal borrows is there because of a place.
    assert requests_without_the_seed("maps_places") == {}


def test_no_goal_asks_for_the_city_an_address_already_names():
    # "The best hotel in the city where 123 King Street, Edinburgh is" is a detour: the
    # address says Edinburgh. Its coordinates lead on; its city does not.
    assert consumers_of("maps_places", "geocode_address", "city") == []


def test_a_place_named_after_its_city_is_not_placed_in_it_again():
    """"the madrid museum of photography in Madrid" (reading 33 #35): a mention keeps the
    name's capitals and does not repeat a city the name already holds."""
    session = ToolboxSession("maps_places")
    for mention in session.values("place_mention"):
        words = mention.lower().split()
        assert not (" in " in mention and words.count(words[-1]) > 1 and len(words[-1]) > 3), mention
    assert any(m.startswith("the ") and m[4:5].isupper() for m in session.values("place_mention"))


def test_a_call_that_finds_coordinates_is_asked_for_coordinates():
    """"Where is it exactly?" reads as a street address as much as a latitude and longitude
    (an offered place-details tool gives the address): every ask of a tool that returns
    coordinates names them, in every seed."""
    import re
    from pathlib import Path

    from factory.config import resource_dir
    from factory.seeds.library import load_seeds

    seeds = load_seeds(Path(resource_dir("seeds")))
    vague = [(name, ask) for seed in seeds.values() for name, entry in seed.toolbox.tools.items()
             if "latitude" in {o.name for o in seed.specs[name].returns}
             for ask in entry.asks if not re.search(r"coordinates|latitude|geocode|GPS", ask, re.IGNORECASE)]
    assert vague == []
