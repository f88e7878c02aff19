"""Behaviour of every Travel tool, including its error cases, state changes and conditions."""

import pytest

from factory.toolbox.user import USER
from tests.seeds.toolbox_helpers import ToolboxSession


@pytest.fixture(scope="module")
def tv():
    return ToolboxSession("travel")


def _bookable(session, origin="Paris", destination="Rome", day="2025-06-18"):
    """A flight between two cities on a day that is not cancelled."""
    for number in session.ok("search_flights", origin_city=origin, destination_city=destination, date=day)[0]:
        if session.ok("get_flight_status", flight_number=number, date=day)[0] != "cancelled":
            return number
    raise AssertionError("no bookable flight")


def test_world_is_dense_and_deterministic(tv):
    cities = tv.values("city")
    for origin in cities[::7]:
        for destination in cities[3::9]:
            if origin != destination:
                assert tv.ok("search_flights", origin_city=origin, destination_city=destination, date="2025-06-20")[0]
    for city in cities:
        ids, names = tv.ok("search_hotels", city=city)
        assert len(ids) == 5 and names == [tv.world.hotels[h]["name"] for h in ids]
        assert tv.ok("search_hotels", city=city, min_stars=5)[0]
    again = ToolboxSession("travel")
    assert again.world.flights == tv.world.flights and again.world.hotels == tv.world.hotels
    assert ToolboxSession("travel", world_seed=3).world.hotels != tv.world.hotels


def test_search_travel_finds_hotels_and_airports(tv):
    hotels, airport, names = tv.ok("search_travel", query="hotels in Paris")
    assert airport == "CDG" and hotels and all(tv.world.hotels[h]["city"] == "Paris" for h in hotels)
    assert names == [tv.world.hotels[h]["name"] for h in hotels]
    hotels, airport, _ = tv.ok("search_travel", query="gatwick")
    assert airport == "LGW" and all(tv.world.hotels[h]["city"] == "London" for h in hotels)
    name = tv.world.hotels[hotels[0]]["name"]
    found, airport, _ = tv.ok("search_travel", query=name)
    assert hotels[0] in found and airport == "LHR"
    assert "nothing in the travel catalogue" in tv.error("search_travel", query="atlantis")
    assert "no words to search" in tv.error("search_travel", query="hotels in the")
    for query in tv.values("travel_search_terms"):
        tv.ok("search_travel", query=query)


def test_airport_codes_canonicalise(tv):
    expected = {"london gatwick": "LGW", "London": "LHR", "heathrow airport": "LHR", "Tokyo Narita": "NRT",
                "tokyo": "HND", "jfk": "JFK", "o'hare": "ORD", "the airport in Lyon": "LYS", "charles de gaulle": "CDG",
                "New York LaGuardia": "LGA", "Milan Linate": "LIN", "mexico city": "MEX"}
    for mention, code in expected.items():
        assert tv.ok("lookup_airport_code", place=mention)[0] == code, mention
    assert tv.ok("lookup_airport_code", place="orly") == ("ORY", "Paris")
    assert "no airport matches" in tv.error("lookup_airport_code", place="springfield regional")
    for mention in tv.values("airport_mention"):
        tv.ok("lookup_airport_code", place=mention)


def test_search_flights_and_pick_earliest(tv):
    flights, day = tv.ok("search_flights", origin_city="London", destination_city="Tokyo", date="2025-06-20")
    assert len(flights) >= 4 and day == "2025-06-20"  # two airports at each end; the day travels with the flights
    assert flights == sorted(flights)  # by number: the list does not say which leaves first
    departures = {f: tv.ok("get_flight_details", flight_number=f, date="2025-06-20")[0] for f in flights}
    assert list(departures.values()) != sorted(departures.values())
    earliest, departs, day = tv.ok("choose_earliest_flight", flight_numbers=list(reversed(flights)), date="2025-06-20")
    first = min(flights, key=lambda f: (departures[f], f))
    assert (earliest, departs, day) == (first, departures[first], "2025-06-20")
    assert "same city" in tv.error("search_flights", origin_city="Paris", destination_city="Paris", date="2025-06-20")
    assert "no airport serves" in tv.error("search_flights", origin_city="Gotham", destination_city="Paris", date="2025-06-20")
    assert "they run from" in tv.error("search_flights", origin_city="Rome", destination_city="Paris", date="2025-09-20")
    assert "YYYY-MM-DD" in tv.error("search_flights", origin_city="Rome", destination_city="Paris", date="June 20")
    assert "is empty" in tv.error("choose_earliest_flight", flight_numbers=[], date="2025-06-20")
    assert "unknown flight" in tv.error("choose_earliest_flight", flight_numbers=["ZZ1"], date="2025-06-20")
    assert "flight_numbers" not in tv.seed.toolbox.values  # lists come from a search


