"""Facts every seed world shares: the simulated clock, cities, countries, currencies and
names, and the one way to place an address, measure a distance and find the nearest city.
Seeds draw from here so values cross domains (a contact's city has weather, a flight's
destination has places and listings) and tools of two seeds that answer the same question
agree (a street address lies at one point, whichever seed geocodes it). Who "I" am is in
`factory.toolbox.user`."""

from __future__ import annotations

import math
import random
import re
from datetime import datetime, timezone
from typing import NamedTuple
from zoneinfo import ZoneInfo

from factory.errors import ToolError

# The simulated "now" of every world: tools that need the current time read this, never the
# machine clock, so traces are reproducible. It is a Friday.
NOW = datetime(2025, 6, 13, 9, 30)


class City(NamedTuple):
    name: str
    country: str
    latitude: float
    longitude: float
    zone: str  # IANA time zone: the world's clocks keep daylight saving as the place does
    population: int  # thousands


CITIES: tuple[City, ...] = (
    City("San Francisco", "USA", 37.7749, -122.4194, "America/Los_Angeles", 815),
    City("Los Angeles", "USA", 34.0522, -118.2437, "America/Los_Angeles", 3820),
    City("Seattle", "USA", 47.6062, -122.3321, "America/Los_Angeles", 749),
    City("Chicago", "USA", 41.8781, -87.6298, "America/Chicago", 2665),
    City("New York", "USA", 40.7128, -74.0060, "America/New_York", 8336),
    City("Boston", "USA", 42.3601, -71.0589, "America/New_York", 650),
    City("Austin", "USA", 30.2672, -97.7431, "America/Chicago", 975),
    City("Toronto", "Canada", 43.6532, -79.3832, "America/Toronto", 2794),
    City("Vancouver", "Canada", 49.2827, -123.1207, "America/Vancouver", 662),
    City("Mexico City", "Mexico", 19.4326, -99.1332, "America/Mexico_City", 9209),
    City("Sao Paulo", "Brazil", -23.5505, -46.6333, "America/Sao_Paulo", 12330),
    City("Buenos Aires", "Argentina", -34.6037, -58.3816, "America/Argentina/Buenos_Aires", 3075),
    City("London", "United Kingdom", 51.5074, -0.1278, "Europe/London", 8982),
    City("Edinburgh", "United Kingdom", 55.9533, -3.1883, "Europe/London", 527),
    City("Paris", "France", 48.8566, 2.3522, "Europe/Paris", 2161),
    City("Lyon", "France", 45.7640, 4.8357, "Europe/Paris", 522),
    City("Berlin", "Germany", 52.5200, 13.4050, "Europe/Berlin", 3645),
    City("Munich", "Germany", 48.1351, 11.5820, "Europe/Berlin", 1488),
    City("Madrid", "Spain", 40.4168, -3.7038, "Europe/Madrid", 3223),
    City("Barcelona", "Spain", 41.3874, 2.1686, "Europe/Madrid", 1620),
    City("Rome", "Italy", 41.9028, 12.4964, "Europe/Rome", 2873),
    City("Milan", "Italy", 45.4642, 9.1900, "Europe/Rome", 1352),
    City("Amsterdam", "Netherlands", 52.3676, 4.9041, "Europe/Amsterdam", 872),
    City("Zurich", "Switzerland", 47.3769, 8.5417, "Europe/Zurich", 421),
    City("Stockholm", "Sweden", 59.3293, 18.0686, "Europe/Stockholm", 975),
    City("Cairo", "Egypt", 30.0444, 31.2357, "Africa/Cairo", 9540),
    City("Nairobi", "Kenya", -1.2921, 36.8219, "Africa/Nairobi", 4397),
    City("Cape Town", "South Africa", -33.9249, 18.4241, "Africa/Johannesburg", 4618),
    City("Dubai", "United Arab Emirates", 25.2048, 55.2708, "Asia/Dubai", 3331),
    City("Mumbai", "India", 19.0760, 72.8777, "Asia/Kolkata", 12442),
    City("Bangalore", "India", 12.9716, 77.5946, "Asia/Kolkata", 8443),
    City("Singapore", "Singapore", 1.3521, 103.8198, "Asia/Singapore", 5454),
    City("Hong Kong", "China", 22.3193, 114.1694, "Asia/Hong_Kong", 7413),
    City("Shanghai", "China", 31.2304, 121.4737, "Asia/Shanghai", 24870),
    City("Tokyo", "Japan", 35.6762, 139.6503, "Asia/Tokyo", 13960),
    City("Osaka", "Japan", 34.6937, 135.5023, "Asia/Tokyo", 2691),
    City("Seoul", "South Korea", 37.5665, 126.9780, "Asia/Seoul", 9776),
    City("Sydney", "Australia", -33.8688, 151.2093, "Australia/Sydney", 5312),
    City("Melbourne", "Australia", -37.8136, 144.9631, "Australia/Melbourne", 5078),
    City("Auckland", "New Zealand", -36.8485, 174.7633, "Pacific/Auckland", 1657),
)
CITY_BY_NAME = {c.name: c for c in CITIES}


