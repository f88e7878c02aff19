"""Personal Device Assistant: device settings, contacts and text messages on the user's phone.

Settings depend on each other the way a phone's do: sending a text needs cellular service,
location look-ups need the location service, the map look-up of a place needs wifi, and
the cellular and location settings are locked while low-battery mode is on (turning
low-battery mode on switches both off). Contacts are the same directory of
people that the calendar's attendees come from; their cities are gazetteer cities.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.gazetteer import (
    CALLING_CODES,
    CITIES,
    CITY_BY_NAME,
    CITY_CALLING_CODES,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    calling_code,
    nearest_city,
)
from factory.toolbox.user import PEOPLE, USER

toolbox = Toolbox()

# Contacts are one role of a person: the calendar's attendees and organisers are the same
# directory, while patients, doctors or estate agents elsewhere are not.
Contact = Annotated[str, Kind("person_name", role="contact")]
# A role is also the noun for "that ..." in a request, hence "contact_phone", not "contact".
ContactPhone = Annotated[str, Kind("phone_number", role="contact_phone")]
ContactEmail = Annotated[str, Kind("email", role="contact_email")]
DialledNumber = Annotated[str, Kind("phone_number")]  # a number read off a call log or a business card
NewNumber = Annotated[str, Kind("phone_number", role="new_contact")]
NewPerson = Annotated[str, Kind("new_contact_name")]
City = Annotated[str, Kind("city")]
# Where a contact lives is news a person passes on ("Maria moved to Berlin"), never the
# result of a look-up: nobody moves a friend to "the city nearest to 48.82, 2.32".
HomeCity = Annotated[str, Kind("city", role="home")]
NewHomeCity = Annotated[str, Kind("city", role="new_contact_home")]  # a new acquaintance's city ties to no other edit
Country = Annotated[str, Kind("country")]
Day = Annotated[str, Kind("date")]
Latitude = Annotated[float, Kind("latitude")]
Longitude = Annotated[float, Kind("longitude")]
OutgoingText = Annotated[str, Kind("message_text")]

OWNER = USER.name  # the phone's owner: the user every seed serves
HOME_CITY = USER.home_city
DEFAULT_SETTINGS = {"wifi": True, "cellular": True, "location_service": True, "low_battery_mode": False,
                    "bluetooth": True, "do_not_disturb": False}
INCOMING = ["Running 10 minutes late, sorry!", "Can we move our lunch to Thursday?", "Just landed in {city}!",
            "Did you see the budget numbers?", "Happy to help with the move on Saturday.", "Call me when you get a chance.",
            "The concert tickets for Friday are booked.", "Thanks for dinner last night!", "Are we still on for coffee tomorrow?",
            "I sent the contract over by email.", "Let's catch up next week.", "Don't forget the book club meeting.",
            "The weather in {city} is lovely today.", "Can you send me the slides from the review?",
            "Parking is full, I'll be a bit late.", "Congrats on the new job!"]
# Texts that hold whenever they are sent: "On my way!" or "Happy birthday!" to someone whose
# meeting or birthday is weeks away reads as nothing a person would send.
OUTGOING = ["Can you call me back?", "Are we still on?", "Thanks, talk soon.", "Could we find another time?",
            "Please send me the address.", "Let me know when you're free.", "I'll call you later today."]
SEARCH_WORDS = ["late", "lunch", "landed", "budget", "move", "call", "tickets", "dinner", "coffee", "contract",
                "catch up", "book club", "weather", "slides", "parking", "congrats", "thursday", "saturday"]


@dataclass
class PhoneWorld(World):
    contacts: dict[str, dict] = field(default_factory=dict)  # full name → phone, email, city, born
    messages: list[dict] = field(default_factory=list)  # id, contact, direction (in/out), text, at; oldest first
    location: tuple[float, float] = (0.0, 0.0)  # where the phone is


def _fmt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


@toolbox.world
def build_world(rng: random.Random) -> PhoneWorld:
    contacts: dict[str, dict] = {}
    numbers: set[str] = set()
    cities = [c.name for c in CITIES]
    for name in PEOPLE:
        city = HOME_CITY if rng.random() < 0.3 else rng.choice(cities)
        code = calling_code(city)
        number = ""
        while not number or number in numbers:
            number = f"+{code}-{rng.randint(200, 989)}-555-{rng.randint(0, 9999):04d}"
        numbers.add(number)
        born = date(rng.randint(1960, 2004), rng.randint(1, 12), rng.randint(1, 28))
        contacts[name] = {"phone": number, "email": f"{name.lower().replace(' ', '.')}@example.com",
                          "city": city, "born": born.isoformat()}
    messages = []
    start = NOW - timedelta(days=30)
    for name in PEOPLE:
        for direction, count in (("in", rng.randint(1, 4)), ("out", rng.randint(0, 2))):
            for _ in range(count):
                at = start + timedelta(minutes=rng.randint(0, 30 * 24 * 60 - 60))
                at = at.replace(hour=max(7, min(22, at.hour)))
                template = rng.choice(INCOMING if direction == "in" else OUTGOING)
                text = template.format(city=rng.choice(cities))
                messages.append({"contact": name, "direction": direction, "text": text, "at": _fmt(at)})
    messages.sort(key=lambda m: (m["at"], m["contact"]))
    for k, message in enumerate(messages):
        message["id"] = f"MSG-{2001 + k}"
    location = (USER.latitude, USER.longitude)  # where the maps app places the user too (factory.toolbox.user)
    return PhoneWorld(contacts=contacts, messages=messages, location=location, state=dict(DEFAULT_SETTINGS))


# A fix switches a setting to one value only, so a request that expects the fix states it.
toolbox.condition(
    "cellular",
    holds=lambda w: w.state.get("cellular", True),
    broken_state={"cellular": False},
    fix=("set_cellular", {"on": True}),
)
toolbox.condition(
    "location_service",
    holds=lambda w: w.state.get("location_service", True),
    broken_state={"location_service": False},
    fix=("set_location_service", {"on": True}),
)
toolbox.condition(
    "wifi",
    holds=lambda w: w.state.get("wifi", True),
    broken_state={"wifi": False},
    fix=("set_wifi", {"on": True}),
)
toolbox.condition(
    "low_battery_off",
    holds=lambda w: not w.state.get("low_battery_mode", False),
    # Low-battery mode switches cellular service and the location service off with it.
    broken_state={"low_battery_mode": True, "cellular": False, "location_service": False},
    fix=("set_low_battery_mode", {"on": False}),
)

# Contacts and attendees are one directory, so the calendar's organisers can be texted or
# looked up here; cities, dates and points from elsewhere make no sensible contact edits.
toolbox.bridge("person_name")

# --- helpers ---------------------------------------------------------------------------------

def _contacts(w: PhoneWorld) -> dict[str, dict]:
    """The address book as it stands: base contacts with edits, plus contacts added."""
    current = {}
    edits = w.state.get("contact_cities", {})
    for name, row in (*w.contacts.items(), *w.state.get("contacts_added", {}).items()):
        current[name] = {**row, "city": edits.get(name, row["city"])}
    return current


def _contact(name: str) -> tuple[str, dict]:
    current = _contacts(world(PhoneWorld))
    if name in current:
        return name, current[name]
    folded = {n.lower(): n for n in current}
    key = " ".join(name.lower().split())
    require(key in folded, f"{name!r} is not in your contacts; search the contacts for the exact full name")
    return folded[key], current[folded[key]]


def _digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def _valid_phone(number: str) -> str:
    cleaned = number.strip()
    require(bool(re.fullmatch(r"\+\d{1,3}(-\d{1,4}){2,4}", cleaned)),
            f"phone number {number!r} is not in international format, e.g. '+1-415-555-0134'")
    return cleaned


def _city_name(city: str) -> str:
    folded = {c.lower(): c for c in CITY_BY_NAME}
    require(city.strip().lower() in folded, f"unknown city {city!r}; use an English city name such as 'London' or 'Tokyo'")
    return folded[city.strip().lower()]


def _all_messages(w: PhoneWorld) -> list[dict]:
    return [*w.messages, *w.state.get("sent", [])]


def _anniversary(born: date, year: int) -> date:
    """The birthday in a given year (29 February falls on 28 February in common years)."""
    return born.replace(year=year) if (born.month, born.day) != (2, 29) or year % 4 == 0 and (year % 100 or year % 400 == 0) else date(year, 2, 28)


def _setting(name: str) -> bool:
    return bool(world(PhoneWorld).state.get(name, DEFAULT_SETTINGS[name]))


# --- value generators ------------------------------------------------------------------------

@toolbox.values_for("person_name")
def _people(w: PhoneWorld) -> list[str]:
    return sorted(w.contacts)


@toolbox.values_for("new_contact_name")
def _new_people(w: PhoneWorld) -> list[str]:
    names = [f"{first} {last}" for first, last in zip(FIRST_NAMES[::2], LAST_NAMES[5::2], strict=False)]
    return [n for n in names if n not in w.contacts and n != OWNER]


@toolbox.values_for("phone_number")
def _numbers(w: PhoneWorld) -> list[str]:
    """Numbers a person reads off a call log: the contacts' own."""
    return [row["phone"] for _, row in sorted(w.contacts.items())]


