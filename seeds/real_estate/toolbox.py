"""Real Estate: homes for sale in the world's major cities, their agents, neighbourhoods and
comparable sales, valuation and mortgage arithmetic, and booking viewings."""

from __future__ import annotations

import random
import re
import statistics
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Annotated, Literal

from factory.gazetteer import (
    CITIES,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    city_currency,
    distance_km,
    geocode,
    phone_number,
)
from factory.sense import around, sensible, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.user import USER

toolbox = Toolbox()

ListingId = Annotated[str, Kind("listing_id")]
ViewingId = Annotated[str, Kind("viewing_id")]
City = Annotated[str, Kind("city")]
# The city of a home someone describes to value: they name it ("a 2-bedroom flat in Lyon"), never
# "the city listing LYO-103 is in" for a home that is not that listing.
ValuedCity = Annotated[str, Kind("city", role="valuation")]
Neighbourhood = Annotated[str, Kind("neighbourhood")]
Address = Annotated[str, Kind("address")]  # an address a person names: a friend's, a workplace's
PropertyAddress = Annotated[str, Kind("address", role="property")]  # a listing's own: placing it finds itself
Latitude = Annotated[float, Kind("latitude")]
Longitude = Annotated[float, Kind("longitude")]
# A listing's own point feeds no "nearest home for sale" (the answer is the listing itself); the
# listing's address and city do the work of saying where it is.
ListingLatitude = Annotated[float, Kind("latitude", role="listing")]
ListingLongitude = Annotated[float, Kind("longitude", role="listing")]
# A price comes with its currency (a second output, in the role of an amount's currency as the
# finance seed has it), so the pair feeds a conversion as one group, and the price alone feeds a
# mortgage (whose repayments are in the same currency). Prices per square metre feed neither.
Money = Annotated[float, Kind("money_amount")]
Currency = Annotated[str, Kind("currency_code", role="amount")]
Agent = Annotated[str, Kind("person_name", role="agent")]
AgentEmail = Annotated[str, Kind("email", role="agent")]
AgentPhone = Annotated[str, Kind("phone_number", role="agent")]
BuyerName = Annotated[str, Kind("person_name", role="buyer")]
BuyerEmail = Annotated[str, Kind("email", role="buyer")]
Moment = Annotated[str, Kind("datetime")]
Bedrooms = Annotated[int, Kind("bedroom_count")]
AreaM2 = Annotated[float, Kind("floor_area_m2")]
AreaText = Annotated[str, Kind("floor_area_text")]
Rate = Annotated[float, Kind("interest_rate_percent")]
Term = Annotated[int, Kind("loan_term_years")]
SearchTerms = Annotated[str, Kind("property_search_terms")]

TODAY = NOW.date()
SQFT_PER_M2 = 10.7639
LISTINGS_PER_CITY = 6
VIEWING_HOURS = (8, 20)  # viewings start between 08:00 and 19:59 local time
BOOKING_HORIZON_DAYS = 60
NEAREST_RADIUS_KM = 50
PRICE_PER_M2_USD = {  # typical asking price per square metre of each gazetteer city, in US dollars
    "San Francisco": 11500, "Los Angeles": 8200, "Seattle": 7800, "Chicago": 4200, "New York": 13000,
    "Boston": 9000, "Austin": 4800, "Toronto": 8500, "Vancouver": 10500, "Mexico City": 2200,
    "Sao Paulo": 1900, "Buenos Aires": 2400, "London": 14000, "Edinburgh": 5200, "Paris": 12500, "Lyon": 5400,
    "Berlin": 6200, "Munich": 9800, "Madrid": 5200, "Barcelona": 5600, "Rome": 4800, "Milan": 6100,
    "Amsterdam": 8300, "Zurich": 16500, "Stockholm": 7900, "Cairo": 700, "Nairobi": 1300, "Cape Town": 1800,
    "Dubai": 4300, "Mumbai": 5200, "Bangalore": 1600, "Singapore": 15000, "Hong Kong": 22000,
    "Shanghai": 10500, "Tokyo": 10000, "Osaka": 6000, "Seoul": 11000, "Sydney": 9800, "Melbourne": 6800,
    "Auckland": 7300,
}
# neighbourhood → price factor; every city has all four
NEIGHBOURHOODS = {"Old Town": 1.15, "Riverside": 1.05, "Hillcrest": 0.95, "Parkside": 0.9}
PROPERTY_TYPES = {  # type → (bedrooms range, floor area range in m²)
    "studio": ((0, 0), (26, 45)), "apartment": ((1, 3), (45, 120)), "loft": ((1, 2), (60, 140)),
    "townhouse": ((2, 4), (90, 180)), "house": ((3, 5), (120, 320)),
}
AGENCIES = ["Keystone Realty", "Harbor & Vale Estates", "Crestline Properties", "Urban Nest Realty",
            "Bluegate Homes", "Northstar Property Group"]
STREETS = ["Elm Street", "Station Road", "Park Avenue", "Canal Street", "Rose Lane", "Castle Road", "Queen Street",
           "Willow Way", "Hill Road", "Garden Street", "Bay Street", "Chapel Lane"]
EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
AREA = re.compile(r"^\s*(?:about\s+)?([\d,]+(?:\.\d+)?)\s*(.*?)\s*$", re.IGNORECASE)
FEET = {"sq ft", "sqft", "sq. ft.", "sq.ft.", "square feet", "square foot", "ft2", "ft²", "sf"}
METRES = {"m2", "m²", "sqm", "sq m", "sq. m.", "square metres", "square meters", "square metre", "square meter"}


def _currency(city: str) -> str:
    return city_currency(city)


def _round_money(value: float, currency: str) -> float:
    """Prices in large-unit currencies (yen, won...) are rounded to thousands, others to whole units."""
    return float(round(value, -3 if CURRENCY_BY_CODE[currency].per_usd > 100 else 0))


@dataclass
class PropertyWorld(World):
    listings: dict[str, dict] = field(default_factory=dict)  # listing id → facts
    agents: dict[str, dict] = field(default_factory=dict)  # agent name → agency, email, phone, city
    areas: dict[str, dict] = field(default_factory=dict)  # "neighbourhood|city" → school rating, crime index
    sales: dict[str, list[dict]] = field(default_factory=dict)  # "neighbourhood|city" → recent sales

    def listing(self, listing_id: str) -> dict:
        key = listing_id.strip().upper()
        require(key in self.listings, f"unknown listing {listing_id!r}; search the listings of a city to find listing ids")
        return self.listings[key]


def _city(name: str) -> str:
    require(name in PRICE_PER_M2_USD, f"no property data for {name!r}; use a major city such as \"London\" or \"Tokyo\"")
    return name


