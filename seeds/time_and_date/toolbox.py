"""Time and Date: the clock, relative dates, date arithmetic, time zones, public holidays,
business days and sun times for the gazetteer's cities.

Times are local times as the places keep them: each gazetteer city has its IANA time zone, so
daylight saving and half-hour offsets are as they are (Berlin UTC+2 in June, Mumbai UTC+5:30). The simulated clock is `gazetteer.NOW`, read as local time in the default home
city, San Francisco; changing the home city moves the local clock with it.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    NOW,
    country_named,
    country_phrase,
    local_time,
    offset_text,
    one_day_to_all,
    utc_offset,
    weekend_days,
)
from factory.toolbox.sense import around, distinct, same_day, sensible, together, within
from factory.toolbox.user import USER

toolbox = Toolbox()

Moment = Annotated[str, Kind("datetime")]
Day = Annotated[str, Kind("date")]
City = Annotated[str, Kind("city")]
Country = Annotated[str, Kind("country")]
Weekday = Annotated[str, Kind("weekday")]
Offset = Annotated[float, Kind("utc_offset")]
Year = Annotated[int, Kind("year")]
Holiday = Annotated[str, Kind("holiday_name")]
# The country a day is checked in is a kind of its own: a country's own next holiday is never asked
# back about that country ("is the next UK holiday a holiday in the UK?"); another country is a
# real question.
HolidayCountry = Annotated[str, Kind("holiday_country")]
Latitude = Annotated[float, Kind("latitude")]
Longitude = Annotated[float, Kind("longitude")]

DEFAULT_HOME = USER.home_city  # NOW is local time here (factory.toolbox.user)
FIRST_YEAR, LAST_YEAR = 1970, 2100  # dates the tools accept
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
UNIT_MINUTES = {"minutes": 1, "hours": 60, "days": 1440, "weeks": 10080}
PARTS_OF_DAY = {"morning": 9, "afternoon": 15, "evening": 19, "tonight": 20, "night": 21}
DAY_START_HOUR = 9  # a named day without a time of day resolves to 09:00
NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

# Public holidays per country, as rules: ("fixed", month, day), ("fixed_not_sunday", month, day)
# (on a Sunday, the Saturday before), ("nth", month, weekday, n) with
# n = -1 for the last such weekday, ("easter", days after Easter Sunday), or
# ("on_or_after", month, day, weekday). Calendar dates only: substitute days off are not modelled,
# and holidays of a lunar calendar are given by their dates in 2025 and 2026 only ("lunar"; the
# tools say so). Japan's equinox days fall on March 20 and September 23 in both years.
NEW_YEAR = ("New Year's Day", ("fixed", 1, 1))
CHRISTMAS = ("Christmas Day", ("fixed", 12, 25))
BOXING = ("Boxing Day", ("fixed", 12, 26))
GOOD_FRIDAY = ("Good Friday", ("easter", -2))
EASTER_MONDAY = ("Easter Monday", ("easter", 1))
ASCENSION = ("Ascension Day", ("easter", 39))
WHIT_MONDAY = ("Whit Monday", ("easter", 50))
# Holidays of a lunar calendar, on their dates of the two years the world covers (the first day
# where a holiday spans several).
LUNAR_NEW_YEAR = ("Chinese New Year", ("lunar", {2025: (1, 29), 2026: (2, 17)}))
EID_AL_FITR = ("Eid al-Fitr", ("lunar", {2025: (3, 30), 2026: (3, 20)}))
ARAFAT_DAY = ("Arafat Day", ("lunar", {2025: (6, 5), 2026: (5, 26)}))
EID_AL_ADHA = ("Eid al-Adha", ("lunar", {2025: (6, 6), 2026: (5, 27)}))
ISLAMIC_NEW_YEAR = ("Islamic New Year", ("lunar", {2025: (6, 26), 2026: (6, 16)}))
PROPHETS_BIRTHDAY = ("Prophet's Birthday", ("lunar", {2025: (9, 4), 2026: (8, 25)}))
LABOUR_DAY = ("Labour Day", ("fixed", 5, 1))
ALL_SAINTS = ("All Saints' Day", ("fixed", 11, 1))
ASSUMPTION = ("Assumption Day", ("fixed", 8, 15))
EPIPHANY = ("Epiphany", ("fixed", 1, 6))
HOLIDAY_RULES: dict[str, list[tuple[str, tuple]]] = {
    "USA": [NEW_YEAR, ("Martin Luther King Jr. Day", ("nth", 1, 0, 3)), ("Washington's Birthday", ("nth", 2, 0, 3)),
            ("Memorial Day", ("nth", 5, 0, -1)), ("Juneteenth", ("fixed", 6, 19)), ("Independence Day", ("fixed", 7, 4)),
            ("Labor Day", ("nth", 9, 0, 1)), ("Columbus Day", ("nth", 10, 0, 2)), ("Veterans Day", ("fixed", 11, 11)),
            ("Thanksgiving Day", ("nth", 11, 3, 4)), CHRISTMAS],
    "Canada": [NEW_YEAR, GOOD_FRIDAY, ("Victoria Day", ("on_or_after", 5, 18, 0)), ("Canada Day", ("fixed", 7, 1)),
               ("Labour Day", ("nth", 9, 0, 1)), ("Thanksgiving Day", ("nth", 10, 0, 2)), CHRISTMAS, BOXING],
    "Mexico": [NEW_YEAR, ("Constitution Day", ("nth", 2, 0, 1)), ("Benito Juarez Day", ("nth", 3, 0, 3)),
               LABOUR_DAY, ("Independence Day", ("fixed", 9, 16)), ("Revolution Day", ("nth", 11, 0, 3)), CHRISTMAS],
    "Brazil": [NEW_YEAR, ("Carnival", ("easter", -47)), GOOD_FRIDAY, ("Tiradentes Day", ("fixed", 4, 21)),
               LABOUR_DAY, ("Independence Day", ("fixed", 9, 7)), ("Our Lady of Aparecida", ("fixed", 10, 12)),
               ("All Souls' Day", ("fixed", 11, 2)), ("Republic Day", ("fixed", 11, 15)), CHRISTMAS],
    "Argentina": [NEW_YEAR, ("Carnival", ("easter", -47)), ("Day of Remembrance", ("fixed", 3, 24)),
                  ("Malvinas Day", ("fixed", 4, 2)), GOOD_FRIDAY, LABOUR_DAY, ("May Revolution Day", ("fixed", 5, 25)),
                  ("Independence Day", ("fixed", 7, 9)), CHRISTMAS],
    "United Kingdom": [NEW_YEAR, GOOD_FRIDAY, EASTER_MONDAY, ("Early May Bank Holiday", ("nth", 5, 0, 1)),
                       ("Spring Bank Holiday", ("nth", 5, 0, -1)), ("Summer Bank Holiday", ("nth", 8, 0, -1)),
                       CHRISTMAS, BOXING],
    "France": [NEW_YEAR, EASTER_MONDAY, LABOUR_DAY, ("Victory in Europe Day", ("fixed", 5, 8)), ASCENSION,
               WHIT_MONDAY, ("Bastille Day", ("fixed", 7, 14)), ASSUMPTION, ALL_SAINTS,
               ("Armistice Day", ("fixed", 11, 11)), CHRISTMAS],
    "Germany": [NEW_YEAR, GOOD_FRIDAY, EASTER_MONDAY, LABOUR_DAY, ASCENSION, WHIT_MONDAY,
                ("German Unity Day", ("fixed", 10, 3)), CHRISTMAS, ("Second Day of Christmas", ("fixed", 12, 26))],
    "Spain": [NEW_YEAR, EPIPHANY, GOOD_FRIDAY, LABOUR_DAY, ASSUMPTION, ("National Day", ("fixed", 10, 12)),
              ALL_SAINTS, ("Constitution Day", ("fixed", 12, 6)), ("Immaculate Conception", ("fixed", 12, 8)), CHRISTMAS],
    "Italy": [NEW_YEAR, EPIPHANY, EASTER_MONDAY, ("Liberation Day", ("fixed", 4, 25)), LABOUR_DAY,
              ("Republic Day", ("fixed", 6, 2)), ASSUMPTION, ALL_SAINTS, ("Immaculate Conception", ("fixed", 12, 8)),
              CHRISTMAS, ("St Stephen's Day", ("fixed", 12, 26))],
    "Netherlands": [NEW_YEAR, GOOD_FRIDAY, EASTER_MONDAY, ("King's Day", ("fixed_not_sunday", 4, 27)),
                    ("Liberation Day", ("fixed", 5, 5)), ASCENSION, WHIT_MONDAY, CHRISTMAS, BOXING],
    "Switzerland": [NEW_YEAR, GOOD_FRIDAY, EASTER_MONDAY, ASCENSION, WHIT_MONDAY,
                    ("Swiss National Day", ("fixed", 8, 1)), CHRISTMAS, ("St Stephen's Day", ("fixed", 12, 26))],
    "Sweden": [NEW_YEAR, EPIPHANY, GOOD_FRIDAY, EASTER_MONDAY, LABOUR_DAY, ASCENSION,
               ("National Day", ("fixed", 6, 6)), ("Midsummer Eve", ("on_or_after", 6, 19, 4)), CHRISTMAS, BOXING],
    "Egypt": [("Coptic Christmas", ("fixed", 1, 7)), ("Revolution Day (January 25)", ("fixed", 1, 25)), EID_AL_FITR,
              ("Sham El-Nessim", ("lunar", {2025: (4, 21), 2026: (4, 13)})), ARAFAT_DAY, EID_AL_ADHA, ISLAMIC_NEW_YEAR,
              PROPHETS_BIRTHDAY,
              ("Sinai Liberation Day", ("fixed", 4, 25)), LABOUR_DAY, ("June 30 Revolution Day", ("fixed", 6, 30)),
              ("Revolution Day (July 23)", ("fixed", 7, 23)), ("Armed Forces Day", ("fixed", 10, 6))],
    "Kenya": [NEW_YEAR, GOOD_FRIDAY, EASTER_MONDAY, LABOUR_DAY, ("Madaraka Day", ("fixed", 6, 1)),
              ("Mashujaa Day", ("fixed", 10, 20)), ("Jamhuri Day", ("fixed", 12, 12)), CHRISTMAS, BOXING],
    "South Africa": [NEW_YEAR, ("Human Rights Day", ("fixed", 3, 21)), GOOD_FRIDAY, ("Family Day", ("easter", 1)),
                     ("Freedom Day", ("fixed", 4, 27)), ("Workers' Day", ("fixed", 5, 1)), ("Youth Day", ("fixed", 6, 16)),
                     ("National Women's Day", ("fixed", 8, 9)), ("Heritage Day", ("fixed", 9, 24)),
                     ("Day of Reconciliation", ("fixed", 12, 16)), CHRISTMAS, ("Day of Goodwill", ("fixed", 12, 26))],
    "United Arab Emirates": [NEW_YEAR, EID_AL_FITR, ARAFAT_DAY, EID_AL_ADHA, ISLAMIC_NEW_YEAR, PROPHETS_BIRTHDAY,
                             ("Commemoration Day", ("fixed", 12, 1)), ("National Day", ("fixed", 12, 2))],
    "India": [("Republic Day", ("fixed", 1, 26)), ("Holi", ("lunar", {2025: (3, 14), 2026: (3, 4)})),
              ("Independence Day", ("fixed", 8, 15)), ("Diwali", ("lunar", {2025: (10, 20), 2026: (11, 8)})),
              ("Gandhi Jayanti", ("fixed", 10, 2)), CHRISTMAS],
    "Singapore": [NEW_YEAR, LUNAR_NEW_YEAR, ("Hari Raya Puasa", ("lunar", {2025: (3, 31), 2026: (3, 21)})), GOOD_FRIDAY,
                  LABOUR_DAY, ("Vesak Day", ("lunar", {2025: (5, 12), 2026: (5, 31)})),
                  ("Hari Raya Haji", ("lunar", {2025: (6, 7), 2026: (5, 27)})), ("National Day", ("fixed", 8, 9)),
                  ("Deepavali", ("lunar", {2025: (10, 20), 2026: (11, 8)})), CHRISTMAS],
    "China": [NEW_YEAR, ("Spring Festival", ("lunar", {2025: (1, 29), 2026: (2, 17)})),
              ("Qingming Festival", ("lunar", {2025: (4, 4), 2026: (4, 5)})), LABOUR_DAY,
              ("Dragon Boat Festival", ("lunar", {2025: (5, 31), 2026: (6, 19)})),
              ("Mid-Autumn Festival", ("lunar", {2025: (10, 6), 2026: (9, 25)})), ("National Day", ("fixed", 10, 1))],
    "Japan": [NEW_YEAR, ("Coming of Age Day", ("nth", 1, 0, 2)), ("National Foundation Day", ("fixed", 2, 11)),
              ("Emperor's Birthday", ("fixed", 2, 23)), ("Vernal Equinox Day", ("fixed", 3, 20)),
              ("Showa Day", ("fixed", 4, 29)),
              ("Constitution Memorial Day", ("fixed", 5, 3)), ("Greenery Day", ("fixed", 5, 4)),
              ("Children's Day", ("fixed", 5, 5)), ("Marine Day", ("nth", 7, 0, 3)), ("Mountain Day", ("fixed", 8, 11)),
              ("Respect for the Aged Day", ("nth", 9, 0, 3)), ("Autumnal Equinox Day", ("fixed", 9, 23)),
              ("Sports Day", ("nth", 10, 0, 2)),
              ("Culture Day", ("fixed", 11, 3)), ("Labour Thanksgiving Day", ("fixed", 11, 23))],
    "South Korea": [NEW_YEAR, ("Seollal", ("lunar", {2025: (1, 29), 2026: (2, 17)})),
                    ("Independence Movement Day", ("fixed", 3, 1)), ("Children's Day", ("fixed", 5, 5)),
                    ("Buddha's Birthday", ("lunar", {2025: (5, 5), 2026: (5, 24)})),
                    ("Chuseok", ("lunar", {2025: (10, 6), 2026: (9, 25)})),
                    ("Memorial Day", ("fixed", 6, 6)), ("Liberation Day", ("fixed", 8, 15)),
                    ("National Foundation Day", ("fixed", 10, 3)), ("Hangul Day", ("fixed", 10, 9)), CHRISTMAS],
    "Australia": [NEW_YEAR, ("Australia Day", ("fixed", 1, 26)), GOOD_FRIDAY, EASTER_MONDAY,
                  ("Anzac Day", ("fixed", 4, 25)), ("King's Birthday", ("nth", 6, 0, 2)), CHRISTMAS, BOXING],
    "New Zealand": [NEW_YEAR, ("Day after New Year's Day", ("fixed", 1, 2)), ("Waitangi Day", ("fixed", 2, 6)),
                    GOOD_FRIDAY, EASTER_MONDAY, ("Anzac Day", ("fixed", 4, 25)), ("King's Birthday", ("nth", 6, 0, 1)),
                    ("Labour Day", ("nth", 10, 0, 4)), CHRISTMAS, BOXING],
}


def easter_sunday(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous Gregorian computus)."""
    golden = year % 19
    century, rest = divmod(year, 100)
    leap_c, leap_r = divmod(century, 4)
    correction = (century + 8) // 25
    moon = (century - correction + 1) // 3
    epact = (19 * golden + century - leap_c - moon + 15) % 30
    q, k = divmod(rest, 4)
    weekday = (32 + 2 * leap_r + 2 * q - epact - k) % 7
    shift = (golden + 11 * epact + 22 * weekday) // 451
    month, day = divmod(epact + weekday - 7 * shift + 114, 31)
    return date(year, month, day + 1)


