"""Weather: simulated, deterministic conditions, forecasts, air quality, UV and wind for the
gazetteer cities, severe-weather alerts, weather stations, and unit canonicalisation."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Any, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    COUNTRY_BY_NAME,
    NOW,
    City,
    country_named,
    country_phrase,
    distance_km,
    local_time,
    nearest_city,
    one_day_to_all,
)
from factory.toolbox.sense import around, same_day, sensible, together
from factory.toolbox.user import USER

toolbox = Toolbox()

CityName = Annotated[str, Kind("city")]
CountryName = Annotated[str, Kind("country")]
Lat = Annotated[float, Kind("latitude")]
Lon = Annotated[float, Kind("longitude")]
Day = Annotated[str, Kind("date")]
Moment = Annotated[str, Kind("datetime")]
Celsius = Annotated[float, Kind("temperature_c")]
WindKmh = Annotated[float, Kind("wind_speed_kmh")]
Humidity = Annotated[int, Kind("humidity_percent")]
AlertId = Annotated[str, Kind("weather_alert_id")]
StationId = Annotated[str, Kind("weather_station_id")]

TODAY = NOW.date()
FIRST_DAY = TODAY - timedelta(days=30)  # observations kept for 30 days
FORECAST_DAYS = 14
LAST_DAY = TODAY + timedelta(days=FORECAST_DAYS)  # forecasts reach 14 days ahead
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]
COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
SEVERITY = ["minor", "moderate", "severe", "extreme"]
# Local climate corrections for altitude, deserts and cold currents (degrees C on the annual mean,
# and the seasonal swing when it differs from the latitude rule).
MEAN_SHIFT = {"Dubai": 6.0, "Cairo": 3.0, "Mexico City": -7.0, "Nairobi": -9.0, "Bangalore": -4.0,
              "Sao Paulo": -3.0, "San Francisco": -2.5, "Edinburgh": -1.5, "Zurich": -1.5, "Munich": -1.0}
SWING = {"San Francisco": 2.5, "Los Angeles": 4.0, "Mumbai": 1.5, "Bangalore": 2.0, "Cape Town": 4.5,
         "Auckland": 4.5, "Sydney": 5.0, "Vancouver": 6.5, "Edinburgh": 5.5, "London": 7.0}
WETNESS = {"Mumbai": 80, "Bangalore": 55, "Singapore": 60, "Hong Kong": 60, "Shanghai": 55, "Tokyo": 50,
           "Osaka": 50, "Seoul": 50, "Dubai": 3, "Cairo": 3, "Los Angeles": 5, "San Francisco": 8,
           "Mexico City": 55, "Nairobi": 25, "Cape Town": 45, "Madrid": 10, "Barcelona": 15, "Rome": 12}
BEAUFORT_KMH = [0.5, 3.5, 9.0, 15.5, 24.0, 34.0, 44.5, 56.0, 68.0, 81.5, 95.5, 110.5, 125.0]


@dataclass
class WeatherWorld(World):
    wetness: dict[str, int] = field(default_factory=dict)  # city → base chance of precipitation
    stations: dict[str, dict] = field(default_factory=dict)  # station id → name, city, coordinates, bias
    alerts: dict[str, dict] = field(default_factory=dict)  # alert id → country, city, event, severity, times
    salt: str = ""  # mixes the world seed into the daily weather


def _severity(rng: random.Random, event: str) -> str:
    """A severity its name agrees with: an advisory or a watch is minor or moderate, a warning
    at least moderate, an extreme heat warning severe or extreme."""
    weights = dict(zip(SEVERITY, (5, 4, 2, 1), strict=True))
    allowed = (SEVERITY[2:] if event.startswith("Extreme") else SEVERITY[1:] if event.endswith("warning")
               else SEVERITY[:2])
    return rng.choices(allowed, weights=[weights[level] for level in allowed])[0]


def _rng(w: WeatherWorld, *key: object) -> random.Random:
    return random.Random(":".join(map(str, (w.salt, *key))))


def _city(name: str) -> City:
    require(name in CITY_BY_NAME, f"no weather data for {name!r}; weather covers {len(CITIES)} major cities "
                                  "such as London, Tokyo or Nairobi")
    return CITY_BY_NAME[name]


def _country(name: str) -> str:
    found = country_named(name)
    require(found is not None, f"unknown country {name!r}; use the English country name, e.g. \"France\"")
    return found


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format; resolve relative days like "
                        "\"next friday\" to a date first") from None


def _window_day(text: str) -> date:
    day = _parse_day(text)
    require(FIRST_DAY <= day <= LAST_DAY, f"no weather data for {text}: observations start {FIRST_DAY} and "
                                          f"forecasts end {LAST_DAY}")
    return day


def _not_past_there(args: dict) -> bool:
    """Whether an hour has not gone by yet in its own city: "is there a chance of rain in Munich
    around today at 4pm?" asked when it is 18:30 there is no question (reading 55 #19)."""
    city, when = str(args["city"]), str(args["when"]).replace(" ", "T")
    if city not in CITY_BY_NAME:
        return True
    now_there = local_time(city, USER.home_city, NOW).replace(minute=0, second=0, microsecond=0)
    return when[:16] >= now_there.strftime("%Y-%m-%dT%H:%M")