def test_cheapest_flight_and_currencies(tv):
    number, usd, day = tv.ok("find_cheapest_flight", origin_airport="LGW", destination_airport="NRT", date="2025-06-20")
    assert day == "2025-06-20"
    assert tv.world.flights[number]["origin"] == "LGW" and tv.world.flights[number]["destination"] == "NRT"
    number_eur, eur, _ = tv.ok("find_cheapest_flight", origin_airport="LGW", destination_airport="NRT", date="2025-06-20",
                            currency="EUR")
    assert number_eur == number and eur == round(usd * 0.92, 2)
    assert "unknown airport code" in tv.error("find_cheapest_flight", origin_airport="XXX", destination_airport="NRT",
                                              date="2025-06-20")
    assert "same city" in tv.error("find_cheapest_flight", origin_airport="HND", destination_airport="NRT", date="2025-06-20")
    assert "unsupported currency" in tv.error("find_cheapest_flight", origin_airport="LGW", destination_airport="NRT",
                                              date="2025-06-20", currency="BTC")
    assert "fares on sale" in tv.error("find_cheapest_flight", origin_airport="LGW", destination_airport="NRT",
                                       date="2025-06-10")


def test_flight_details_cross_time_zones(tv):
    number = tv.world.routes["LHR-HND"][0]
    departs, arrives, city, airline = tv.ok("get_flight_details", flight_number=number, date="2025-06-20")
    assert city == "Tokyo" and airline in ("Skyline Air", "Meridian Airways", "Pacific Crest", "Northwind Airlines",
                                           "Aurora Air", "Tradewind Airlines", "Horizon Star", "Bluewing")
    assert departs.startswith("2025-06-20T") and arrives.startswith("2025-06-21T")  # 9 hours ahead, 12 hours flying
    assert "unknown flight" in tv.error("get_flight_details", flight_number="XX0000", date="2025-06-20")


def test_flight_status_follows_the_clock(tv):
    number = tv.world.routes["CDG-FCO"][0]
    statuses = {tv.ok("get_flight_status", flight_number=number, date=d)[0] for d in ("2025-06-08", "2025-06-10")}
    assert statuses <= {"landed", "cancelled"}
    status, delay, gate = tv.ok("get_flight_status", flight_number=number, date="2025-07-20")
    assert status in ("scheduled", "cancelled") and delay == 0 and gate == "TBA"
    seen = {tv.ok("get_flight_status", flight_number=n, date="2025-06-14")[0] for n in tv.values("flight_number")}
    assert {"scheduled", "delayed"} <= seen
    assert "they run from" in tv.error("get_flight_status", flight_number=number, date="2025-01-01")


def test_hotels(tv):
    hotels, _ = tv.ok("search_hotels", city="Barcelona", min_stars=4)
    stars = [tv.world.hotels[h]["stars"] for h in hotels]
    assert stars == sorted(stars, reverse=True) and min(stars) >= 4
    _, address, star, currency = tv.ok("get_hotel_details", hotel_id=hotels[0])
    assert address.endswith(", Barcelona") and star == stars[0] and currency == "EUR"
    assert tv.ok("get_hotel_details", hotel_id=tv.ok("search_hotels", city="Tokyo")[0][0])[3] == "JPY"
    assert "between 1 and 5" in tv.error("search_hotels", city="Barcelona", min_stars=6)
    assert "no hotels listed" in tv.error("search_hotels", city="Gotham")
    assert "unknown hotel" in tv.error("get_hotel_details", hotel_id="HTL-0000")


