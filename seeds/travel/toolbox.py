"""Travel: airports, daily scheduled flights between the gazetteer cities, hotels with room
availability and prices in any gazetteer currency, bookings gated by a traveller profile and a
passport on file, visa requirements and travel advisories."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    COUNTRY_BY_NAME,
    CURRENCY_BY_CODE,
    NOW,
    city_currency,
    country_named,
    country_phrase,
    distance_km,
    local_time,
)
from factory.toolbox.sense import around, arrives, distinct, present, same_day, sensible, within
from factory.toolbox.user import USER

toolbox = Toolbox()

CityName = Annotated[str, Kind("city")]
CountryName = Annotated[str, Kind("country")]
# A passport's country is the traveller's own, typed by the user: never a wine's origin or an
# author's birthplace taken from another seed.
Citizenship = Annotated[str, Kind("country", role="citizenship")]
Day = Annotated[str, Kind("date")]
# The day a flight leaves travels with the flight: a flight found for June 20 is looked up, checked
# and booked for June 20, never for a day taken from elsewhere.
Departure = Annotated[str, Kind("date", role="departure")]
Moment = Annotated[str, Kind("datetime")]
Address = Annotated[str, Kind("address")]
Currency = Annotated[str, Kind("currency_code")]
Traveller = Annotated[str, Kind("person_name", role="traveller")]  # a traveller, not a contact or a patient
Email = Annotated[str, Kind("email")]
# The role names what a request calls a described airport later ("that airport", not "that iata").
Iata = Annotated[str, Kind("iata_code", role="airport")]
# The role names what a request calls a described flight later ("that flight", not "that flight number").
FlightNumber = Annotated[str, Kind("flight_number", role="flight")]
FlightNumbers = Annotated[list[str], Kind("flight_numbers")]
HotelId = Annotated[str, Kind("hotel_id")]
HotelIds = Annotated[list[str], Kind("hotel_ids")]
BookingId = Annotated[str, Kind("booking_id")]
BookingIds = Annotated[list[str], Kind("booking_ids")]
Nights = Annotated[int, Kind("nights")]
# A chosen stay travels whole: the hotel picked as cheapest for 2 nights from June 26 is booked for
# those 2 nights from June 26, never for a stay drawn apart from it.
StayHotel = Annotated[str, Kind("hotel_id", role="stay")]
StayDay = Annotated[str, Kind("date", role="stay")]
StayNights = Annotated[int, Kind("nights", role="stay")]

TODAY = NOW.date()
FLIGHT_WINDOW = (TODAY - timedelta(days=120), TODAY + timedelta(days=90))  # published schedules and statuses
STAY_WINDOW = (TODAY, TODAY + timedelta(days=90))  # hotel check-in days on sale
AIRPORTS = {  # IATA code → (airport name, city); a city's first airport is its main one
    "SFO": ("San Francisco International Airport", "San Francisco"),
    "LAX": ("Los Angeles International Airport", "Los Angeles"),
    "SEA": ("Seattle-Tacoma International Airport", "Seattle"),
    "ORD": ("Chicago O'Hare International Airport", "Chicago"),
    "MDW": ("Chicago Midway International Airport", "Chicago"),
    "JFK": ("John F. Kennedy International Airport", "New York"),
    "LGA": ("LaGuardia Airport", "New York"),
    "BOS": ("Boston Logan International Airport", "Boston"),
    "AUS": ("Austin-Bergstrom International Airport", "Austin"),
    "YYZ": ("Toronto Pearson International Airport", "Toronto"),
    "YVR": ("Vancouver International Airport", "Vancouver"),
    "MEX": ("Mexico City International Airport", "Mexico City"),
    "GRU": ("Sao Paulo Guarulhos International Airport", "Sao Paulo"),
    "EZE": ("Buenos Aires Ezeiza International Airport", "Buenos Aires"),
    "LHR": ("London Heathrow Airport", "London"),
    "LGW": ("London Gatwick Airport", "London"),
    "EDI": ("Edinburgh Airport", "Edinburgh"),
    "CDG": ("Paris Charles de Gaulle Airport", "Paris"),
    "ORY": ("Paris Orly Airport", "Paris"),
    "LYS": ("Lyon Saint-Exupery Airport", "Lyon"),
    "BER": ("Berlin Brandenburg Airport", "Berlin"),
    "MUC": ("Munich Airport", "Munich"),
    "MAD": ("Madrid-Barajas Airport", "Madrid"),
    "BCN": ("Barcelona El Prat Airport", "Barcelona"),
    "FCO": ("Rome Fiumicino Airport", "Rome"),
    "MXP": ("Milan Malpensa Airport", "Milan"),
    "LIN": ("Milan Linate Airport", "Milan"),
    "AMS": ("Amsterdam Schiphol Airport", "Amsterdam"),
    "ZRH": ("Zurich Airport", "Zurich"),
    "ARN": ("Stockholm Arlanda Airport", "Stockholm"),
    "CAI": ("Cairo International Airport", "Cairo"),
    "NBO": ("Nairobi Jomo Kenyatta International Airport", "Nairobi"),
    "CPT": ("Cape Town International Airport", "Cape Town"),
    "DXB": ("Dubai International Airport", "Dubai"),
    "BOM": ("Mumbai Chhatrapati Shivaji Maharaj International Airport", "Mumbai"),
    "BLR": ("Bangalore Kempegowda International Airport", "Bangalore"),
    "SIN": ("Singapore Changi Airport", "Singapore"),
    "HKG": ("Hong Kong International Airport", "Hong Kong"),
    "PVG": ("Shanghai Pudong International Airport", "Shanghai"),
    "SHA": ("Shanghai Hongqiao International Airport", "Shanghai"),
    "HND": ("Tokyo Haneda Airport", "Tokyo"),
    "NRT": ("Tokyo Narita International Airport", "Tokyo"),
    "KIX": ("Osaka Kansai International Airport", "Osaka"),
    "ICN": ("Seoul Incheon International Airport", "Seoul"),
    "SYD": ("Sydney Kingsford Smith Airport", "Sydney"),
    "MEL": ("Melbourne Airport", "Melbourne"),
    "AKL": ("Auckland Airport", "Auckland"),
}
MAIN_AIRPORT = {}
for _code, (_name, _city) in AIRPORTS.items():
    MAIN_AIRPORT.setdefault(_city, _code)
AIRLINES = {"SK": "Skyline Air", "MR": "Meridian Airways", "PC": "Pacific Crest", "NW": "Northwind Airlines",
            "AU": "Aurora Air", "TW": "Tradewind Airlines", "HS": "Horizon Star", "BW": "Bluewing"}
GENERIC_WORDS = {"international", "airport", "airports", "the", "in", "near", "hotel", "hotels", "flights", "to",
                 "from", "city", "stay"}
COST_OF_LIVING = {"Switzerland": 1.6, "USA": 1.3, "United Kingdom": 1.25, "Sweden": 1.15, "Singapore": 1.3,
                  "Netherlands": 1.15, "France": 1.1, "Germany": 1.0, "Japan": 1.0, "Australia": 1.05,
                  "United Arab Emirates": 1.2, "Canada": 1.05, "Italy": 0.95, "Spain": 0.9, "South Korea": 0.9,
                  "New Zealand": 0.95, "China": 0.8, "Mexico": 0.6, "Brazil": 0.6, "Argentina": 0.55,
                  "South Africa": 0.55, "India": 0.45, "Egypt": 0.4, "Kenya": 0.5}
STREETS = ["Harbour Street", "Market Road", "Station Avenue", "Park Lane", "King Street", "Garden Row",
           "Church Street", "Bridge Street", "Victoria Avenue", "River Walk", "Queen Street", "Canal Road"]
HOTEL_WORDS = ["Grand", "Royal", "Harbour", "Garden", "Central", "Riverside", "Park", "Plaza", "Palace", "Crown",
               "Meridian", "Summit", "Lantern", "Atlas", "Orchid", "Beacon"]
SCHENGEN = {"France", "Germany", "Spain", "Italy", "Netherlands", "Switzerland", "Sweden"}
TRAVELLER = {"name": USER.name, "email": USER.email}  # the account holder: the user every seed serves
PASSPORT = {"passport_number": USER.passport_number, "nationality": USER.nationality, "expiry_date": "2031-05-01"}
ADVICE = {
    1: "Exercise normal precautions.",
    2: "Exercise increased caution: {reason}.",
    3: "Reconsider travel: {reason}.",
    4: "Do not travel: {reason}.",
}
REASONS = ["pickpocketing in tourist areas", "seasonal flooding", "occasional demonstrations", "street crime after dark",
           "wildfire risk in rural areas", "transport strikes", "heat waves", "road safety"]


@dataclass
class TravelWorld(World):
    flights: dict[str, dict] = field(default_factory=dict)  # flight number → route, airline, daily schedule
    routes: dict[str, list[str]] = field(default_factory=dict)  # "ORIGIN-DEST" airport pair → flight numbers
    hotels: dict[str, dict] = field(default_factory=dict)  # hotel id → name, city, address, stars, rates
    visas: dict[str, dict] = field(default_factory=dict)  # "citizenship>destination" → requirement, max stay
    advisories: dict[str, dict] = field(default_factory=dict)  # country → level, summary
    salt: str = ""

    def figure(self, *key: object) -> random.Random:
        return random.Random(":".join(map(str, (self.salt, *key))))

    def fare_usd(self, flight: str, day: date) -> float:
        """The economy fare of a flight on a day: dearer close to departure, varying day to day."""
        ahead = (day - TODAY).days
        urgency = 1.35 if ahead <= 3 else 1.1 if ahead <= 14 else 1.0
        return round(self.flights[flight]["base_usd"] * urgency * self.figure("fare", flight, day).uniform(0.8, 1.25), 2)

    def night_usd(self, hotel: str, day: date) -> float:
        """The room rate of a hotel for the night starting on a day: Friday and Saturday cost more."""
        weekend = 1.15 if day.weekday() in (4, 5) else 1.0
        return round(self.hotels[hotel]["nightly_usd"] * weekend * self.figure("night", hotel, day).uniform(0.9, 1.1), 2)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))


@toolbox.world
def build_world(rng: random.Random) -> TravelWorld:
    flights: dict[str, dict] = {}
    routes: dict[str, list[str]] = {}
    numbers = {code: rng.sample(range(100, 9999), 800) for code in AIRLINES}
    for origin, (_, from_city) in AIRPORTS.items():
        for destination, (_, to_city) in AIRPORTS.items():
            if from_city == to_city:
                continue
            a, b = CITY_BY_NAME[from_city], CITY_BY_NAME[to_city]
            km = distance_km(a.latitude, a.longitude, b.latitude, b.longitude)
            minutes = int(km / 820 * 60 + 35) // 5 * 5
            main = MAIN_AIRPORT[from_city] == origin and MAIN_AIRPORT[to_city] == destination
            slots = [(6 * 60, 11 * 60 + 55), (15 * 60, 22 * 60 + 55)] if main else [(7 * 60, 21 * 60)]
            for low, high in slots:
                airline = rng.choice(sorted(AIRLINES))
                number = f"{airline}{numbers[airline].pop()}"
                flights[number] = {
                    "airline": AIRLINES[airline], "origin": origin, "destination": destination,
                    "departs": rng.randrange(low, high + 1, 5), "minutes": minutes,
                    "base_usd": round((55 + 0.085 * km) * rng.uniform(0.85, 1.25), 2),
                }
                routes.setdefault(f"{origin}-{destination}", []).append(number)
    hotels: dict[str, dict] = {}
    names: set[str] = set()
    ids = rng.sample(range(1000, 9999), len(CITIES) * 5)
    for city in CITIES:
        for stars in [2, 3, 4, 5, rng.randint(3, 5)]:
            while True:
                word, other = rng.sample(HOTEL_WORDS, 2)
                name = rng.choice([f"{word} {city.name} Hotel", f"Hotel {word} {other}", f"The {word} Suites {city.name}",
                                   f"{word} {other} Inn", f"{city.name} {word} Lodge"])
                if name not in names:
                    names.add(name)
                    break
            base = {2: 70, 3: 115, 4: 190, 5: 330}[stars] * COST_OF_LIVING[city.country]
            hotels[f"HTL-{ids.pop()}"] = {
                "name": name, "city": city.name, "country": city.country, "stars": stars,
                "address": f"{rng.randint(1, 240)} {rng.choice(STREETS)}, {city.name}",
                "nightly_usd": round(base * rng.uniform(0.85, 1.2), 2),
                "rating": round(rng.uniform(6.8, 9.6), 1),
            }
    countries = sorted(COUNTRY_BY_NAME)
    visas = {}
    for citizen in countries:
        for destination in countries:
            if citizen == destination:
                continue
            if citizen in SCHENGEN and destination in SCHENGEN:
                rule = ("visa-free", 90)
            else:
                rule = rng.choices([("visa-free", 90), ("visa-free", 30), ("eVisa", 60), ("visa on arrival", 30),
                                    ("visa required", 0)], weights=(40, 10, 20, 12, 18))[0]
            visas[f"{citizen}>{destination}"] = {"requirement": rule[0], "max_stay_days": rule[1]}
    advisories = {}
    for country in countries:
        level = rng.choices([1, 2, 3], weights=(55, 35, 10))[0]
        advisories[country] = {"level": level, "summary": ADVICE[level].format(reason=rng.choice(REASONS)),
                               "updated": (TODAY - timedelta(days=rng.randint(3, 120))).isoformat()}
    world_ = TravelWorld(flights=flights, routes=routes, hotels=hotels, visas=visas, advisories=advisories,
                         salt=str(rng.random()))
    # The account starts with a profile, a passport and two upcoming trips.
    trip_day = day_after(rng.randint(4, 9))
    flight = rng.choice(sorted(flights))
    hotel = rng.choice(sorted(hotels))
    world_.state = {
        "traveller_profile": dict(TRAVELLER),
        "passport": {"number": PASSPORT["passport_number"], "nationality": PASSPORT["nationality"],
                     "expires": PASSPORT["expiry_date"]},
        "bookings": {
            "BK-40211": {"kind": "flight", "item": flight, "date": trip_day, "traveller": TRAVELLER["name"],
                         "status": "confirmed", "price_usd": world_.fare_usd(flight, date.fromisoformat(trip_day))},
            "BK-40212": {"kind": "hotel", "item": hotel, "date": trip_day, "nights": 3, "traveller": TRAVELLER["name"],
                         "status": "confirmed", "price_usd": round(sum(world_.night_usd(hotel, date.fromisoformat(trip_day)
                                                                                        + timedelta(days=i)) for i in range(3)), 2)},
        },
        "next_booking": 40213,
    }
    return world_


toolbox.condition(
    "traveller_profile",
    holds=lambda w: w.state.get("traveller_profile") is not None,
    broken_state={"traveller_profile": None, "passport": None},
    fix=("create_traveller_profile", {"full_name": TRAVELLER["name"], "email": TRAVELLER["email"]}),
    consent="share",
)
toolbox.condition(
    "passport_on_file",
    holds=lambda w: w.state.get("passport") is not None,
    broken_state={"passport": None},
    fix=("save_passport_details", dict(PASSPORT)),
    consent="identity",
)

# Cities and countries named by other seeds (where a contact lives, an office, the hottest city of
# a country) can be a trip's. Days are not (other seeds' days are due dates, deadlines and
# deliveries, not travel days), nor people (a traveller's name is typed, never taken from a contact
# or a patient record), nor currencies (a salary's or a listing's currency does not price a flight).
toolbox.bridge("city", "country")
toolbox.written_as("country", country_phrase)
toolbox.written_as("country/citizenship", country_phrase)


def _two_cities(args: dict[str, Any]) -> bool:
    a, b = AIRPORTS.get(args["origin_airport"]), AIRPORTS.get(args["destination_airport"])
    return a is None or b is None or a[1] != b[1]


HOME_CURRENCIES = {"USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF"}  # currencies travellers commonly pay in


def _currency_of(airport: str) -> str | None:
    return city_currency(AIRPORTS[airport][1]) if airport in AIRPORTS else None


def _fare_currency(args: dict[str, Any]) -> bool:
    """A fare is asked in a currency the traveller pays in or one of the two countries' own."""
    local = {_currency_of(args["origin_airport"]), _currency_of(args["destination_airport"])}
    return args["currency"] in HOME_CURRENCIES | local