def _window_moment(text: str) -> datetime:
    try:
        moment = datetime.strptime(text.strip().replace(" ", "T"), "%Y-%m-%dT%H:%M")
    except ValueError:
        raise ToolError(f"datetime {text!r} is not in YYYY-MM-DDTHH:MM format (24 h local time)") from None
    require(FIRST_DAY <= moment.date() <= LAST_DAY, f"no hourly data for {text}: observations start "
                                                    f"{FIRST_DAY} and forecasts end {LAST_DAY}")
    return moment


def _check_coordinates(latitude: float, longitude: float) -> None:
    require(-90 <= latitude <= 90, f"latitude {latitude} is out of range: use decimal degrees between -90 and 90")
    require(-180 <= longitude <= 180, f"longitude {longitude} is out of range: use decimal degrees between -180 and 180")


def _normal_mean(city: City, day: date) -> float:
    """The long-term mean temperature of a city on a calendar day."""
    lat = city.latitude
    annual = 28.0 - 0.4 * max(0.0, abs(lat) - 10.0) + MEAN_SHIFT.get(city.name, 0.0)
    swing = SWING.get(city.name, 0.16 * abs(lat))
    season = math.cos(2 * math.pi * (day.timetuple().tm_yday - 200) / 365.25)
    return annual + swing * season * (1 if lat >= 0 else -1)


def _daily(w: WeatherWorld, city: City, day: date) -> dict:
    """The weather of one city on one day (recorded or forecast): every (city, day) has a row."""
    r = _rng(w, "day", city.name, day.isoformat())
    mean = _normal_mean(city, day) + max(-6.0, min(6.0, r.gauss(0, 2.2)))
    spread = r.uniform(5.0, 8.0) if w.wetness[city.name] > 40 else r.uniform(7.0, 13.0)
    high, low = round(mean + spread / 2, 1), round(mean - spread / 2, 1)
    chance = int(max(0, min(100, w.wetness[city.name] + r.gauss(0, 8 + 0.35 * w.wetness[city.name]))))
    if chance >= 70:
        condition = "snow" if high <= 1 else "thunderstorms" if high >= 26 and r.random() < 0.5 else "rain"
    elif chance >= 45:
        condition = "light snow" if high <= 1 else "showers"
    elif chance >= 25:
        condition = "cloudy"
    elif chance >= 12:
        condition = "partly cloudy"
    else:
        condition = "sunny"
    humidity = int(max(12, min(98, 30 + chance * 0.55 + r.uniform(-8, 8) + (10 if w.wetness[city.name] > 40 else 0))))
    wind = round(r.uniform(4, 30) + (8 if condition in ("thunderstorms", "rain") else 0), 1)
    direction = r.choice(COMPASS)
    decl = 23.44 * math.sin(2 * math.pi * (day.timetuple().tm_yday - 81) / 365.25)
    elevation = max(0.0, 90.0 - abs(city.latitude - decl))
    uv = round(max(0.0, 12.5 * math.sin(math.radians(elevation)) ** 2.5 * (1 - chance / 180)), 1)
    aqi = int(max(8, min(280, 18 + city.population / 280 + r.gauss(0, 18) - chance / 6 + (25 if high > 32 else 0))))
    pollutant = "ozone" if high > 27 and chance < 25 else r.choice(["PM2.5", "PM2.5", "PM10", "NO2"])
    return {"high": high, "low": low, "chance": chance, "condition": condition, "humidity": humidity,
            "wind": wind, "direction": direction, "uv": uv, "aqi": aqi, "pollutant": pollutant}


def _temperature_at(w: WeatherWorld, city: City, moment: datetime) -> float:
    """Temperature through the day: lowest near 05:00, highest near 15:00."""
    today = _daily(w, city, moment.date())
    hour = moment.hour + moment.minute / 60
    high, low = today["high"], today["low"]
    if hour < 5:
        previous = _daily(w, city, moment.date() - timedelta(days=1))
        fall = (hour + 9) / 14  # 15:00 yesterday → 05:00 today
        return round(previous["high"] - (previous["high"] - low) * (1 - math.cos(math.pi * fall)) / 2, 1)
    if hour <= 15:
        return round(low + (high - low) * (1 - math.cos(math.pi * (hour - 5) / 10)) / 2, 1)
    following = _daily(w, city, moment.date() + timedelta(days=1))["low"]  # 15:00 today → 05:00 tomorrow
    return round(high - (high - following) * (1 - math.cos(math.pi * (hour - 15) / 14)) / 2, 1)


def _hourly_chance(w: WeatherWorld, city: City, moment: datetime) -> int:
    daily = _daily(w, city, moment.date())["chance"]
    bump = 12 * math.sin(math.pi * (moment.hour - 8) / 12) if 8 <= moment.hour <= 20 else -8
    return int(max(0, min(100, daily + bump)))


def _uv_risk(uv: float) -> str:
    return "low" if uv < 3 else "moderate" if uv < 6 else "high" if uv < 8 else "very high" if uv < 11 else "extreme"


def _aqi_category(aqi: int) -> str:
    if aqi <= 50:
        return "good"
    if aqi <= 100:
        return "moderate"
    if aqi <= 150:
        return "unhealthy for sensitive groups"
    return "unhealthy" if aqi <= 200 else "very unhealthy"