def utc_offset(city: str, local: datetime) -> float:
    """The city's offset from UTC in hours at a local date and time, daylight saving included
    (Berlin +2 in June, +1 in January; Mumbai +5.5)."""
    offset = local.replace(tzinfo=ZoneInfo(CITY_BY_NAME[city].zone)).utcoffset()
    return offset.total_seconds() / 3600 if offset is not None else 0.0


def to_utc(local: datetime, city: str) -> datetime:
    """A city's local date and time as a naive UTC one."""
    return local.replace(tzinfo=ZoneInfo(CITY_BY_NAME[city].zone)).astimezone(timezone.utc).replace(tzinfo=None)


def from_utc(moment: datetime, city: str) -> datetime:
    """A naive UTC date and time as the city's local one."""
    return moment.replace(tzinfo=timezone.utc).astimezone(ZoneInfo(CITY_BY_NAME[city].zone)).replace(tzinfo=None)


def local_time(city: str, home: str, at_home: datetime) -> datetime:
    """The local date and time in `city` when it is `at_home` in the city `home`."""
    return from_utc(to_utc(at_home, home), city)


def offset_text(hours: float) -> str:
    """An offset as people write it after "UTC": "+2", "-7", "+5:30"."""
    sign = "-" if hours < 0 else "+"
    whole, minutes = divmod(round(abs(hours) * 60), 60)
    return f"{sign}{whole}" + (f":{minutes:02d}" if minutes else "")


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle (haversine) distance between two points in decimal degrees, unrounded."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(a)))


def city_distance_km(a: str, b: str) -> float:
    """Great-circle distance between the centres of two gazetteer cities."""
    first, second = CITY_BY_NAME[a], CITY_BY_NAME[b]
    return distance_km(first.latitude, first.longitude, second.latitude, second.longitude)


def nearest_city(latitude: float, longitude: float) -> tuple[City, float]:
    """The gazetteer city whose centre is nearest to a point, and its distance in km (ties by name)."""
    return min(((c, distance_km(latitude, longitude, c.latitude, c.longitude)) for c in CITIES),
               key=lambda found: (found[1], found[0].name))


_ADDRESS = re.compile(r"^\s*(\d{1,4})\s+([A-Za-z][A-Za-z .'-]*?)\s*,\s*(.+?)\s*$")


def parse_address(address: str) -> tuple[int, str, City]:
    """(house number, street, city) of a one-line address "12 King Street, London[, Country]";
    a `ToolError` that says how to write it otherwise."""
    match = _ADDRESS.match(address)
    if match is None:
        raise ToolError(f"cannot read address {address!r}: write it as '<number> <street>, <city>', "
                        "e.g. '12 King Street, London'")
    number, street, rest = match.groups()
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    if len(parts) == 2 and parts[1] in COUNTRY_BY_NAME:
        parts = parts[:1]
    if len(parts) != 1 or parts[0] not in CITY_BY_NAME:
        raise ToolError(f"no map data for {rest!r}: the address must end with a known city, e.g. '..., Paris'")
    return int(number), " ".join(street.split()), CITY_BY_NAME[parts[0]]


def address_point(number: int, street: str, city: City) -> tuple[float, float]:
    """Where an address lies: each street of a city has a fixed start and bearing, numbers run along it."""
    r = random.Random(f"street:{city.name}:{street.lower()}")
    dlat, dlon, bearing = r.uniform(-0.05, 0.05), r.uniform(-0.05, 0.05), r.uniform(0, 2 * math.pi)
    step = 0.00009 * number
    lat = city.latitude + dlat + step * math.cos(bearing)
    lon = city.longitude + (dlon + step * math.sin(bearing)) / math.cos(math.radians(city.latitude))
    return round(lat, 5), round(lon, 5)