@toolbox.world
def build_world(rng: random.Random) -> PropertyWorld:
    listings, agents, areas, sales = {}, {}, {}, {}
    pairs = [(first, last) for first in FIRST_NAMES for last in LAST_NAMES
             if FIRST_NAMES.index(first) != LAST_NAMES.index(last)]
    agent_names = rng.sample(pairs, 2 * len(CITIES))
    for c, city in enumerate(CITIES):
        country, currency = city.country, _currency(city.name)
        per_m2 = PRICE_PER_M2_USD[city.name] * CURRENCY_BY_CODE[currency].per_usd
        city_agents = []
        for k, agency in enumerate(rng.sample(AGENCIES, 2)):
            first, last = agent_names[2 * c + k]
            slug = re.sub(r"[^a-z]", "", agency.lower().replace("&", "and"))
            agents[f"{first} {last}"] = {
                "name": f"{first} {last}", "agency": agency, "city": city.name,
                "email": f"{first.lower()}.{last.lower()}@{slug}.example.com",
                "phone": phone_number(rng, city.name),
            }
            city_agents.append(f"{first} {last}")
        yield_pct = rng.uniform(2.8, 6.5)
        code = re.sub(r"[^A-Z]", "", city.name.upper())[:3]
        assert not any(k.startswith(code + "-") for k in listings), f"listing id prefix {code} is not unique"
        for hood, factor in NEIGHBOURHOODS.items():
            key = f"{hood}|{city.name}"
            areas[key] = {"school": round(rng.uniform(4.0, 9.8), 1), "crime": rng.randint(8, 85)}
            sales[key] = []
            for _ in range(5):
                area = rng.randint(40, 200)
                sales[key].append({
                    "address": f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {city.name}",
                    "price": _round_money(per_m2 * factor * area * rng.uniform(0.85, 1.12), currency),
                    "date": (TODAY - timedelta(days=rng.randint(3, 110))).isoformat(), "area": area,
                })
        for i in range(LISTINGS_PER_CITY):
            kind = rng.choice(sorted(PROPERTY_TYPES))
            (bed_lo, bed_hi), (area_lo, area_hi) = PROPERTY_TYPES[kind]
            hood = rng.choice(sorted(NEIGHBOURHOODS))
            factor = NEIGHBOURHOODS[hood]
            area = float(rng.randint(area_lo, area_hi))
            price = _round_money(per_m2 * factor * area * rng.uniform(0.88, 1.15), currency)
            listing_id = f"{code}-{101 + i}"
            bedrooms = rng.randint(bed_lo, bed_hi)
            address = f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {city.name}"
            latitude, longitude, _ = geocode(address)  # a home stands where its address geocodes, in every seed
            listings[listing_id] = {
                "id": listing_id, "city": city.name, "country": country, "currency": currency, "type": kind,
                "bedrooms": bedrooms, "area": area, "neighbourhood": hood, "price": price,
                "address": address, "latitude": latitude, "longitude": longitude,
                "rent": _round_money(price * yield_pct * rng.uniform(0.85, 1.15) / 100 / 12, currency),
                "agent": city_agents[i % 2], "days_on_market": rng.randint(1, 120),
            }
    first_two = sorted(listings)[:2]
    viewings = {
        "VW-101": {"id": "VW-101", "listing": first_two[0], "start": f"{TODAY + timedelta(days=2)}T11:00", "status": "scheduled"},
        "VW-102": {"id": "VW-102", "listing": first_two[1], "start": f"{TODAY + timedelta(days=5)}T17:30", "status": "scheduled"},
    }
    state = {"buyer_profile": {"id": "BUY-0001", "name": USER.name, "email": USER.email},  # the user's own
             "viewings": viewings}
    return PropertyWorld(state=state, listings=listings, agents=agents, areas=areas, sales=sales)


# --- value generators ---------------------------------------------------------------------

@toolbox.values_for("listing_id")
def _listing_ids(w: PropertyWorld) -> list[str]:
    return sorted(w.listings)