def _own_email(args: dict[str, Any]) -> bool:
    """The profile's email is the traveller's own (the generated addresses are first.last@...)."""
    return str(args["email"]).lower().startswith(".".join(str(args["full_name"]).lower().split()) + "@")


# --- helpers ------------------------------------------------------------------------------


def _day(text: str, window: tuple[date, date], what: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None
    require(window[0] <= day <= window[1], f"no {what} for {text}: they run from {window[0]} to {window[1]}")
    return day


def _airport(code: str) -> str:
    require(code in AIRPORTS, f"unknown airport code {code!r}; look up the IATA code of a city or airport first")
    return code


def _flight(number: str) -> dict:
    flights = world(TravelWorld).flights
    require(number in flights, f"unknown flight {number!r}; search flights between two cities to get flight numbers")
    return flights[number]


def _hotel(hotel_id: str) -> dict:
    hotels = world(TravelWorld).hotels
    require(hotel_id in hotels, f"unknown hotel {hotel_id!r}; search hotels in a city to get hotel ids")
    return hotels[hotel_id]


def _currency(code: str) -> float:
    require(code in CURRENCY_BY_CODE, f"unsupported currency {code!r}; use an ISO 4217 code such as EUR or JPY")
    return CURRENCY_BY_CODE[code].per_usd


def _times(row: dict, day: date) -> tuple[datetime, datetime]:
    """Local departure and arrival of a flight leaving on a day."""
    origin, destination = AIRPORTS[row["origin"]][1], AIRPORTS[row["destination"]][1]
    departs = datetime.combine(day, datetime.min.time()) + timedelta(minutes=row["departs"])
    arrives = local_time(destination, origin, departs + timedelta(minutes=row["minutes"]))
    return departs, arrives


def _fmt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _status(w: TravelWorld, number: str, day: date) -> tuple[str, int, str]:
    """(status, delay in minutes, gate) of a flight on a day, as the world clock sees it."""
    row = w.flights[number]
    r = w.figure("status", number, day)
    roll = r.random()
    delay = 0 if roll < 0.7 else r.choice([10, 15, 25, 40, 65, 120])
    gate = f"{r.choice('ABCDEF')}{r.randint(1, 48)}" if (day - TODAY).days <= 2 else "TBA"
    if roll > 0.985:
        return "cancelled", 0, "TBA"
    actual = _times(row, day)[0] + timedelta(minutes=delay)
    if actual + timedelta(minutes=row["minutes"]) <= NOW:  # both sides in local time of the world clock
        return "landed", delay, gate
    if actual <= NOW:
        return "departed", delay, gate
    if (day - TODAY).days > 2:
        return "scheduled", 0, gate
    return ("delayed" if delay else "scheduled"), delay, gate


def _rooms_left(w: TravelWorld, hotel_id: str, check_in: date, nights: int) -> int:
    """Rooms free on every night of a stay, after the user's own confirmed bookings."""
    free = []
    for i in range(nights):
        night = check_in + timedelta(days=i)
        r = w.figure("rooms", hotel_id, night)
        rooms = 0 if r.random() < 0.005 else r.randint(1, 24)  # a night sells out now and then
        for booking in w.state.get("bookings", {}).values():
            if booking["kind"] == "hotel" and booking["item"] == hotel_id and booking["status"] == "confirmed":
                start = date.fromisoformat(booking["date"])
                if start <= night < start + timedelta(days=booking["nights"]):
                    rooms -= 1
        free.append(max(0, rooms))
    return min(free)


def _ranked(w: TravelWorld, hotel_ids: Iterable[str]) -> list[str]:
    """Hotels in the one order every hotel search lists them: most stars first, then best rated."""
    return sorted(hotel_ids, key=lambda h: (-w.hotels[h]["stars"], -w.hotels[h]["rating"], h))


def _stay(hotel_id: str, check_in: str, nights: int) -> tuple[dict, date]:
    row = _hotel(hotel_id)
    day = _day(check_in, STAY_WINDOW, "hotel stays on sale")
    require(1 <= nights <= 28, "nights must be between 1 and 28")
    return row, day


def _booking(booking_id: str) -> dict:
    bookings = world(TravelWorld).state.get("bookings", {})
    require(booking_id in bookings, f"unknown booking {booking_id!r}; list your bookings to see their ids")
    return bookings[booking_id]


def _new_booking(record: dict) -> str:
    state = world(TravelWorld).state
    number = state.get("next_booking", 40213)
    state["next_booking"] = number + 1
    booking_id = f"BK-{number}"
    state.setdefault("bookings", {})[booking_id] = record
    return booking_id


def _main_airport_of_text(text: str) -> str | None:
    """The airport a mention means: a code, a distinctive airport name, or a city's main airport."""
    words = _words(text)
    joined = " " + " ".join(words) + " "
    if len(words) == 1 and words[0].upper() in AIRPORTS:
        return words[0].upper()
    named = []
    for code, (name, city) in AIRPORTS.items():
        own = [w for w in _words(name) if w not in GENERIC_WORDS and w not in _words(city)]
        if own and f" {' '.join(own)} " in joined or (own and own[0] in words and len(own[0]) > 3):
            named.append(code)
    in_city = [c for c in named if f" {' '.join(_words(AIRPORTS[c][1]))} " in joined]
    if len(in_city) == 1 or (len(named) == 1 and not in_city):
        return (in_city or named)[0]
    cities = [c.name for c in CITIES if f" {' '.join(_words(c.name))} " in joined]
    if cities:
        return MAIN_AIRPORT[max(cities, key=len)]
    return None


# --- value generators ---------------------------------------------------------------------


@toolbox.values_for("city")
def _cities(w: TravelWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("country")
def _countries(w: TravelWorld) -> list[str]:
    return sorted(COUNTRY_BY_NAME)


@toolbox.values_for("date")
def _dates(w: TravelWorld) -> list[str]:
    return [day_after(i) for i in range(1, 15)]


@toolbox.values_for("currency_code")
def _currencies(w: TravelWorld) -> list[str]:
    return sorted(CURRENCY_BY_CODE)


@toolbox.values_for("person_name/traveller")
def _people(w: TravelWorld) -> list[str]:
    """The traveller is the person asking: every goal of this seed is someone's own trip, and
    the passport and profile a booking needs are theirs ("a passport saved for me and a flight
    booked for someone else" is two people in one request)."""
    return [TRAVELLER["name"]]


@toolbox.values_for("email")
def _emails(w: TravelWorld) -> list[str]:
    return [f"{n.lower().replace(' ', '.')}@example.com" for n in _people(w)]


@toolbox.values_for("iata_code")
def _codes(w: TravelWorld) -> list[str]:
    return sorted(AIRPORTS)


@toolbox.values_for("airport_mention")
def _airport_mentions(w: TravelWorld) -> list[str]:
    # Names as a person writes them in a sentence ("John F. Kennedy", not "john f. kennedy").
    mentions = [c.name for c in CITIES[::2]]
    for name, city in AIRPORTS.values():
        own = [x for x in name.split() if _words(x) and not set(_words(x)) & (GENERIC_WORDS | set(_words(city)))]
        if own:
            mentions += [f"{city} {' '.join(own)}", " ".join(own)]
    mentions += ["the airport in Lyon", "Heathrow airport", "o'hare", "JFK"]
    return mentions


@toolbox.values_for("flight_number")
def _flight_numbers(w: TravelWorld) -> list[str]:
    return sorted(w.flights)[::7]


@toolbox.values_for("hotel_id")
def _hotel_ids(w: TravelWorld) -> list[str]:
    return sorted(w.hotels)


# No literal lists of flight numbers or hotel ids: nobody holds five opaque ids of unknown cities; a
# list comes from a search ("the hotels in Zurich"), which also ties it to the rest of the request.


@toolbox.values_for("booking_id")
def _booking_ids(w: TravelWorld) -> list[str]:
    return sorted(w.state["bookings"])


@toolbox.values_for("nights")
def _nights(w: TravelWorld) -> list[int]:
    return [1, 2, 3, 4, 5, 7]


@toolbox.values_for("star_rating")
def _stars(w: TravelWorld) -> list[int]:
    return [2, 3, 4, 5]


@toolbox.values_for("passport_number")
def _passports(w: TravelWorld) -> list[str]:
    return ["X4827193", "P5519024", "K7730418", "C2098345"]


@toolbox.values_for("passport_expiry")
def _expiries(w: TravelWorld) -> list[str]:
    return ["2027-03-31", "2028-11-15", "2030-07-01", "2031-05-01", "2033-09-20"]


@toolbox.values_for("travel_search_terms")
def _search_terms(w: TravelWorld) -> list[str]:
    terms = []
    for i, city in enumerate(CITIES):
        # not "hotels in X" (the search finds an airport too), nor "X airport" (which airport matches
        # "Amsterdam airport" is no question: reading 43 #6)
        terms.append([city.name, city.name.lower()][i % 2])
    terms += ["heathrow", "gatwick", "orly", "narita", "grand", "riverside"]
    return terms


# --- tools --------------------------------------------------------------------------------


@toolbox.tool(tags=("search",))
def search_travel(query: Annotated[str, Kind("travel_search_terms")]) -> tuple[HotelIds, str, list[str]]:
    """Search hotels and airports at once by words in a hotel name, airport name, code or city.

    Args:
        query: Free text, e.g. "hotels in Paris", "heathrow" or "riverside"; words like "hotel", "airport" and "in" are ignored.

    Returns:
        hotel_ids: the hotels found (up to 5 hotel ids, most stars first, then best rated; the airport's city's hotels when only an airport matches).
        airport_code: the airport found (IATA code; the main airport of the first hotel's city when only hotels match).
        hotel_names: the names of those hotels, in the same order.
    """
    w = world(TravelWorld)
    words = [x for x in _words(query) if x not in GENERIC_WORDS]
    require(bool(words), f"query {query!r} has no words to search for; name a city, hotel or airport")

    def matches(text: str) -> bool:
        tokens = set(_words(text))
        return all(x in tokens for x in words)

    hotels = _ranked(w, (h for h, r in w.hotels.items() if matches(f"{r['name']} {r['city']} {r['country']}")))
    airports = [c for c, (name, city) in AIRPORTS.items() if matches(f"{name} {city} {c}")]
    require(bool(hotels or airports), f"nothing in the travel catalogue matches {query!r}")
    airport = airports[0] if airports else MAIN_AIRPORT[w.hotels[hotels[0]]["city"]]
    if not hotels:
        city = AIRPORTS[airport][1]
        hotels = _ranked(w, (h for h, r in w.hotels.items() if r["city"] == city))
    return hotels[:5], airport, [w.hotels[h]["name"] for h in hotels[:5]]


@toolbox.tool(tags=("canonicalise",))
def lookup_airport_code(place: Annotated[str, Kind("airport_mention")]) -> tuple[Iata, str]:
    """Resolve a city or airport as people name it to the airport's IATA code.

    Args:
        place: A city, an airport name or a code as people say it, e.g. "Paris", "london gatwick", "Narita" or "jfk"; a city alone means its main airport.

    Returns:
        airport_code: the airport meant (its IATA code).
        city: the city the airport serves.
    """
    code = _main_airport_of_text(place)
    require(code is not None, f"no airport matches {place!r}; name a covered city or a well-known airport")
    return code, AIRPORTS[code][1]


@toolbox.tool(
    # (a city found for a day, the host city of today's meeting, is no place to fly from on June 24)
    sense=(distinct("origin_city", "destination_city"), around("date", before=1, after=90),
           arrives("destination_city", "date"), same_day("date")),
)
def search_flights(origin_city: CityName, destination_city: CityName, date: Day) -> tuple[FlightNumbers, Departure]:
    """List the scheduled flights between two cities on a day, from any of their airports.

    Args:
        origin_city: Departure city, e.g. "London".
        destination_city: Arrival city, e.g. "Tokyo".
        date: Departure day in YYYY-MM-DD (from 120 days ago to 90 days ahead).

    Returns:
        flight_numbers: the flights that day (flight numbers, in flight-number order).
        date: the departure day searched (YYYY-MM-DD).
    """
    w = world(TravelWorld)
    for city in (origin_city, destination_city):
        require(city in CITY_BY_NAME, f"no airport serves {city!r}; flights cover {len(CITIES)} major cities")
    require(origin_city != destination_city, "origin and destination are the same city; pick two different cities")
    day = _day(date, FLIGHT_WINDOW, "flight schedules")
    found = [n for key, numbers in w.routes.items() for n in numbers
             if AIRPORTS[key[:3]][1] == origin_city and AIRPORTS[key[4:]][1] == destination_city]
    # By number, as a timetable index lists them: which one leaves first is choose_earliest_flight's to say.
    return sorted(found), day.isoformat()


@toolbox.tool(
    sense=(distinct("origin_airport", "destination_airport"),
           sensible("both airports serve one city", ("origin_airport", "destination_airport"), _two_cities),
           sensible("a currency nobody on this trip pays in", ("origin_airport", "destination_airport", "currency"),
                    _fare_currency),
           around("date", before=0, after=90), arrives("flight_number", "date")),
)
def find_cheapest_flight(origin_airport: Iata, destination_airport: Iata, date: Day,
                         currency: Currency = "USD") -> tuple[FlightNumber, float, Departure]:
    """Find the cheapest economy fare between two airports on a day.

    Args:
        origin_airport: IATA code of the departure airport, e.g. "LHR".
        destination_airport: IATA code of the arrival airport, e.g. "NRT".
        date: Departure day in YYYY-MM-DD (from today to 90 days ahead).
        currency: ISO 4217 code of the fare, e.g. "EUR".

    Returns:
        flight_number: the cheapest flight (its flight number).
        fare: the cheapest flight's economy fare (in the requested currency, rounded to cents).
        date: the cheapest flight's departure day (YYYY-MM-DD).
    """
    w = world(TravelWorld)
    _airport(origin_airport)
    _airport(destination_airport)
    require(AIRPORTS[origin_airport][1] != AIRPORTS[destination_airport][1],
            "both airports serve the same city; pick airports in two different cities")
    day = _day(date, (TODAY, FLIGHT_WINDOW[1]), "fares on sale")
    rate = _currency(currency)
    fare, number = min((w.fare_usd(n, day), n) for n in w.routes[f"{origin_airport}-{destination_airport}"])
    return number, round(fare * rate, 2), day.isoformat()


@toolbox.tool(
    sense=(around("date", before=1, after=90),
           sensible("a choice needs at least two flights", ("flight_numbers",), lambda a: len(a["flight_numbers"]) >= 2),
           arrives("flight_number", "date")),
    tags=("picks",),  # the flights come earliest first: only the departure time needs the call
)
def choose_earliest_flight(flight_numbers: FlightNumbers, date: Departure) -> tuple[FlightNumber, Moment, Departure]:
    """Pick the flight that departs first on a day from a list of flight numbers.

    Args:
        flight_numbers: Flight numbers to compare, e.g. ["SK1234", "MR877"].
        date: Departure day in YYYY-MM-DD (from 120 days ago to 90 days ahead).

    Returns:
        flight_number: the earliest flight (its flight number).
        departure_time: the earliest flight's local departure time (YYYY-MM-DDTHH:MM).
        date: the earliest flight's departure day (YYYY-MM-DD).
    """
    require(bool(flight_numbers), "flight_numbers is empty: search flights first")
    day = _day(date, FLIGHT_WINDOW, "flight schedules")
    departs, number = min((_times(_flight(n), day)[0], n) for n in flight_numbers)
    return number, _fmt(departs), day.isoformat()


@toolbox.tool(sense=(around("date", before=7, after=90), arrives("destination_city", "date", "arrival_time")))
def get_flight_details(flight_number: FlightNumber, date: Departure) -> tuple[str, Moment, CityName, str]:
    """Get the schedule, destination and airline of a flight departing on a day.

    Args:
        flight_number: Flight number, e.g. "SK1234".
        date: Departure day in YYYY-MM-DD (from 120 days ago to 90 days ahead).

    Returns:
        departure_time: the local departure time (YYYY-MM-DDTHH:MM).
        arrival_time: the local arrival time at the destination (YYYY-MM-DDTHH:MM).
        destination_city: the city the flight lands in.
        airline: the airline operating the flight.
    """
    row = _flight(flight_number)
    departs, arrives = _times(row, _day(date, FLIGHT_WINDOW, "flight schedules"))
    return _fmt(departs), _fmt(arrives), AIRPORTS[row["destination"]][1], row["airline"]


@toolbox.tool(
    sense=(around("date", before=3, after=14),),  # a status is checked in the days around the flight
)
def get_flight_status(flight_number: FlightNumber, date: Departure) -> tuple[str, int, str]:
    """Get the status, delay and departure gate of a flight on a day.

    Args:
        flight_number: Flight number, e.g. "MR877".
        date: Departure day in YYYY-MM-DD (from 120 days ago to 90 days ahead).

    Returns:
        status: the flight's status (scheduled, delayed, departed, landed or cancelled).
        delay_minutes: the expected or actual departure delay (minutes).
        gate: the departure gate (e.g. "B12"; "TBA" until two days before departure).
    """
    w = world(TravelWorld)
    _flight(flight_number)
    return _status(w, flight_number, _day(date, FLIGHT_WINDOW, "flight schedules"))


def _away_from_home(args: dict[str, Any]) -> bool:
    """Whether a city is not the person's home city, where nobody looks for a hotel."""
    return args["city"] != USER.home_city


@toolbox.tool(
    # (a hotel in the person's own city, for an event there, is no stay anyone books: reading 48 #19)
    sense=(within("min_stars", 2, 4), sensible("a stay away from home", ("city",), _away_from_home)),
)
def search_hotels(city: CityName, min_stars: Annotated[int, Kind("star_rating")] = 1) -> tuple[HotelIds, list[str]]:
    """List the hotels in a city, optionally only those with at least some stars.

    Args:
        city: City name, e.g. "Barcelona".
        min_stars: Minimum star rating (1-5).

    Returns:
        hotel_ids: the hotels found (hotel ids, most stars first, then best rated).
        hotel_names: the names of those hotels, in the same order.
    """
    w = world(TravelWorld)
    require(city in CITY_BY_NAME, f"no hotels listed in {city!r}; hotels cover {len(CITIES)} major cities")
    require(1 <= min_stars <= 5, "min_stars must be between 1 and 5")
    found = _ranked(w, [h for h, r in w.hotels.items() if r["city"] == city and r["stars"] >= min_stars])
    return found, [w.hotels[h]["name"] for h in found]


@toolbox.tool
def get_hotel_details(hotel_id: HotelId) -> tuple[str, Address, int, str]:
    """Get a hotel's name, street address, star rating and the currency it bills in.

    Args:
        hotel_id: Hotel id, e.g. "HTL-2041".

    Returns:
        hotel_name: the hotel's name.
        address: the hotel's street address.
        stars: the hotel's star rating (1-5).
        currency_code: the currency the hotel bills in (ISO 4217).
    """
    row = _hotel(hotel_id)
    return row["name"], row["address"], row["stars"], city_currency(row["city"])


@toolbox.tool(
    sense=(around("check_in", before=0, after=90), within("nights", 1, 14), present("hotel_id", "check_in")),
    tags=("informs",),
)
def check_room_availability(hotel_id: HotelId, check_in: Day, nights: Nights) -> tuple[bool, int, float]:
    """Check whether a hotel has a room free for every night of a stay, and the average nightly rate.

    Args:
        hotel_id: Hotel id, e.g. "HTL-2041".
        check_in: Check-in day in YYYY-MM-DD (from today to 90 days ahead).
        nights: Number of nights (1-28).

    Returns:
        available: the answer to whether a room is free for the whole stay.
        rooms_left: the rooms still free on the busiest night of the stay.
        nightly_rate_usd: the average nightly rate over the stay (US dollars).
    """
    w = world(TravelWorld)
    _, day = _stay(hotel_id, check_in, nights)
    rooms = _rooms_left(w, hotel_id, day, nights)
    rate = sum(w.night_usd(hotel_id, day + timedelta(days=i)) for i in range(nights)) / nights
    return rooms > 0, rooms, round(rate, 2)


@toolbox.tool(
    sense=(around("check_in", before=0, after=90), within("nights", 1, 14),
           sensible("a comparison needs at least two hotels", ("hotel_ids",), lambda a: len(a["hotel_ids"]) >= 2),
           sensible("a currency travellers rarely pay in", ("currency",), lambda a: a["currency"] in HOME_CURRENCIES),
           present("hotel_id", "check_in")),
)
def compare_hotel_prices(hotel_ids: HotelIds, check_in: Day, nights: Nights,
                         currency: Currency = "USD") -> tuple[StayHotel, float, StayDay, StayNights, str]:
    """Compare the total price of a stay at several hotels and pick the cheapest one with a free room.

    Args:
        hotel_ids: Hotel ids to compare, e.g. ["HTL-2041", "HTL-7730"].
        check_in: Check-in day in YYYY-MM-DD (from today to 90 days ahead).
        nights: Number of nights (1-28).
        currency: ISO 4217 code of the price, e.g. "GBP".

    Returns:
        hotel_id: the cheapest available hotel (its hotel id).
        total_price: the cheapest available hotel's price for the whole stay (in the requested currency, rounded to cents).
        check_in: the stay's check-in day (YYYY-MM-DD).
        nights: the stay's number of nights.
        hotel_name: the cheapest available hotel's name.
    """
    w = world(TravelWorld)
    require(bool(hotel_ids), "hotel_ids is empty: search hotels first")
    rate = _currency(currency)
    options = []
    for hotel_id in hotel_ids:
        _, day = _stay(hotel_id, check_in, nights)
        if _rooms_left(w, hotel_id, day, nights) > 0:
            total = sum(w.night_usd(hotel_id, day + timedelta(days=i)) for i in range(nights))
            options.append((total, hotel_id))
    require(bool(options), f"none of these hotels has a room free for {nights} nights from {check_in}; try other dates")
    total, best = min(options)
    return best, round(total * rate, 2), check_in, nights, w.hotels[best]["name"]


@toolbox.tool(
    sense=(around("date", before=0, after=90), arrives("flight_number", "date")),
    requires=("passport_on_file",),
    tags=("state_change",),
)
def book_flight(flight_number: FlightNumber, date: Departure, passenger_name: Traveller) -> tuple[str, str]:
    """Book an economy seat on a flight for a passenger (needs a passport on the traveller profile).

    Args:
        flight_number: Flight number, e.g. "SK1234".
        date: Departure day in YYYY-MM-DD (from today to 90 days ahead).
        passenger_name: Full name of the passenger as on their passport, e.g. "Jane Doe".

    Returns:
        booking_id: the new flight booking (its booking id).
        seat: the assigned seat (e.g. "23C").
    """
    w = world(TravelWorld)
    row = _flight(flight_number)
    day = _day(date, (TODAY, FLIGHT_WINDOW[1]), "bookable flights")
    require(len(passenger_name.split()) >= 2, "give the passenger's full name (first and last name)")
    require(w.state.get("traveller_profile") is not None,
            "No traveller profile: create a traveller profile before booking")
    require(w.state.get("passport") is not None,
            "No passport on file: save passport details to the traveller profile before booking a flight")
    require(_times(row, day)[0] > NOW, f"{flight_number} on {date} has already departed; pick a later flight")
    require(_status(w, flight_number, day)[0] != "cancelled", f"{flight_number} on {date} is cancelled; pick another flight")
    for bid, b in w.state.get("bookings", {}).items():
        if (b["kind"], b["item"], b["date"], b["traveller"], b["status"]) == ("flight", flight_number, date, passenger_name, "confirmed"):
            raise ToolError(f"{passenger_name} is already booked on {flight_number} on {date} ({bid})")
    r = w.figure("seat", flight_number, day, passenger_name)
    seat = f"{r.randint(8, 42)}{r.choice('ABCDEF')}"
    booking_id = _new_booking({"kind": "flight", "item": flight_number, "date": date, "traveller": passenger_name,
                               "status": "confirmed", "price_usd": w.fare_usd(flight_number, day)})
    return booking_id, seat


@toolbox.tool(
    sense=(around("check_in", before=0, after=90), within("nights", 1, 14), present("hotel_id", "check_in")),
    requires=("traveller_profile",),
    tags=("state_change",),
)
def book_hotel(hotel_id: StayHotel, check_in: StayDay, nights: StayNights, guest_name: Traveller) -> tuple[str, str]:
    """Book a room at a hotel for a guest (needs a traveller profile).

    Args:
        hotel_id: Hotel id, e.g. "HTL-2041".
        check_in: Check-in day in YYYY-MM-DD (from today to 90 days ahead).
        nights: Number of nights (1-28).
        guest_name: Full name of the guest, e.g. "Jane Doe".

    Returns:
        booking_id: the new hotel booking (its booking id).
        check_out: the check-out day (YYYY-MM-DD).
    """
    w = world(TravelWorld)
    _, day = _stay(hotel_id, check_in, nights)
    require(len(guest_name.split()) >= 2, "give the guest's full name (first and last name)")
    require(w.state.get("traveller_profile") is not None,
            "No traveller profile: create a traveller profile before booking")
    require(_rooms_left(w, hotel_id, day, nights) > 0,
            f"no room is free for all {nights} nights from {check_in}; check availability for other dates")
    total = round(sum(w.night_usd(hotel_id, day + timedelta(days=i)) for i in range(nights)), 2)
    booking_id = _new_booking({"kind": "hotel", "item": hotel_id, "date": check_in, "nights": nights,
                               "traveller": guest_name, "status": "confirmed", "price_usd": total})
    return booking_id, (day + timedelta(days=nights)).isoformat()


@toolbox.tool(tags=("state_change", "ends"))
def cancel_booking(booking_id: BookingId) -> tuple[str, float]:
    """Cancel a flight or hotel booking and get the refund due.

    Args:
        booking_id: Booking id, e.g. "BK-10001".

    Returns:
        status: the booking's status after the call ("cancelled").
        refund_usd: the refund due (US dollars; flights refund 80% up to 24 hours before departure, hotels refund in full up to 2 days before check-in and keep the first night after that).
    """
    w = world(TravelWorld)
    booking = _booking(booking_id)
    require(booking["status"] == "confirmed", f"booking {booking_id} is already {booking['status']}")
    start = date.fromisoformat(booking["date"])
    if booking["kind"] == "flight":
        departs = _times(w.flights[booking["item"]], start)[0]
        require(departs > NOW, f"flight booking {booking_id} has already departed and cannot be cancelled")
        refund = round(booking["price_usd"] * 0.8, 2) if departs - NOW >= timedelta(hours=24) else 0.0
    else:
        require(start >= TODAY, f"hotel booking {booking_id} has already started and cannot be cancelled")
        first_night = w.night_usd(booking["item"], start)
        refund = booking["price_usd"] if (start - TODAY).days >= 2 else round(booking["price_usd"] - first_night, 2)
    booking["status"] = "cancelled"
    return "cancelled", float(refund)


@toolbox.tool
def get_booking_details(booking_id: BookingId) -> tuple[str, Day, str]:
    """Get who a booking is for, when it starts and whether it is still confirmed.

    Args:
        booking_id: Booking id, e.g. "BK-10001".

    Returns:
        traveller_name: the person the booking is for.
        start_date: the booking's departure or check-in day (YYYY-MM-DD).
        status: the booking's status (confirmed or cancelled).
    """
    booking = _booking(booking_id)
    return booking["traveller"], booking["date"], booking["status"]


@toolbox.tool
def list_my_bookings(status: Literal["confirmed", "cancelled", "all"] = "confirmed") -> BookingIds:
    """List the user's flight and hotel bookings.

    Args:
        status: Which bookings to list: "confirmed", "cancelled" or "all".

    Returns:
        booking_ids: my bookings (booking ids, oldest first).
    """
    bookings = world(TravelWorld).state.get("bookings", {})
    return [bid for bid, b in sorted(bookings.items()) if status == "all" or b["status"] == status]


@toolbox.tool(
    sense=(sensible("the email belongs to someone else", ("full_name", "email"), _own_email),),
    tags=("state_change",),
)
def create_traveller_profile(full_name: Traveller, email: Email) -> str:
    """Create the user's traveller profile, or update its name and email (a saved passport is kept).

    Args:
        full_name: The traveller's full name, e.g. "Jane Doe".
        email: Contact email address, e.g. "jane.doe@example.com".

    Returns:
        traveller_name: the name on my traveller profile.
    """
    require(len(full_name.split()) >= 2, "give the traveller's full name (first and last name)")
    require(re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email.lower()) is not None, f"{email!r} is not a valid email address")
    world(TravelWorld).state["traveller_profile"] = {"name": " ".join(full_name.split()), "email": email}
    return " ".join(full_name.split())


@toolbox.tool(requires=("traveller_profile",), tags=("state_change",))
def save_passport_details(passport_number: Annotated[str, Kind("passport_number")], nationality: Citizenship,
                          expiry_date: Annotated[str, Kind("passport_expiry")]) -> tuple[str, str]:
    """Save passport details to the traveller profile (replaces any saved passport).

    Args:
        passport_number: Passport number, 6 to 9 letters and digits, e.g. "A1234567".
        nationality: Country that issued the passport, e.g. "Canada".
        expiry_date: Expiry day in YYYY-MM-DD; must be at least 6 months after today.

    Returns:
        masked_number: the saved passport number with all but the last three characters hidden.
        nationality: the passport holder's citizenship.
    """
    w = world(TravelWorld)
    require(w.state.get("traveller_profile") is not None,
            "No traveller profile: create a traveller profile before saving a passport")
    number = passport_number.strip().upper()
    require(re.fullmatch(r"[A-Z0-9]{6,9}", number) is not None, f"{passport_number!r} is not a passport number "
                                                                 "(6 to 9 letters and digits)")
    nationality = country_named(nationality) or nationality
    require(nationality in COUNTRY_BY_NAME, f"unknown country {nationality!r}; use the English country name")
    try:
        expires = date.fromisoformat(expiry_date)
    except ValueError:
        raise ToolError(f"expiry date {expiry_date!r} is not in YYYY-MM-DD format") from None
    require(expires >= TODAY + timedelta(days=183), f"a passport expiring on {expiry_date} is not accepted: it must be "
                                                    "valid for at least 6 months; renew it first")
    w.state["passport"] = {"number": number, "nationality": nationality, "expires": expiry_date}
    return "*" * (len(number) - 3) + number[-3:], nationality


@toolbox.tool(sense=(distinct("citizenship", "destination"),))
def get_visa_requirement(citizenship: Citizenship, destination: CountryName) -> tuple[str, int]:
    """Get the entry rules for a tourist of one nationality visiting another country.

    Args:
        citizenship: Country of the traveller's passport, e.g. "India".
        destination: Country to visit, e.g. "Japan".

    Returns:
        requirement: the entry requirement (visa-free, eVisa, visa on arrival or visa required).
        max_stay_days: the longest tourist stay allowed (days; 0 when a visa must be obtained before travel).
    """
    w = world(TravelWorld)
    citizenship, destination = (country_named(c) or c for c in (citizenship, destination))
    for country in (citizenship, destination):
        require(country in COUNTRY_BY_NAME, f"unknown country {country!r}; use the English country name, e.g. \"Japan\"")
    require(citizenship != destination, f"a citizen of {citizenship} needs no visa to enter {destination}")
    rule = w.visas[f"{citizenship}>{destination}"]
    return rule["requirement"], rule["max_stay_days"]


@toolbox.tool
def get_travel_advisory(country: CountryName) -> tuple[int, str, str]:
    """Get the current government travel advisory level for a country.

    Args:
        country: Country name, e.g. "Egypt".

    Returns:
        level: the advisory level (1 = normal precautions to 4 = do not travel).
        summary: the advice in one sentence.
        updated_on: the day the advisory was last updated (YYYY-MM-DD).
    """
    w = world(TravelWorld)
    country = country_named(country) or country
    require(country in w.advisories, f"unknown country {country!r}; use the English country name, e.g. \"Egypt\"")
    row = w.advisories[country]
    return row["level"], row["summary"], row["updated"]


# --- what a value implies ----------------------------------------------------------------


@toolbox.facts_about("flight_number")
def _flight_facts(w: TravelWorld, flight_number: str) -> dict:
    """A flight is about the country it flies to (a hotel or a visa of the same request is there).
    Not its city: a city named next to a flight is as often where the trip starts."""
    return {"country": CITY_BY_NAME[AIRPORTS[w.flights[flight_number]["destination"]][1]].country}


@toolbox.facts_about("hotel_id")
def _hotel_facts(w: TravelWorld, hotel_id: str) -> dict:
    row = w.hotels[hotel_id]
    return {"city": row["city"], "country": row["country"]}


@toolbox.facts_about("booking_id")
def _booking_facts(w: TravelWorld, booking_id: str) -> dict:
    booking = w.state["bookings"][booking_id]
    if booking["kind"] == "hotel":
        city = w.hotels[booking["item"]]["city"]
    else:
        city = AIRPORTS[w.flights[booking["item"]]["destination"]][1]
    return {"city": city, "country": CITY_BY_NAME[city].country, "person_name": booking["traveller"]}


@toolbox.facts_about("travel_search_terms")
def _search_facts(w: TravelWorld, query: str) -> dict:
    words = " " + " ".join(_words(query)) + " "
    named = [c for c in CITIES if f" {' '.join(_words(c.name))} " in words]
    return {"city": named[0].name, "country": named[0].country} if len(named) == 1 else {}


# --- goals: what a person wants, and the tools that serve it ------------------------------
# A flight found by its route is not then asked where it lands: goals that send a flight's
# destination on (hotels, weather there) start from a flight the person names.