def geocode(address: str) -> tuple[float, float, str]:
    """The latitude, longitude and city of a one-line street address: the one place every seed
    puts it (a listing, an office or a café at that address stands on that point)."""
    number, street, city = parse_address(address)
    return (*address_point(number, street, city), city.name)


class Country(NamedTuple):
    name: str
    iso2: str
    currency: str
    capital: str


COUNTRIES: tuple[Country, ...] = (
    Country("USA", "US", "USD", "Washington"),
    Country("Canada", "CA", "CAD", "Ottawa"),
    Country("Mexico", "MX", "MXN", "Mexico City"),
    Country("Brazil", "BR", "BRL", "Brasilia"),
    Country("Argentina", "AR", "ARS", "Buenos Aires"),
    Country("United Kingdom", "GB", "GBP", "London"),
    Country("France", "FR", "EUR", "Paris"),
    Country("Germany", "DE", "EUR", "Berlin"),
    Country("Spain", "ES", "EUR", "Madrid"),
    Country("Italy", "IT", "EUR", "Rome"),
    Country("Netherlands", "NL", "EUR", "Amsterdam"),
    Country("Switzerland", "CH", "CHF", "Bern"),
    Country("Sweden", "SE", "SEK", "Stockholm"),
    Country("Egypt", "EG", "EGP", "Cairo"),
    Country("Kenya", "KE", "KES", "Nairobi"),
    Country("South Africa", "ZA", "ZAR", "Pretoria"),
    Country("United Arab Emirates", "AE", "AED", "Abu Dhabi"),
    Country("India", "IN", "INR", "New Delhi"),
    Country("Singapore", "SG", "SGD", "Singapore"),
    Country("China", "CN", "CNY", "Beijing"),
    Country("Japan", "JP", "JPY", "Tokyo"),
    Country("South Korea", "KR", "KRW", "Seoul"),
    Country("Australia", "AU", "AUD", "Canberra"),
    Country("New Zealand", "NZ", "NZD", "Wellington"),
)
COUNTRY_BY_NAME = {c.name: c for c in COUNTRIES}
_WITH_ARTICLE = {"USA", "United Kingdom", "United Arab Emirates", "Netherlands"}


# Other names people give the countries above; matching ignores case and a leading "the".
COUNTRY_ALIASES = {
    "united states": "USA", "united states of america": "USA", "us": "USA", "u.s.": "USA", "u.s.a.": "USA",
    "america": "USA", "uk": "United Kingdom", "u.k.": "United Kingdom", "great britain": "United Kingdom",
    "britain": "United Kingdom", "uae": "United Arab Emirates", "holland": "Netherlands",
    "korea": "South Korea", "republic of korea": "South Korea",
}


_COUNTRY_BY_FOLDED = {c.name.lower(): c.name for c in COUNTRIES}


def country_named(text: str) -> str | None:
    """The country a person means by a name ("United States", "the UK", "usa"), as the
    gazetteer spells it; None when it is none of them."""
    folded = " ".join(str(text).split()).lower().removeprefix("the ")
    return _COUNTRY_BY_FOLDED.get(folded) or COUNTRY_ALIASES.get(folded)


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def one_day_to_all(expression: str) -> bool:
    """Whether a day in words means the same day to every reader, said on the simulated now's
    day: "next Saturday" said on a Friday is tomorrow to some and a week later to others,
    "this Monday" the Monday past or the one to come, and "Friday at noon" said on a Friday
    today or a week later (reading 54 #36); "this Friday" said on a Friday is "today"; "last
    Thursday" said on a Friday is yesterday to some and eight days ago to others (reading 69
    #35, and "last Monday" in reading 68 #34). "next Monday", "this Sunday" and "last Saturday"
    are one day."""
    words = expression.lower().split()
    for word, day in zip(["", *words], words):
        if day in _WEEKDAYS and word not in ("next", "this", "last") and _WEEKDAYS.index(day) == NOW.weekday():
            return False
        if day in _WEEKDAYS and word in ("next", "this"):
            later_this_week = _WEEKDAYS.index(day) > NOW.weekday()
            # (and "this Friday" said on a Friday is "today" to anyone: reading 61 #31)
            if (word == "next" and later_this_week) or (word == "this" and _WEEKDAYS.index(day) <= NOW.weekday()):
                return False
        if day in _WEEKDAYS and word == "last" and _WEEKDAYS.index(day) < NOW.weekday():
            return False
    return True