def test_availability_and_price_comparison(tv):
    hotels, _ = tv.ok("search_hotels", city="Paris")
    available, rooms, rate = tv.ok("check_room_availability", hotel_id=hotels[0], check_in="2025-06-20", nights=3)
    assert available == (rooms > 0) and rate > 0
    best, total, check_in, nights, name = tv.ok("compare_hotel_prices", hotel_ids=hotels, check_in="2025-06-20", nights=3)
    assert name == tv.world.hotels[best]["name"]
    assert (check_in, nights) == ("2025-06-20", 3)  # the stay travels with the hotel chosen for it
    totals = {}
    for h in hotels:
        if tv.ok("check_room_availability", hotel_id=h, check_in="2025-06-20", nights=3)[0]:
            totals[h] = tv.ok("check_room_availability", hotel_id=h, check_in="2025-06-20", nights=3)[2] * 3
    assert best == min(totals, key=totals.get) and abs(total - totals[best]) < 0.05
    _, in_yen, _, _, _ = tv.ok("compare_hotel_prices", hotel_ids=hotels, check_in="2025-06-20", nights=3, currency="JPY")
    assert abs(in_yen - total * 149.5) < 1
    assert "nights must be between" in tv.error("check_room_availability", hotel_id=hotels[0], check_in="2025-06-20", nights=0)
    assert "hotel stays on sale" in tv.error("check_room_availability", hotel_id=hotels[0], check_in="2025-06-01", nights=2)
    assert "is empty" in tv.error("compare_hotel_prices", hotel_ids=[], check_in="2025-06-20", nights=2)
    assert "unknown hotel" in tv.error("compare_hotel_prices", hotel_ids=["HTL-0000"], check_in="2025-06-20", nights=2)
    assert "hotel_ids" not in tv.seed.toolbox.values  # lists come from a search
    for city in tv.values("city")[::5]:
        tv.ok("compare_hotel_prices", hotel_ids=tv.ok("search_hotels", city=city)[0], check_in="2025-06-18", nights=2)


def test_booking_a_flight_and_cancelling_it():
    session = ToolboxSession("travel")
    number = _bookable(session)
    booking, seat = session.ok("book_flight", flight_number=number, date="2025-06-18", passenger_name="Maria Lopez")
    assert booking == "BK-40213" and seat[:-1].isdigit()
    assert session.ok("get_booking_details", booking_id=booking) == ("Maria Lopez", "2025-06-18", "confirmed")
    assert "already booked" in session.error("book_flight", flight_number=number, date="2025-06-18",
                                             passenger_name="Maria Lopez")
    assert booking in session.ok("list_my_bookings")
    status, refund = session.ok("cancel_booking", booking_id=booking)
    price = session.world.state["bookings"][booking]["price_usd"]
    assert status == "cancelled" and refund == round(price * 0.8, 2)
    assert session.ok("get_booking_details", booking_id=booking)[2] == "cancelled"
    assert booking not in session.ok("list_my_bookings") and booking in session.ok("list_my_bookings", status="cancelled")
    assert "already cancelled" in session.error("cancel_booking", booking_id=booking)
    assert "unknown booking" in session.error("cancel_booking", booking_id="BK-1")
    assert "full name" in session.error("book_flight", flight_number=number, date="2025-06-18", passenger_name="Maria")
    assert "bookable flights" in session.error("book_flight", flight_number=number, date="2025-06-12",
                                               passenger_name="Maria Lopez")


def test_booking_a_hotel():
    session = ToolboxSession("travel")
    hotel = session.ok("search_hotels", city="Rome")[0][0]
    before = session.ok("check_room_availability", hotel_id=hotel, check_in="2025-06-22", nights=2)[1]
    booking, check_out = session.ok("book_hotel", hotel_id=hotel, check_in="2025-06-22", nights=2, guest_name="Kenji Tanaka")
    assert check_out == "2025-06-24"
    assert session.ok("check_room_availability", hotel_id=hotel, check_in="2025-06-22", nights=2)[1] == before - 1
    assert session.ok("get_booking_details", booking_id=booking) == ("Kenji Tanaka", "2025-06-22", "confirmed")
    _, refund = session.ok("cancel_booking", booking_id=booking)
    assert refund == session.world.state["bookings"][booking]["price_usd"]  # more than two days ahead: in full
    assert "full name" in session.error("book_hotel", hotel_id=hotel, check_in="2025-06-22", nights=2, guest_name="Kenji")


