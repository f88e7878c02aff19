"""Bike Sharing: stations in a few cities, how many rides start at each per day, the bikes and
free docks at a station now, its address, and reserving a bike (which needs an active
membership)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, World, require, world
from factory.toolbox.gazetteer import NOW
from factory.toolbox.sense import around, within

toolbox = Toolbox()

City = Annotated[str, Kind("city")]
Day = Annotated[str, Kind("date")]
Station = Annotated[str, Kind("bike_station")]
Minutes = Annotated[int, Kind("hold_minutes")]
DAYS = 30  # ride records cover the 30 days up to the simulated today
TODAY = NOW.date()
STATIONS = {"Lyon": ["Bellecour", "Part-Dieu", "Terreaux"], "Porto": ["Ribeira", "Trindade", "Bolhao"],
            "Gothenburg": ["Centralen", "Haga", "Linne"]}


@dataclass
class BikeWorld(World):
    stations: dict[str, dict] = field(default_factory=dict)  # station → city, address, bikes, docks
    salt: str = ""  # mixes the world seed into the daily ride counts

    def rides(self, station: str, day: str) -> int:
        return random.Random(f"{self.salt}:{station}:{day}").randint(20, 400)


@toolbox.world
def build_world(rng: random.Random) -> BikeWorld:
    stations = {}
    for city, names in STATIONS.items():
        for name in names:
            docks = rng.randint(12, 30)
            stations[name] = {"city": city, "address": f"{rng.randint(1, 90)} {name} Street, {city}",
                              "bikes": rng.randint(0, docks), "docks": docks}
    return BikeWorld(state={"membership": "active", "reservations": []}, stations=stations, salt=str(rng.random()))


def _station(name: str) -> dict:
    known = world(BikeWorld).stations
    require(name in known, f"unknown station {name!r}; find a station by city first")
    return known[name]


def _day(text: str) -> str:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        require(False, f"date {text!r} is not in YYYY-MM-DD format")
    require(TODAY - timedelta(days=DAYS - 1) <= day <= TODAY, f"no ride records for {text}: the last {DAYS} days only")
    return text


@toolbox.values_for("city")
def _cities(w: BikeWorld) -> list[str]:
    return sorted(STATIONS)


@toolbox.values_for("date")
def _days(w: BikeWorld) -> list[str]:
    return [(TODAY - timedelta(days=k)).isoformat() for k in range(DAYS)]


@toolbox.values_for("bike_station")
def _stations(w: BikeWorld) -> list[str]:
    return sorted(w.stations)


@toolbox.values_for("hold_minutes")
def _minutes(w: BikeWorld) -> list[int]:
    return [10, 15, 20, 30]


@toolbox.facts_about("bike_station")
def _station_facts(w: BikeWorld, station: str) -> dict:
    return {"city": w.stations[station]["city"]}


@toolbox.tool(sense=(around("date", before=DAYS - 1, after=0),))
def find_busiest_station(city: City, date: Day) -> tuple[Station, int]:
    """Find the station where the most rides started in a city on a day.

    Args:
        city: City name, e.g. "Porto".
        date: Day in YYYY-MM-DD, within the last 30 days.

    Returns:
        station: the busiest station.
        rides: the rides that started there that day.
    """
    w = world(BikeWorld)
    require(city in STATIONS, f"no bike sharing in {city!r}; cities: {', '.join(sorted(STATIONS))}")
    _day(date)
    busiest = max(STATIONS[city], key=lambda name: (w.rides(name, date), name))
    return busiest, w.rides(busiest, date)


@toolbox.tool
def get_station_bikes(station: Station) -> tuple[int, int]:
    """Get the bikes available and the free docks at a station now.

    Args:
        station: Station name.

    Returns:
        bikes: bikes ready to ride.
        free_docks: empty docks to return a bike to.
    """
    info = _station(station)
    return info["bikes"], info["docks"] - info["bikes"]


@toolbox.tool
def get_station_address(station: Station) -> str:
    """Get a station's street address.

    Args:
        station: Station name.

    Returns:
        address: the station's street address.
    """
    return _station(station)["address"]


@toolbox.tool(sense=(within("minutes", 5, 30),), requires=("membership_active",), tags=("state_change",))
def reserve_bike(station: Station, minutes: Minutes) -> str:
    """Reserve a bike at a station for a few minutes.

    Args:
        station: Station name.
        minutes: How long to hold the bike (5-30).

    Returns:
        reservation_id: the reservation's id.
    """
    info = _station(station)
    require(5 <= minutes <= 30, "a bike can be held for 5 to 30 minutes")
    require(info["bikes"] > 0, f"no bike is free at {station}; try another station")
    w = world(BikeWorld)
    require(w.state.get("membership") == "active", "your membership has expired; renew it to reserve a bike")
    reservation = f"RSV-{len(w.state['reservations']) + 1001}"
    w.state["reservations"].append({"id": reservation, "station": station, "minutes": minutes})
    return reservation


@toolbox.tool(tags=("state_change", "fix_only"))
def renew_membership(plan: Literal["monthly", "annual"]) -> str:
    """Renew the rider's bike-sharing membership.

    Args:
        plan: Membership plan to renew on.

    Returns:
        status: the membership's status after renewing.
    """
    world(BikeWorld).state["membership"] = "active"
    return "active"


toolbox.condition(
    "membership_active",
    holds=lambda w: w.state.get("membership") == "active",
    broken_state={"membership": "expired"},
    fix=("renew_membership", {"plan": "monthly"}),
    consent="spend",
)