@toolbox.world
def build_world(rng: random.Random) -> WeatherWorld:
    wetness = {c.name: WETNESS.get(c.name, rng.randint(18, 45)) for c in CITIES}
    stations = {}
    used: set[int] = set()
    for city in CITIES:
        for label in ("Airport", "Central", "Observatory"):
            number = rng.randint(10000, 99999)
            while number in used:
                number = rng.randint(10000, 99999)
            used.add(number)
            stations[f"WS-{number}"] = {
                "name": f"{city.name} {label}",
                "city": city.name,
                "latitude": round(city.latitude + rng.uniform(-0.15, 0.15), 4),
                "longitude": round(city.longitude + rng.uniform(-0.15, 0.15), 4),
                "bias": round(rng.uniform(-1.5, 1.5), 1),
                "elevation_m": rng.randint(2, 120),
            }
    alerts = {}
    for country in sorted(COUNTRY_BY_NAME):
        cities = [c for c in CITIES if c.country == country]
        iso = COUNTRY_BY_NAME[country].iso2
        for k in range(rng.randint(1, 3)):
            city = rng.choice(cities)
            summer = city.latitude > 0
            if city.name in ("Dubai", "Cairo"):
                events = ["Extreme heat warning", "Dust storm warning"]
            elif abs(city.latitude) < 23.5:
                events = ["Heavy rain warning", "Flood watch", "Thunderstorm warning", "Heat advisory"]
            elif summer:
                events = ["Heat advisory", "Thunderstorm warning", "Air quality alert", "Wildfire smoke advisory",
                          "High wind warning"]
            else:
                events = ["Frost warning", "Gale warning", "Heavy rain warning", "Coastal flood watch"]
            here = local_time(city.name, USER.home_city, NOW)  # an alert's times are its city's clock
            issued = here - timedelta(hours=rng.randint(1, 40))
            event = rng.choice(events)
            alerts[f"ALR-{iso}-{rng.randint(100, 999)}{k}"] = {
                "country": country,
                "city": city.name,
                "event": event,
                "severity": _severity(rng, event),
                "issued": issued.strftime("%Y-%m-%dT%H:%M"),
                "expires": (here + timedelta(hours=rng.randint(4, 72))).replace(minute=0).strftime("%Y-%m-%dT%H:%M"),
            }
    state = {"notifications": "push", "alert_subscriptions": []}
    return WeatherWorld(state=state, wetness=wetness, stations=stations, alerts=alerts, salt=str(rng.random()))


toolbox.condition(
    "weather_notifications",
    holds=lambda w: w.state.get("notifications", "off") != "off",
    broken_state={"notifications": "off"},
    fix=("enable_weather_notifications", {"channel": "push"}),
    free=("channel",),  # any delivery channel turns notifications back on
)

# Cities, countries, days and points named by other seeds (a contact's city, a flight's
# destination, a listing's location) have weather too.
toolbox.bridge("city", "country", "date", "datetime", "latitude", "longitude")
toolbox.written_as("country", country_phrase)


# --- value generators ---------------------------------------------------------------------


