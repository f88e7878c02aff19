"""Marine Biology: species, habitats, dive-site surveys, tagged animals and logged sightings."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.gazetteer import NOW
from factory.toolbox.sense import within

toolbox = Toolbox()

CommonName = Annotated[str, Kind("species_common_name")]
Scientific = Annotated[str, Kind("scientific_name")]
Country = Annotated[str, Kind("country")]
Site = Annotated[str, Kind("dive_site")]
Day = Annotated[str, Kind("date")]
Latitude = Annotated[float, Kind("latitude")]
Longitude = Annotated[float, Kind("longitude")]
TagId = Annotated[str, Kind("animal_tag")]
Count = Annotated[int, Kind("animal_count")]

toolbox.bridge("country", "date", "latitude", "longitude")

SPECIES = {  # common name → scientific name, IUCN status, habitat, depth range (m)
    "green sea turtle": ("Chelonia mydas", "endangered", "seagrass meadows", "0-40"),
    "reef manta ray": ("Mobula alfredi", "vulnerable", "coral reefs", "0-120"),
    "whale shark": ("Rhincodon typus", "endangered", "open ocean", "0-1900"),
    "clownfish": ("Amphiprion ocellaris", "least concern", "coral reefs", "1-15"),
    "bottlenose dolphin": ("Tursiops truncatus", "least concern", "coastal waters", "0-300"),
    "napoleon wrasse": ("Cheilinus undulatus", "endangered", "coral reefs", "1-100"),
    "blue-spotted stingray": ("Taeniura lymma", "least concern", "lagoons", "0-30"),
}
SITES = {  # dive site → country, latitude, longitude
    "Osprey Reef": ("Australia", -13.9, 146.6), "Ningaloo Reef": ("Australia", -22.6, 113.7),
    "Tubbataha Reef": ("Philippines", 8.9, 119.9), "Apo Island": ("Philippines", 9.08, 123.27),
    "Raja Ampat": ("Indonesia", -0.5, 130.5), "Komodo Channel": ("Indonesia", -8.55, 119.49),
    "Sipadan": ("Malaysia", 4.11, 118.63), "Ras Mohammed": ("Egypt", 27.73, 34.25),
}
DAYS = 30  # survey records cover the 30 days up to the simulated today
FIRST_DAY = NOW.date() - timedelta(days=DAYS - 1)


@dataclass
class MarineWorld(World):
    richness: dict[str, int] = field(default_factory=dict)  # site → number of species recorded
    tags: dict[str, dict] = field(default_factory=dict)  # tag id → species, site
    salt: str = ""

    def count(self, site: str, species: str, day: str) -> int:
        return random.Random(f"{self.salt}:{site}:{species}:{day}").randint(0, 40)


@toolbox.world
def build_world(rng: random.Random) -> MarineWorld:
    richness = {site: rng.randint(120, 900) for site in sorted(SITES)}
    tags = {}
    for k in range(12):
        common = rng.choice(sorted(SPECIES))
        tags[f"MB-{rng.randint(1000, 9999)}-{k}"] = {"species": SPECIES[common][0], "site": rng.choice(sorted(SITES))}
    return MarineWorld(state={"permit": "active", "sightings": []}, richness=richness, tags=tags,
                       salt=str(rng.random()))


def _scientific(name: str) -> tuple:
    for common, row in SPECIES.items():
        if row[0] == name:
            return row
    raise ToolError(f"unknown species {name!r}; look the species up by its common name first")


@toolbox.values_for("species_common_name")
def _commons(w: MarineWorld) -> list[str]:
    return sorted(SPECIES)


@toolbox.values_for("scientific_name")
def _scientifics(w: MarineWorld) -> list[str]:
    return sorted(row[0] for row in SPECIES.values())


@toolbox.values_for("country")
def _countries(w: MarineWorld) -> list[str]:
    return sorted({row[0] for row in SITES.values()})


@toolbox.values_for("dive_site")
def _sites(w: MarineWorld) -> list[str]:
    return sorted(SITES)


@toolbox.values_for("date")
def _days(w: MarineWorld) -> list[str]:
    return [(FIRST_DAY + timedelta(days=i)).isoformat() for i in range(DAYS)]


@toolbox.values_for("animal_tag")
def _tags(w: MarineWorld) -> list[str]:
    return sorted(w.tags)


@toolbox.values_for("animal_count")
def _counts(w: MarineWorld) -> list[int]:
    return [1, 2, 3, 5, 8, 12]


@toolbox.values_for("latitude", "longitude")
def _points(w: MarineWorld) -> list[tuple[float, float]]:
    return [(row[1], row[2]) for _, row in sorted(SITES.items())]


@toolbox.facts_about("dive_site")
def _site_facts(w: MarineWorld, site: str) -> dict:
    return {"country": SITES[site][0]}


toolbox.condition(
    "research_permit",
    holds=lambda w: w.state.get("permit") == "active",
    broken_state={"permit": "expired"},
    fix=("renew_research_permit", {"term": "monthly"}),
    free=("term",),
)


@toolbox.tool
def find_species(common_name: CommonName) -> tuple[Scientific, str]:
    """Find a marine species by its common name.

    Args:
        common_name: Common English name, e.g. "green sea turtle".

    Returns:
        scientific_name: the species' scientific name.
        conservation_status: the IUCN conservation status (e.g. "endangered").
    """
    row = SPECIES.get(common_name.strip().lower())
    require(row is not None, f"unknown species {common_name!r}; known: {', '.join(sorted(SPECIES))}")
    return row[0], row[1]


@toolbox.tool
def get_species_habitat(scientific_name: Scientific) -> tuple[str, str]:
    """Get the typical habitat and depth range of a species.

    Args:
        scientific_name: Scientific name, e.g. "Chelonia mydas".

    Returns:
        habitat: the habitat the species is usually found in.
        depth_range_m: the usual depth range (metres, e.g. "0-40").
    """
    row = _scientific(scientific_name)
    return row[2], row[3]


@toolbox.tool
def find_top_dive_site(country: Country) -> tuple[Site, Latitude, Longitude]:
    """Find the dive site with the most recorded species in a country.

    Args:
        country: Country name, e.g. "Australia".

    Returns:
        site_name: the dive site with the most species recorded.
        latitude: the site's latitude (decimal degrees).
        longitude: the site's longitude (decimal degrees).
    """
    w = world(MarineWorld)
    sites = [s for s, row in SITES.items() if row[0] == country]
    require(bool(sites), f"no dive sites in {country!r}; countries: {', '.join(_countries(w))}")
    best = max(sorted(sites), key=lambda s: w.richness[s])
    return best, SITES[best][1], SITES[best][2]


@toolbox.tool
def count_species_at_site(site_name: Site, scientific_name: Scientific, date: Day) -> Count:
    """Get how many animals of a species a survey counted at a dive site on a day.

    Args:
        site_name: Dive site name, e.g. "Osprey Reef".
        scientific_name: Scientific name of the species, e.g. "Mobula alfredi".
        date: Survey day in YYYY-MM-DD, within the last 30 days.

    Returns:
        count: the number of animals counted.
    """
    w = world(MarineWorld)
    require(site_name in SITES, f"unknown dive site {site_name!r}")
    _scientific(scientific_name)
    day = _day(date)
    return w.count(site_name, scientific_name, day.isoformat())


@toolbox.tool
def track_tagged_animal(tag_id: TagId) -> tuple[Scientific, Site]:
    """Get the species and last recorded dive site of a tagged animal.

    Args:
        tag_id: Tag id, e.g. "MB-4821-3".

    Returns:
        scientific_name: the tagged animal's species.
        site_name: the dive site where it was last recorded.
    """
    w = world(MarineWorld)
    require(tag_id in w.tags, f"unknown tag {tag_id!r}")
    row = w.tags[tag_id]
    return row["species"], row["site"]


@toolbox.tool(sense=(within("count", 1, 50),), requires=("research_permit",), tags=("state_change",))
def log_sighting(site_name: Site, scientific_name: Scientific, count: Count) -> int:
    """Log a sighting of a species at a dive site in the research log.

    Args:
        site_name: Dive site name, e.g. "Sipadan".
        scientific_name: Scientific name of the species seen.
        count: How many animals were seen (1-50).

    Returns:
        logged: the number of sightings in the research log now.
    """
    w = world(MarineWorld)
    require(w.state.get("permit") == "active", "the research permit has expired; renew it before logging sightings")
    require(site_name in SITES, f"unknown dive site {site_name!r}")
    _scientific(scientific_name)
    require(1 <= count <= 50, "count must be between 1 and 50")
    w.state["sightings"] = [*w.state.get("sightings", []), [site_name, scientific_name, count]]
    return len(w.state["sightings"])


@toolbox.tool(tags=("state_change", "fix_only"))
def renew_research_permit(term: Literal["monthly", "annual"]) -> str:
    """Renew the user's research permit.

    Args:
        term: Renewal term: "monthly" or "annual".

    Returns:
        status: the permit's status after renewal.
    """
    w = world(MarineWorld)
    w.state["permit"] = "active"
    return f"active ({term})"


def _day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None
    require(FIRST_DAY <= day <= NOW.date(), f"no surveys on {text}: records cover {FIRST_DAY} to {NOW.date()}")
    return day