@toolbox.values_for("phone_number/new_contact")
def _new_numbers(w: PhoneWorld) -> list[str]:
    taken = {_digits(row["phone"]) for row in w.contacts.values()}
    numbers = [f"+{code}-{310 + 37 * k}-555-{(1234 + 617 * k) % 10000:04d}"
               for k, code in enumerate(sorted(set(CALLING_CODES.values())))]
    return [n for n in numbers if _digits(n) not in taken]


@toolbox.values_for("city")
def _cities(w: PhoneWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("birth_date")
def _birth_dates(w: PhoneWorld) -> list[str]:
    return [date(1962 + 3 * k, 1 + (5 * k) % 12, 1 + (7 * k) % 28).isoformat() for k in range(14)]


@toolbox.values_for("message_text")
def _texts(w: PhoneWorld) -> list[str]:
    return list(OUTGOING)


@toolbox.values_for("latitude", "longitude")
def _points(w: PhoneWorld) -> list[tuple[float, float]]:
    """Points a person might hold (a photo's location, a pin someone sent): near a city, not its centre."""
    points = [tuple(w.location)]
    for k, c in enumerate(CITIES):
        points.append((round(c.latitude + 0.011 * (k % 7 - 3), 4), round(c.longitude - 0.013 * (k % 5 - 2), 4)))
    return points


@toolbox.values_for("contact_mention")
def _mentions(w: PhoneWorld) -> list[str]:
    """How people refer to a contact: a unique first or last name, or first name and last initial
    (households such as "the Okafors" resolve too, but read badly as the subject of a sentence)."""
    firsts = [n.split()[0] for n in w.contacts]
    lasts = [n.split()[-1] for n in w.contacts]
    mentions = []
    for name in sorted(w.contacts):
        first, last = name.split()[0], name.split()[-1]
        mentions.append(first if firsts.count(first) == 1 else f"{first} {last[0]}")
        if lasts.count(last) == 1:
            mentions.append(last)
    return mentions


@toolbox.values_for("contact_search_terms")
def _contact_terms(w: PhoneWorld) -> list[str]:
    return sorted({row["city"].lower() for row in w.contacts.values()} | {n.split()[-1].lower() for n in w.contacts})


@toolbox.values_for("message_search_terms")
def _message_terms(w: PhoneWorld) -> list[str]:
    texts = " ".join(m["text"].lower() for m in w.messages)
    return [word for word in SEARCH_WORDS if word in texts]


# Each switch is drawn as the change a person makes from the phone's usual settings (wifi,
# cellular, location and bluetooth on; low-battery mode and do-not-disturb off).
@toolbox.values_for("wifi_switch")
def _wifi_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["wifi"]]