@toolbox.values_for("city")
def _cities(w: WeatherWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("country")
def _countries(w: WeatherWorld) -> list[str]:
    return sorted(COUNTRY_BY_NAME)


@toolbox.values_for("date")
def _dates(w: WeatherWorld) -> list[str]:
    # Days a person asks the weather for: today and the forecast window. Past days are on record
    # too, but the phrasings speak of what will be ("how warm will it get"), so a literal day is
    # never in the past; a past day still reaches these tools from an earlier call.
    return [day_after(i) for i in range((LAST_DAY - TODAY).days + 1)]


@toolbox.values_for("datetime")
def _datetimes(w: WeatherWorld) -> list[str]:
    days = [TODAY + timedelta(days=i) for i in range(0, 15)]
    return [f"{d.isoformat()}T{h}" for d in days for h in ("06:00", "09:30", "13:00", "17:45", "21:00")]


@toolbox.values_for("latitude")
def _latitudes(w: WeatherWorld) -> list[float]:
    return [c.latitude for c in CITIES] + [s["latitude"] for _, s in sorted(w.stations.items())[::4]]


@toolbox.values_for("longitude")
def _longitudes(w: WeatherWorld) -> list[float]:
    return [c.longitude for c in CITIES] + [s["longitude"] for _, s in sorted(w.stations.items())[::4]]


@toolbox.values_for("latitude", "longitude")
def _points(w: WeatherWorld) -> list[tuple[float, float]]:
    """Coordinates as coherent pairs: city centres and weather stations."""
    return [(c.latitude, c.longitude) for c in CITIES] + \
        [(s["latitude"], s["longitude"]) for _, s in sorted(w.stations.items())[::3]]


@toolbox.values_for("weather_alert_id")
def _alert_ids(w: WeatherWorld) -> list[str]:
    return sorted(w.alerts)


@toolbox.values_for("weather_station_id")
def _station_ids(w: WeatherWorld) -> list[str]:
    return sorted(w.stations)


@toolbox.values_for("temperature_c")
def _temperatures(w: WeatherWorld) -> list[float]:
    return [float(t) for t in range(-12, 41, 4)]


@toolbox.values_for("wind_speed_kmh")
def _winds(w: WeatherWorld) -> list[float]:
    return [float(v) for v in range(5, 56, 5)]  # a feels-like asked "with the wind at 0 km/h" reads as a slip


@toolbox.values_for("years_back")
def _years_back(w: WeatherWorld) -> list[int]:
    return [1, 2, 5, 10, 20]


@toolbox.values_for("humidity_percent")
def _humidities(w: WeatherWorld) -> list[int]:
    return list(range(20, 96, 15))


# (not "in a week": within the coming week to many a reader, 7 days on to the tool: reading 45 #5)
RELATIVE_DAYS = ["today", "tomorrow", "yesterday", "the day after tomorrow", "the day before yesterday",
                 "in 3 days", "in 5 days", "in 10 days", "2 days ago", "a week ago", "a week from today",
                 "next monday", "next tuesday", "next wednesday", "next thursday", "next friday", "next saturday",
                 "next sunday", "this saturday", "this sunday", "last monday", "last wednesday", "last friday",
                 "last sunday", "2 weeks ago"]
# (no month and day alone, "20 June": beside a date with its year, the agent writes it itself: reading 48 #26)


@toolbox.values_for("relative_day")
def _relative_days(w: WeatherWorld) -> list[str]:
    """The days as people write them, weekdays and months capitalised ("next Saturday", "the
    25th of June"); the tool reads any case."""
    return [re.sub(rf"\b(?:{'|'.join(WEEKDAYS)}|june)\b", lambda m: m.group(0).capitalize(), d) for d in RELATIVE_DAYS
            if one_day_to_all(d)]  # not "next Saturday" said on a Friday: tomorrow, or a week later?


@toolbox.values_for("temperature_reading")
def _temperature_readings(w: WeatherWorld) -> list[str]:
    readings = []
    for f in range(14, 105, 9):
        readings += [f"{f}°F", f"{f} degrees Fahrenheit"]
    for c in range(-10, 41, 10):
        readings += [f"{c} °C", f"{c + 273.15:.2f} K"]
    return readings


@toolbox.values_for("wind_speed_reading")
def _wind_readings(w: WeatherWorld) -> list[str]:
    readings = [f"{v} mph" for v in (5, 12, 20, 35, 50)] + [f"{v} knots" for v in (8, 15, 25, 40)]
    readings += [f"{v} m/s" for v in (3, 7.5, 12, 20)] + [f"force {b}" for b in (2, 4, 6, 8)] + ["18 km/h", "45 kph"]
    return readings


@toolbox.values_for("weather_query")
def _queries(w: WeatherWorld) -> list[str]:
    queries = []
    for i, city in enumerate(CITIES):
        when = ["today", "tomorrow", "next saturday", "in 3 days", "yesterday"][i % 5]
        queries += [f"{city.name.lower()} weather {when}", f"will it rain in {city.name} {when}?"]
    return queries


# --- canonicalisation helpers -------------------------------------------------------------


def resolve_day(expression: str) -> date:
    """The calendar day a relative or partial day expression means, counted from today."""
    text = " ".join(re.sub(r"[^a-z0-9 -]", " ", expression.lower()).split())
    text = re.sub(r"^(the|on|for|this coming) ", "", text)
    fixed = {"today": 0, "tonight": 0, "now": 0, "tomorrow": 1, "yesterday": -1, "day after tomorrow": 2,
             "day before yesterday": -2, "in a week": 7, "a week from today": 7, "a week from now": 7,
             "a week ago": -7, "in two weeks": 14, "two weeks ago": -14}
    if text in fixed:
        return TODAY + timedelta(days=fixed[text])
    if m := re.fullmatch(r"in (\d{1,4}) (day|days|week|weeks)", text):
        return TODAY + timedelta(days=int(m[1]) * (7 if m[2].startswith("week") else 1))
    if m := re.fullmatch(r"(\d{1,4}) (day|days|week|weeks) ago", text):
        return TODAY - timedelta(days=int(m[1]) * (7 if m[2].startswith("week") else 1))
    if m := re.fullmatch(r"(next|this|coming|last|past)? ?(" + "|".join(WEEKDAYS) + ")", text):
        target = WEEKDAYS.index(m[2])
        ahead = (target - TODAY.weekday()) % 7
        if m[1] in ("last", "past"):
            return TODAY - timedelta(days=(TODAY.weekday() - target) % 7 or 7)
        if m[1] == "this" or m[1] is None:
            return TODAY + timedelta(days=ahead)
        return TODAY + timedelta(days=ahead or 7)
    months = "|".join(MONTHS)
    m = re.fullmatch(rf"({months}) (\d{{1,2}})(?:st|nd|rd|th)?(?: (\d{{4}}))?", text) or re.fullmatch(
        rf"(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({months})(?: (\d{{4}}))?", text)
    if m:
        month, number = (m[1], m[2]) if m[1] in MONTHS else (m[2], m[1])
        try:
            return date(int(m[3] or TODAY.year), MONTHS.index(month) + 1, int(number))
        except ValueError:
            raise ToolError(f"{expression!r} is not a real calendar day") from None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"cannot read the day {expression!r}: use words like \"tomorrow\", \"next friday\", "
                        "\"in 3 days\", \"last sunday\" or \"june 20\"") from None


_TEMP = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:°|º|degrees?|deg)?\s*(c|f|k|celsius|centigrade|fahrenheit|kelvin)\.?\s*$",
                   re.IGNORECASE)