@toolbox.values_for("city")
def _cities(w: PropertyWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("neighbourhood")
def _neighbourhoods(w: PropertyWorld) -> list[str]:
    return list(NEIGHBOURHOODS)


@toolbox.values_for("address")
def _addresses(w: PropertyWorld) -> list[str]:
    """Addresses people give (a friend's flat, an office), never a listing's own: the home for
    sale nearest to a listing is the listing itself."""
    own = {row["address"] for row in w.listings.values()}
    found = []
    for k, city in enumerate(CITIES):
        for n, street in ((12 + k, STREETS[k % len(STREETS)]), (140 + 3 * k, STREETS[(k + 5) % len(STREETS)])):
            address = f"{n} {street}, {city.name}"
            if address not in own:
                found.append(address)
    return found


@toolbox.values_for("neighbourhood", "city")
def _areas(w: PropertyWorld) -> list[tuple[str, str]]:
    return [(hood, city.name) for city in CITIES for hood in NEIGHBOURHOODS]


@toolbox.values_for("latitude")
def _latitudes(w: PropertyWorld) -> list[float]:
    return [c.latitude for c in CITIES]


@toolbox.values_for("longitude")
def _longitudes(w: PropertyWorld) -> list[float]:
    return [c.longitude for c in CITIES]


@toolbox.values_for("latitude", "longitude")
def _points(w: PropertyWorld) -> list[tuple[float, float]]:
    """Coordinates as pairs: each city centre, where listings are."""
    return [(c.latitude, c.longitude) for c in CITIES]


@toolbox.values_for("money_amount")
def _amounts(w: PropertyWorld) -> list[float]:
    return [250000.0, 400000.0, 650000.0, 900000.0, 1200000.0]


@toolbox.values_for("person_name/agent")
def _agents(w: PropertyWorld) -> list[str]:
    return sorted(w.agents)


@toolbox.values_for("person_name", "email")
def _buyers(w: PropertyWorld) -> list[tuple[str, str]]:
    """Buyers as one name with its own email address."""
    return [(f"{first} {last}", f"{first.lower()}.{last.lower()}@example.com")
            for first, last in zip(FIRST_NAMES, LAST_NAMES, strict=True)]


@toolbox.values_for("person_name/buyer")
def _buyer_names(w: PropertyWorld) -> list[str]:
    return [name for name, _ in _buyers(w)]


@toolbox.values_for("email/buyer")
def _buyer_emails(w: PropertyWorld) -> list[str]:
    return [email for _, email in _buyers(w)]


@toolbox.values_for("datetime")
def _moments(w: PropertyWorld) -> list[str]:
    return [f"{TODAY + timedelta(days=d)}T{h:02d}:{m:02d}" for d in range(1, 11) for h in range(9, 19) for m in (0, 30)]


@toolbox.values_for("viewing_id")
def _viewing_ids(w: PropertyWorld) -> list[str]:
    return sorted(w.state.get("viewings", {}))


@toolbox.values_for("bedroom_count")
def _bedrooms(w: PropertyWorld) -> list[int]:
    return [1, 2, 3, 4]


@toolbox.values_for("floor_area_m2")
def _areas(w: PropertyWorld) -> list[float]:
    return [35.0, 55.0, 72.5, 90.0, 120.0, 150.0, 210.0]


@toolbox.values_for("floor_area_text")
def _area_texts(w: PropertyWorld) -> list[str]:
    """How people write a floor area in square feet, with various unit spellings: an area
    already in square metres needs no conversion, so converting it would be a detour."""
    forms = []
    for i, listing_id in enumerate(sorted(w.listings)[::4]):
        feet = round(w.listings[listing_id]["area"] * SQFT_PER_M2)
        forms.append([f"{feet:,} sq ft", f"{feet} square feet", f"{feet} sq. ft."][i % 3])
    return forms


@toolbox.values_for("interest_rate_percent")
def _rates(w: PropertyWorld) -> list[float]:
    return [3.5, 4.25, 5.0, 5.75, 6.5]


@toolbox.values_for("loan_term_years")
def _terms(w: PropertyWorld) -> list[int]:
    return [10, 15, 20, 25, 30]


@toolbox.values_for("property_search_terms")
def _search_terms(w: PropertyWorld) -> list[str]:
    terms = set()
    for row in w.listings.values():
        terms.add(f"{row['type']} {row['city']}".lower())
        terms.add(f"{row['neighbourhood']} {row['city']}".lower())
    return sorted(terms)


# A point found elsewhere (a museum, where I am now) has a nearest home for sale. Cities and
# addresses are not bridged: most that other seeds give (a weather report's, an author's
# birthplace, a library branch's) are no place a person looks for a home.
toolbox.bridge("latitude", "longitude")
toolbox.written_as("listing_id", "listing {}")
toolbox.written_as("viewing_id", "viewing {}")
toolbox.written_as("person_name/agent", "the estate agent {}")
toolbox.written_as("floor_area_m2", "{} m²")


@toolbox.facts_about("listing_id")
def _listing_facts(w: PropertyWorld, listing_id: str) -> dict:
    row = w.listings[listing_id]
    return {"city": row["city"], "country": row["country"], "neighbourhood": row["neighbourhood"]}


@toolbox.facts_about("viewing_id")
def _viewing_facts(w: PropertyWorld, viewing_id: str) -> dict:
    listing = w.listings[w.state["viewings"][viewing_id]["listing"]]
    return {"listing_id": listing["id"], "city": listing["city"]}


# --- listings -----------------------------------------------------------------------------

@toolbox.tool(
    # (the bedrooms before the city: after it, "the same city as listing STO-106 with at least 4
    # bedrooms" gives the listing the bedrooms: reading 44 #25)
    asks=("which homes[ with at least {min_bedrooms} bedroom(s)] are for sale in {city}? List the cheapest first.",
          "list the homes[ with {min_bedrooms} or more bedrooms] for sale in {city}, cheapest first",
          "I'm house-hunting in {city}. What's on the market[ with at least {min_bedrooms} bedroom(s)], starting with the cheapest?",
          "show me the property listings[ with {min_bedrooms} bedroom(s) or more] in {city}, sorted from the lowest price up",
          "what's for sale[ with {min_bedrooms} bedroom(s) or more] in {city}? Cheapest first, please.",
          "find homes[ offering at least {min_bedrooms} bedroom(s)] on the market in {city}, ordered by price from low to high",
          "We're relocating to {city}. Which properties are listed for sale there[ with at least {min_bedrooms} bedroom(s)], from the cheapest up?",
          "search the listings[ for places with at least {min_bedrooms} bedroom(s)] in {city} and give me the listing ids, cheapest first",
          "pull up everything[ with at least {min_bedrooms} bedroom(s)] listed for sale in {city}, lowest asking price first",
          "what homes[ with at least {min_bedrooms} bedroom(s)] are on the market in {city}? Start with the cheapest.",
          "give me the listings[ with {min_bedrooms} or more bedrooms] for sale in {city}, lowest price first",
          "which properties[ with at least {min_bedrooms} bedroom(s)] can I buy in {city}? Order them from the cheapest.",
          "find homes[ that have at least {min_bedrooms} bedroom(s)] for sale in {city}, cheapest at the top"),
    sense=(within("min_bedrooms", 1, 4),),
)
def search_property_listings(
    city: City,
    max_price: float = 0.0,  # in the city's currency: no kind, so never drawn without it
    min_bedrooms: Bedrooms = 0,
    property_type: Literal["any", "studio", "apartment", "loft", "townhouse", "house"] = "any",
) -> list[ListingId]:
    """List the homes for sale in a city, cheapest first, optionally filtered by price, bedrooms and type.

    Args:
        city: City name, e.g. "Lyon".
        max_price: Highest asking price in the city's local currency; 0 for no limit.
        min_bedrooms: Fewest bedrooms wanted (0-10).
        property_type: Type of home: "any", "studio", "apartment", "loft", "townhouse" or "house".

    Returns:
        listing_ids: the listings that match (cheapest first; may be empty).
    """
    w = world(PropertyWorld)
    _city(city)
    require(max_price >= 0, "max_price must be 0 (no limit) or a positive amount")
    require(0 <= min_bedrooms <= 10, "min_bedrooms must be between 0 and 10")
    rows = [r for r in w.listings.values() if r["city"] == city and r["bedrooms"] >= min_bedrooms
            and (not max_price or r["price"] <= max_price) and property_type in ("any", r["type"])]
    return [r["id"] for r in sorted(rows, key=lambda r: (r["price"], r["id"]))]


@toolbox.tool(
    asks=('search the property listings for "{query}"',
          'which homes for sale match "{query}"?',
          'find the listings matching "{query}"',
          'what listings come up for "{query}" in a property search?',
          'look for homes on the market matching "{query}" and give me their listing ids',
          'run a property search on "{query}" and list what it finds',
          'are there any homes for sale that fit "{query}"? List them.',
          'show me every listing that matches the keywords "{query}"',
          'I\'m browsing real estate with the search terms "{query}". Which properties match?'),
    tags=("search",),
)
def find_properties(query: SearchTerms, max_results: int = 10) -> list[ListingId]:
    """Search every listing by words in its type, bedrooms, neighbourhood, street, city or country.

    Args:
        query: Words to look for, e.g. "loft berlin" or "3 bedroom riverside"; every word must match.
        max_results: Maximum number of listing ids to return (1-50).

    Returns:
        listing_ids: the matching listings (alphabetical by id).
    """
    w = world(PropertyWorld)
    require(1 <= max_results <= 50, "max_results must be between 1 and 50")
    words = re.sub(r"[^a-z0-9 ]", " ", query.lower()).split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for listing_id, r in sorted(w.listings.items()):
        text = f"{r['type']} {r['bedrooms']} bedroom {r['neighbourhood']} {r['address']} {r['country']}".lower()
        if all(word in re.sub(r"[^a-z0-9 ]", " ", text).split() for word in words):
            hits.append(listing_id)
    return hits[:max_results]


@toolbox.tool(
    asks=("what's the address, asking price and currency, number of bedrooms and floor area of {listing_id}?",
          "get the details of {listing_id}: address, asking price and currency, bedrooms and size.",
          "tell me about {listing_id}: where is it, what does it cost and in which currency, how many bedrooms does it have and how big is it?",
          "pull up the fact sheet for {listing_id}: street address, price with currency, bedroom count and floor area in square metres.",
          "I'm interested in {listing_id}. What's the address, how much are they asking and in what currency, how many bedrooms, and how many square metres?",
          "how much is {listing_id} on the market for, in which currency, and what's its address, bedroom count and floor area?",
          "give me the key facts of {listing_id}: address, asking price, currency, bedrooms and square metres.",
          "look up {listing_id} and tell me its address, price, currency, number of bedrooms and living space",
          "what are the particulars of {listing_id}? Address, asking price and currency, bedrooms, floor area.",
          "I'm shortlisting homes this weekend. For {listing_id}, what's the street address, the price they want and its currency, the bedroom count and the floor area?",
          "My partner asked about {listing_id}. Where is it, what's the asking price and in which currency, how many bedrooms has it got, and what's the floor space?",
          "brief me on {listing_id}: address, price and currency, bedrooms, size in m².",
          "run through the headline numbers on {listing_id} for me: where it is, the asking figure with its currency, how many bedrooms and how many square metres",
          "what are the address, price with currency, bedrooms and floor area of {listing_id}?",
          "give me the address of {listing_id}, its asking price and currency, its bedrooms and its floor area",
          "how big is {listing_id}, how many bedrooms does it have, where is it, and what's the asking price in which currency?",
          "look up {listing_id}: street address, asking price, currency, bedrooms and square metres",
          "tell me the asking price and currency of {listing_id}, plus its address, bedroom count and size",
          "I saw {listing_id} online. What's the address, the asking price and currency, the number of bedrooms and the floor area?",
          "check the listing for {listing_id} and give me its address, price, currency, bedrooms and floor space",
          "tell me the address, asking price, currency, bedrooms and floor area of {listing_id}",
          "what's {listing_id} like? Give me its address, price and currency, bedrooms and size.",
          "find the street address, asking price with currency, bedroom count and floor area of {listing_id}",
          "how much is {listing_id}, in which currency, where is it, and how many bedrooms and square metres does it have?",
          "pull the listing details of {listing_id}: address, price, currency, bedrooms, floor area",
          "what are they asking for {listing_id}, in which currency, and what are its address, bedrooms and floor area?"),
    gives={"asking_price, currency_code": ("the asking price of {listing_id}",
                                           "the price tag on {listing_id}",
                                           "the list price of {listing_id}",
                                           "the price being asked for {listing_id}",
                                           "the advertised price of {listing_id}",
                                           "the sum the sellers want for {listing_id}",
                                           "the listed sale price of {listing_id}",
                                           "the amount the owners of {listing_id} are asking"),
           "asking_price": ("the asking price of {listing_id}",
                            "the price tag on {listing_id}",
                            "the list price of {listing_id}",
                            "the price being asked for {listing_id}",
                            "the advertised price of {listing_id}",
                            "the full asking amount for {listing_id}",
                            "the sum the sellers want for {listing_id}")},
)
def get_listing_details(listing_id: ListingId) -> tuple[PropertyAddress, Money, Currency, int, float]:
    """Get a listing's street address, asking price, currency, bedrooms and floor area.

    Args:
        listing_id: Listing id, e.g. "LON-103".

    Returns:
        address: the property's street address.
        asking_price: the property's asking price (in the local currency).
        currency_code: the currency of the asking price (ISO 4217).
        bedrooms: the property's number of bedrooms.
        floor_area_m2: the property's floor area (square metres).
    """
    r = world(PropertyWorld).listing(listing_id)
    return r["address"], r["price"], r["currency"], r["bedrooms"], r["area"]


@toolbox.tool(
    asks=("where exactly is {listing_id}? Give me its coordinates, city and neighbourhood.",
          "find the coordinates, city and neighbourhood of {listing_id}",
          "pin down {listing_id} for me: latitude, longitude, city and neighbourhood.",
          "I want to see {listing_id} on a map. What are its latitude and longitude, and which neighbourhood and city is it in?",
          "locate {listing_id}: which part of which city is it in, and what are its GPS coordinates?",
          "get the latitude and longitude of {listing_id}, along with its neighbourhood and city",
          "tell me the latitude and longitude of {listing_id}, plus the neighbourhood and city it's in",
          "I'm plotting {listing_id} on my commute map. Which neighbourhood and city is it in, and what are its exact coordinates?",
          "where exactly is {listing_id}? Coordinates, neighbourhood and city, please.",
          "what are the coordinates of {listing_id}, and which city and neighbourhood is it in?",
          "tell me where {listing_id} is: latitude, longitude, neighbourhood and city",
          "look up the location of {listing_id} with its coordinates, neighbourhood and city",
          "in which neighbourhood and city is {listing_id}, and at what latitude and longitude?",
          "give me the map coordinates of {listing_id} together with its neighbourhood and city",
          "where is {listing_id} on the map? Give me the latitude, longitude, neighbourhood and city.",
          "find the neighbourhood, city and coordinates of {listing_id}",
          "look up the latitude and longitude of {listing_id} and the neighbourhood and city it belongs to"),
    gives={"city": ("the city {listing_id} is in",
                    "the city where {listing_id} is located",
                    "the same city as {listing_id}",
                    "the city of {listing_id}",
                    "the city where {listing_id} is on the market",
                    "the city that {listing_id} belongs to",
                    "the city I'd be moving to if I bought {listing_id}",
                    "the city where {listing_id} sits",
                    "the city in which {listing_id} is being sold"),
           "neighbourhood, city": ("the neighbourhood of {listing_id}",
                                   "the neighbourhood around {listing_id}",
                                   "the neighbourhood surrounding {listing_id}",
                                   "the area around {listing_id}",
                                   "the neighbourhood {listing_id} is in",
                                   "the part of town around {listing_id}",
                                   "the local area of {listing_id}",
                                   "the district {listing_id} sits in")},
)
def get_listing_location(listing_id: ListingId) -> tuple[ListingLatitude, ListingLongitude, City, Neighbourhood]:
    """Get the map coordinates, city and neighbourhood of a listing.

    Args:
        listing_id: Listing id.

    Returns:
        latitude: the property's latitude (decimal degrees).
        longitude: the property's longitude (decimal degrees).
        city: the city the property is in.
        neighbourhood: the neighbourhood the property is in.
    """
    r = world(PropertyWorld).listing(listing_id)
    return r["latitude"], r["longitude"], r["city"], r["neighbourhood"]


@toolbox.tool(
    asks=("who is the agent selling {listing_id}, and which agency do they work for?",
          "find the estate agent and agency handling {listing_id}",
          "which agent handles {listing_id}, and at what agency?",
          "who's the listing agent for {listing_id}, and what firm are they with?",
          "I have some questions about {listing_id}. Who's the agent, and which agency are they from?",
          "look up which agent and which agency are marketing {listing_id}",
          "get the name of the agent for {listing_id} and the agency they work at",
          "which estate agency has {listing_id} on its books, and which of its agents is in charge of it?",
          "Whose name is on the for-sale board for {listing_id}? I need the agent and the agency they work for.",
          "I'd like to make an offer on {listing_id}. Which agent do I deal with, and at which firm?",
          "who's representing the seller of {listing_id}, and which agency employs them?",
          "who's the estate agent for {listing_id}, and which agency is that?",
          "tell me the agent and the agency behind {listing_id}",
          "which agency is selling {listing_id}, and who's the agent there?",
          "find out who markets {listing_id}: the agent's name and their agency",
          "I want to ask about {listing_id}. Which agent should I contact, and at which agency?",
          "give me the name and the agency of the agent handling {listing_id}",
          "who do I speak to about {listing_id}? I need the agent and the agency.",
          "look up the listing agent of {listing_id} and the agency they're with",
          "which agent has {listing_id} on their books, and for which agency?",
          "name the agent and agency in charge of selling {listing_id}",
          "which agent is in charge of {listing_id}, and at which agency?",
          "who is handling {listing_id}, and for what agency?",
          "tell me the name of the agent for {listing_id} and the agency they belong to",
          "for {listing_id}, find the agent and their agency",
          "who is marketing {listing_id}? Give me the agent and the agency.",
          "look up who's selling {listing_id}: the agent and the agency",
          "I'd like to contact the agent for {listing_id}. Who is it, and which agency?"),
    gives={"agent_name": ("the agent selling {listing_id}",
                          "the estate agent handling {listing_id}",
                          "the listing agent for {listing_id}",
                          "the agent in charge of {listing_id}",
                          "the agent marketing {listing_id}",
                          "the agent representing the seller of {listing_id}",
                          "whoever is handling the sale of {listing_id}",
                          "the estate agent responsible for {listing_id}")},
)
def get_listing_agent(listing_id: ListingId) -> tuple[Agent, str]:
    """Find the estate agent who handles a listing, and their agency.

    Args:
        listing_id: Listing id.

    Returns:
        agent_name: the listing agent.
        agency: the agency the listing agent works for.
    """
    w = world(PropertyWorld)
    agent = w.agents[w.listing(listing_id)["agent"]]
    return agent["name"], agent["agency"]


@toolbox.tool(
    asks=("how can I reach {agent_name}? I need an email address and a phone number.",
          "get the email address and phone number of {agent_name}",
          "find the contact details of {agent_name}, both email and phone",
          "what's the email and direct line of {agent_name}?",
          "I'd like to get in touch with {agent_name}. What are their email address and phone number?",
          "look up how to contact {agent_name} by email and by phone",
          "give me a phone number and an email for {agent_name}",
          "what number can I call {agent_name} on, and what's their email?",
          "pull up the email address and phone number on file for {agent_name}",
          "I want to chase {agent_name} about an offer. Which email and phone number should I use?",
          "what's the best email and phone for getting hold of {agent_name}?",
          "dig out the email address and telephone number for {agent_name}",
          "I've got a paperwork question for {agent_name}. What are their email and phone number?"),
)
def get_agent_contact(agent_name: Agent) -> tuple[AgentEmail, AgentPhone]:
    """Get an estate agent's email address and phone number.

    Args:
        agent_name: The agent's full name, e.g. "Maria Smith".

    Returns:
        email: the agent's email address.
        phone_number: the agent's direct phone number.
    """
    w = world(PropertyWorld)
    name = " ".join(agent_name.split())
    match = next((a for n, a in w.agents.items() if n.lower() == name.lower()), None)
    require(match is not None, f"no estate agent named {agent_name!r}; find the agent of a listing first")
    return match["email"], match["phone"]


@toolbox.tool(
    asks=("which home for sale is nearest to {point}, and how far away is it?",
          "find the listing closest to {point} and its distance",
          "what's the nearest property on the market to {point}? Tell me how far away it is.",
          "is there a home for sale near {point}? Give me the closest one and the distance in kilometres.",
          "I want to live close to {point}. Which listing is nearest, and how many kilometres away is it?",
          "look up the closest property listing to {point}, with the distance",
          "how far is the nearest home for sale from {point}, and which listing is it?",
          "get me the listing closest to {point}, and how far away it is",
          "what's for sale closest to {point}? I need the listing and how far it is."),
    gives={"listing_id": ("the home for sale nearest to {point}",
                          "the listing closest to {point}",
                          "the nearest property on the market to {point}",
                          "the closest listing to {point}",
                          "the property for sale that's closest to {point}",
                          "whichever listing sits nearest to {point}",
                          "the home I could buy nearest to {point}",
                          "the listed home closest to {point}",
                          "the closest available home to {point}",
                          "the property on sale nearest to {point}",
                          "the house or flat for sale closest to {point}",
                          "the nearest place for sale to {point}",
                          "the home for sale closest to {point}",
                          "the nearest listed property to {point}",
                          "the listing nearest {point}",
                          "the property on the market nearest to {point}")},
    groups={"point": "{latitude}, {longitude}"},
)
def find_nearest_listing(latitude: Latitude, longitude: Longitude) -> tuple[ListingId, float]:
    """Find the home for sale nearest to a point on the map (within 50 km), and how far away it is.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        listing_id: the nearest listing.
        distance_km: the straight-line distance to the nearest listing (kilometres, 2 decimals).
    """
    w = world(PropertyWorld)
    require(-90 <= latitude <= 90, "latitude must be between -90 and 90")
    require(-180 <= longitude <= 180, "longitude must be between -180 and 180")
    best = min(sorted(w.listings.values(), key=lambda r: r["id"]),
               key=lambda r: distance_km(latitude, longitude, r["latitude"], r["longitude"]))
    km = round(distance_km(latitude, longitude, best["latitude"], best["longitude"]), 2)
    require(km <= NEAREST_RADIUS_KM, f"no home for sale within {NEAREST_RADIUS_KM} km of ({latitude}, {longitude}); "
                                     f"the nearest is {best['id']} in {best['city']}, {km:.0f} km away")
    return best["id"], km


@toolbox.tool(
    asks=("what are the map coordinates of {address}?",
          "find the latitude and longitude of {address}",
          "where is {address} on the map? Give me its coordinates.",
          "geocode {address} into latitude and longitude",
          "I need the GPS coordinates for {address}.",
          "what latitude and longitude does {address} sit at?",
          "look up the exact coordinates of {address}",
          "can you place {address} on the map? I'd like its latitude and longitude.",
          "turn the address {address} into map coordinates"),
    gives={"latitude, longitude": "{address}"},  # people name the address; placing it is the agent's part
    tags=("canonicalise",),
)
def geocode_property_address(address: Address) -> tuple[Latitude, Longitude]:
    """Turn a one-line street address in a covered city into map coordinates.

    Args:
        address: Street address ending with the city, e.g. "12 Elm Street, Paris".

    Returns:
        latitude: the address's latitude (decimal degrees).
        longitude: the address's longitude (decimal degrees).
    """
    latitude, longitude, _ = geocode(address)  # the map's own geocoder: one point per address in every seed
    return latitude, longitude


# --- prices and valuation -------------------------------------------------------------------

@toolbox.tool(
    asks=("what's the asking price per square metre of {listing_id}, and in which currency?",
          "work out the price per square metre of {listing_id} and its currency",
          "how much per square metre is {listing_id} asking, in what currency?",
          "is {listing_id} expensive for its size? Give me the price per square metre and the currency.",
          "calculate what {listing_id} costs per m², with the currency",
          "what does each square metre of {listing_id} cost at the asking price? Say which currency.",
          "I compare homes by price per square metre. What's the figure for {listing_id}, and in what currency?",
          "find the cost per square metre of {listing_id} and name the currency",
          "get the price-per-square-metre figure for {listing_id}, with its currency",
          "I'm weighing {listing_id} against a couple of other places. Divide its asking price by its floor area: what's that per square metre, and in what currency?",
          "quote me the cost per m² of {listing_id} along with the currency",
          "is {listing_id} good value per square metre? Tell me its price per m² and the currency it's in.",
          "break the asking price of {listing_id} down per square metre and say which currency"),
    # The asking price over the floor area, both in the listing's details: a division, no look-up.
    tags=("self_evident",),
)
def get_price_per_square_metre(listing_id: ListingId) -> tuple[float, str]:
    """Work out a listing's asking price per square metre of floor area.

    Args:
        listing_id: Listing id.

    Returns:
        price_per_m2: the asking price per square metre (local currency, rounded to whole units).
        currency_code: the currency of the price (ISO 4217).
    """
    r = world(PropertyWorld).listing(listing_id)
    return float(round(r["price"] / r["area"])), r["currency"]


@toolbox.tool(
    asks=("how's the housing market in {city}? Give me the median price per square metre, its currency and how many homes are listed.",
          "get the housing market summary of {city}: median price per square metre with currency, and active listings.",
          "what do homes in {city} cost per square metre (median, and in which currency), and how many are for sale?",
          "I'm considering a move to {city}. What's the median asking price per square metre there, in what currency, and how many homes are on the market?",
          "summarise the property market in {city}: median asking price per m², currency and number of listings.",
          "how many homes are listed in {city}, and what's the median price per square metre there, in which currency?",
          "give me a snapshot of real estate in {city} with the median price per square metre, the currency and the listing count",
          "pull the market stats for {city}: how many properties are for sale and their median price per square metre, with the currency.",
          "is {city} an expensive place to buy? Tell me the median asking price per square metre, its currency, and the number of active listings.",
          "We might buy a holiday flat in {city}. What's the typical asking price per square metre there (the median), in which currency, and how many homes are up for sale?",
          "gauge the property market in {city}: count the active listings and state the median price per m² with its currency",
          "For a relocation brief on {city}, I need the number of homes for sale, the median asking price per square metre and the currency it's quoted in."),
)
def get_city_market_summary(city: City) -> tuple[float, str, int]:
    """Summarise a city's housing market: median asking price per square metre, its currency and how many homes are listed.

    Args:
        city: City name, e.g. "Melbourne".

    Returns:
        median_price_per_m2: the median asking price per square metre (local currency, whole units).
        currency_code: the city's currency (ISO 4217).
        active_listings: the number of homes listed for sale.
    """
    w = world(PropertyWorld)
    _city(city)
    rows = [r for r in w.listings.values() if r["city"] == city]
    return float(round(statistics.median(r["price"] / r["area"] for r in rows))), _currency(city), len(rows)


@toolbox.tool(
    asks=("how good are the schools in {area}, and how safe is it?",
          "get the school rating and crime index of {area}",
          "is {area} safe, with good schools? Give me the school rating and the crime index.",
          "We have two kids. What's the school rating in {area}, and what's the crime index there?",
          "look up the school rating and crime figures for {area}",
          "what's it like to live in {area}? I need the average school rating and the crime index.",
          "check how {area} scores on schools and on crime",
          "how do schools rate in {area}, and how high is crime there?",
          "give me the school rating and crime level for {area}.",
          "We're deciding where to buy. How does {area} score for school quality and for crime?",
          "My daughter starts secondary school next year. What's the average school rating in {area}, and how does it do on the crime index?",
          "rate {area} for me on schools and safety: the school rating and the crime index"),
    groups={"area": "{neighbourhood} in {city}"},  # a neighbourhood is only ever of its own city
)
def get_neighbourhood_stats(neighbourhood: Neighbourhood, city: City) -> tuple[float, int]:
    """Get the average school rating and the crime index of a neighbourhood of a city.

    Args:
        neighbourhood: Neighbourhood name: "Old Town", "Riverside", "Hillcrest" or "Parkside".
        city: City name.

    Returns:
        school_rating: the average rating of the neighbourhood's schools (1-10, higher is better).
        crime_index: the neighbourhood's crime index (0-100, lower is safer).
    """
    w = world(PropertyWorld)
    _city(city)
    require(neighbourhood in NEIGHBOURHOODS,
            f"unknown neighbourhood {neighbourhood!r}; every city has {', '.join(NEIGHBOURHOODS)}")
    row = w.areas[f"{neighbourhood}|{city}"]
    return row["school"], row["crime"]


@toolbox.tool(
    asks=("what is a home in {city} with {floor_area_m2} and {bedrooms} bedroom(s) worth, and in which currency?",
          "estimate the market value of a {bedrooms}-bedroom home of {floor_area_m2} in {city}, and give the currency",
          "I'm thinking of selling a {bedrooms}-bedroom place of {floor_area_m2} in {city}. What's it worth, and in what currency?",
          "value a {floor_area_m2} property with {bedrooms} bedroom(s) in {city} and say which currency the figure is in",
          "how much would a {bedrooms}-bedroom flat of {floor_area_m2} in {city} sell for? Include the currency.",
          "what could I get for a home in {city} with {bedrooms} bedroom(s) and {floor_area_m2} of floor space, and in what currency?",
          "give me a rough valuation, with its currency, of a home in {city} that has {bedrooms} bedroom(s) and {floor_area_m2} of living space",
          "My family owns a {bedrooms}-bedroom home of {floor_area_m2} in {city}. Roughly what is it worth, and in which currency?",
          "what's the estimated market price of a {bedrooms}-bedroom, {floor_area_m2} home in {city}? Say which currency."),
    gives={"estimated_value, currency_code": ("the estimated value of a {bedrooms}-bedroom home of {floor_area_m2} in {city}",
                                              "the market value of a {bedrooms}-bedroom, {floor_area_m2} home in {city}",
                                              "the likely sale price of a {bedrooms}-bedroom place of {floor_area_m2} in {city}",
                                              "the valuation of a {floor_area_m2} home with {bedrooms} bedroom(s) in {city}"),
           "estimated_value": ("the estimated value of a {bedrooms}-bedroom home of {floor_area_m2} in {city}",
                               "the market value of a {bedrooms}-bedroom, {floor_area_m2} home in {city}",
                               "the likely sale price of a {bedrooms}-bedroom place of {floor_area_m2} in {city}",
                               "the valuation of a {floor_area_m2} home with {bedrooms} bedroom(s) in {city}")},
    sense=(within("bedrooms", 1, 5), within("floor_area_m2", 20, 400),
           sensible("rooms fit the floor area", ("floor_area_m2", "bedrooms"),
                    lambda a: 22 * max(1, a["bedrooms"]) <= a["floor_area_m2"] <= 90 * (a["bedrooms"] + 1))),
)
def estimate_property_value(city: ValuedCity, floor_area_m2: AreaM2, bedrooms: Bedrooms) -> tuple[Money, Currency]:
    """Estimate the market value of a home from its city, floor area and bedrooms.

    Args:
        city: City name.
        floor_area_m2: Floor area in square metres (10-2000).
        bedrooms: Number of bedrooms (0-10).

    Returns:
        estimated_value: the estimated market value (local currency).
        currency_code: the currency of the estimate (ISO 4217).
    """
    _city(city)
    require(10 <= floor_area_m2 <= 2000, "floor_area_m2 must be between 10 and 2000 square metres")
    require(0 <= bedrooms <= 10, "bedrooms must be between 0 and 10")
    currency = _currency(city)
    per_m2 = PRICE_PER_M2_USD[city] * CURRENCY_BY_CODE[currency].per_usd
    return _round_money(per_m2 * floor_area_m2 * (1 + 0.02 * bedrooms), currency), currency


@toolbox.tool(
    asks=("how big is {area} in square metres and in square feet?",
          "convert the floor area {area} into square metres and square feet",
          "what is {area} in both square metres and square feet?",
          "a listing says {area}. How much is that in square metres and in square feet?",
          "express {area} in m² and in sq ft",
          "I never know how to read floor areas. What is {area} in square metres, and in square feet?",
          "how many square metres and how many square feet is {area}?",
          "translate a floor area of {area} into square metres and square feet",
          "what does {area} come to in square metres, and in square feet?"),
    gives={"floor_area_m2": "{area}"},  # people give the area as they read it; converting it is the agent's part
    tags=("canonicalise", "arithmetic", "self_evident"),  # square feet to square metres: a careful person can work it out
)
def convert_floor_area(area: AreaText) -> tuple[AreaM2, float]:
    """Read a floor area written in square feet or square metres and give it in both units.

    Args:
        area: Floor area with its unit, e.g. "1,250 sq ft", "850 square feet", "95 m²" or "72 sqm".

    Returns:
        floor_area_m2: the converted area in square metres (1 decimal).
        floor_area_sqft: the converted area in square feet (whole number).
    """
    match = AREA.match(area)
    require(match is not None, f"cannot read {area!r}: write a number and a unit, e.g. \"1,250 sq ft\" or \"95 m²\"")
    value = float(match.group(1).replace(",", ""))
    unit = match.group(2).lower().rstrip(".") if match.group(2) else ""
    require(value > 0, "the floor area must be greater than 0")
    if unit in FEET or unit + "." in FEET:
        return round(value / SQFT_PER_M2, 1), float(round(value))
    require(unit in METRES or unit + "." in METRES,
            f"unknown unit {match.group(2)!r}; use square feet (\"sq ft\") or square metres (\"m²\")")
    return round(value, 1), float(round(value * SQFT_PER_M2))


@toolbox.tool(
    asks=("what have comparable homes near {listing_id} sold for lately? Give me their addresses, the median price and the latest sale date.",
          "find recent comparable sales for {listing_id}: addresses, median sale price and latest sale date.",
          "which similar homes in the neighbourhood of {listing_id} sold recently, at what median price, and when was the last sale?",
          "pull the comparable sales for {listing_id}: the addresses sold, their median price and the date of the most recent sale.",
          "I want to know if {listing_id} is fairly priced. Which homes nearby sold recently, at what median price, and when was the latest sale?",
          "show me recent sales in the same neighbourhood as {listing_id} with the addresses, the median sale price and the newest sale date",
          "look up what homes around {listing_id} went for recently: list the addresses and give me the median price and the date of the latest sale.",
          "what did nearby homes similar to {listing_id} fetch lately? Addresses, median price, most recent sale date.",
          "get the comparable-sales report for {listing_id}, with addresses, median price and latest sale date",
          "I'm about to make an offer on {listing_id}. What have similar homes in that neighbourhood sold for? I want the addresses, the median sale price and the most recent sale date.",
          "The valuer wants comparable sales for {listing_id}: the addresses, their median sale price and the date of the newest sale."),
)
def get_comparable_sales(listing_id: ListingId) -> tuple[list[str], float, str]:
    """Find homes recently sold in the same neighbourhood as a listing, their median price and the latest sale date.

    Args:
        listing_id: Listing id.

    Returns:
        comparable_addresses: the addresses of the comparable homes sold (most recent first).
        median_sale_price: the median sale price of the comparable homes (local currency).
        latest_sale_date: the date of the most recent comparable sale (YYYY-MM-DD).
    """
    w = world(PropertyWorld)
    r = w.listing(listing_id)
    sold = sorted(w.sales[f"{r['neighbourhood']}|{r['city']}"], key=lambda s: (s["date"], s["address"]), reverse=True)
    return [s["address"] for s in sold], float(statistics.median(s["price"] for s in sold)), sold[0]["date"]


@toolbox.tool(
    asks=("what gross rental yield would {listing_id} give, and what monthly rent could it fetch?",
          "work out the rental yield and monthly rent of {listing_id}",
          "if I bought {listing_id} to let, what monthly rent and gross yield could I expect?",
          "is {listing_id} a good buy-to-let? Give me the expected monthly rent and the gross yield.",
          "how much would {listing_id} rent for each month, and what yield does that make at the asking price?",
          "estimate the monthly rent of {listing_id} and its gross yield as an investment",
          "I'm looking at {listing_id} as a rental investment. What rent per month and what gross yield would it bring in?",
          "calculate the gross yield of {listing_id} at its asking price, together with the rent it would earn per month",
          "what return would {listing_id} make as a rental? I'd like the monthly rent and the gross yield.",
          "as a landlord, would {listing_id} pay its way? Estimate the monthly rent and the gross yield at the asking price.",
          "run the buy-to-let numbers on {listing_id}: rent per month and gross yield",
          "what could a tenant be charged each month for {listing_id}, and what gross yield would that give me?"),
)
def get_rental_yield(listing_id: ListingId) -> tuple[float, float]:
    """Work out the gross rental yield of a listing at its asking price, from the rent it would fetch.

    Args:
        listing_id: Listing id.

    Returns:
        gross_yield: the gross rental yield (percent a year, 2 decimals).
        monthly_rent: the estimated monthly rent (local currency).
    """
    r = world(PropertyWorld).listing(listing_id)
    return round(r["rent"] * 12 / r["price"] * 100, 2), r["rent"]


@toolbox.tool(
    asks=("what would the monthly repayment be on a {annual_rate_percent}% mortgage of {principal} over {term_years} year(s), and how much interest would I pay in total?",
          "work out the monthly payment and total interest of a {term_years}-year mortgage at {annual_rate_percent}% on {principal}",
          "I'd borrow {principal} over {term_years} year(s) at {annual_rate_percent}%. What are the monthly repayments and the total interest?",
          "if I take out a {term_years}-year loan of {principal} at {annual_rate_percent}% interest, how much will I pay each month and how much interest overall?",
          "calculate the repayments if I borrow {principal} at {annual_rate_percent}% for {term_years} year(s): monthly amount and total interest.",
          "what does a mortgage of {principal} cost per month at {annual_rate_percent}% over {term_years} year(s), and what's the total interest bill?",
          "run the mortgage numbers for borrowing {principal} at {annual_rate_percent}% for {term_years} year(s): monthly payment and total interest.",
          "My bank is offering {annual_rate_percent}% over {term_years} year(s) on a loan of {principal}. What would I repay monthly, and how much interest in all?",
          "with a fixed rate of {annual_rate_percent}% and a {term_years}-year term, what's the monthly payment on {principal}, and the total interest?",
          "The broker quoted me {annual_rate_percent}% fixed for {term_years} year(s) on {principal}. What would the monthly instalment be, and the total interest over the life of the loan?",
          "amortise a loan of {principal} at {annual_rate_percent}% a year over {term_years} year(s): monthly repayment and lifetime interest",
          "I'm weighing up a loan of {principal} at {annual_rate_percent}% across {term_years} year(s). What will it cost each month, and what's the interest in total?"),
    sense=(within("annual_rate_percent", 0.5, 12), within("term_years", 5, 35)),
)
def calculate_mortgage_payment(principal: Money, annual_rate_percent: Rate, term_years: Term) -> tuple[float, float]:
    """Work out the monthly repayment and total interest of a fixed-rate repayment mortgage.

    Args:
        principal: Amount borrowed, greater than 0 (any currency; results are in the same currency).
        annual_rate_percent: Yearly interest rate in percent (0-25), e.g. 4.5.
        term_years: Length of the mortgage in years (1-40).

    Returns:
        monthly_payment: the monthly repayment (2 decimals).
        total_interest: the interest paid over the whole term (2 decimals).
    """
    require(principal > 0, "principal must be greater than 0")
    require(0 <= annual_rate_percent <= 25, "annual_rate_percent must be between 0 and 25")
    require(1 <= term_years <= 40, "term_years must be between 1 and 40")
    months = term_years * 12
    rate = annual_rate_percent / 100 / 12
    payment = principal / months if rate == 0 else principal * rate / (1 - (1 + rate) ** -months)
    return round(payment, 2), round(payment * months - principal, 2)


# --- viewings -------------------------------------------------------------------------------

def _moment(text: str) -> datetime:
    try:
        moment = datetime.strptime(text, "%Y-%m-%dT%H:%M")
    except ValueError:
        raise ToolError(f"time {text!r} is not in YYYY-MM-DDTHH:MM format") from None
    return moment


@toolbox.tool(
    asks=("book a viewing of {listing_id} for {start_time} and tell me the viewing id and who will show it",
          "I'd like to see {listing_id}. Book me a viewing for {start_time} and tell me the viewing id and the agent.",
          "arrange a viewing of {listing_id} for {start_time}; what's the viewing id, and which agent will be there?",
          "schedule a visit to {listing_id} for {start_time}, and give me the viewing reference and the agent's name",
          "I'd like to look round {listing_id}. Could you book it for {start_time} and tell me the viewing id and the agent?",
          "put me down for a viewing of {listing_id} for {start_time}; which agent is showing it, and what's the viewing id?",
          "reserve a slot to view {listing_id} for {start_time} and let me know the viewing reference and the agent's name",
          "set up a showing of {listing_id} for {start_time}. Who's the agent, and what's the viewing id?",
          "get me in to see {listing_id}, booked for {start_time}, and tell me the viewing id and the agent meeting me there",
          "{start_time} works for me. Book a viewing of {listing_id} and tell me the booking reference and which agent I'll meet.",
          "pencil in a viewing of {listing_id} for {start_time} and tell me the reference number and the agent who'll be there",
          "I'm flying in to look at homes. Could you fix up a viewing of {listing_id} for {start_time}? Send me the viewing id and the agent's name.",
          "lock in a walk-through of {listing_id} for {start_time}, and let me know the reference and who's conducting it",
          "organise an in-person tour of {listing_id} for {start_time}, and let me have the viewing number and the name of the agent showing it",
          "Can I get a look round {listing_id} booked for {start_time}? I'll need the viewing id and the name of the agent.",
          "secure a viewing slot at {listing_id} for {start_time}, and tell me the booking id and the agent",
          "Before I decide on {listing_id}, I want to see it in person. Book {start_time} and tell me the viewing id and the agent.",
          "The photos of {listing_id} look promising. Arrange a visit for {start_time} and tell me the viewing id and who will show me around.",
          "line up a viewing of {listing_id} for {start_time} and come back to me with the viewing reference and the agent's name",
          "can you book me a viewing of {listing_id} for {start_time}? Tell me the viewing id and the agent's name.",
          "arrange for me to see {listing_id}, booked for {start_time}, and tell me the viewing id and the agent",
          "schedule a viewing of {listing_id} for {start_time}; I need the viewing id and the name of the agent.",
          "set up a viewing of {listing_id} for {start_time} and tell me the reference and the agent who'll show me round",
          "book a viewing at {listing_id} for {start_time}; tell me the viewing id and which agent will show me round",
          "make a viewing appointment at {listing_id} for {start_time} and give me the viewing id and the agent's name",
          "get a viewing of {listing_id} booked for {start_time}, and tell me the viewing reference and the agent",
          "please arrange to view {listing_id} for {start_time}; I need the viewing id and who the agent is."),
    gives={"agent_name": ("the agent showing {listing_id} at the viewing booked for {start_time}",
                          "the agent taking the viewing of {listing_id} booked for {start_time}",
                          "the agent who will show me round {listing_id} at the viewing for {start_time}",
                          "the estate agent hosting my viewing of {listing_id} booked for {start_time}")},
    sense=(around("start_time", before=0, after=30),),
    requires=("buyer_profile",),
    tags=("state_change",),
)
def schedule_property_viewing(listing_id: ListingId, start_time: Moment) -> tuple[str, Agent]:
    """Book a viewing of a listing with its agent; needs a buyer profile.

    Args:
        listing_id: Listing id.
        start_time: Viewing start in local time, YYYY-MM-DDTHH:MM, between 08:00 and 19:59, within the next 60 days.

    Returns:
        viewing_id: the booked viewing (its viewing id).
        agent_name: the agent who will show the property.
    """
    w = world(PropertyWorld)
    r = w.listing(listing_id)
    moment = _moment(start_time)
    require(bool(w.state.get("buyer_profile")),
            "viewings need a buyer profile: create a buyer profile with your name and email first")
    require(moment > NOW, f"{start_time} is in the past; pick a time after {NOW:%Y-%m-%dT%H:%M}")
    require(moment <= NOW + timedelta(days=BOOKING_HORIZON_DAYS),
            f"viewings can be booked at most {BOOKING_HORIZON_DAYS} days ahead")
    require(VIEWING_HOURS[0] <= moment.hour < VIEWING_HOURS[1], "viewings start between 08:00 and 19:59")
    viewings = w.state.setdefault("viewings", {})
    clash = [v["id"] for v in viewings.values()
             if v["listing"] == r["id"] and v["start"] == start_time and v["status"] == "scheduled"]
    require(not clash, f"{r['id']} already has a viewing at {start_time} ({clash[0] if clash else ''}); pick another time")
    viewing_id = f"VW-{101 + len(viewings)}"
    viewings[viewing_id] = {"id": viewing_id, "listing": r["id"], "start": start_time, "status": "scheduled"}
    return viewing_id, r["agent"]


@toolbox.tool(
    asks=("which property viewings do I have coming up?",
          "list my upcoming property viewings, soonest first",
          "show me the viewings I've booked",
          "what house viewings are on my schedule?",
          "remind me which property viewings I still have scheduled",
          "do I have any home viewings booked? List them in date order.",
          "I've lost track of my viewings. Which ones are still scheduled?",
          "pull up my scheduled property viewings, earliest first",
          "what viewings have I got lined up with estate agents?"),
)
def list_property_viewings() -> list[ViewingId]:
    """List the buyer's scheduled viewings that have not been cancelled, soonest first.

    Returns:
        viewing_ids: the scheduled viewings (viewing ids, soonest first).
    """
    viewings = world(PropertyWorld).state.get("viewings", {})
    rows = [v for v in viewings.values() if v["status"] == "scheduled"]
    return [v["id"] for v in sorted(rows, key=lambda v: (v["start"], v["id"]))]


@toolbox.tool(
    asks=("cancel {viewing_id}, confirm its status and tell me which listing it was for",
          "I can't make {viewing_id}. Cancel it, confirm it's cancelled and remind me which property it was.",
          "call off {viewing_id}; which listing was that, and is it cancelled now?",
          "take {viewing_id} off my schedule and tell me which listing it was for and its status now",
          "Something came up, so I need to cancel {viewing_id}. Which home was it for, and what's its status?",
          "scrap {viewing_id} and let me know the listing it was for and whether the cancellation went through",
          "get {viewing_id} cancelled; what's its status now, and which listing was it for?",
          "can {viewing_id} be cancelled? Tell me the status afterwards and the listing it was for.",
          "My plans have changed, so please drop {viewing_id}. Confirm the cancellation status and remind me which listing it was.",
          "pull out of {viewing_id} for me and say which property it was for and what state the booking is in now"),
    gives={"listing_id": ("the listing {viewing_id} was for",
                          "the property {viewing_id} was booked for",
                          "the home I was going to see at {viewing_id}")},
    tags=("state_change", "ends"),
)
def cancel_property_viewing(viewing_id: ViewingId) -> tuple[str, ListingId]:
    """Cancel a scheduled viewing.

    Args:
        viewing_id: Id of the viewing to cancel, e.g. "VW-101".

    Returns:
        viewing_status: the viewing's status after the request.
        listing_id: the listing the viewing was for.
    """
    viewings = world(PropertyWorld).state.get("viewings", {})
    key = viewing_id.strip().upper()
    require(key in viewings, f"unknown viewing {viewing_id!r}; list your viewings to see their ids")
    require(viewings[key]["status"] == "scheduled", f"viewing {key} is already cancelled")
    viewings[key]["status"] = "cancelled"
    return "cancelled", viewings[key]["listing"]


@toolbox.tool(
    asks=("set up a buyer profile for {full_name} with the email {email}, and give me the profile id",
          "create my buyer profile: name {full_name}, email {email}; what's my buyer id?",
          "I'm house-hunting. Register me as a buyer, {full_name}, reachable at {email}, and tell me my buyer id.",
          "open a buyer account for {full_name} ({email}) and tell me the id it gets",
          "My name is {full_name} and my email is {email}. Can you create a buyer profile for me and give me its id?",
          "register {full_name} as a buyer with the email address {email} and send me back the buyer id",
          "make a buyer profile in the name of {full_name}, email {email}, and let me know the id",
          "sign me up as a property buyer under {full_name}, {email}; which buyer id did I get?",
          "put me on file as a home buyer: {full_name}, {email}. What's the profile id?"),
    groups={"buyer": "{full_name}, {email}"},  # one person's name and email
    tags=("state_change",),
)
def create_buyer_profile(full_name: BuyerName, email: BuyerEmail) -> str:
    """Create (or replace) the buyer profile that agents see when a viewing is booked.

    Args:
        full_name: The buyer's full name, e.g. "Jane Doe".
        email: The buyer's email address, e.g. "jane.doe@example.com".

    Returns:
        buyer_id: the id of the buyer profile.
    """
    w = world(PropertyWorld)
    require(len(full_name.split()) >= 2, "full_name must give a first and a last name")
    require(bool(EMAIL.match(email.strip())), f"{email!r} is not a valid email address")
    buyer_id = f"BUY-{zlib.crc32(email.strip().lower().encode()) % 10000:04d}"
    w.state["buyer_profile"] = {"id": buyer_id, "name": " ".join(full_name.split()), "email": email.strip().lower()}
    return buyer_id


toolbox.condition(
    "buyer_profile",
    holds=lambda w: bool(w.state.get("buyer_profile")),
    broken_state={"buyer_profile": None, "viewings": {}},  # no profile, so no viewing booked either
    fix=("create_buyer_profile", {"full_name": USER.name, "email": USER.email}),
    consent="share",  # agents see the profile: it is set up only with the buyer's word
    context=("If I need a buyer profile, set one up: {full_name}, {email}.",
             "Register me as a buyer if that's required (I'm {full_name}, {email}).",
             "Should the agency want a buyer profile, create it for {full_name} at {email}."),
    says=("I haven't set up a buyer profile yet.",
          "I don't have a buyer profile with the agency.",
          "I'm not registered as a buyer yet."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------

toolbox.goal(
    "see a home near a place",
    wants="find the home for sale nearest to an address, learn about it and arrange to see it",
    role="buyer",
    tools=("geocode_property_address", "find_nearest_listing", "get_listing_details", "get_listing_location",
           "get_neighbourhood_stats", "get_listing_agent", "get_agent_contact", "schedule_property_viewing"),
)
toolbox.goal(
    "weigh up a home to buy",
    wants="judge whether a home for sale is worth its price and what it would cost each month",
    role="buyer",
    tools=("search_property_listings", "find_properties", "get_listing_details", "get_listing_location",
           "get_price_per_square_metre", "get_comparable_sales", "get_city_market_summary", "get_neighbourhood_stats",
           "estimate_property_value", "convert_floor_area", "calculate_mortgage_payment"),
)
toolbox.goal(
    "buy to let",
    wants="find a home for sale that would pay its way as a rental",
    role="investor",
    tools=("search_property_listings", "find_properties", "get_listing_details", "get_rental_yield",
           "get_price_per_square_metre", "get_city_market_summary", "get_comparable_sales", "calculate_mortgage_payment"),
)
toolbox.goal(
    "manage my viewings",
    wants="keep track of the viewings I have booked, change them and reach the agents",
    role="buyer",
    tools=("list_property_viewings", "cancel_property_viewing", "schedule_property_viewing", "get_listing_details",
           "get_listing_agent", "get_agent_contact", "create_buyer_profile"),
)