def country_phrase(name: str) -> str:
    """A country as it reads in a sentence: "the USA", "France"."""
    return f"the {name}" if name in _WITH_ARTICLE else name


class Currency(NamedTuple):
    code: str
    name: str  # the surface form people say: "euro", "Japanese yen"
    per_usd: float  # units of this currency one US dollar buys


CURRENCIES: tuple[Currency, ...] = (
    Currency("USD", "US dollar", 1.0),
    Currency("EUR", "euro", 0.92),
    Currency("GBP", "British pound", 0.79),
    Currency("JPY", "Japanese yen", 149.5),
    Currency("CAD", "Canadian dollar", 1.36),
    Currency("AUD", "Australian dollar", 1.53),
    Currency("NZD", "New Zealand dollar", 1.66),
    Currency("CHF", "Swiss franc", 0.88),
    Currency("SEK", "Swedish krona", 10.6),
    Currency("CNY", "Chinese yuan", 7.24),
    Currency("HKD", "Hong Kong dollar", 7.82),
    Currency("INR", "Indian rupee", 83.2),
    Currency("SGD", "Singapore dollar", 1.35),
    Currency("KRW", "South Korean won", 1330.0),
    Currency("MXN", "Mexican peso", 17.1),
    Currency("BRL", "Brazilian real", 4.95),
    Currency("ARS", "Argentine peso", 350.0),
    Currency("ZAR", "South African rand", 18.7),
    Currency("AED", "UAE dirham", 3.67),
    Currency("EGP", "Egyptian pound", 30.9),
    Currency("KES", "Kenyan shilling", 157.0),
)
CURRENCY_BY_CODE = {c.code: c for c in CURRENCIES}
# Cities that keep a currency of their own rather than their country's.
CITY_CURRENCIES = {"Hong Kong": "HKD"}


def exchange_rate(from_code: str, to_code: str) -> float:
    """Today's rate between two currencies, as every world quotes it: rounded to 6 decimals,
    and the rate conversions use, so an amount times the quoted rate is the converted amount."""
    return round(CURRENCY_BY_CODE[to_code].per_usd / CURRENCY_BY_CODE[from_code].per_usd, 6)


def city_currency(city: str) -> str:
    """The currency prices are in in a city: its country's, or its own (Hong Kong dollars, not yuan)."""
    return CITY_CURRENCIES.get(city) or COUNTRY_BY_NAME[CITY_BY_NAME[city].country].currency

FIRST_NAMES = (
    "Maria", "James", "Aisha", "Wei", "Lucas", "Sofia", "Kenji", "Amara", "Noah", "Elena",
    "Ravi", "Chloe", "Mateo", "Hannah", "Omar", "Yuki", "Liam", "Priya", "Ethan", "Zara",
    "Daniel", "Ingrid", "Tomas", "Fatima", "Oliver", "Mei", "Samuel", "Leila", "Hugo", "Nadia",
)
LAST_NAMES = (
    "Lopez", "Smith", "Okafor", "Zhang", "Martin", "Rossi", "Tanaka", "Mensah", "Johnson", "Petrova",
    "Patel", "Dubois", "Garcia", "Schmidt", "Haddad", "Sato", "Brown", "Sharma", "Wilson", "Khan",
    "Kim", "Larsen", "Novak", "Silva", "Clarke", "Chen", "Adeyemi", "Moreau", "Fischer", "Costa",
)


# Calling codes: a country's, or a city's own where it has one (Hong Kong is not dialled as +86).
CALLING_CODES = {
    "USA": 1, "Canada": 1, "Mexico": 52, "Brazil": 55, "Argentina": 54, "United Kingdom": 44, "France": 33,
    "Germany": 49, "Spain": 34, "Italy": 39, "Netherlands": 31, "Switzerland": 41, "Sweden": 46, "Egypt": 20,
    "Kenya": 254, "South Africa": 27, "United Arab Emirates": 971, "India": 91, "Singapore": 65, "China": 86,
    "Japan": 81, "South Korea": 82, "Australia": 61, "New Zealand": 64,
}
CITY_CALLING_CODES = {"Hong Kong": 852}