_WIND = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mph|miles per hour|km/h|kmh|kph|kilometres per hour|kilometers per hour|"
                   r"m/s|metres per second|meters per second|knots?|kts?|kn)\s*$", re.IGNORECASE)
_BEAUFORT = re.compile(r"^\s*(?:beaufort\s*)?force\s*(\d{1,2})\s*$|^\s*beaufort\s*(\d{1,2})\s*$", re.IGNORECASE)


# --- tools --------------------------------------------------------------------------------


@toolbox.tool(tags=("search",))
def search_weather(query: Annotated[str, Kind("weather_query")]) -> tuple[CityName, str, str]:
    """Search weather reports with a free-text question naming a city and optionally a day.

    Args:
        query: Free text naming one covered city and optionally a day, e.g. "will it rain in Paris tomorrow?" or "tokyo weather next saturday"; no day means today.

    Returns:
        city: the city the report is for.
        date: the day the report is for (YYYY-MM-DD).
        condition: the sky condition expected or recorded that day (e.g. "showers").
    """
    w = world(WeatherWorld)
    text = " " + " ".join(re.sub(r"[^a-z0-9 -]", " ", query.lower()).split()) + " "
    found = [c for c in CITIES if f" {c.name.lower()} " in text]
    require(bool(found), f"no covered city named in {query!r}; name a city such as London or Tokyo")
    city = max(found, key=lambda c: len(c.name))
    rest = text.replace(f" {city.name.lower()} ", " ")
    day = TODAY
    if m := re.search(r"\d{4}-\d{2}-\d{2}", rest):
        day = _parse_day(m[0])
    else:
        phrases = sorted(RELATIVE_DAYS + ["today", "tonight"] + [f"on {d}" for d in WEEKDAYS] + WEEKDAYS,
                         key=len, reverse=True)
        for phrase in phrases:
            if f" {phrase} " in rest:
                day = resolve_day(phrase.removeprefix("on "))
                break
    require(FIRST_DAY <= day <= LAST_DAY, f"no weather data for {day}: observations start {FIRST_DAY} "
                                          f"and forecasts end {LAST_DAY}")
    return city.name, day.isoformat(), _daily(w, city, day)["condition"]


@toolbox.tool(tags=("canonicalise",))
def resolve_forecast_date(expression: Annotated[str, Kind("relative_day")]) -> Day:
    """Turn a relative or partial day (as people say it) into a calendar date, counted from today.

    Args:
        expression: The day in words, e.g. "tomorrow", "next friday", "last sunday", "in 3 days" or "june 20". "next <weekday>" is the first such day after today; "this <weekday>" may be today; "last <weekday>" is the most recent one before today.

    Returns:
        date: the calendar date meant (YYYY-MM-DD).
    """
    day = resolve_day(expression)
    require(FIRST_DAY <= day <= LAST_DAY, f"{expression!r} is {day}, outside the weather data "
                                          f"({FIRST_DAY} to {LAST_DAY})")
    return day.isoformat()


@toolbox.tool(tags=("canonicalise", "self_evident"))
def convert_temperature_reading(reading: Annotated[str, Kind("temperature_reading")]) -> Celsius:
    """Convert a temperature written in Fahrenheit, Celsius or Kelvin to degrees Celsius.

    Args:
        reading: A number with its unit, e.g. "72°F", "72 degrees Fahrenheit", "295.15 K" or "-3 °C".

    Returns:
        celsius: the temperature in degrees Celsius (one decimal).
    """
    m = _TEMP.match(reading)
    require(m is not None, f"cannot read the temperature {reading!r}: write a number and a unit, e.g. \"72°F\"")
    value, unit = float(m[1]), m[2].lower()[0]
    celsius = (value - 32) * 5 / 9 if unit == "f" else value - 273.15 if unit == "k" else value
    require(celsius >= -273.15, f"{reading!r} is below absolute zero")
    return round(celsius, 1) + 0.0  # + 0.0 turns -0.0 into 0.0


@toolbox.tool(tags=("canonicalise", "self_evident"))
def convert_wind_speed_reading(reading: Annotated[str, Kind("wind_speed_reading")]) -> WindKmh:
    """Convert a wind speed in mph, knots, m/s, km/h or on the Beaufort scale to kilometres per hour.

    Args:
        reading: A number with its unit, e.g. "15 mph", "20 knots", "7.5 m/s", "30 km/h", or a Beaufort force like "force 6".

    Returns:
        speed_kmh: the wind speed in km/h (one decimal; the middle of the band for a Beaufort force).
    """
    if m := _BEAUFORT.match(reading):
        force = int(m[1] or m[2])
        require(force <= 12, f"Beaufort forces run from 0 to 12, not {force}")
        return BEAUFORT_KMH[force]
    m = _WIND.match(reading)
    require(m is not None, f"cannot read the wind speed {reading!r}: write a number and a unit, e.g. \"15 mph\"")
    value, unit = float(m[1]), m[2].lower()
    if unit.startswith(("mph", "miles")):
        factor = 1.609344
    elif unit.startswith(("m/s", "metres", "meters")):
        factor = 3.6
    elif unit.startswith(("kn", "kt")):
        factor = 1.852
    else:
        factor = 1.0
    return round(value * factor, 1)