def test_default_bookings_exist(tv):
    assert tv.values("booking_id") == ["BK-40211", "BK-40212"] == tv.ok("list_my_bookings")
    traveller, start, status = tv.ok("get_booking_details", booking_id="BK-40212")
    assert traveller == USER.name and status == "confirmed" and start > "2025-06-13"
    assert tv.ok("list_my_bookings", status="all") == ["BK-40211", "BK-40212"]


def test_flight_booking_needs_a_passport_which_needs_a_profile():
    seed = ToolboxSession("travel").seed
    passport, profile = seed.toolbox.conditions["passport_on_file"], seed.toolbox.conditions["traveller_profile"]
    session = ToolboxSession("travel", state={**profile.broken_state, **passport.broken_state})
    assert not passport.holds(session.world) and not profile.holds(session.world)
    number = _bookable(session)
    assert "No traveller profile" in session.error("book_flight", flight_number=number, date="2025-06-18",
                                                   passenger_name="Maria Lopez")
    assert "No traveller profile" in session.error("save_passport_details", **passport.fix_arguments)
    assert "No traveller profile" in session.error("book_hotel", hotel_id=session.values("hotel_id")[0],
                                                   check_in="2025-06-20", nights=1, guest_name="Maria Lopez")
    assert session.ok(profile.fix_tool, **profile.fix_arguments) == USER.name
    assert profile.holds(session.world) and not passport.holds(session.world)
    assert "No passport on file" in session.error("book_flight", flight_number=number, date="2025-06-18",
                                                  passenger_name="Maria Lopez")
    assert session.ok(passport.fix_tool, **passport.fix_arguments) == ("*****193", "USA")
    assert passport.holds(session.world)
    assert session.ok("book_flight", flight_number=number, date="2025-06-18", passenger_name="Maria Lopez")[0] == "BK-40213"


def test_profile_and_passport_validation():
    session = ToolboxSession("travel")
    assert session.ok("create_traveller_profile", full_name="Aisha  Okafor", email="aisha@example.com") == "Aisha Okafor"
    assert session.world.state["passport"] is not None  # updating the profile keeps the passport
    assert "valid email" in session.error("create_traveller_profile", full_name="Aisha Okafor", email="aisha-at-example")
    assert "full name" in session.error("create_traveller_profile", full_name="Aisha", email="aisha@example.com")
    assert session.ok("save_passport_details", passport_number="p5519024", nationality="Kenya",
                      expiry_date="2030-07-01") == ("*****024", "Kenya")
    assert "at least 6 months" in session.error("save_passport_details", passport_number="P5519024", nationality="Kenya",
                                                 expiry_date="2025-09-01")
    assert "not a passport number" in session.error("save_passport_details", passport_number="12", nationality="Kenya",
                                                    expiry_date="2030-07-01")
    assert "unknown country" in session.error("save_passport_details", passport_number="P5519024", nationality="Wakanda",
                                              expiry_date="2030-07-01")
    for expiry in session.values("passport_expiry"):
        session.ok("save_passport_details", passport_number="P5519024", nationality="Kenya", expiry_date=expiry)


def test_visas_and_advisories(tv):
    requirement, days = tv.ok("get_visa_requirement", citizenship="France", destination="Germany")
    assert (requirement, days) == ("visa-free", 90)
    requirement, days = tv.ok("get_visa_requirement", citizenship="India", destination="Japan")
    assert requirement in ("visa-free", "eVisa", "visa on arrival", "visa required") and (days == 0) == (requirement == "visa required")
    assert "needs no visa" in tv.error("get_visa_requirement", citizenship="Japan", destination="Japan")
    assert "unknown country" in tv.error("get_visa_requirement", citizenship="Atlantis", destination="Japan")
    level, summary, updated = tv.ok("get_travel_advisory", country="Egypt")
    assert 1 <= level <= 4 and summary.endswith(".") and updated < "2025-06-13"
    assert "unknown country" in tv.error("get_travel_advisory", country="Atlantis")