def _rule_date(rule: tuple, year: int) -> date | None:
    kind = rule[0]
    if kind == "lunar":
        return date(year, *rule[1][year]) if year in rule[1] else None
    if kind == "fixed":
        return date(year, rule[1], rule[2])
    if kind == "fixed_not_sunday":  # a Sunday's holiday held the day before (King's Day 2025: April 26)
        day = date(year, rule[1], rule[2])
        return day - timedelta(days=1) if day.weekday() == 6 else day
    if kind == "easter":
        return easter_sunday(year) + timedelta(days=rule[1])
    if kind == "on_or_after":
        start = date(year, rule[1], rule[2])
        return start + timedelta(days=(rule[3] - start.weekday()) % 7)
    _, month, weekday, n = rule
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = (date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def holidays_in(country: str, year: int) -> list[tuple[date, str]]:
    """The public holidays of a country in a year, in date order."""
    return sorted((day, name) for name, rule in HOLIDAY_RULES[country] if (day := _rule_date(rule, year)) is not None)


@dataclass
class TimeWorld(World):
    cities: dict[str, dict] = field(default_factory=dict)  # city → country, lat, lon, utc_offset
    holidays: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # country → (date, name) of the year around NOW
    search_terms: list[str] = field(default_factory=list)


@toolbox.world
def build_world(rng: random.Random) -> TimeWorld:
    cities = {c.name: {"country": c.country, "latitude": c.latitude, "longitude": c.longitude} for c in CITIES}
    holidays = {country: [(d.isoformat(), name) for year in (NOW.year, NOW.year + 1) for d, name in holidays_in(country, year)]
                for country in HOLIDAY_RULES}
    # Search phrases: a sample of city, country and holiday words, drawn per world.
    words = sorted({c.name.lower() for c in CITIES} | {c.lower() for c in HOLIDAY_RULES}
                   | {name.lower() for rules in HOLIDAY_RULES.values() for name, _ in rules if "(" not in name})
    return TimeWorld(cities=cities, holidays=holidays, search_terms=sorted(rng.sample(words, 60)),
                     state={"home_city": DEFAULT_HOME})


# --- parsing and shared helpers -----------------------------------------------------------

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MOMENT_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def parse_day(text: str, name: str = "date") -> date:
    require(isinstance(text, str) and bool(_DATE_RE.fullmatch(text.strip())), f"{name} {text!r} is not in YYYY-MM-DD format")
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise ToolError(f"{name} {text!r} is not a real calendar date") from None
    require(FIRST_YEAR <= day.year <= LAST_YEAR, f"{name} {text} is outside the supported years {FIRST_YEAR}-{LAST_YEAR}")
    return day


def parse_moment(text: str, name: str = "datetime") -> datetime:
    require(isinstance(text, str) and bool(_MOMENT_RE.fullmatch(text.strip())),
            f"{name} {text!r} is not in YYYY-MM-DDTHH:MM format (24-hour clock)")
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ToolError(f"{name} {text!r} is not a real date and time") from None
    require(FIRST_YEAR <= moment.year <= LAST_YEAR, f"{name} {text} is outside the supported years {FIRST_YEAR}-{LAST_YEAR}")
    return moment


def fmt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def _city(name: str) -> dict:
    w = world(TimeWorld)
    if name in w.cities:
        return w.cities[name]
    folded = {c.lower(): c for c in w.cities}
    require(name.strip().lower() in folded,
            f"unknown city {name!r}; known cities include {', '.join(sorted(w.cities)[:8])}, ... (use the English city name)")
    return w.cities[folded[name.strip().lower()]]


def _city_name(name: str) -> str:
    _city(name)
    return next(c for c in world(TimeWorld).cities if c.lower() == name.strip().lower())


def _country(name: str) -> str:
    name = country_named(name) or name  # "the United States" is the USA
    folded = {c.lower(): c for c in HOLIDAY_RULES}
    require(name.strip().lower() in folded, f"no holiday calendar for {name!r}; known countries: {', '.join(sorted(HOLIDAY_RULES))}")
    return folded[name.strip().lower()]


def local_now() -> datetime:
    """The current local time in the user's home city."""
    w = world(TimeWorld)
    home = w.state.get("home_city", DEFAULT_HOME)
    return local_time(home, DEFAULT_HOME, NOW)


def _holiday_map(country: str, start: date, end: date) -> dict[date, str]:
    found: dict[date, str] = {}
    for year in range(start.year, end.year + 1):
        for day, name in holidays_in(country, year):
            found.setdefault(day, name)
    return found


def _is_business_day(day: date, holidays: dict[date, str], country: str) -> bool:
    """A day of the country's working week (Sunday to Thursday in Egypt) that is no public holiday."""
    return day.weekday() not in weekend_days(country) and day not in holidays


def _parse_clock(text: str) -> tuple[int, int] | None:
    """'5pm', '5:30 pm', '17:00', 'noon', 'midnight' → (hour, minute); None when not a time."""
    text = text.strip()
    if text in ("noon", "midday"):
        return 12, 0
    if text == "midnight":
        return 0, 0
    match = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", text)
    if not match:
        return None
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), match.group(3)
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "pm" else 0)
    elif match.group(2) is None:
        return None  # a bare number is not a time of day
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def _split_time(text: str) -> tuple[str, tuple[int, int] | None]:
    """Split a trailing time of day ('at 5pm', 'morning', '17:30') off a day expression."""
    for part, hour in PARTS_OF_DAY.items():
        if text.endswith(" " + part) and part != "tonight":
            return text[: -len(part) - 1].strip(), (hour, 0)
    match = re.search(r"(?:\s+at)?\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon|midday|midnight)$", text)
    if match:
        clock = _parse_clock(match.group(1))
        if clock is not None:
            return text[: match.start()].strip(), clock
    return text, None


