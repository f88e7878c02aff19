"""The one person every seed world serves: who "I" am in a request. Every seed that speaks of
"me" or "my" (my phone's position, my home city, my profile, my card) reads it from here, so
tools of two seeds that answer a question about the user agree: the maps app and the phone
place me at one spot, the clock and the calendar keep my home city's time."""

from __future__ import annotations

from dataclasses import dataclass

from factory.toolbox.gazetteer import CITY_BY_NAME, FIRST_NAMES, LAST_NAMES, City, geocode


@dataclass(frozen=True)
class User:
    name: str
    email: str
    phone: str
    home_address: str  # one line, as `gazetteer.geocode` reads it
    latitude: float  # where the user's phone is now: out and about in the home city
    longitude: float
    card: str  # the payment card on file wherever one is: brand and last four digits
    passport_number: str
    nationality: str  # a gazetteer country

    @property
    def home_city(self) -> str:
        """The city of the home address; "now" (`gazetteer.NOW`) is its local time."""
        return geocode(self.home_address)[2]

    @property
    def home_point(self) -> tuple[float, float]:
        latitude, longitude, _ = geocode(self.home_address)
        return latitude, longitude

    @property
    def city(self) -> City:
        """The city the user is in now."""
        return CITY_BY_NAME[self.home_city]

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


USER = User(
    name="Jordan Avery",
    email="jordan.avery@example.com",
    phone="+1-415-555-0199",
    home_address="48 Cedar Lane, San Francisco",
    latitude=37.78412,
    longitude=-122.40773,
    card="Visa ending 4242",
    passport_number="X4827193",
    nationality="USA",
)


# The people the user knows: the phone's contacts and the calendar's attendees are the same 40
# full names. Ten first names belong to two people each, so a first name alone is not always one
# person (`known_by_first_name`).
PEOPLE = [f"{FIRST_NAMES[i]} {LAST_NAMES[i]}" for i in range(30)] + [
    f"{FIRST_NAMES[i]} {LAST_NAMES[(i + 13) % 30]}" for i in range(0, 30, 3)
]


def known_by_first_name(name: str) -> bool:
    """Whether the user knows no one else of this person's first name."""
    first = name.split()[0]
    return sum(person.split()[0] == first for person in PEOPLE) <= 1