def _apparent_by(t: float, v: float, rh: float) -> str | None:
    """What makes air feel other than the thermometer says: "wind chill" at or below 10 °C in a
    wind, "heat index" from 27 °C when humid, else None."""
    if t <= 10 and v > 4.8:
        return "wind chill"
    if t >= 27 and rh >= 40:
        return "heat index"
    return None


def _feels_other(args: dict[str, Any]) -> bool:
    """Asked at 20 °C, "how cold does it feel in that wind?" has no answer but the temperature."""
    return _apparent_by(args["temperature_c"], args["wind_speed_kmh"], args.get("humidity_percent", 50)) is not None


@toolbox.tool(
    sense=(together("temperature_c", "wind_speed_kmh", "humidity_percent"),  # one place and time
           sensible("neither wind chill nor heat index applies: it feels like the temperature itself",
                    ("temperature_c", "wind_speed_kmh"), _feels_other)),
)
def calculate_feels_like(temperature_c: Celsius, wind_speed_kmh: WindKmh, humidity_percent: Humidity = 50) -> Celsius:
    """Compute the apparent ("feels like") temperature from air temperature, wind and humidity.

    Args:
        temperature_c: Air temperature in degrees Celsius (-60 to 60).
        wind_speed_kmh: Wind speed in km/h (0 to 300).
        humidity_percent: Relative humidity in percent (0-100); matters only in the heat.

    Returns:
        feels_like_c: the apparent temperature (degrees Celsius, one decimal; wind chill at or below 10 °C, heat index from 27 °C).
    """
    require(-60 <= temperature_c <= 60, f"temperature {temperature_c} °C is out of range (-60 to 60)")
    require(0 <= wind_speed_kmh <= 300, f"wind speed {wind_speed_kmh} km/h is out of range (0 to 300)")
    require(0 <= humidity_percent <= 100, f"humidity {humidity_percent}% is out of range (0 to 100)")
    t, v, rh = temperature_c, wind_speed_kmh, humidity_percent
    by = _apparent_by(t, v, rh)
    if by == "wind chill":
        feels = 13.12 + 0.6215 * t - 11.37 * v ** 0.16 + 0.3965 * t * v ** 0.16
    elif by == "heat index":
        f = t * 9 / 5 + 32
        hi = (-42.379 + 2.04901523 * f + 10.14333127 * rh - 0.22475541 * f * rh - 6.83783e-3 * f * f
              - 5.481717e-2 * rh * rh + 1.22874e-3 * f * f * rh + 8.5282e-4 * f * rh * rh - 1.99e-6 * f * f * rh * rh)
        feels = (hi - 32) * 5 / 9
    else:
        feels = t
    return round(feels, 1) + 0.0


@toolbox.tool(
    tags=("now",),  # a reading of the present: never paired with a forecast for another day
)
def get_current_weather(city: CityName) -> tuple[Celsius, str, Humidity]:
    """Get the weather in a city right now.

    Args:
        city: City name, e.g. "Seattle".

    Returns:
        temperature_c: the current temperature (degrees Celsius).
        condition: the current sky condition (e.g. "partly cloudy").
        humidity_percent: the current relative humidity (percent).
    """
    w = world(WeatherWorld)
    row = _city(city)
    today = _daily(w, row, TODAY)
    return _temperature_at(w, row, NOW), today["condition"], today["humidity"]


@toolbox.tool(
    tags=("now",),  # a reading of the present: never paired with a forecast for another day
)
def get_weather_by_coordinates(latitude: Lat, longitude: Lon) -> tuple[Celsius, str, CityName]:
    """Get the weather right now at a point, as reported for the nearest covered city.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        temperature_c: the current temperature there (degrees Celsius).
        condition: the current sky condition there.
        city: the nearest covered city (whose report applies).
    """
    _check_coordinates(latitude, longitude)
    w = world(WeatherWorld)
    city, _ = nearest_city(latitude, longitude)
    return _temperature_at(w, city, NOW), _daily(w, city, TODAY)["condition"], city.name


@toolbox.tool(
    sense=(same_day("date"), around("date", before=0, after=FORECAST_DAYS)),  # forecasts speak of days to come
)
def get_daily_forecast(city: CityName, date: Day) -> tuple[Celsius, Celsius, str]:
    """Get the day's high, low and sky condition for a city (recorded for past days, forecast up to 14 days ahead).

    Args:
        city: City name, e.g. "Madrid".
        date: Day in YYYY-MM-DD, from 30 days ago to 14 days ahead.

    Returns:
        high_c: the day's highest temperature (degrees Celsius).
        low_c: the day's lowest temperature (degrees Celsius).
        condition: the day's sky condition (e.g. "showers").
    """
    w = world(WeatherWorld)
    row = _daily(w, _city(city), _window_day(date))
    return row["high"], row["low"], row["condition"]