def _count(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return NUMBER_WORDS.get(token)


def resolve_expression(expression: str, now: datetime) -> datetime:
    """The moment a relative expression names, seen from `now`; ToolError when it is not understood."""
    text = " ".join(expression.lower().replace(",", " ").split())
    text = re.sub(r"^(on|at|by)\s+", "", text)
    require(bool(text), "the expression is empty; say something like 'next Friday 5pm' or 'in 3 days'")
    if text in ("now", "right now"):
        return now
    offset = re.fullmatch(r"in\s+(\w+)\s+(minute|hour|day|week)s?", text) or \
        re.fullmatch(r"(\w+)\s+(minute|hour|day|week)s?\s+from\s+now", text)
    if offset and _count(offset.group(1)) is not None:
        return now + timedelta(minutes=_count(offset.group(1)) * UNIT_MINUTES[offset.group(2) + "s"])
    ago = re.fullmatch(r"(\w+)\s+(minute|hour|day|week)s?\s+ago", text)
    if ago and _count(ago.group(1)) is not None:
        return now - timedelta(minutes=_count(ago.group(1)) * UNIT_MINUTES[ago.group(2) + "s"])
    if text == "tonight":
        return now.replace(hour=PARTS_OF_DAY["tonight"], minute=0)
    day_text, clock = _split_time(text)
    today = now.date()
    day: date | None = None
    if day_text == "today":
        day = today
    elif day_text == "tomorrow":
        day = today + timedelta(days=1)
    elif day_text in ("the day after tomorrow", "day after tomorrow"):
        day = today + timedelta(days=2)
    elif day_text == "yesterday":
        day = today - timedelta(days=1)
    elif day_text == "next week":
        day = today + timedelta(days=7 - today.weekday())
    elif day_text == "next month":
        day = date(today.year + today.month // 12, today.month % 12 + 1, 1)
    elif day_text in ("end of the week", "the end of the week", "end of week"):
        day = today + timedelta(days=(4 - today.weekday()) % 7)
        clock = clock or (17, 0)
    elif day_text in ("end of the month", "the end of the month", "end of month"):
        day = date(today.year + today.month // 12, today.month % 12 + 1, 1) - timedelta(days=1)
        clock = clock or (17, 0)
    else:
        named = re.fullmatch(r"(next|last|this|coming)?\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday)", day_text)
        if named:
            target = [w.lower() for w in WEEKDAYS].index(named.group(2))
            which = named.group(1) or "this"
            if which in ("next", "coming"):
                day = today + timedelta(days=(target - today.weekday() - 1) % 7 + 1)
            elif which == "last":
                day = today - timedelta(days=(today.weekday() - target - 1) % 7 + 1)
            else:  # "this Friday" / "Friday": today or the next one
                day = today + timedelta(days=(target - today.weekday()) % 7)
    if day is None:
        raise ToolError(
            f"cannot understand {expression!r}; use forms like 'tomorrow 9am', 'next Friday 5pm', "
            "'last Sunday', 'in 3 days', '2 weeks ago', 'next week' or 'end of the month'"
        )
    hour, minute = clock if clock else (DAY_START_HOUR, 0)
    return datetime(day.year, day.month, day.day, hour, minute)


_TEXT_FORMATS = ("%B %d %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d", "%m/%d/%Y", "%d.%m.%Y", "%A %B %d %Y")


def parse_written_date(text: str) -> date:
    cleaned = " ".join(re.sub(r"(\d)(st|nd|rd|th)\b", r"\1", text.replace(",", " ")).split())
    cleaned = re.sub(r"^(the|on)\s+", "", cleaned, flags=re.IGNORECASE)
    cleaned = re.sub(r"\bof\s+", "", cleaned)
    if _DATE_RE.fullmatch(cleaned):
        return parse_day(cleaned)
    for form in _TEXT_FORMATS:
        try:
            day = datetime.strptime(cleaned, form).date()
        except ValueError:
            continue
        require(FIRST_YEAR <= day.year <= LAST_YEAR, f"{text!r} is outside the supported years {FIRST_YEAR}-{LAST_YEAR}")
        return day
    raise ToolError(
        f"cannot read {text!r} as a date; write it like 'June 20, 2025', '20 June 2025', '2025/06/20', "
        "'06/20/2025' (month first) or '20.06.2025' (day first), always with the year"
    )


def sun_times(latitude: float, longitude: float, offset: float, day: date) -> tuple[datetime, datetime, float]:
    """Sunrise, sunset (local time at `offset` hours from UTC) and daylight hours: a simple solar model
    (declination from the day of the year, no equation of time or refraction)."""
    n = day.timetuple().tm_yday
    declination = math.radians(23.44) * math.sin(2 * math.pi * (284 + n) / 365)
    lat = math.radians(max(-89.9, min(89.9, latitude)))
    cos_h = max(-1.0, min(1.0, -math.tan(lat) * math.tan(declination)))
    half_day = math.degrees(math.acos(cos_h)) / 15  # hours from solar noon to sunset
    noon = 12 + offset - longitude / 15
    base = datetime(day.year, day.month, day.day)
    sunrise = base + timedelta(minutes=round(max(0.0, noon - half_day) * 60))
    sunset = base + timedelta(minutes=min(round(min(24.0, noon + half_day) * 60), 23 * 60 + 59))
    # the daylight the two times give, as anyone subtracting them finds it (12.02 h from 07:04 to
    # 19:05, not the unrounded 12.03: reading 59 #40); polar night and midnight sun stay 0 and 24
    rounded = (round((noon + half_day) * 60) - round((noon - half_day) * 60)) / 60  # the minutes the times show
    return sunrise, sunset, round(2 * half_day if half_day in (0.0, 12.0) else rounded, 2)


# --- what makes a request sensible ----------------------------------------------------------

# Cities, countries, days, moments and points named by other seeds (a flight's arrival, a
# contact's city, a delivery date, a listing's position) have clocks, holidays and daylight too.
toolbox.bridge("city", "country", "date", "datetime", "latitude", "longitude")
toolbox.written_as("country", country_phrase)
toolbox.written_as("holiday_country", country_phrase)
# A date is stated without its weekday: "what day of the week is Friday, June 20" answers itself.
toolbox.written_as("date", lambda text: re.sub(r"^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, ", "", text))

# Shifts a person adds to a clock time: below or beyond these they use another unit, and days or
# weeks after a clock time ("8 weeks after sunset") are a date question, not a time question.
SHIFT_RANGE = {"minutes": (10, 240), "hours": (2, 48)}


def _counted_shift(args: dict[str, Any]) -> bool:
    low, high = SHIFT_RANGE.get(args["unit"], (1, 0))
    return low <= args["amount"] <= high


def _different_clocks(args: dict[str, Any]) -> bool:
    a, b = args["from_city"], args["to_city"]
    return a not in CITY_BY_NAME or b not in CITY_BY_NAME or _now_in(a) != _now_in(b)


def _now_in(city: str) -> str:
    return fmt(local_time(city, DEFAULT_HOME, NOW))


def _not_a_current_time(args: dict[str, Any]) -> bool:
    """Converting the time it is now somewhere ("the current time where I live, in Tokyo time")
    is asking for the local time in the other city in a roundabout way, or, read as another
    city's clock, a mistake."""
    return args["moment"] not in {_now_in(c.name) for c in CITIES}


def _short_period(args: dict[str, Any]) -> bool:
    try:
        days = (date.fromisoformat(str(args["end"])[:10]) - date.fromisoformat(str(args["start"])[:10])).days
    except ValueError:
        return True  # the tool itself rejects an unreadable date
    return abs(days) <= 400


# --- value generators ------------------------------------------------------------------------

VALUE_DAYS = [NOW.date() + timedelta(days=k) for k in range(-30, 91)]


@toolbox.values_for("date")
def _dates(w: TimeWorld) -> list[str]:
    return [d.isoformat() for d in VALUE_DAYS]


@toolbox.values_for("datetime")
def _datetimes(w: TimeWorld) -> list[str]:
    return [f"{d.isoformat()}T{h:02d}:{m:02d}" for d in VALUE_DAYS[::3] for h in (7, 9, 11, 13, 15, 17, 19) for m in (0, 30)]


@toolbox.values_for("city")
def _cities(w: TimeWorld) -> list[str]:
    return sorted(w.cities)


@toolbox.values_for("country")
def _countries(w: TimeWorld) -> list[str]:
    return sorted(HOLIDAY_RULES)


@toolbox.values_for("holiday_country")
def _holiday_countries(w: TimeWorld) -> list[str]:
    return sorted(HOLIDAY_RULES)


@toolbox.values_for("year")
def _years(w: TimeWorld) -> list[int]:
    return [NOW.year - 1, NOW.year, NOW.year + 1]


@toolbox.values_for("weekday")
def _weekdays(w: TimeWorld) -> list[str]:
    return list(WEEKDAYS)


@toolbox.values_for("time_amount")
def _amounts(w: TimeWorld) -> list[int]:
    return [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30, 45, 90]  # from 2: the unit names are plural


@toolbox.values_for("business_day_count")
def _business_days(w: TimeWorld) -> list[int]:
    return [2, 3, 5, 7, 10, 15, 20, 30]


@toolbox.values_for("latitude")
def _latitudes(w: TimeWorld) -> list[float]:
    return sorted({row["latitude"] for row in w.cities.values()})


@toolbox.values_for("longitude")
def _longitudes(w: TimeWorld) -> list[float]:
    return sorted({row["longitude"] for row in w.cities.values()})


@toolbox.values_for("latitude", "longitude")
def _points(w: TimeWorld) -> list[tuple[float, float]]:
    """Coordinates as pairs: each city's own latitude and longitude."""
    return sorted((row["latitude"], row["longitude"]) for row in w.cities.values())


@toolbox.values_for("relative_time")
def _expressions(w: TimeWorld) -> list[str]:
    """How people name a moment relative to now, days capitalised as they are written ("next
    Friday 5pm": a lower-case "next friday" in a request is a glitch to a reader)."""
    days = list(WEEKDAYS)
    # (not "today" alone: what date and time "today" means is no question a person asks)
    forms = ["tomorrow", "yesterday", "the day after tomorrow", "tonight", "tomorrow morning",
             "tomorrow afternoon", "tomorrow evening", "tomorrow at noon", "today at 4pm",
             "the end of the month", "3 days ago", "a week ago", "2 weeks ago"]
    # (not "the end of the week": Friday at 5pm to the tool, Sunday to many a reader)
    # offsets from now ("in 2 hours", "2 hours from now") are understood but not offered: as a day or a
    # moment in a request they read badly ("from in 2 hours", "on 2 weeks from now")
    forms += [f"next {d}" for d in days] + [f"last {d}" for d in days] + [f"this {d}" for d in days[:5]]
    forms += ["next Friday 5pm", "next Monday at 9:30am", "next Tuesday morning", "next Thursday afternoon",
              "last Sunday evening", "this Saturday at 10am", "next Wednesday at 14:00", "Monday at noon"]
    return [form for form in forms if one_day_to_all(form)]  # not "this Monday" said on a Friday: past or coming?


@toolbox.values_for("date_text")
def _date_texts(w: TimeWorld) -> list[str]:
    """Dates as people write them."""
    forms = []
    for i, d in enumerate(VALUE_DAYS[::4]):
        month = MONTHS[d.month - 1]
        style = i % 6
        if style == 0:
            forms.append(f"{month} {d.day}, {d.year}")
        elif style == 1:
            forms.append(f"{d.day} {month} {d.year}")
        elif style == 2:
            suffix = "th" if 11 <= d.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
            forms.append(f"{month[:3]} {d.day}{suffix} {d.year}")
        elif style == 3:
            forms.append(f"{d.month:02d}/{d.day:02d}/{d.year}")
        elif style == 4:
            forms.append(f"{d.day:02d}.{d.month:02d}.{d.year}")
        else:
            forms.append(f"{d.year}/{d.month:02d}/{d.day:02d}")
    return forms


@toolbox.values_for("time_search_terms")
def _search_terms(w: TimeWorld) -> list[str]:
    return list(w.search_terms)


# --- tools -----------------------------------------------------------------------------------

@toolbox.tool
def get_current_local_datetime() -> tuple[str, Day, City]:
    """Get the current local date and time in the user's home city.

    Returns:
        now: the current local date and time (YYYY-MM-DDTHH:MM).
        today: today's date in the home city (YYYY-MM-DD).
        home_city: the user's home city.
    """
    w = world(TimeWorld)
    now = local_now()
    return fmt(now), now.date().isoformat(), w.state.get("home_city", DEFAULT_HOME)


@toolbox.tool(tags=("canonicalise",))
def resolve_relative_time(expression: Annotated[str, Kind("relative_time")]) -> tuple[Moment, Day]:
    """Resolve a relative time expression (seen from the current local time) to an exact date and time.

    Args:
        expression: Relative expression in English, e.g. "next Friday 5pm", "tomorrow morning", "last Sunday", "in 3 days", "2 hours from now" or "2 weeks ago". A named day without a time of day means 09:00; "next Friday" is the first Friday after today, "this Friday" is today or the coming Friday.

    Returns:
        moment: the resolved date and time (YYYY-MM-DDTHH:MM).
        day: the resolved date (YYYY-MM-DD).
    """
    moment = resolve_expression(expression, local_now())
    return fmt(moment), moment.date().isoformat()


@toolbox.tool(
    tags=("canonicalise", "self_evident"),  # "11 June 2025" is 2025-06-11 to anyone: calling it is a detour
)
def parse_date_text(text: Annotated[str, Kind("date_text")]) -> Day:
    """Convert a date written in words or a regional format to an ISO date.

    Args:
        text: The written date including its year, e.g. "June 20, 2025", "20 June 2025", "Jun 20th 2025", "06/20/2025" (month first), "20.06.2025" (day first) or "2025/06/20".

    Returns:
        day: the standard date (YYYY-MM-DD).
    """
    return parse_written_date(text).isoformat()


@toolbox.tool(
    sense=(sensible("a shift a person counts in these units", ("amount", "unit"), _counted_shift),),
    tags=("arithmetic",),
)
def add_time_to_datetime(start: Moment, amount: Annotated[int, Kind("time_amount")],
                         unit: Literal["minutes", "hours", "days", "weeks"]) -> str:
    """Shift a date and time by a number of minutes, hours, days or weeks.

    Args:
        start: The starting date and time (YYYY-MM-DDTHH:MM).
        amount: How many units to add, between -10000 and 10000 (negative moves back in time).
        unit: The unit of the amount: "minutes", "hours", "days" or "weeks".

    Returns:
        moment: the shifted date and time (YYYY-MM-DDTHH:MM).
    """
    moment = parse_moment(start, "start")
    require(-10000 <= amount <= 10000, f"amount {amount} is out of range: use a value between -10000 and 10000")
    shifted = moment + timedelta(minutes=amount * UNIT_MINUTES[unit])
    require(FIRST_YEAR <= shifted.year <= LAST_YEAR, f"the result falls outside the supported years {FIRST_YEAR}-{LAST_YEAR}")
    return fmt(shifted)


def _within_a_week(args: dict) -> bool:
    """A gap people count in minutes and hours: a week at most (from 7:30 am on July 4 to a
    sunset in October is no such gap)."""
    try:
        return parse_moment(str(args["end"]), "end") - parse_moment(str(args["start"]), "start") <= timedelta(days=7)
    except ToolError:
        return True  # the tool itself rejects an unreadable time


@toolbox.tool(
    # both ends read on one clock: times of different cities are not subtracted
    sense=(distinct("start", "end"), together("start", "end"),
           sensible("the period runs backwards", ("start", "end"), lambda a: str(a["start"]) < str(a["end"])),
           sensible("months counted in minutes and hours", ("start", "end"), _within_a_week)),
    tags=("arithmetic",),
)
def get_time_between(start: Moment, end: Moment) -> tuple[int, float]:
    """Compute the time elapsed between two dates and times (both in the same time zone).

    Args:
        start: The earlier date and time (YYYY-MM-DDTHH:MM).
        end: The later date and time (YYYY-MM-DDTHH:MM); if it is before start the results are negative.

    Returns:
        minutes: the difference in whole minutes.
        hours: the difference in hours (rounded to two decimals).
    """
    delta = parse_moment(end, "end") - parse_moment(start, "start")
    minutes = int(delta.total_seconds() // 60)
    return minutes, round(minutes / 60, 2)


@toolbox.tool(tags=("arithmetic",))
def get_weekday(date: Day) -> tuple[str, bool]:
    """Find the day of the week of a date.

    Args:
        date: The date (YYYY-MM-DD).

    Returns:
        weekday: the weekday name (English, e.g. Friday).
        is_weekend: whether the date falls on a Saturday or Sunday.
    """
    day = parse_day(date)
    return WEEKDAYS[day.weekday()], day.weekday() >= 5


@toolbox.tool(tags=("arithmetic",))
def get_week_number(date: Day) -> tuple[int, int]:
    """Get the ISO 8601 week number of a date.

    Args:
        date: The date (YYYY-MM-DD).

    Returns:
        week: the ISO week number (1-53).
        week_year: the ISO week-numbering year (it can differ from the calendar year around New Year).
    """
    iso = parse_day(date).isocalendar()
    return iso.week, iso.year


def _not_the_next_day(args: dict[str, Any]) -> bool:
    try:
        after = date.fromisoformat(str(args["after"]))
    except ValueError:
        return True  # the tool rejects it
    return str(args["weekday"]).strip().lower() != WEEKDAYS[(after.weekday() + 1) % 7].lower()


@toolbox.tool(
    # The Thursday after a Wednesday is the next day: nobody looks that up.
    sense=(sensible("the weekday asked is the very next day", ("weekday", "after"), _not_the_next_day),
           around("after", before=0, after=180)),  # from yesterday, the next Saturday is "this Saturday"
    tags=("arithmetic",),
)
def get_next_weekday_date(weekday: Weekday, after: Day) -> str:
    """Find the date of the first given weekday strictly after a date.

    Args:
        weekday: English weekday name, e.g. "Monday".
        after: The reference date (YYYY-MM-DD); the answer is always later than it.

    Returns:
        day: the date of that weekday (YYYY-MM-DD).
    """
    names = [d.lower() for d in WEEKDAYS]
    require(weekday.strip().lower() in names, f"unknown weekday {weekday!r}; use an English name such as 'Monday'")
    start = parse_day(after, "after")
    target = names.index(weekday.strip().lower())
    return (start + timedelta(days=(target - start.weekday() - 1) % 7 + 1)).isoformat()


@toolbox.tool(
    # (a moment converted to the city of an event is a moment of the event's day: not July 16 in
    # the city of a June 19 lunch, reading 48 #1)
    sense=(distinct("from_city", "to_city"),
           sensible("both cities keep the same clock", ("from_city", "to_city"), _different_clocks),
           sensible("the current time is converted (ask for the local time there instead)", ("moment",),
                    _not_a_current_time), same_day("moment")),
)
def convert_time_between_cities(moment: Moment, from_city: City, to_city: City) -> str:
    """Convert a local date and time in one city to the local date and time in another city.

    Args:
        moment: The local date and time in from_city (YYYY-MM-DDTHH:MM).
        from_city: The city whose local time the moment is given in, e.g. "London".
        to_city: The city to convert to, e.g. "Tokyo".

    Returns:
        converted: the converted local date and time (YYYY-MM-DDTHH:MM, in the target city).
    """
    start = parse_moment(moment, "moment")
    return fmt(local_time(_city_name(to_city), _city_name(from_city), start))


@toolbox.tool
def get_city_utc_offset(city: City) -> tuple[Offset, Country]:
    """Get the UTC offset a city keeps today (daylight saving included) and the country it is in.

    Args:
        city: City name, e.g. "Mumbai".

    Returns:
        utc_offset: the city's UTC offset in hours today, daylight saving included (5.5 is five and a half hours).
        country: the country the city is in.
    """
    row = _city(city)
    return utc_offset(_city_name(city), local_time(_city_name(city), DEFAULT_HOME, NOW)), row["country"]


@toolbox.tool
def get_local_time_in(city: City) -> Moment:
    """Get the current local date and time in a city.

    Args:
        city: City name, e.g. "Sydney".

    Returns:
        local_time: the current local date and time there (YYYY-MM-DDTHH:MM).
    """
    return fmt(local_time(_city_name(city), DEFAULT_HOME, NOW))


@toolbox.tool(
    # The phrasings plan ahead ("I'm planning 2024 in Egypt" read as a plan for a past year).
    sense=(within("year", NOW.year, NOW.year + 1),),
)
def list_public_holidays(country: Country, year: Year) -> list[str]:
    """List a country's public holidays in a year (holidays of a lunar calendar are listed for 2025 and 2026 only; substitute days off are not included).

    Args:
        country: Country name, e.g. "Germany".
        year: Calendar year between 1970 and 2100.

    Returns:
        holidays: the holidays of that year (one "YYYY-MM-DD Holiday Name" entry each, in date order).
    """
    name = _country(country)
    require(FIRST_YEAR <= year <= LAST_YEAR, f"year {year} is outside the supported years {FIRST_YEAR}-{LAST_YEAR}")
    return [f"{d.isoformat()} {holiday}" for d, holiday in holidays_in(name, year)]


@toolbox.tool(sense=(around("after", before=0, after=180),))
def get_next_public_holiday(country: Country, after: Day) -> tuple[Holiday, Day]:
    """Find the first public holiday of a country on or after a date (holidays of a lunar calendar are listed for 2025 and 2026 only; substitute days off are not included).

    Args:
        country: Country name, e.g. "Japan".
        after: The date to search from (YYYY-MM-DD), included.

    Returns:
        holiday: the holiday's name.
        day: the holiday's date (YYYY-MM-DD).
    """
    name = _country(country)
    start = parse_day(after, "after")
    require(start.year < LAST_YEAR, f"no holiday data after {LAST_YEAR}")
    for year in (start.year, start.year + 1):
        for day, holiday in holidays_in(name, year):
            if day >= start:
                return holiday, day.isoformat()
    raise ToolError(f"no public holiday found in {name} within a year of {after}")


@toolbox.tool
def is_public_holiday(date: Day, country: HolidayCountry) -> tuple[bool, str]:
    """Check whether a date is a public holiday in a country (holidays of a lunar calendar are listed for 2025 and 2026 only; substitute days off are not included).

    Args:
        date: The date (YYYY-MM-DD).
        country: Country name, e.g. "France".

    Returns:
        is_holiday: whether the date is a public holiday there.
        holiday: the name of the holiday (empty when the date is not a holiday).
    """
    day = parse_day(date)
    holidays = dict(holidays_in(_country(country), day.year))
    return day in holidays, holidays.get(day, "")


@toolbox.tool(
    # the tool takes either order, but a person names the earlier day first
    sense=(distinct("start", "end"), sensible("a period a person counts working days over", ("start", "end"), _short_period),
           sensible("the period runs backwards", ("start", "end"), lambda a: str(a["start"]) < str(a["end"]))),
)
def count_business_days(start: Day, end: Day, country: Country) -> int:
    """Count the business days (the country's working week, Monday to Friday in most countries; no public holidays) between two dates, both included.

    Args:
        start: One end of the period (YYYY-MM-DD).
        end: The other end of the period (YYYY-MM-DD); the order of the two dates does not matter.
        country: Country whose public holidays are excluded, e.g. "United Kingdom".

    Returns:
        business_days: the number of business days in the period.
    """
    first, last = sorted((parse_day(start, "start"), parse_day(end, "end")))
    require((last - first).days <= 3700, "the period is longer than ten years; split it into shorter periods")
    name = _country(country)
    holidays = _holiday_map(name, first, last)
    return sum(_is_business_day(first + timedelta(days=k), holidays, name) for k in range((last - first).days + 1))


@toolbox.tool(
    # Deliveries, transfers and deadlines lie ahead: "on which date does the money land?" is not
    # asked of a start three weeks ago.
    sense=(within("days", 1, 60), around("start", before=3, after=120)),
)
def add_business_days(start: Day, days: Annotated[int, Kind("business_day_count")], country: Country) -> str:
    """Find the date a number of business days after a date, skipping the country's weekend (Friday and Saturday in Egypt) and public holidays.

    Args:
        start: The starting date (YYYY-MM-DD), not counted itself.
        days: Number of business days to move forward, between 1 and 500.
        country: Country whose public holidays are skipped, e.g. "Australia".

    Returns:
        day: the resulting business day (YYYY-MM-DD).
    """
    first = parse_day(start, "start")
    require(1 <= days <= 500, f"days must be between 1 and 500, got {days}")
    name = _country(country)
    holidays = _holiday_map(name, first, first + timedelta(days=days * 2 + 30))
    day, left = first, days
    while left:
        day += timedelta(days=1)
        left -= _is_business_day(day, holidays, name)
    require(day.year <= LAST_YEAR, f"the result falls after {LAST_YEAR}")
    return day.isoformat()


@toolbox.tool
def get_sunrise_sunset(city: City, date: Day) -> tuple[Moment, Moment]:
    """Get the sunrise and sunset times of a city on a date (local time, daylight saving included).

    Args:
        city: City name, e.g. "Stockholm".
        date: The date (YYYY-MM-DD).

    Returns:
        sunrise: the local date and time of sunrise (YYYY-MM-DDTHH:MM).
        sunset: the local date and time of sunset (YYYY-MM-DDTHH:MM).
    """
    row = _city(city)
    day = parse_day(date)
    offset = utc_offset(_city_name(city), datetime(day.year, day.month, day.day, 12))
    sunrise, sunset, _ = sun_times(row["latitude"], row["longitude"], offset, day)
    return fmt(sunrise), fmt(sunset)


@toolbox.tool(
    tags=("area",),  # daylight is a city's or where I am, not a restaurant's
)
def get_daylight_hours(latitude: Latitude, longitude: Longitude, date: Day) -> float:
    """Get the number of hours between sunrise and sunset at a point on Earth on a date.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90, north positive).
        longitude: Longitude in decimal degrees (-180 to 180, east positive).
        date: The date (YYYY-MM-DD).

    Returns:
        daylight_hours: the hours of daylight (0 in polar night, 24 in midnight sun).
    """
    require(-90 <= latitude <= 90, f"latitude {latitude} is out of range: use -90 to 90")
    require(-180 <= longitude <= 180, f"longitude {longitude} is out of range: use -180 to 180")
    return sun_times(latitude, longitude, 0, parse_day(date))[2]


@toolbox.tool(sense=(within("max_results", 1, 30),), tags=("search",))
def search_time_and_date(query: Annotated[str, Kind("time_search_terms")], max_results: int = 8) -> list[str]:
    """Search cities (local time, UTC offset) and this year's and next year's public holidays by words.

    Args:
        query: Words to look for in a city, country or holiday name, e.g. "tokyo" or "christmas"; all words must match.
        max_results: Maximum number of entries to return (1-30).

    Returns:
        results: the matching city and holiday entries (cities first as "City, Country: UTC+9, local time YYYY-MM-DDTHH:MM", then holidays as "YYYY-MM-DD Holiday Name" with the country in brackets, in date order).
    """
    w = world(TimeWorld)
    require(1 <= max_results <= 30, "max_results must be between 1 and 30")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for name, row in sorted(w.cities.items()):
        if all(word in f"{name} {row['country']}".lower() for word in words):
            local = local_time(name, DEFAULT_HOME, NOW)
            hits.append(f"{name}, {row['country']}: UTC{offset_text(utc_offset(name, local))}, local time {fmt(local)}")
    holiday_hits = []
    for country, rows in w.holidays.items():
        for day, holiday in rows:
            if all(word in f"{holiday} {country}".lower() for word in words):
                holiday_hits.append((day, f"{day} {holiday} ({country})"))
    hits += [text for _, text in sorted(holiday_hits)]
    return hits[:max_results]


@toolbox.tool(
    # a new home is typed by the user, never a city taken from a clinic, an address or a contact
    sense=(sensible("the home city is already San Francisco", ("city",), lambda a: a["city"] != DEFAULT_HOME),),
    tags=("state_change",),
)
def set_home_city(city: Annotated[str, Kind("city", role="home")]) -> tuple[str, Offset]:
    """Change the user's home city, which sets the clock used for "now" and relative dates.

    Args:
        city: The new home city, e.g. "Berlin".

    Returns:
        local_time: the current local date and time in the new home city (YYYY-MM-DDTHH:MM).
        utc_offset: the new home city's UTC offset in hours today, daylight saving included.
    """
    w = world(TimeWorld)
    name = _city_name(city)
    w.state["home_city"] = name
    return fmt(local_now()), utc_offset(name, local_now())


@toolbox.facts_about("latitude")
def _latitude_facts(w: TimeWorld, latitude: float) -> dict:
    """A literal point is a city centre: the rest of the request is about that city's country."""
    for name, row in w.cities.items():
        if row["latitude"] == latitude:
            return {"city": name, "country": row["country"]}
    return {}


# --- goals: what a person wants, and the tools that serve it ------------------------------
# The tools a goal borrows from another seed cannot make a request on their own (they
# neither feed each other nor take the same thing from the person), so every request is
# about dates and times: the weather or the place is there because of the holiday or the
# daylight.

