"""Maps and Places: geocoding, reverse geocoding, distances, places of interest around the
gazetteer cities, opening hours, travel-time estimates and the user's own location."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache
from typing import Annotated, Any, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after, iso_day
from factory.toolbox.gazetteer import CITIES, CITY_BY_NAME, NOW, City, address_point, distance_km, geocode, nearest_city
from factory.toolbox.sense import around, sensible, trip, within
from factory.toolbox.user import USER

toolbox = Toolbox()

CityName = Annotated[str, Kind("city")]
CountryName = Annotated[str, Kind("country")]
Lat = Annotated[float, Kind("latitude")]
Lon = Annotated[float, Kind("longitude")]
Address = Annotated[str, Kind("address")]
Phone = Annotated[str, Kind("phone_number")]
Day = Annotated[str, Kind("date")]
Moment = Annotated[str, Kind("datetime")]
PlaceId = Annotated[str, Kind("place_id")]
PlaceIds = Annotated[list[str], Kind("place_ids")]
PlaceName = Annotated[str, Kind("place_name")]
# No hotels and no pharmacies: the travel seed keeps the hotels and the healthcare seed the
# pharmacies of this one world, and a second register of either would answer "the hotels in
# Seoul" with other names.
Category = Literal["restaurant", "cafe", "museum", "park", "landmark", "mall"]
Mode = Literal["walking", "cycling", "driving", "transit"]

# How many places of each category every city has: every (city, category) pair has a row.
CATEGORY_COUNTS = {"restaurant": 3, "cafe": 2, "museum": 2, "park": 2, "landmark": 1, "mall": 1}
STREETS = ["High Street", "Market Road", "Station Avenue", "Park Lane", "King Street", "Garden Row",
           "Church Street", "Mill Road", "Bridge Street", "Victoria Avenue", "River Walk", "Castle Hill",
           "Harbour Street", "Oak Avenue", "Elm Street", "Queen Street", "Canal Road", "Union Square",
           "Cedar Lane", "Lighthouse Road"]
ADJECTIVES = ["Blue", "Golden", "Copper", "Little", "Olive", "Saffron", "Silver", "Wild", "Old", "Green",
              "Crimson", "Velvet", "Amber", "Juniper", "Hidden", "Salt", "Smoky", "Lucky", "Northern", "Sunny"]
NOUNS = ["Fig", "Lantern", "Pot", "Oak", "Table", "Spoon", "Pepper", "Anchor", "Vine", "Fox", "Heron",
         "Orchard", "Ember", "Kettle", "Basil", "Cedar", "Compass", "Sparrow", "Lemon", "Thyme"]
SURNAMES = ["Larsen", "Moreau", "Okafor", "Tanaka", "Rossi", "Fischer", "Costa", "Novak", "Clarke", "Haddad",
            "Mensah", "Petrova", "Dubois", "Silva", "Adeyemi", "Sato", "Khan", "Patel", "Garcia", "Wilson"]
MUSEUM_TOPICS = ["Art", "Modern Art", "Natural History", "Science", "Design", "Photography",
                 "Maritime History", "City History"]
LANDMARKS = ["Clock Tower", "Old Town Hall", "Cathedral", "Observation Tower", "Central Market Hall",
             "Opera House", "Castle", "Harbour Bridge"]
DIAL_CODES = {"USA": "1", "Canada": "1", "Mexico": "52", "Brazil": "55", "Argentina": "54",
              "United Kingdom": "44", "France": "33", "Germany": "49", "Spain": "34", "Italy": "39",
              "Netherlands": "31", "Switzerland": "41", "Sweden": "46", "Egypt": "20", "Kenya": "254",
              "South Africa": "27", "United Arab Emirates": "971", "India": "91", "Singapore": "65",
              "China": "86", "Japan": "81", "South Korea": "82", "Australia": "61", "New Zealand": "64"}
HOURS = {  # category → (opening, closing) in minutes after midnight; 1440 means midnight
    "restaurant": (690, 1380), "cafe": (420, 1140), "museum": (600, 1080), "park": (360, 1320),
    "landmark": (540, 1140), "mall": (600, 1200),
}
SPEEDS_KMH = {"walking": 4.8, "cycling": 15.0, "driving": 35.0, "transit": 22.0}  # urban door-to-door
ROUTE_FACTOR = {"walking": 1.25, "cycling": 1.3, "driving": 1.4, "transit": 1.35}  # route vs straight line
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DATE_WINDOW = (NOW.date() - timedelta(days=30), NOW.date() + timedelta(days=30))


@dataclass
class MapsWorld(World):
    places: dict[str, dict] = field(default_factory=dict)  # place id → name, category, city, address, ...
    slots: dict[tuple[str, str, int], str] = field(default_factory=dict)  # (city, category, n) → place id
    by_name: dict[str, str] = field(default_factory=dict)  # lower-case place name → place id
    search_index: dict[str, tuple[str, frozenset]] = field(default_factory=dict)  # place id → (text, words)
    name_words: list[tuple[str, str]] = field(default_factory=list)  # (" the words of a name ", place id), as by_name


def _named_in(w: MapsWorld, text: str) -> list[str]:
    """Places whose whole name (its words, space-padded) occurs in `text`, in by_name order."""
    return [pid for words, pid in w.name_words if words in text]


def _check_coordinates(latitude: float, longitude: float) -> None:
    require(-90 <= latitude <= 90, f"latitude {latitude} is out of range: use decimal degrees between -90 and 90")
    require(-180 <= longitude <= 180, f"longitude {longitude} is out of range: use decimal degrees between -180 and 180")


def _place(place_id: str) -> dict:
    places = world(MapsWorld).places
    require(place_id in places, f"unknown place id {place_id!r}; search places or list places in a city to get ids")
    return places[place_id]


def _moment(text: str) -> datetime:
    try:
        moment = datetime.strptime(text.strip().replace(" ", "T"), "%Y-%m-%dT%H:%M")
    except ValueError:
        raise ToolError(f"datetime {text!r} is not in YYYY-MM-DDTHH:MM format (24 h local time)") from None
    return moment


def _clock(minutes: int) -> str:
    return "24:00" if minutes >= 1440 else f"{minutes // 60:02d}:{minutes % 60:02d}"


def _hours_on(row: dict, day: date) -> tuple[int, int] | None:
    """Opening and closing minute of a place on a day; None when it is closed that day."""
    if row["closed_on"] == WEEKDAYS[day.weekday()]:
        return None
    return row["opens"], row["closes"]


def _name(rng: random.Random, category: str, city: City, taken: set[str]) -> str:
    for _ in range(200):
        adj, noun, last = rng.choice(ADJECTIVES), rng.choice(NOUNS), rng.choice(SURNAMES)
        name = {
            "restaurant": f"{adj} {noun} {rng.choice(['Bistro', 'Kitchen', 'Grill', 'Trattoria', 'Brasserie', 'Canteen'])}",
            "cafe": f"{adj} {noun} {rng.choice(['Cafe', 'Coffee House', 'Espresso Bar', 'Roasters'])}",
            "museum": f"{city.name} Museum of {rng.choice(MUSEUM_TOPICS)}",
            "park": rng.choice([f"{last} {rng.choice(['Park', 'Gardens', 'Commons'])}", f"{noun} Hill Park",
                                f"{city.name} Botanical Gardens", f"{adj} Meadows"]),
            "landmark": f"{city.name} {rng.choice(LANDMARKS)}",
            "mall": rng.choice([f"{noun} Arcade", f"{adj} Market Hall", f"{last} Galleria"]),
        }[category]
        if name not in taken:
            taken.add(name)
            return name
    raise RuntimeError(f"ran out of {category} names")  # unreachable with the pools above


@toolbox.world
def build_world(rng: random.Random) -> MapsWorld:
    rows: dict[tuple[str, str, int], dict] = {}
    taken: set[str] = set()
    for city in CITIES:
        addresses: set[str] = set()
        for category, count in CATEGORY_COUNTS.items():
            for n in range(1, count + 1):
                while True:
                    number, street = rng.randint(1, 240), rng.choice(STREETS)
                    address = f"{number} {street}, {city.name}"
                    if address not in addresses:
                        addresses.add(address)
                        break
                lat, lon = address_point(number, street, city)
                opens, closes = HOURS[category]
                if category != "park":
                    opens += rng.choice([-60, -30, 0, 0, 30])
                    closes += rng.choice([-60, 0, 0, 30, 60])
                closed_on = {"museum": rng.choice(["Monday", "Monday", "Tuesday", ""]),
                             "restaurant": rng.choice(["Monday", "Sunday", "", "", ""])}.get(category, "")
                rows[(city.name, category, n)] = {
                    "name": _name(rng, category, city, taken),
                    "category": category,
                    "city": city.name,
                    "country": city.country,
                    "address": address,
                    "latitude": lat,
                    "longitude": lon,
                    "rating": round(rng.uniform(3.2, 4.9), 1),
                    "reviews": rng.randint(15, 4800),
                    "phone": f"+{DIAL_CODES[city.country]}-{rng.randint(20, 989)}-555-{rng.randint(0, 9999):04d}",
                    "opens": opens,
                    "closes": min(closes, 1440),
                    "closed_on": closed_on,
                }
    # Opaque ids, as map services give: an id does not give away the city or the kind of place.
    numbers = rng.sample(range(10000, 100000), len(rows))
    slots = {slot: f"PL-{number}" for slot, number in zip(rows, numbers, strict=True)}
    places = {slots[slot]: row for slot, row in rows.items()}
    by_name = {row["name"].lower(): pid for pid, row in places.items()}
    index = {}
    for pid, row in places.items():
        text = f" {row['name']} {row['category']} {row['city']} {row['country']} ".lower()
        index[pid] = (text, frozenset(re.findall(r"[a-z0-9]+", text)))
    state = {"location_sharing": "precise", "favourites": []}
    name_words = [(f" {' '.join(re.findall(r'[a-z0-9]+', key))} ", pid) for key, pid in by_name.items()]
    return MapsWorld(state=state, places=places, slots=slots, by_name=by_name, search_index=index, name_words=name_words)


toolbox.condition(
    "location_sharing",
    holds=lambda w: w.state.get("location_sharing", "off") != "off",
    broken_state={"location_sharing": "off"},
    fix=("enable_location_sharing", {"precision": "precise"}),
    # Approximate sharing restores the condition too, but then "where am I" is the city centre:
    # the precision changes what later calls find, so the request states it.
    consent="share",
)

# Cities, points and street addresses named by other seeds (a contact's home, a listing's location,
# an office's address) are on the map too. Days and moments are not: other seeds' days and times are
# due dates, deadlines, deliveries, appointment slots and message times, not times anyone visits a place.
toolbox.bridge("city", "latitude", "longitude", "address")
# A place id is the map's own handle: a user names a place ("the copper fig bistro in Lyon"), a
# listing or a search, and the id comes from the call that found it.
toolbox.internal_kinds("place_id", "place_ids")


@cache
def _address_points(city_name: str) -> frozenset[tuple[float, float]]:
    """Every point a street address of one city geocodes to (computed when first asked)."""
    city = CITY_BY_NAME[city_name]
    return frozenset(address_point(number, street, city) for street in STREETS for number in range(1, 241))


def _not_known_point(args: dict[str, Any]) -> bool:
    """Reverse geocoding a city centre or a geocoded address only walks back to what was known."""
    point = (args["latitude"], args["longitude"])
    near = [c for c in CITIES if abs(c.latitude - point[0]) < 0.3 and abs(c.longitude - point[1]) < 0.5]
    return all(point != (c.latitude, c.longitude) and point not in _address_points(c.name) for c in near)


def _two_points(args: dict[str, Any]) -> bool:
    return (args["from_latitude"], args["from_longitude"]) != (args["to_latitude"], args["to_longitude"])


# --- value generators ---------------------------------------------------------------------


@toolbox.values_for("city")
def _cities(w: MapsWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("country")
def _countries(w: MapsWorld) -> list[str]:
    return sorted({c.country for c in CITIES})


# No literal lists of place ids: nobody holds a handful of opaque ids; a list comes from a listing
# or a search ("the museum listings in Lyon"), which also ties it to the rest of the request.


@toolbox.values_for("address")
def _addresses(w: MapsWorld) -> list[str]:
    return sorted(row["address"] for row in w.places.values())


@toolbox.values_for("latitude")
def _latitudes(w: MapsWorld) -> list[float]:
    return [lat for lat, _ in _points(w)]


@toolbox.values_for("longitude")
def _longitudes(w: MapsWorld) -> list[float]:
    return [lon for _, lon in _points(w)]


@toolbox.values_for("latitude", "longitude")
def _points(w: MapsWorld) -> list[tuple[float, float]]:
    """Coordinates as coherent pairs a person would hold: spots in every city and near mapped
    places, a little off any centre or doorstep (a point, not an address the map already knows)."""
    shifts = [(0.0031, -0.0024), (-0.0046, 0.0019), (0.0012, 0.0043)]
    points = [(round(c.latitude + dlat, 5), round(c.longitude + dlon, 5)) for c in CITIES for dlat, dlon in shifts[:2]]
    points += [(round(row["latitude"] + shifts[k % 3][0] / 4, 5), round(row["longitude"] + shifts[k % 3][1] / 4, 5))
               for k, (_, row) in enumerate(sorted(w.places.items())[::5])]
    return points


@toolbox.values_for("date")
def _dates(w: MapsWorld) -> list[str]:
    """Days of a visit to come: today and the next two weeks."""
    return [day_after(i) for i in range(15)]


@toolbox.values_for("datetime")
def _datetimes(w: MapsWorld) -> list[str]:
    times = ["08:00", "10:30", "13:00", "15:45", "19:30", "22:15"]
    days = [NOW.date() + timedelta(days=i) for i in range(14)]
    return [f"{d.isoformat()}T{t}" for d in days for t in times]


@toolbox.values_for("place_mention")
def _mentions(w: MapsWorld) -> list[str]:
    """How people name a place: "the Copper Fig Bistro in London", "Copper Fig Bistro, London",
    "copper fig bistro"; a place whose name holds its city is not placed in it again ("the
    Madrid Museum of Photography", not "... of photography in Madrid")."""
    mentions = []
    for pid, row in sorted(w.places.items())[::3]:
        name, city = row["name"], row["city"]
        if city.lower() in name.lower():
            mentions += [f"the {name}", name, name.lower()]
        else:
            mentions += [f"the {name} in {city}", f"{name}, {city}", name.lower()]
    return mentions


@toolbox.values_for("place_search_query")
def _search_queries(w: MapsWorld) -> list[str]:
    queries = []
    for city in CITIES:
        for category in ("restaurant", "cafe", "museum", "park"):
            queries.append(f"{category} {city.name.lower()}")
    for _, row in sorted(w.places.items())[::11]:
        words = [x for x in row["name"].split() if x.lower() not in row["city"].lower().split() and len(x) > 3]
        queries.append(f"{max(words, key=len).lower()} {row['city'].lower()}")
    return queries


def to_dms(latitude: float, longitude: float) -> str:
    def part(value: float, pos: str, neg: str) -> str:
        hemi = pos if value >= 0 else neg
        total = round(abs(value) * 3600)
        return f"{total // 3600}°{total % 3600 // 60:02d}'{total % 60:02d}\"{hemi}"

    return f"{part(latitude, 'N', 'S')} {part(longitude, 'E', 'W')}"


@toolbox.values_for("dms_coordinates")
def _dms(w: MapsWorld) -> list[str]:
    values = [to_dms(c.latitude, c.longitude) for c in CITIES]
    values += [to_dms(row["latitude"], row["longitude"]) for _, row in sorted(w.places.items())[::13]]
    return values


# --- tools --------------------------------------------------------------------------------


@toolbox.tool(sense=(within("max_results", 1, 20),), tags=("search",))
def search_places(query: Annotated[str, Kind("place_search_query")], max_results: int = 5) -> PlaceIds:
    """Search every mapped place by words in its name, category, city or country.

    Args:
        query: Words to look for, e.g. "museum paris" or "lantern london"; every word must match (plurals are fine).
        max_results: Maximum number of place ids to return (1-20).

    Returns:
        place_ids: the matching places (place ids, best rated first).
    """
    w = world(MapsWorld)
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = re.findall(r"[a-z0-9]+", query.lower())
    require(bool(words), "query must contain at least one word")
    hits = []
    for pid, (text, tokens) in w.search_index.items():
        if all(word in tokens or word.rstrip("s") in tokens or (len(word) > 3 and word in text) for word in words):
            hits.append(pid)
    hits.sort(key=lambda pid: (-w.places[pid]["rating"], pid))
    return hits[:max_results]


@toolbox.tool(tags=("canonicalise",))
def find_place_by_name(name: Annotated[str, Kind("place_mention")]) -> tuple[PlaceId, Lat, Lon]:
    """Resolve the way someone names a place to its place id and coordinates.

    Args:
        name: The place as people say it, e.g. "the copper fig bistro in London" or "Paris Museum of Art"; case and a leading "the" do not matter.

    Returns:
        place_id: the place meant (its place id).
        latitude: the place's latitude (decimal degrees).
        longitude: the place's longitude (decimal degrees).
    """
    w = world(MapsWorld)
    text = " " + " ".join(re.findall(r"[a-z0-9']+", name.lower())) + " "
    hits = _named_in(w, text)
    require(bool(hits), f"no mapped place is called {name!r}; search places by words instead")
    best = max(hits, key=lambda pid: (f" {w.places[pid]['city'].lower()} " in text, len(w.places[pid]["name"])))
    row = w.places[best]
    return best, row["latitude"], row["longitude"]


_DMS = re.compile(
    r"(\d{1,3})\s*[°º d]\s*(\d{1,2})?\s*['′ m]?\s*(\d{1,2}(?:\.\d+)?)?\s*[\"″ s]?\s*([NSEWnsew])"
)


def _dms_decimal(coordinates: str) -> tuple[float, float]:
    parts = _DMS.findall(coordinates)
    require(len(parts) == 2, f"cannot read {coordinates!r}: give a latitude and a longitude like 48°51'24\"N 2°21'08\"E")
    values = []
    for (deg, minutes, seconds, hemi), allowed in zip(parts, ("NS", "EW"), strict=True):
        require(hemi.upper() in allowed, f"cannot read {coordinates!r}: the latitude (N/S) must come before the longitude (E/W)")
        value = int(deg) + int(minutes or 0) / 60 + float(seconds or 0) / 3600
        values.append(round(-value if hemi.upper() in "SW" else value, 5))
    _check_coordinates(values[0], values[1])
    return values[0], values[1]


@toolbox.tool(tags=("canonicalise", "arithmetic", "self_evident"))
def convert_dms_coordinates(coordinates: Annotated[str, Kind("dms_coordinates")]) -> tuple[Lat, Lon]:
    """Convert degrees-minutes-seconds coordinates to decimal latitude and longitude.

    Args:
        coordinates: A latitude and a longitude in degrees, minutes and seconds with hemisphere letters, e.g. 48°51'24"N 2°21'08"E.

    Returns:
        latitude: the converted latitude (decimal degrees, south negative).
        longitude: the converted longitude (decimal degrees, west negative).
    """
    return _dms_decimal(coordinates)


@toolbox.tool
def geocode_city(city: CityName) -> tuple[Lat, Lon, CountryName]:
    """Get the coordinates of a city centre and the country it is in.

    Args:
        city: City name, e.g. "Lyon".

    Returns:
        latitude: the city centre's latitude (decimal degrees).
        longitude: the city centre's longitude (decimal degrees).
        country: the country the city is in.
    """
    require(city in CITY_BY_NAME, f"unknown city {city!r}; the map covers {len(CITIES)} major cities such as Paris or Tokyo")
    row = CITY_BY_NAME[city]
    return row.latitude, row.longitude, row.country


@toolbox.tool
def geocode_address(address: Address) -> tuple[Lat, Lon, CityName]:
    """Get the coordinates of a street address.

    Args:
        address: One-line street address ending with the city, e.g. "12 King Street, London".

    Returns:
        latitude: the address's latitude (decimal degrees).
        longitude: the address's longitude (decimal degrees).
        city: the city the address is in.
    """
    return geocode(address)


@toolbox.tool(
    sense=(sensible("the point is already a known address or city centre", ("latitude", "longitude"), _not_known_point),),
)
def reverse_geocode(latitude: Lat, longitude: Lon) -> tuple[str, str]:
    """Find the nearest known street address to a point.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        address: the nearest street address.
        city: the city of that address.
    """
    _check_coordinates(latitude, longitude)
    w = world(MapsWorld)
    pid = min(w.places, key=lambda p: (distance_km(latitude, longitude, w.places[p]["latitude"], w.places[p]["longitude"]), p))
    return w.places[pid]["address"], w.places[pid]["city"]


@toolbox.tool(
    sense=(sensible("the point is already a known address or city centre", ("latitude", "longitude"), _not_known_point),),
)
def get_nearest_city(latitude: Lat, longitude: Lon) -> tuple[CityName, CountryName, float]:
    """Find the major city nearest to a point.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        city: the nearest city.
        country: the country of the nearest city.
        distance_km: the straight-line distance to that city's centre (km, one decimal).
    """
    _check_coordinates(latitude, longitude)
    city, dist = nearest_city(latitude, longitude)
    return city.name, city.country, round(dist, 1)


@toolbox.tool(
    sense=(sensible("the start and the end are the same point", ("from_latitude", "from_longitude", "to_latitude", "to_longitude"),
                    _two_points),),
    tags=("arithmetic",),
)
def calculate_distance(from_latitude: Lat, from_longitude: Lon, to_latitude: Lat, to_longitude: Lon) -> float:
    """Compute the great-circle (haversine) distance between two points.

    Args:
        from_latitude: Latitude of the first point in decimal degrees.
        from_longitude: Longitude of the first point in decimal degrees.
        to_latitude: Latitude of the second point in decimal degrees.
        to_longitude: Longitude of the second point in decimal degrees.

    Returns:
        distance_km: the distance between the two points (km, one decimal).
    """
    _check_coordinates(from_latitude, from_longitude)
    _check_coordinates(to_latitude, to_longitude)
    return round(distance_km(from_latitude, from_longitude, to_latitude, to_longitude), 1)


@toolbox.tool
def list_places_in_city(city: CityName, category: Category) -> PlaceIds:
    """List the places of one category in a city.

    Args:
        city: City name, e.g. "Berlin".
        category: Kind of place: restaurant, cafe, museum, park, landmark or mall.

    Returns:
        place_ids: the places of that category in the city (place ids, best rated first).
    """
    w = world(MapsWorld)
    require(city in CITY_BY_NAME, f"unknown city {city!r}; the map covers major cities such as Paris or Tokyo")
    hits = [pid for pid, row in w.places.items() if row["city"] == city and row["category"] == category]
    require(bool(hits), f"unknown category {category!r}; use one of {', '.join(CATEGORY_COUNTS)}")
    return sorted(hits, key=lambda pid: (-w.places[pid]["rating"], pid))


@toolbox.tool
def find_nearest_place(latitude: Lat, longitude: Lon, category: Category) -> tuple[PlaceId, float, PlaceName]:
    """Find the mapped place of a category closest to a point.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).
        category: Kind of place: restaurant, cafe, museum, park, landmark or mall.

    Returns:
        place_id: the nearest place of that category (its place id).
        distance_km: the straight-line distance to it (km, two decimals).
        place_name: the nearest place's name.
    """
    _check_coordinates(latitude, longitude)
    w = world(MapsWorld)
    require(category in CATEGORY_COUNTS, f"unknown category {category!r}; use one of {', '.join(CATEGORY_COUNTS)}")
    dist, pid = min((distance_km(latitude, longitude, r["latitude"], r["longitude"]), p)
                    for p, r in w.places.items() if r["category"] == category)
    return pid, round(dist, 2), w.places[pid]["name"]


@toolbox.tool(
    sense=(sensible("a comparison needs at least two places", ("place_ids",), lambda a: len(a["place_ids"]) >= 2),),
    # Every list of places comes best rated first: picking the top of one is reading its first id.
    tags=("self_evident",),
)
def pick_top_rated_place(place_ids: PlaceIds) -> tuple[PlaceId, float, PlaceName]:
    """Pick the place with the highest user rating from a list of place ids.

    Args:
        place_ids: Place ids to compare, e.g. ["PL-48213", "PL-70561"]; ties go to the most reviewed.

    Returns:
        place_id: the best-rated place (its place id).
        rating: the best-rated place's average rating (out of 5).
        place_name: the best-rated place's name.
    """
    require(bool(place_ids), "place_ids is empty: give at least one place id")
    rows = [(_place(pid), pid) for pid in place_ids]
    row, pid = max(rows, key=lambda item: (item[0]["rating"], item[0]["reviews"], item[1]))
    return pid, row["rating"], row["name"]


@toolbox.tool
def get_place_details(place_id: PlaceId) -> tuple[PlaceName, str, Phone, float]:
    """Get the name, street address, phone number and user rating of a place.

    Args:
        place_id: Place id, e.g. "PL-48213".

    Returns:
        place_name: the place's name.
        address: the place's street address.
        phone_number: the place's phone number.
        rating: the place's average user rating (out of 5).
    """
    row = _place(place_id)
    return row["name"], row["address"], row["phone"], row["rating"]


@toolbox.tool
def get_place_location(place_id: PlaceId) -> tuple[Lat, Lon, CityName]:
    """Get the coordinates and city of a place.

    Args:
        place_id: Place id, e.g. "PL-31907".

    Returns:
        latitude: the place's latitude (decimal degrees).
        longitude: the place's longitude (decimal degrees).
        city: the city the place is in.
    """
    row = _place(place_id)
    return row["latitude"], row["longitude"], row["city"]


@toolbox.tool(
    sense=(around("date", before=0, after=30),),  # hours are looked up for a visit to come
)
def get_opening_hours(place_id: PlaceId, date: Day) -> tuple[str, str]:
    """Get the opening and closing time of a place on a date.

    Args:
        place_id: Place id, e.g. "PL-70561".
        date: Day in YYYY-MM-DD, within 30 days of today.

    Returns:
        opens_at: the opening time that day (HH:MM, or "closed").
        closes_at: the closing time that day (HH:MM, "24:00" for midnight, or "closed").
    """
    row = _place(place_id)
    day = iso_day(date)
    require(DATE_WINDOW[0] <= day <= DATE_WINDOW[1],
            # no dates: with "within 30 days of today" they give today away (reading 62 #17)
            f"no opening hours are published for {date}: pick a day within 30 days of today")
    hours = _hours_on(row, day)
    if hours is None:
        return "closed", "closed"
    return _clock(hours[0]), _clock(hours[1])


@toolbox.tool(sense=(around("when", before=0, after=30),))
def check_place_open(place_id: PlaceId, when: Moment) -> tuple[bool, str]:
    """Check whether a place is open at a given local date and time.

    Args:
        place_id: Place id, e.g. "PL-25384".
        when: Local date and time in YYYY-MM-DDTHH:MM (24 h).

    Returns:
        is_open: the answer to whether the place is open then.
        closes_at: the closing time that day (HH:MM, "24:00" for midnight, or "closed" on its closing day).
    """
    row = _place(place_id)
    moment = _moment(when)
    hours = _hours_on(row, moment.date())
    if hours is None:
        return False, "closed"
    minute = moment.hour * 60 + moment.minute
    return hours[0] <= minute < hours[1], _clock(hours[1])


def _trip(distance_km: float, mode: str) -> tuple[int, float]:
    route = distance_km * ROUTE_FACTOR[mode]
    speed = SPEEDS_KMH[mode]
    if route > 60 and mode in ("driving", "transit"):  # intercity: motorways and trains are faster
        speed = 85.0 if mode == "driving" else 110.0
    minutes = route / speed * 60 + (6 if mode == "transit" else 2)
    return max(1, round(minutes)), round(route, 1)


@toolbox.tool(
    sense=(trip(start=("from_latitude", "from_longitude"), end=("to_latitude", "to_longitude"), mode="mode"),
           sensible("the start and the end are the same point", ("from_latitude", "from_longitude", "to_latitude", "to_longitude"),
                    _two_points)),
)
def estimate_travel_time(from_latitude: Lat, from_longitude: Lon, to_latitude: Lat, to_longitude: Lon,
                         mode: Mode) -> tuple[int, float]:
    """Estimate the door-to-door travel time between two points for a mode of transport.

    Args:
        from_latitude: Latitude of the start in decimal degrees.
        from_longitude: Longitude of the start in decimal degrees.
        to_latitude: Latitude of the destination in decimal degrees.
        to_longitude: Longitude of the destination in decimal degrees.
        mode: How to travel: walking, cycling, driving or transit.

    Returns:
        duration_minutes: the estimated travel time (minutes).
        route_km: the length of the route (km, one decimal).
    """
    _check_coordinates(from_latitude, from_longitude)
    _check_coordinates(to_latitude, to_longitude)
    distance = distance_km(from_latitude, from_longitude, to_latitude, to_longitude)
    return _trip(distance, mode)


@toolbox.tool
def get_route_to_nearest(place_id: PlaceId, category: Category, mode: Mode) -> tuple[PlaceId, float, int, PlaceName]:
    """Summarise the route from a place to the nearest other place of a category in the same city.

    Args:
        place_id: Starting place id, e.g. "PL-66120".
        category: Kind of destination: restaurant, cafe, museum, park, landmark or mall.
        mode: How to travel: walking, cycling, driving or transit.

    Returns:
        destination_id: the nearest other place of that category (its place id).
        route_km: the length of the route (km, one decimal).
        duration_minutes: the estimated travel time (minutes).
        destination_name: the nearest other place's name.
    """
    w = world(MapsWorld)
    start = _place(place_id)
    require(category in CATEGORY_COUNTS, f"unknown category {category!r}; use one of {', '.join(CATEGORY_COUNTS)}")
    options = [(distance_km(start["latitude"], start["longitude"], r["latitude"], r["longitude"]), p)
               for p, r in w.places.items() if r["city"] == start["city"] and r["category"] == category and p != place_id]
    require(bool(options), f"{start['name']} is the only {category} mapped in {start['city']}; choose another category")
    distance, destination = min(options)
    minutes, route = _trip(distance, mode)
    return destination, route, minutes, w.places[destination]["name"]


@toolbox.tool(requires=("location_sharing",))
def get_my_location() -> tuple[Lat, Lon, CityName]:
    """Get the current position of the user's phone.

    Returns:
        latitude: the latitude of my position (decimal degrees).
        longitude: the longitude of my position (decimal degrees).
        city: the city I am in.
    """
    w = world(MapsWorld)
    sharing = w.state.get("location_sharing", "off")
    require(sharing != "off", "Location sharing is off: turn location sharing on first")
    city = USER.city  # the user's phone, wherever a seed asks for it (factory.toolbox.user)
    if sharing == "approximate":
        return round(city.latitude, 2), round(city.longitude, 2), city.name
    return USER.latitude, USER.longitude, city.name


@toolbox.tool(tags=("state_change",))
def enable_location_sharing(precision: Literal["precise", "approximate"]) -> str:
    """Turn on location sharing for the maps app.

    Args:
        precision: "precise" shares the exact position, "approximate" only the city centre.

    Returns:
        sharing_mode: the location sharing mode now in effect.
    """
    w = world(MapsWorld)
    w.state["location_sharing"] = precision
    return precision


@toolbox.tool(tags=("state_change",))
def save_favourite_place(place_id: PlaceId) -> list[str]:
    """Save a place to the user's favourite places (saving it twice keeps one entry).

    Args:
        place_id: Place id to save, e.g. "PL-19045".

    Returns:
        favourites: the saved favourite places (place ids, oldest first).
    """
    _place(place_id)
    favourites = world(MapsWorld).state.setdefault("favourites", [])
    require(len(favourites) < 50 or place_id in favourites, "you have 50 favourites already; remove one first")
    if place_id not in favourites:
        favourites.append(place_id)
    return list(favourites)


# --- what a value implies ----------------------------------------------------------------


@toolbox.facts_about("place_mention")
def _mention_facts(w: MapsWorld, mention: str) -> dict:
    text = " " + " ".join(re.findall(r"[a-z0-9]+", mention.lower())) + " "
    hits = _named_in(w, text)
    if not hits:
        return {}
    row = w.places[max(hits, key=lambda pid: (f" {w.places[pid]['city'].lower()} " in text, len(w.places[pid]["name"])))]
    return {"city": row["city"], "country": row["country"]}


@toolbox.facts_about("place_search_query")
def _query_facts(w: MapsWorld, query: str) -> dict:
    text = " " + " ".join(re.findall(r"[a-z0-9]+", query.lower())) + " "
    named = [c for c in CITIES if f" {' '.join(re.findall(r'[a-z0-9]+', c.name.lower()))} " in text]
    return {"city": named[0].name, "country": named[0].country} if len(named) == 1 else {}


@toolbox.facts_about("dms_coordinates")
def _dms_facts(w: MapsWorld, coordinates: str) -> dict:
    lat, lon = _dms_decimal(coordinates)
    city, dist = nearest_city(lat, lon)
    return {"city": city.name, "country": city.country} if dist < 50 else {}


@toolbox.facts_about("latitude")
def _latitude_facts(w: MapsWorld, latitude: float) -> dict:
    """The city a literal point lies in (every generated point has a latitude of its own), so the
    other end of a trip is drawn in the same city."""
    for lat, lon in _points(w):
        if lat == latitude:
            city, dist = nearest_city(lat, lon)
            return {"city": city.name, "country": city.country} if dist < 30 else {}
    return {}


# --- goals: what a person wants, and the tools that serve it ------------------------------
# The tools a goal borrows from another seed cannot make a request on their own (they
# neither feed each other nor take the same thing from the person), so every request is
# about places: the forecast or the daylight is there because of the place. An address
# names its city ("123 King Street, Edinburgh"), so geocode_address serves only the goal in
# which nothing takes the city it gives back: the places or the centre of "the city where
# 123 King Street, Edinburgh is" is a detour nobody takes.