@toolbox.values_for("cellular_switch")
def _cellular_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["cellular"]]


@toolbox.values_for("location_switch")
def _location_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["location_service"]]


@toolbox.values_for("low_battery_switch")
def _low_battery_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["low_battery_mode"]]


@toolbox.values_for("bluetooth_switch")
def _bluetooth_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["bluetooth"]]


@toolbox.values_for("do_not_disturb_switch")
def _dnd_switch(w: PhoneWorld) -> list[bool]:
    return [not DEFAULT_SETTINGS["do_not_disturb"]]


# --- contacts --------------------------------------------------------------------------------

@toolbox.tool(tags=("search",))
def search_contacts(query: Annotated[str, Kind("contact_search_terms")], max_results: int = 10) -> list[Contact]:
    """Search the contacts by words in their name, city, country, email address or phone number.

    Args:
        query: Words to look for, e.g. "paris" or "lopez"; all words must match.
        max_results: Maximum number of names to return (1-40).

    Returns:
        names: the matching contacts (full names, alphabetical).
    """
    w = world(PhoneWorld)
    require(1 <= max_results <= 40, "max_results must be between 1 and 40")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for name, row in sorted(_contacts(w).items()):
        text = f"{name} {row['city']} {CITY_BY_NAME[row['city']].country} {row['email']} {row['phone']}".lower()
        if all(word in text for word in words):
            hits.append(name)
    return hits[:max_results]