# The weekend where it is not Saturday and Sunday (Egypt rests on Friday and Saturday).
WEEKENDS = {"Egypt": (4, 5)}


def weekend_days(country: str) -> tuple[int, ...]:
    """The weekdays (0 = Monday) a country's working week leaves out."""
    return WEEKENDS.get(country, (5, 6))


def calling_code(city: str) -> int:
    """The code a phone number in this city starts with."""
    return CITY_CALLING_CODES.get(city, CALLING_CODES[CITY_BY_NAME[city].country])


def phone_number(rng: random.Random, city: str) -> str:
    """A made-up number in a city, as every world writes one: "+44-207-555-0142"."""
    return f"+{calling_code(city)}-{rng.randint(201, 989)}-555-{rng.randint(0, 9999):04d}"


# Books: one catalogue for every seed, so a course's textbook can be scanned, located and
# borrowed in the library, and its instructors are the library's authors.
SUBJECTS = (  # department code, subject, six topics in course order (101, 102, 201, 202, 301, 401)
    ("CS", "Computer Science", ("Programming Fundamentals", "Discrete Structures", "Data Structures",
                                "Computer Systems", "Algorithm Design", "Machine Learning")),
    ("MATH", "Mathematics", ("Calculus", "Linear Algebra", "Probability", "Real Analysis",
                             "Abstract Algebra", "Numerical Methods")),
    ("PHYS", "Physics", ("Classical Mechanics", "Electricity and Magnetism", "Waves and Optics",
                         "Thermal Physics", "Quantum Mechanics", "Condensed Matter Physics")),
    ("CHEM", "Chemistry", ("General Chemistry", "Organic Chemistry", "Analytical Chemistry",
                           "Physical Chemistry", "Inorganic Chemistry", "Biochemistry")),
    ("BIO", "Biology", ("Cell Biology", "Genetics", "Ecology", "Evolutionary Biology",
                        "Microbiology", "Neuroscience")),
    ("ECON", "Economics", ("Microeconomics", "Macroeconomics", "Econometrics", "Game Theory",
                           "Public Finance", "Development Economics")),
    ("HIST", "History", ("Ancient Civilisations", "Medieval Societies", "Early Modern Societies",
                         "Industrial Revolutions", "Contemporary History", "Historical Methods")),
    ("PSYC", "Psychology", ("Introductory Psychology", "Developmental Psychology", "Cognitive Psychology",
                            "Social Psychology", "Research Methods", "Clinical Psychology")),
)
TITLE_PATTERNS = ("Foundations of {t}", "Principles of {t}", "{t}: A Modern Introduction", "Essentials of {t}",
                  "{t} in Practice", "Understanding {t}", "A First Course in {t}", "{t}: Concepts and Applications")
PUBLISHERS = (("Harbour Academic Press", "200"), ("Meridian Books", "317"), ("Northgate Publishing", "452"),
              ("Cobalt University Press", "581"), ("Linden & Hale", "644"), ("Quarry Hill Press", "739"))
AUTHORS_PER_SUBJECT = 5


def isbn13_check(first12: str) -> str:
    """The check digit of an ISBN-13 whose first twelve digits are given."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def book_catalogue() -> list[dict]:
    """Every book: isbn, title, author, year, publisher, subject, topic (the same for every
    world seed; fresh rows on each call, so no world shares them)."""
    rng = random.Random("shared-book-catalogue-1")
    names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(names)
    books, used = [], set()
    for s_index, (_, subject, topics) in enumerate(SUBJECTS):
        authors = names[s_index * AUTHORS_PER_SUBJECT:(s_index + 1) * AUTHORS_PER_SUBJECT]
        for t_index, topic in enumerate(topics):
            for k, pattern in enumerate(rng.sample(TITLE_PATTERNS, 2)):
                publisher, code = rng.choice(PUBLISHERS)
                item = rng.randrange(10000, 100000)
                while (code, item) in used:
                    item = rng.randrange(10000, 100000)
                used.add((code, item))
                first12 = f"9781{code}{item:05d}"
                books.append({
                    "isbn": first12 + isbn13_check(first12),
                    "title": pattern.format(t=topic),
                    "author": authors[(2 * t_index + k) % AUTHORS_PER_SUBJECT],
                    "year": rng.randint(1998, 2024),
                    "publisher": publisher,
                    "subject": subject,
                    "topic": topic,
                })
    return books