def test_sold_out_nights_block_bookings():
    session = ToolboxSession("travel")
    sold_out = next((h, d) for h in sorted(session.world.hotels) for d in session.values("date")
                    if not session.ok("check_room_availability", hotel_id=h, check_in=d, nights=1)[0])
    hotel, day = sold_out
    assert session.ok("check_room_availability", hotel_id=hotel, check_in=day, nights=1)[1] == 0
    assert "no room is free" in session.error("book_hotel", hotel_id=hotel, check_in=day, nights=1, guest_name="Maria Lopez")
    assert "none of these hotels has a room" in session.error("compare_hotel_prices", hotel_ids=[hotel], check_in=day, nights=1)
    assert session.world.state["next_booking"] == 40213  # nothing was booked


def test_sense_rules_reject_requests_nobody_makes(tv):
    from factory.toolbox.sense import violations

    def broken(tool, **args):
        return violations(tv.seed.toolbox.tools[tool].sense, args, {})

    trip = {"origin_airport": "LHR", "destination_airport": "NRT", "date": "2025-06-20"}
    assert broken("find_cheapest_flight", **{**trip, "destination_airport": "LGW"})  # both serve London
    assert broken("find_cheapest_flight", **trip, currency="EGP")
    assert not broken("find_cheapest_flight", **trip, currency="JPY") and not broken("find_cheapest_flight", **trip, currency="EUR")
    assert broken("search_flights", origin_city="Paris", destination_city="Paris", date="2025-06-20")
    assert broken("book_hotel", hotel_id="HTL-1", check_in="2025-06-01", nights=2, guest_name="Maria Lopez")  # in the past
    assert broken("compare_hotel_prices", hotel_ids=["HTL-1"], check_in="2025-06-20", nights=2)
    assert broken("get_visa_requirement", citizenship="Japan", destination="Japan")
    assert broken("create_traveller_profile", full_name="Liam Chen", email="maria.lopez@example.com")
    assert not broken("create_traveller_profile", full_name="Liam Chen", email="liam.chen@example.com")


def test_a_flight_travels_with_its_day(tv):
    # the consumers of a flight take its day in the same group, with the role only flight producers give
    for tool in ("get_flight_details", "get_flight_status", "book_flight"):
        assert tv.seed.toolbox.tools[tool].groups == {"flight": "{flight_number} on {date}"}
        assert tv.seed.specs[tool].param("date").role == "departure"
    assert [o.role for o in tv.seed.specs["find_cheapest_flight"].returns if o.kind == "date"] == ["departure"]
    assert tv.seed.specs["search_flights"].param("date").role is None  # "next friday" from another seed is fine
    # ... and a hotel chosen for a stay is booked for that stay
    assert tv.seed.toolbox.tools["book_hotel"].groups == {"stay": "{hotel_id} for {nights} night(s) from {check_in}"}
    assert {p.role for p in tv.seed.specs["book_hotel"].parameters if p.name != "guest_name"} == {"stay"}
    assert [o.role for o in tv.seed.specs["compare_hotel_prices"].returns if o.kind] == ["stay", "stay", "stay"]


def test_facts_and_conditions(tv):
    facts = tv.seed.toolbox.facts
    hotel = tv.values("hotel_id")[0]
    assert facts["hotel_id"](tv.world, hotel)["city"] == tv.world.hotels[hotel]["city"]
    flight = tv.values("flight_number")[0]
    lands_in = tv.ok("get_flight_details", flight_number=flight, date="2025-06-20")[2]
    hotel_there = tv.ok("search_hotels", city=lands_in)[0][0]
    assert facts["flight_number"](tv.world, flight) == {"country": facts["hotel_id"](tv.world, hotel_there)["country"]}
    assert facts["booking_id"](tv.world, "BK-40211")["person_name"] == USER.name
    assert facts["travel_search_terms"](tv.world, "hotels in Paris") == {"city": "Paris", "country": "France"}
    for condition in tv.seed.toolbox.conditions.values():
        assert all(context.format(**condition.fix_arguments) for context in condition.context) and condition.says


def test_no_goal_asks_where_a_flight_found_by_its_route_lands(tv):
    # "Hotels in the city where the cheapest flight from CAI to MDW lands": the person named
    # that city. A goal that sends a flight's destination on starts from a flight they name.
    by_route = {"search_flights", "find_cheapest_flight", "choose_earliest_flight"}
    for goal in tv.seed.toolbox.goals.values():
        assert not ("get_flight_details" in goal.tools and by_route & set(goal.tools)), goal.name