@toolbox.tool(tags=("canonicalise",))
def resolve_contact_name(mention: Annotated[str, Kind("contact_mention")]) -> Contact:
    """Resolve how someone refers to a contact (first name, last name, or first name and last initial) to the contact's full name.

    Args:
        mention: The way the contact is named, e.g. "kenji", "Okafor", "the Okafors" or "Maria L.".

    Returns:
        name: the contact meant (full name).
    """
    w = world(PhoneWorld)
    text = " ".join(mention.lower().replace(".", " ").split())
    household = text.startswith("the ")  # "the Okafors", "the Lopezes": the household of that last name
    text = re.sub(r"^(the|my|mr|mrs|ms|dr)\s+", "", text)
    if household and " " not in text:
        lasts = {n.split()[-1].lower() for n in _contacts(w)}
        text = next((text[: -len(end)] for end in ("es", "s") if text.endswith(end) and text[: -len(end)] in lasts), text)
    tokens = text.split()
    require(bool(tokens), "the mention is empty; give a first name, a last name or a full name")
    hits = []
    for name in sorted(_contacts(w)):
        first, last = name.lower().split()[0], name.lower().split()[-1]
        if (text == name.lower() or (len(tokens) == 1 and tokens[0] in (first, last))
                or (len(tokens) == 2 and tokens[0] == first and len(tokens[1]) == 1 and last.startswith(tokens[1]))):
            hits.append(name)
    require(bool(hits), f"no contact matches {mention!r}; search the contacts instead")
    require(len(hits) == 1, f"{mention!r} could be {', '.join(hits)}; add the last name or its initial")
    return hits[0]


@toolbox.tool
def get_contact_phone(name: Contact) -> ContactPhone:
    """Get a contact's phone number.

    Args:
        name: The contact's full name, e.g. "Jane Doe".

    Returns:
        phone_number: the contact's phone number (international format).
    """
    return _contact(name)[1]["phone"]


@toolbox.tool
def get_contact_email(name: Contact) -> ContactEmail:
    """Get a contact's email address.

    Args:
        name: The contact's full name, e.g. "Jane Doe".

    Returns:
        email: the contact's email address.
    """
    return _contact(name)[1]["email"]