@toolbox.tool(
    # Forecasts speak of days to come; the hour is one of the city's own (an event's start in its
    # own city, not in another: "the forecast for Rome when my next event starts" in San Francisco).
    sense=(same_day("when"), around("when", before=0, after=FORECAST_DAYS), together("city", "when"),
           sensible("a forecast is for an hour not yet past there", ("city", "when"), _not_past_there)),
)
def get_hourly_forecast(city: CityName, when: Moment) -> tuple[Celsius, int]:
    """Get the temperature and chance of precipitation in a city in the local hour that holds a given time.

    Args:
        city: City name, e.g. "Toronto".
        when: Local date and time in YYYY-MM-DDTHH:MM, from 30 days ago to 14 days ahead; 10:30 reads the 10:00 hour.

    Returns:
        temperature_c: the temperature in that hour (degrees Celsius).
        precipitation_chance: the chance of rain or snow in that hour (percent).
    """
    w = world(WeatherWorld)
    row = _city(city)
    # an hourly forecast has one figure an hour: 10:30 and 10:00 agree (reading 71 #7, where
    # "around" an event at 10:30 gave another temperature at 10:30 than at 10:00)
    moment = _window_moment(when).replace(minute=0)
    return _temperature_at(w, row, moment), _hourly_chance(w, row, moment)


@toolbox.tool(
    # looking back from a day still to come is a detour (5 years before June 24, asked on June 13:
    # reading 44 #26, reading 42 #30): the day looked back from is today or past
    sense=(around("date", before=366, after=0),),
)
def get_historical_temperature(city: CityName, date: Day, years_back: Annotated[int, Kind("years_back")] = 1) -> tuple[Celsius, Celsius]:
    """Get the high and low recorded in a city on the same calendar day in an earlier year.

    Args:
        city: City name, e.g. "Rome".
        date: Reference day in YYYY-MM-DD (any day up to 14 days ahead).
        years_back: How many years before the reference day to look (1-30).

    Returns:
        high_c: the high recorded that day (degrees Celsius).
        low_c: the low recorded that day (degrees Celsius).
    """
    w = world(WeatherWorld)
    row = _city(city)
    day = _parse_day(date)
    require(day <= LAST_DAY, f"{date} is beyond the forecast range; use a day up to {LAST_DAY}")
    require(1 <= years_back <= 30, "years_back must be between 1 and 30 (records start 30 years ago)")
    require(day.year - years_back >= TODAY.year - 30, f"no records before {TODAY.year - 30}; use a more recent day")
    try:
        past = day.replace(year=day.year - years_back)
    except ValueError:  # 29 February in a year without one
        past = day.replace(year=day.year - years_back, day=28)
    r = _rng(w, "record", row.name, past.isoformat())
    mean = _normal_mean(row, past) - 0.03 * (TODAY.year - past.year) + r.gauss(0, 2.4)  # a slowly warming climate
    spread = r.uniform(6.0, 12.0)
    return round(mean + spread / 2, 1), round(mean - spread / 2, 1)


@toolbox.tool(
    sense=(same_day("date"), around("date", before=0, after=FORECAST_DAYS)),  # forecasts speak of days to come
)
def get_air_quality(city: CityName, date: Day) -> tuple[int, str, str]:
    """Get the daily air quality index (US AQI scale) of a city.

    Args:
        city: City name, e.g. "Shanghai".
        date: Day in YYYY-MM-DD, from 30 days ago to 14 days ahead.

    Returns:
        aqi: the air quality index (0-500, lower is cleaner).
        category: the AQI category (e.g. "moderate").
        main_pollutant: the dominant pollutant (e.g. "PM2.5" or "ozone").
    """
    w = world(WeatherWorld)
    row = _daily(w, _city(city), _window_day(date))
    return row["aqi"], _aqi_category(row["aqi"]), row["pollutant"]


@toolbox.tool(
    sense=(same_day("date"), around("date", before=0, after=FORECAST_DAYS)),  # forecasts speak of days to come
)
def get_uv_index(city: CityName, date: Day) -> tuple[float, str]:
    """Get the maximum UV index of the day in a city.

    Args:
        city: City name, e.g. "Sydney".
        date: Day in YYYY-MM-DD, from 30 days ago to 14 days ahead.

    Returns:
        uv_index: the day's peak UV index (0-13).
        risk_level: the exposure risk (low, moderate, high, very high or extreme).
    """
    w = world(WeatherWorld)
    uv = _daily(w, _city(city), _window_day(date))["uv"]
    return uv, _uv_risk(uv)


@toolbox.tool(
    sense=(same_day("date"), around("date", before=0, after=FORECAST_DAYS)),  # forecasts speak of days to come
)
def get_wind_forecast(city: CityName, date: Day) -> tuple[WindKmh, str]:
    """Get the average wind speed and direction of the day in a city.

    Args:
        city: City name, e.g. "Chicago".
        date: Day in YYYY-MM-DD, from 30 days ago to 14 days ahead.

    Returns:
        wind_speed_kmh: the average wind speed (km/h).
        direction: the compass direction the wind blows from (e.g. "SW").
    """
    w = world(WeatherWorld)
    row = _daily(w, _city(city), _window_day(date))
    return row["wind"], row["direction"]


@toolbox.tool
def get_severe_weather_alerts(country: CountryName) -> tuple[AlertId, str, CityName]:
    """Find the most severe weather alert currently in force in a country.

    Args:
        country: Country name, e.g. "Japan".

    Returns:
        alert_id: the most severe alert (its id).
        alert_title: the alert's title, the hazard it warns about (e.g. "Heat advisory").
        city: the city the alert covers.
    """
    w = world(WeatherWorld)
    country = _country(country)
    active = [(SEVERITY.index(a["severity"]), a["issued"], aid) for aid, a in w.alerts.items()
              if a["country"] == country
              and a["expires"] > local_time(a["city"], USER.home_city, NOW).strftime("%Y-%m-%dT%H:%M")]
    require(bool(active), f"no weather alerts are in force in {country}")
    _, _, aid = max(active)
    return aid, w.alerts[aid]["event"], w.alerts[aid]["city"]


