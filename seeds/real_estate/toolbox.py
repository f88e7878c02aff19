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

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.gazetteer import (
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
from factory.toolbox.sense import around, sensible, within
from factory.toolbox.user import USER

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


@toolbox.facts_about("listing_id")
def _listing_facts(w: PropertyWorld, listing_id: str) -> dict:
    row = w.listings[listing_id]
    return {"city": row["city"], "country": row["country"], "neighbourhood": row["neighbourhood"]}


@toolbox.facts_about("viewing_id")
def _viewing_facts(w: PropertyWorld, viewing_id: str) -> dict:
    listing = w.listings[w.state["viewings"][viewing_id]["listing"]]
    return {"listing_id": listing["id"], "city": listing["city"]}


# --- listings -----------------------------------------------------------------------------

@toolbox.tool(sense=(within("min_bedrooms", 1, 4),))
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


@toolbox.tool(tags=("search",))
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(tags=("canonicalise",))
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(sense=(within("annual_rate_percent", 0.5, 12), within("term_years", 5, 35)))
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


@toolbox.tool(sense=(around("start_time", before=0, after=30),), requires=("buyer_profile",), tags=("state_change",))
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


@toolbox.tool
def list_property_viewings() -> list[ViewingId]:
    """List the buyer's scheduled viewings that have not been cancelled, soonest first.

    Returns:
        viewing_ids: the scheduled viewings (viewing ids, soonest first).
    """
    viewings = world(PropertyWorld).state.get("viewings", {})
    rows = [v for v in viewings.values() if v["status"] == "scheduled"]
    return [v["id"] for v in sorted(rows, key=lambda v: (v["start"], v["id"]))]


@toolbox.tool(tags=("state_change", "ends"))
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


@toolbox.tool(tags=("state_change",))
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
)


# --- goals: what a person wants, and the tools that serve it ------------------------------