@toolbox.tool
def get_contact_city(name: Contact) -> tuple[City, Country]:
    """Get the city and country a contact lives in.

    Args:
        name: The contact's full name, e.g. "Jane Doe".

    Returns:
        city: the contact's city.
        country: the contact's country.
    """
    city = _contact(name)[1]["city"]
    return city, CITY_BY_NAME[city].country


@toolbox.tool
def get_contact_birthday(name: Contact) -> tuple[Day, int]:
    """Get the date of a contact's next birthday and the age they turn.

    Args:
        name: The contact's full name, e.g. "Jane Doe".

    Returns:
        next_birthday: the contact's next birthday (YYYY-MM-DD, today or later).
        turning: the age the contact turns then.
    """
    full, row = _contact(name)
    born = date.fromisoformat(row["born"])
    today = NOW.date()
    upcoming = _anniversary(born, today.year)
    if upcoming < today:
        upcoming = _anniversary(born, today.year + 1)
    return upcoming.isoformat(), upcoming.year - born.year


@toolbox.tool
def find_contact_by_phone(phone_number: DialledNumber) -> Contact:
    """Find the contact a phone number belongs to.

    Args:
        phone_number: The phone number in international format, e.g. "+1-999-555-0100" (punctuation is ignored).

    Returns:
        name: the contact with that number (full name).
    """
    digits = _digits(phone_number)
    require(len(digits) >= 7, f"{phone_number!r} is too short to be a phone number")
    for name, row in _contacts(world(PhoneWorld)).items():
        if _digits(row["phone"]) == digits:
            return name
    raise ToolError(f"no contact has the number {phone_number}; it may belong to someone not in your contacts")