@toolbox.tool
def get_alert_details(alert_id: AlertId) -> tuple[str, Moment, Moment]:
    """Get the severity, issue time and expiry time of a weather alert.

    Args:
        alert_id: Alert id, e.g. "ALR-FR-4121".

    Returns:
        severity: the alert's severity (minor, moderate, severe or extreme).
        issued_at: the local time the alert was issued (YYYY-MM-DDTHH:MM).
        expires_at: the local time the alert expires (YYYY-MM-DDTHH:MM).
    """
    w = world(WeatherWorld)
    require(alert_id in w.alerts, f"unknown alert {alert_id!r}; look up the alerts in force in a country first")
    a = w.alerts[alert_id]
    return a["severity"], a["issued"], a["expires"]


@toolbox.tool(
    # A country with one covered city has no "hottest city" to find: naming the country names it.
    sense=(sensible("several cities to compare", ("country",),
                    lambda a: sum(c.country == a["country"] for c in CITIES) > 1),),
)
def find_hottest_city(country: CountryName, date: Day) -> tuple[CityName, Celsius]:
    """Find which covered city of a country has the highest daytime temperature on a day.

    Args:
        country: Country name, e.g. "Spain".
        date: Day in YYYY-MM-DD, from 30 days ago to 14 days ahead.

    Returns:
        city: the hottest city.
        high_c: the hottest city's high that day (degrees Celsius).
    """
    w = world(WeatherWorld)
    country = _country(country)
    day = _window_day(date)
    cities = [c for c in CITIES if c.country == country]
    require(bool(cities), f"no weather data for any city in {country}")
    high, name = max((_daily(w, c, day)["high"], c.name) for c in cities)
    return name, high


@toolbox.tool
def find_nearest_weather_station(latitude: Lat, longitude: Lon) -> tuple[StationId, float]:
    """Find the weather station closest to a point.

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        station_id: the nearest weather station (its id).
        distance_km: the distance to the nearest station (km, one decimal).
    """
    _check_coordinates(latitude, longitude)
    w = world(WeatherWorld)
    dist, sid = min((distance_km(latitude, longitude, s["latitude"], s["longitude"]), sid) for sid, s in w.stations.items())
    return sid, round(dist, 1)


@toolbox.tool(
    tags=("now",),  # a reading of the present: never paired with a forecast for another day
)
def get_station_reading(station_id: StationId) -> tuple[Celsius, float, str]:
    """Get the latest hourly observation reported by a weather station.

    Args:
        station_id: Station id, e.g. "WS-03772".

    Returns:
        temperature_c: the temperature the station measured (degrees Celsius).
        pressure_hpa: the sea-level air pressure the station measured (hPa).
        observed_at: the local time of the observation (YYYY-MM-DDTHH:MM).
    """
    w = world(WeatherWorld)
    require(station_id in w.stations, f"unknown station {station_id!r}; find the nearest station to a point first")
    s = w.stations[station_id]
    moment = NOW.replace(minute=0)
    temperature = round(_temperature_at(w, CITY_BY_NAME[s["city"]], moment) + s["bias"], 1)
    chance = _daily(w, CITY_BY_NAME[s["city"]], TODAY)["chance"]
    pressure = round(1026 - chance * 0.22 + _rng(w, "pressure", station_id).uniform(-4, 4), 1)
    return temperature, pressure, moment.strftime("%Y-%m-%dT%H:%M")


@toolbox.tool(requires=("weather_notifications",), tags=("state_change",))
def subscribe_to_weather_alerts(city: CityName) -> int:
    """Subscribe the user to severe weather alerts for a city (subscribing twice keeps one entry).

    Args:
        city: City name, e.g. "Mumbai".

    Returns:
        subscription_count: the number of cities I now get alerts for.
    """
    w = world(WeatherWorld)
    _city(city)
    require(w.state.get("notifications", "off") != "off",
            "Weather notifications are off: turn weather notifications on first")
    subscriptions = w.state.setdefault("alert_subscriptions", [])
    require(len(subscriptions) < 10 or city in subscriptions, "you follow 10 cities already; unsubscribe one first")
    if city not in subscriptions:
        subscriptions.append(city)
    return len(subscriptions)


@toolbox.tool(tags=("state_change",))
def enable_weather_notifications(channel: Literal["push", "email", "sms"]) -> str:
    """Turn on weather notifications and choose how they are delivered.

    Args:
        channel: Delivery channel: "push", "email" or "sms".

    Returns:
        channel: the delivery channel now in use.
    """
    world(WeatherWorld).state["notifications"] = channel
    return channel


@toolbox.facts_about("weather_alert_id")
def _alert_facts(w: WeatherWorld, alert_id: str) -> dict:
    alert = w.alerts[alert_id]
    return {"city": alert["city"], "country": alert["country"]}


@toolbox.facts_about("weather_station_id")
def _station_facts(w: WeatherWorld, station_id: str) -> dict:
    station = w.stations[station_id]
    return {"city": station["city"], "country": CITY_BY_NAME[station["city"]].country}


# --- goals: what a person wants, and the tools that serve it ------------------------------