@toolbox.tool(tags=("state_change",))
def add_contact(name: NewPerson, phone_number: NewNumber, city: NewHomeCity, birthday: Annotated[str, Kind("birth_date")]) -> str:
    """Add a new person to the contacts.

    Args:
        name: The new contact's full name (first and last), e.g. "Maria Rossi".
        phone_number: Their phone number in international format, e.g. "+39-345-555-0182".
        city: The city they live in, e.g. "Rome".
        birthday: Their date of birth (YYYY-MM-DD), e.g. "1988-04-12".

    Returns:
        name: the new contact (full name).
    """
    w = world(PhoneWorld)
    full = " ".join(name.split())
    require(bool(re.fullmatch(r"[A-Za-z][A-Za-z'\-]*( [A-Za-z][A-Za-z'\-]*)+", full)),
            f"{name!r} is not a full name; give first and last name")
    require(full.lower() not in (n.lower() for n in _contacts(w)), f"{full} is already in your contacts; change the existing contact instead")
    number = _valid_phone(phone_number)
    place = _city_name(city)
    require(bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", birthday.strip())), f"birthday {birthday!r} is not in YYYY-MM-DD format")
    try:
        born = date.fromisoformat(birthday.strip())
    except ValueError:
        raise ToolError(f"birthday {birthday!r} is not a real calendar date") from None
    require(date(1900, 1, 1) <= born <= NOW.date(), f"birthday {birthday} must be between 1900-01-01 and today ({NOW.date()})")
    email = f"{full.lower().replace(' ', '.')}@example.com"
    w.state.setdefault("contacts_added", {})[full] = {"phone": number, "email": email, "city": place, "born": born.isoformat()}
    return full


@toolbox.tool(tags=("state_change",))
def update_contact_city(name: Contact, city: HomeCity) -> str:
    """Change the city a contact lives in (setting the same city again changes nothing).

    Args:
        name: The contact's full name, e.g. "Jane Doe".
        city: The contact's new city, e.g. "Berlin".

    Returns:
        previous_city: the contact's previous city.
    """
    w = world(PhoneWorld)
    full, row = _contact(name)
    place = _city_name(city)
    if place != row["city"]:
        w.state.setdefault("contact_cities", {})[full] = place
    return row["city"]


# --- messages --------------------------------------------------------------------------------

@toolbox.tool(requires=("cellular",), tags=("state_change",))
def send_text_message(recipient: Contact, text: OutgoingText) -> tuple[str, str]:
    """Send a text message (SMS) to a contact.

    Args:
        recipient: The contact's full name, e.g. "Jane Doe".
        text: The message to send (1-500 characters).

    Returns:
        message_id: the sent message's id.
        sent_at: the time the message was sent (YYYY-MM-DDTHH:MM).
    """
    w = world(PhoneWorld)
    require(_setting("cellular"), "Cellular service is off, so the message cannot be sent: turn cellular service on first")
    full, _ = _contact(recipient)
    body = text.strip()
    require(0 < len(body) <= 500, "text must have 1 to 500 characters")
    sent = w.state.setdefault("sent", [])
    message = {"id": f"MSG-{9001 + len(sent)}", "contact": full, "direction": "out", "text": body,
               "at": _fmt(NOW + timedelta(minutes=len(sent)))}
    sent.append(message)
    return message["id"], message["at"]


@toolbox.tool
def get_latest_message_from(name: Contact) -> tuple[str, str]:
    """Read the most recent text message received from a contact.

    Args:
        name: The contact's full name, e.g. "Jane Doe".

    Returns:
        text: the latest message's text.
        received_at: the time the latest message arrived (YYYY-MM-DDTHH:MM).
    """
    full, _ = _contact(name)
    received = [m for m in _all_messages(world(PhoneWorld)) if m["contact"] == full and m["direction"] == "in"]
    require(bool(received), f"there are no messages from {full}")
    latest = max(received, key=lambda m: m["at"])
    return latest["text"], latest["at"]


@toolbox.tool
def search_messages(query: Annotated[str, Kind("message_search_terms")], max_results: int = 5) -> list[str]:
    """Search sent and received text messages by words in the text or the contact's name.

    Args:
        query: Words to look for, e.g. "lunch" or "maria"; all words must match.
        max_results: Maximum number of messages to return (1-20).

    Returns:
        messages: the matching messages, newest first, each as "YYYY-MM-DDTHH:MM Name: text" (or "... To Name: text" for sent ones).
    """
    w = world(PhoneWorld)
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = [m for m in _all_messages(w) if all(word in f"{m['contact']} {m['text']}".lower() for word in words)]
    hits.sort(key=lambda m: (m["at"], m["id"]), reverse=True)
    return [f"{m['at']} {'' if m['direction'] == 'in' else 'To '}{m['contact']}: {m['text']}" for m in hits[:max_results]]


# --- location --------------------------------------------------------------------------------

@toolbox.tool(requires=("location_service",))
def get_current_location() -> tuple[Latitude, Longitude]:
    """Get the phone's current position from the location service.

    Returns:
        latitude: my current latitude (decimal degrees).
        longitude: my current longitude (decimal degrees).
    """
    w = world(PhoneWorld)
    require(_setting("location_service"), "The location service is off, so the position is unknown: turn location services on first")
    return w.location


@toolbox.tool(requires=("wifi",))
def get_city_from_coordinates(latitude: Latitude, longitude: Longitude) -> tuple[City, Country, float]:
    """Look up the nearest known city to a position on the online map (needs wifi).

    Args:
        latitude: Latitude in decimal degrees (-90 to 90).
        longitude: Longitude in decimal degrees (-180 to 180).

    Returns:
        city: the nearest city.
        country: the nearest city's country.
        distance_km: the distance to the nearest city (km, rounded to 0.1).
    """
    require(_setting("wifi"), "Wifi is off, so the online map cannot be reached: turn wifi on first")
    require(-90 <= latitude <= 90, f"latitude {latitude} is out of range: use -90 to 90")
    require(-180 <= longitude <= 180, f"longitude {longitude} is out of range: use -180 to 180")
    nearest, km = nearest_city(latitude, longitude)
    return nearest.name, nearest.country, round(km, 1)


# --- settings --------------------------------------------------------------------------------

@toolbox.tool(tags=("state_change",))
def set_wifi(on: Annotated[bool, Kind("wifi_switch")]) -> bool:
    """Turn wifi on or off.

    Args:
        on: True to turn wifi on, False to turn it off.

    Returns:
        wifi_on: whether wifi is now on.
    """
    world(PhoneWorld).state["wifi"] = on
    return on


@toolbox.tool(requires=("low_battery_off",), tags=("state_change",))
def set_cellular(on: Annotated[bool, Kind("cellular_switch")]) -> bool:
    """Turn cellular service (calls, texts and mobile data) on or off; the setting is locked while low-battery mode is on.

    Args:
        on: True to turn cellular service on, False to turn it off.

    Returns:
        cellular_on: whether cellular service is now on.
    """
    w = world(PhoneWorld)
    require(not _setting("low_battery_mode"),
            "Low-battery mode is on, so the cellular setting is locked: turn low-battery mode off first")
    w.state["cellular"] = on
    return on


@toolbox.tool(requires=("low_battery_off",), tags=("state_change",))
def set_location_service(on: Annotated[bool, Kind("location_switch")]) -> bool:
    """Turn the location service on or off; the setting is locked while low-battery mode is on.

    Args:
        on: True to turn the location service on, False to turn it off.

    Returns:
        location_on: whether the location service is now on.
    """
    w = world(PhoneWorld)
    require(not _setting("low_battery_mode"),
            "Low-battery mode is on, so the location setting is locked: turn low-battery mode off first")
    w.state["location_service"] = on
    return on


@toolbox.tool(tags=("state_change",))
def set_low_battery_mode(on: Annotated[bool, Kind("low_battery_switch")]) -> bool:
    """Turn low-battery mode on or off; turning it on switches cellular service and the location service off and locks both settings.

    Args:
        on: True to turn low-battery mode on, False to turn it off.

    Returns:
        low_battery_on: whether low-battery mode is now on.
    """
    w = world(PhoneWorld)
    w.state["low_battery_mode"] = on
    if on:
        w.state["cellular"] = False
        w.state["location_service"] = False
    return on


@toolbox.tool(tags=("state_change",))
def set_bluetooth(on: Annotated[bool, Kind("bluetooth_switch")]) -> bool:
    """Turn bluetooth on or off.

    Args:
        on: True to turn bluetooth on, False to turn it off.

    Returns:
        bluetooth_on: whether bluetooth is now on.
    """
    world(PhoneWorld).state["bluetooth"] = on
    return on


@toolbox.tool(tags=("state_change",))
def set_do_not_disturb(on: Annotated[bool, Kind("do_not_disturb_switch")]) -> bool:
    """Turn do-not-disturb (silencing calls and notifications) on or off.

    Args:
        on: True to turn do-not-disturb on, False to turn it off.

    Returns:
        do_not_disturb_on: whether do-not-disturb is now on.
    """
    world(PhoneWorld).state["do_not_disturb"] = on
    return on


@toolbox.facts_about("phone_number")
def _number_facts(w: PhoneWorld, number: str) -> dict:
    """The country a number's calling code belongs to, where only one country has it (+46 is
    Sweden; +1 is two countries): whoever has the number knows it."""
    code = number.lstrip("+").split("-")[0]
    countries = [country for country, c in CALLING_CODES.items() if str(c) == code] or \
        [CITY_BY_NAME[city].country for city, c in CITY_CALLING_CODES.items() if str(c) == code]
    return {"country": countries[0]} if len(countries) == 1 else {}


# --- goals: what a person wants, and the tools that serve it ------------------------------
# One person and their own phone: their contacts, their messages, their settings. The
# tools a goal borrows from another seed cannot make a request on their own (they neither
# feed each other nor take the same thing from me), so every request uses the phone: the
# clock or the weather is there because of the contact or the place.

CONTACT_LOOKUPS = ("resolve_contact_name", "find_contact_by_phone")

