"""Calendar and Reminders: the user's events (look-ups, availability, free slots, creating,
moving, cancelling and inviting) and their reminders (add, list, complete, delete).

The calendar covers 30 days before to 60 days after the simulated now (`gazetteer.NOW`).
Attendees come from the same directory of people as the phone assistant's contacts, so a
name found here can be messaged or looked up there. Event times are local to the event city.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after
from factory.toolbox.gazetteer import CITIES, CITY_BY_NAME, NOW, local_time
from factory.toolbox.sense import around, present, within
from factory.toolbox.user import PEOPLE, USER

toolbox = Toolbox()

EventId = Annotated[str, Kind("event_id")]
ReminderId = Annotated[str, Kind("reminder_id")]
# One role per thing done to a reminder: requests tied by the same reminder read "tick it off,
# is it done yet? delete it", so each reminder request stands alone.
ReminderToComplete = Annotated[str, Kind("reminder_id", role="to_complete")]
ReminderToDelete = Annotated[str, Kind("reminder_id", role="to_delete")]
Title = Annotated[str, Kind("event_title")]
ReminderText = Annotated[str, Kind("reminder_text")]
# Attendees and organisers are the phone's contacts: one directory, one role, so the organiser
# of a meeting can be texted or called there.
Contact = Annotated[str, Kind("person_name", role="contact")]
# Whom a person looks up meetings with is someone they name: "my next meeting with the
# organiser of EVT-1123" made up half of all requests once organisers fed this look-up, and a
# contact found by a phone number is looked up on the phone, not in the calendar.
Attendee = Annotated[str, Kind("person_name", role="attendee")]
# Whom to invite is the person's own choice: "invite the organiser of A to B" made up most
# invitations once any contact could feed one, and usually failed (organisers attend a lot).
Invitee = Annotated[str, Kind("person_name", role="invitee")]
City = Annotated[str, Kind("city")]
# Where a new event happens and which day to look for a gap are the person's own plans: "in the
# city where my haircut takes place" or "a free hour on the scholarship's deadline" read as noise.
NewEventCity = Annotated[str, Kind("city", role="new_event")]
Day = Annotated[str, Kind("date")]
PlanningDay = Annotated[str, Kind("date", role="planning_day")]
# Kinds of moment, so each feeds only where a person would use it: an event's start (a busy
# time: what's the weather then, what time is that in Tokyo), a free slot found in the calendar
# (book something there), a time a person proposes (am I free then?), and the time a person
# names to move an event to. A busy start never becomes a new event's start or an availability check,
# and a new event and a moved one never share a time just because two parts of one request
# must name something in common.
Moment = Annotated[str, Kind("datetime")]
FreeSlot = Annotated[str, Kind("datetime", role="free_slot")]
SlotMinutes = Annotated[int, Kind("duration_minutes", role="free_slot")]  # a free slot's length goes with its start
ProposedTime = Annotated[str, Kind("datetime", role="proposed_time")]
NewTime = Annotated[str, Kind("datetime", role="new_time")]
# A reminder's time is one the person states: "at the start of event X" is too late to prepare
# for X, and a reminder tied to an event reads as noise next to any other change to that event.
ReminderTime = Annotated[str, Kind("datetime", role="reminder_time")]
Minutes = Annotated[int, Kind("duration_minutes")]

OWNER = USER.name  # the calendar's owner, the user every seed serves; organiser of personal appointments
HOME_CITY = USER.home_city
FIRST_DAY = NOW.date() - timedelta(days=30)
LAST_DAY = NOW.date() + timedelta(days=60)
WORK_START, WORK_END = 9 * 60, 18 * 60  # free slots are searched within working hours
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
SHARED_TITLES = ["Project sync", "Budget review", "Design review", "Quarterly planning", "Client call",
                 "Product demo", "Hiring interview", "Board meeting", "Marketing brainstorm", "Sprint retrospective",
                 "Book club", "Team dinner"]
PERSONAL_TITLES = ["Dentist appointment", "Yoga class", "Doctor's appointment", "Car service", "Haircut"]
ONE_TO_ONE = ["1:1 with {first}", "Lunch with {first}", "Coffee with {first}"]
# When a meal starts (earliest and latest start, minutes after midnight) and what an event of
# that title is instead when the day has gone past it: no "Lunch with Maria" at 08:00.
MEALS = {"Lunch with": (11 * 60 + 30, 13 * 60 + 30, "Coffee with"), "Team dinner": (18 * 60, 20 * 60, "Team drinks")}
NEW_TITLES = ["Team offsite planning", "Call with the bank", "Pick up new glasses", "Parent-teacher meeting",
              "Gym session", "Contract review", "Farewell drinks", "Vendor negotiation", "Tax advisor meeting",
              "Photography workshop"]
REMINDER_TEXTS = ["Renew passport", "Pay electricity bill", "Buy a birthday gift", "Submit expense report",
                  "Call the plumber", "Book flights for the conference", "Water the plants", "Return library books",
                  "Schedule annual checkup", "Send the quarterly report", "Cancel the gym trial", "Order printer ink",
                  "Pick up dry cleaning", "Back up the laptop", "Reply to the landlord", "Buy concert tickets"]
NEW_REMINDER_TEXTS = ["Confirm dinner reservation", "Charge the camera batteries", "Prepare slides for the review",
                      "Check in for the flight", "Bring the signed contract", "Text the babysitter",
                      "Print the boarding pass", "Buy milk"]


@dataclass
class CalendarWorld(World):
    events: dict[str, dict] = field(default_factory=dict)  # event id → title, start, minutes, city, organizer, attendees
    reminders: dict[str, dict] = field(default_factory=dict)  # reminder id → text, due, done


def _fmt(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


@toolbox.world
def build_world(rng: random.Random) -> CalendarWorld:
    events: dict[str, dict] = {}
    seen: set[tuple[str, date]] = set()
    travel_cities = [c.name for c in CITIES if c.name != HOME_CITY]
    day = FIRST_DAY
    while day <= LAST_DAY:
        count = rng.choice([1, 2, 2, 3, 3, 4]) if day.weekday() < 5 else rng.choice([0, 0, 1])
        clock = 8 * 60 + rng.choice([0, 30, 60, 90])
        for _ in range(count):
            minutes = rng.choice([30, 30, 45, 60, 60, 90, 120])
            if clock + minutes > 19 * 60:
                break
            kind = rng.random()
            if kind < 0.15:
                title, attendees = rng.choice(PERSONAL_TITLES), []
            elif kind < 0.45:
                person = rng.choice(PEOPLE)
                title, attendees = rng.choice(ONE_TO_ONE).format(first=person.split()[0]), [person]
            else:
                title, attendees = rng.choice(SHARED_TITLES), rng.sample(PEOPLE, rng.randint(1, 3))
            meal = next((m for m in MEALS if title.startswith(m)), None)
            if meal is not None:  # a lunch at lunchtime, a dinner in the evening, or another kind of event
                opens, closes, otherwise = MEALS[meal]
                if clock <= closes:
                    clock = max(clock, opens)
                else:
                    title = title.replace(meal, otherwise)
            if (title, day) not in seen:
                seen.add((title, day))
                start = datetime(day.year, day.month, day.day) + timedelta(minutes=clock)
                events[f"EVT-{1001 + len(events)}"] = {
                    "title": title, "start": _fmt(start), "minutes": minutes,
                    "city": HOME_CITY if rng.random() < 0.75 else rng.choice(travel_cities),
                    "organizer": attendees[0] if attendees else OWNER, "attendees": attendees,
                }
            clock += minutes + rng.choice([30, 60, 90, 120])
        day += timedelta(days=1)
    # Everyone in the directory has at least two upcoming shared events.
    upcoming = [eid for eid, row in events.items() if _ahead(row) and row["title"] in SHARED_TITLES]
    for person in PEOPLE:
        mine = [eid for eid in upcoming if person in events[eid]["attendees"]]
        for eid in rng.sample([e for e in upcoming if e not in mine], max(0, 2 - len(mine))):
            events[eid]["attendees"].append(person)
    reminders = {}
    midnight = datetime(NOW.year, NOW.month, NOW.day)
    for k, text in enumerate(rng.sample(REMINDER_TEXTS, len(REMINDER_TEXTS))):
        past = k < 5  # five reminders fell due last week; four of them are done, one is overdue
        due = midnight + timedelta(days=rng.randint(-8, -1) if past else rng.randint(0, 25), hours=rng.choice([9, 12, 17, 20]))
        reminders[f"REM-{301 + k}"] = {"text": text, "due": _fmt(due), "done": past and k != 2}
    return CalendarWorld(events=events, reminders=reminders, state={"calendar_sync": True, "reminder_alerts": True})


toolbox.condition(
    "calendar_sync",
    holds=lambda w: w.state.get("calendar_sync", True),
    broken_state={"calendar_sync": False},
    fix=("set_calendar_sync", {"enabled": True}),
)
toolbox.condition(
    "reminder_alerts",
    holds=lambda w: w.state.get("reminder_alerts", True),
    broken_state={"reminder_alerts": False},
    fix=("set_reminder_alerts", {"enabled": True}),
)

# Days from elsewhere (what's on my calendar on Maria's birthday, next friday) make sense here.
# Moments do not:
# a reminder "Text the babysitter" at a parcel's delivery slot or a library's opening hour
# reads as noise (a doctor's free slot would fit an availability check, but a bridge opens a
# kind to every role). Nor do cities: nobody schedules a meeting "in the hottest city in Spain".
toolbox.bridge("date")
# People name an event by its title and day ("the Budget review on June 17") or by whom they
# meet; "EVT-1092" is the calendar's own number, which only a look-up gives.
toolbox.internal_kinds("event_id")


# --- helpers ---------------------------------------------------------------------------------

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MOMENT_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _day(text: str, name: str = "date") -> date:
    require(isinstance(text, str) and bool(_DATE_RE.fullmatch(text.strip())), f"{name} {text!r} is not in YYYY-MM-DD format")
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise ToolError(f"{name} {text!r} is not a real calendar date") from None
    require(2000 <= day.year <= 2100, f"{name} {text} is outside the calendar's years 2000-2100")
    return day


def _moment(text: str, name: str = "start") -> datetime:
    require(isinstance(text, str) and bool(_MOMENT_RE.fullmatch(text.strip())),
            f"{name} {text!r} is not in YYYY-MM-DDTHH:MM format (24-hour clock)")
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ToolError(f"{name} {text!r} is not a real date and time") from None
    require(2000 <= moment.year <= 2100, f"{name} {text} is outside the calendar's years 2000-2100")
    return moment


def _minutes(value: int) -> int:
    require(5 <= value <= 720, f"duration_minutes must be between 5 and 720, got {value}")
    return value


def _events(w: CalendarWorld) -> dict[str, dict]:
    """The calendar as it stands: base events minus cancellations, with moves, invitations and new events."""
    cancelled = set(w.state.get("cancelled", []))
    moved = w.state.get("moved", {})
    invited = w.state.get("invited", {})
    current = {}
    for eid, row in (*w.events.items(), *w.state.get("created", {}).items()):
        if eid in cancelled:
            continue
        row = dict(row)
        row["start"] = moved.get(eid, row["start"])
        row["attendees"] = list(row["attendees"]) + list(invited.get(eid, []))
        current[eid] = row
    return current


def _event(eid: str, cancelled_too: bool = False) -> dict:
    """An event as it stands; a cancelled one only for reading (who organised it, when was it)."""
    w = world(CalendarWorld)
    current = _events(w)
    if eid not in current:
        if eid in w.state.get("cancelled", []):
            if cancelled_too:
                base = {**w.events, **w.state.get("created", {})}[eid]
                return {**base, "start": w.state.get("moved", {}).get(eid, base["start"]),
                        "attendees": list(base["attendees"]) + list(w.state.get("invited", {}).get(eid, []))}
            raise ToolError(f"event {eid} was cancelled")
        raise ToolError(f"unknown event id {eid!r}; find event ids with the calendar search or the list of a day's events")
    return current[eid]


def _ahead(row: dict) -> bool:
    """Whether an event has yet to start: its start is on its own city's clock, and an event in
    Osaka at 10:30 has begun when it is 09:30 in San Francisco the evening before."""
    return row["start"] > _fmt(local_time(row["city"], HOME_CITY, NOW))


def _at_home(row: dict) -> str:
    """An event's start on the home clock, to order events of several cities."""
    return _fmt(local_time(HOME_CITY, row["city"], datetime.strptime(row["start"], "%Y-%m-%dT%H:%M")))


def _upcoming(eid: str) -> dict:
    row = _event(eid)
    require(_ahead(row), f"event {eid} ({row['title']}) already took place on {row['start']}; only upcoming events can be changed")
    return row


def _end(row: dict) -> datetime:
    return datetime.fromisoformat(row["start"]) + timedelta(minutes=row["minutes"])


def _overlaps(w: CalendarWorld, start: datetime, minutes: int, skip: str = "") -> list[str]:
    end = start + timedelta(minutes=minutes)
    return [eid for eid, row in _events(w).items()
            if eid != skip and datetime.fromisoformat(row["start"]) < end and start < _end(row)]


def _person(name: str) -> str:
    cleaned = " ".join(name.split())
    require(bool(re.fullmatch(r"[A-Za-z][A-Za-z'\-]*( [A-Za-z][A-Za-z'\-]*)+", cleaned)),
            f"{name!r} is not a full name; give first and last name, e.g. 'Jane Doe'")
    return cleaned


def _reminders(w: CalendarWorld) -> dict[str, dict]:
    deleted = set(w.state.get("reminders_deleted", []))
    done = set(w.state.get("reminders_done", []))
    current = {}
    for rid, row in (*w.reminders.items(), *w.state.get("reminders_added", {}).items()):
        if rid not in deleted:
            current[rid] = {**row, "done": row["done"] or rid in done}
    return current


def _reminder(rid: str) -> dict:
    w = world(CalendarWorld)
    current = _reminders(w)
    if rid not in current:
        if rid in w.state.get("reminders_deleted", []):
            raise ToolError(f"reminder {rid} was deleted")
        raise ToolError(f"unknown reminder id {rid!r}; list the reminders to see their ids")
    return current[rid]


def _spoken_date(day: date) -> str:
    return f"{MONTHS[day.month - 1]} {day.day}"


# --- value generators ------------------------------------------------------------------------

def _upcoming_ids(w: CalendarWorld) -> list[str]:
    return [eid for eid, row in w.events.items() if _ahead(row)]


@toolbox.values_for("city/new_event")
def _new_event_cities(w: CalendarWorld) -> list[str]:
    """Where a new event goes: home. A free slot is found on the home calendar's clock, so an
    event put there in Mexico City would clash with the morning at home (reading 32 #15)."""
    return [HOME_CITY]


@toolbox.values_for("event_id")
def _event_ids(w: CalendarWorld) -> list[str]:
    """Upcoming events with guests: a bare id names a meeting (personal appointments are named by
    their title and day), and their organiser is someone else, who can be invited or texted."""
    return [eid for eid in _upcoming_ids(w) if w.events[eid]["attendees"]]


@toolbox.values_for("person_name")
def _people(w: CalendarWorld) -> list[str]:
    return list(PEOPLE)


@toolbox.values_for("date")
def _dates(w: CalendarWorld) -> list[str]:
    return [day_after(k) for k in range(1, 46)]


@toolbox.values_for("datetime")
def _datetimes(w: CalendarWorld) -> list[str]:
    days = [NOW.date() + timedelta(days=k) for k in range(1, 46)]
    return [f"{d.isoformat()}T{h:02d}:{m:02d}" for d in days for h in range(8, 18) for m in (0, 30)]


@toolbox.values_for("city")
def _cities(w: CalendarWorld) -> list[str]:
    return [c.name for c in CITIES]


@toolbox.values_for("event_title")
def _titles(w: CalendarWorld) -> list[str]:
    return list(NEW_TITLES)


@toolbox.values_for("duration_minutes")
def _durations(w: CalendarWorld) -> list[int]:
    return [15, 30, 45, 60, 90, 120]


@toolbox.values_for("calendar_sync_switch")
def _sync_switch(w: CalendarWorld) -> list[bool]:
    return [False]  # sync is on in a usual calendar: the change a person asks for is turning it off


@toolbox.values_for("reminder_alerts_switch")
def _alerts_switch(w: CalendarWorld) -> list[bool]:
    return [False]


@toolbox.values_for("reminder_id")
def _reminder_ids(w: CalendarWorld) -> list[str]:
    return [rid for rid, row in w.reminders.items() if not row["done"]]


@toolbox.values_for("reminder_text")
def _reminder_texts(w: CalendarWorld) -> list[str]:
    return list(NEW_REMINDER_TEXTS)


def _uncapped(title: str) -> str:
    """A title inside a sentence: its first word in lower case, names as they are."""
    return title[:1].lower() + title[1:]


@toolbox.values_for("event_mention")
def _mentions(w: CalendarWorld) -> list[str]:
    """How people refer to an upcoming event: "the budget review on June 17", "my lunch with Maria on 20
    June", always with an article ("the time hiring interview on 29 July starts" reads as a typo), and a
    name keeps its capital ("coffee with mateo" does not)."""
    mentions = []
    for k, eid in enumerate(_upcoming_ids(w)):
        row = w.events[eid]
        day = date.fromisoformat(row["start"][:10])
        if k % 2:
            mentions.append(f"my {_uncapped(row['title'])} on {day.day} {MONTHS[day.month - 1]}")
        else:
            mentions.append(f"the {_uncapped(row['title'])} on {_spoken_date(day)}")
    return mentions


@toolbox.values_for("calendar_search_terms")
def _search_terms(w: CalendarWorld) -> list[str]:
    words = {t.split()[0].lower() for t in SHARED_TITLES + PERSONAL_TITLES} | {"lunch", "coffee", "review"}
    words |= {p.split()[0].lower() for p in PEOPLE} | {row["city"].lower() for row in w.events.values()}
    return sorted(words)


# --- tools -----------------------------------------------------------------------------------

@toolbox.tool(tags=("search",))
def search_calendar(query: Annotated[str, Kind("calendar_search_terms")], max_results: int = 10) -> list[EventId]:
    """Search calendar events by words in their title, city or attendee names, or by a YYYY-MM-DD date.

    Args:
        query: Words to look for, e.g. "budget review" or "maria"; all words must match.
        max_results: Maximum number of event ids to return (1-50).

    Returns:
        event_ids: the matching events (event ids, in start order).
    """
    w = world(CalendarWorld)
    require(1 <= max_results <= 50, "max_results must be between 1 and 50")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for eid, row in _events(w).items():
        text = f"{row['title']} {row['city']} {' '.join(row['attendees'])} {row['start'][:10]}".lower()
        if all(word in text for word in words):
            hits.append((row["start"], eid))
    return [eid for _, eid in sorted(hits)[:max_results]]


@toolbox.tool(tags=("canonicalise",))
def resolve_event_mention(mention: Annotated[str, Kind("event_mention")]) -> EventId:
    """Resolve the way someone refers to an event (its title and day) to the calendar's event id.

    Args:
        mention: Free-form reference naming the event's title and its month and day, e.g. "the Budget review on June 17" or "lunch with maria on 20 June".

    Returns:
        event_id: the event meant (its event id).
    """
    w = world(CalendarWorld)
    text = " ".join(mention.lower().replace(",", " ").split())
    months = "|".join(m.lower() for m in MONTHS)
    found = re.search(rf"\b({months})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", text) or re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({months})\b", text)
    require(found is not None, f"no date in {mention!r}; name the event's month and day, e.g. 'the Budget review on June 17'")
    month_word, day_number = (found.group(1), found.group(2)) if not found.group(1).isdigit() else (found.group(2), found.group(1))
    month = [m.lower() for m in MONTHS].index(month_word) + 1
    hits = []
    for eid, row in _events(w).items():
        start = date.fromisoformat(row["start"][:10])
        if (start.month, start.day) == (month, int(day_number)) and row["title"].lower() in text:
            hits.append((abs((start - NOW.date()).days), eid))
    require(bool(hits), f"no event matches {mention!r}; check the title and the day with the calendar search")
    return min(hits)[1]


@toolbox.tool(sense=(around("date", before=30, after=60),))
def list_events_on_date(date: Day) -> list[EventId]:
    """List the ids of the events on a date, in start order.

    Args:
        date: The date (YYYY-MM-DD).

    Returns:
        event_ids: that day's events (event ids in start order; empty when the day is free).
    """
    day = _day(date).isoformat()
    rows = _events(world(CalendarWorld))
    return [eid for eid, row in sorted(rows.items(), key=lambda item: item[1]["start"]) if row["start"][:10] == day]


@toolbox.tool
def get_next_event() -> tuple[EventId, Moment, str]:
    """Find the next event that starts after the current time.

    Returns:
        event_id: the next event (its event id).
        start: the next event's start date and time (YYYY-MM-DDTHH:MM).
        event_title: the next event's title.
    """
    upcoming = sorted((_at_home(row), eid) for eid, row in _events(world(CalendarWorld)).items() if _ahead(row))
    require(bool(upcoming), "there are no upcoming events in the calendar")
    row = _event(upcoming[0][1])
    return upcoming[0][1], row["start"], row["title"]


@toolbox.tool
def find_next_event_with(person: Attendee) -> tuple[EventId, Moment, str]:
    """Find the next upcoming event a person attends.

    Args:
        person: The attendee's full name, e.g. "Jane Doe" (not the calendar's owner, who attends every event).

    Returns:
        event_id: the next event with that person (its event id).
        start: that event's start date and time (YYYY-MM-DDTHH:MM).
        event_title: that event's title.
    """
    name = _person(person).lower()
    # The owner is at every event: "my next meeting with myself" is the next event, asked for as such.
    require(name != OWNER.lower(), f"{person} owns this calendar and attends every event; ask for the next event instead")
    hits = sorted((_at_home(row), eid) for eid, row in _events(world(CalendarWorld)).items()
                  if _ahead(row) and name in (a.lower() for a in row["attendees"]))
    require(bool(hits), f"no upcoming event with {person}; check the spelling of the full name")
    row = _event(hits[0][1])
    return hits[0][1], row["start"], row["title"]


@toolbox.tool(sense=(present("city", "start"),))
def get_event_details(event_id: EventId) -> tuple[str, Moment, City, list[Contact]]:
    """Get an event's title, start time, city and attendees (cancelled events can still be read).

    Args:
        event_id: The event id, e.g. "EVT-1042".

    Returns:
        title: the event's title.
        start: the event's start date and time (YYYY-MM-DDTHH:MM, local to its city).
        city: the event's city.
        attendees: the event's attendees (full names; empty for personal appointments).
    """
    row = _event(event_id, cancelled_too=True)
    return row["title"], row["start"], row["city"], list(row["attendees"])


@toolbox.tool
def get_event_organizer(event_id: EventId) -> Contact:
    """Find the person who organised an event.

    Args:
        event_id: The event id, e.g. "EVT-1042".

    Returns:
        organizer: the event's organiser (full name).
    """
    return _event(event_id, cancelled_too=True)["organizer"]


@toolbox.tool(
    sense=(around("start", before=0, after=60), within("duration_minutes", 15, 240), present("city", "start")),
    requires=("calendar_sync",),
    tags=("state_change",),
)
def create_event(title: Title, start: FreeSlot, duration_minutes: SlotMinutes, city: NewEventCity) -> str:
    """Create a new calendar event (overlaps with other events are allowed).

    Args:
        title: The event's title, e.g. "Contract review".
        start: Start date and time (YYYY-MM-DDTHH:MM), local to the event's city.
        duration_minutes: Length of the event in minutes (5-720).
        city: The city where the event takes place, e.g. "Boston".

    Returns:
        event_id: the new event (its event id).
    """
    w = world(CalendarWorld)
    require(w.state.get("calendar_sync", True), "Calendar sync is off, so the event cannot be saved: turn calendar sync on first")
    title = " ".join(title.split())
    require(0 < len(title) <= 80, "title must have 1 to 80 characters")
    moment = _moment(start)
    minutes = _minutes(duration_minutes)
    require(city in CITY_BY_NAME, f"unknown city {city!r}; use a city name such as {HOME_CITY!r} or 'London'")
    created = w.state.setdefault("created", {})
    eid = f"EVT-{5001 + len(created)}"
    created[eid] = {"title": title, "start": _fmt(moment), "minutes": minutes, "city": city,
                    "organizer": OWNER, "attendees": []}
    return eid


@toolbox.tool(requires=("calendar_sync",), tags=("state_change", "ends"))
def cancel_event(event_id: EventId) -> str:
    """Cancel an upcoming event and notify its attendees (not one just moved or with guests just invited).

    Args:
        event_id: The id of the event to cancel, e.g. "EVT-1042".

    Returns:
        title: the cancelled event's title.
    """
    w = world(CalendarWorld)
    require(w.state.get("calendar_sync", True), "Calendar sync is off, so attendees cannot be notified: turn calendar sync on first")
    row = _upcoming(event_id)
    # Attendees were just told of a new time or a new guest: calling the event off in the same
    # breath sends them contradicting notices, so the user has to decide which change stands.
    require(event_id not in w.state.get("moved", {}) and event_id not in w.state.get("invited", {}),
            f"event {event_id} was just moved or had guests invited, and attendees were notified; "
            "ask the user whether to cancel it after all")
    w.state.setdefault("cancelled", []).append(event_id)
    return row["title"]


@toolbox.tool(sense=(around("new_start", before=0, after=60),), requires=("calendar_sync",), tags=("state_change",))
def reschedule_event(event_id: EventId, new_start: NewTime) -> tuple[str, str]:
    """Move an upcoming event to a new start time, keeping its length.

    Args:
        event_id: The id of the event to move, e.g. "EVT-1042".
        new_start: The new start date and time (YYYY-MM-DDTHH:MM); must be in the future.

    Returns:
        start: the event's new start date and time.
        end: the event's new end date and time.
    """
    w = world(CalendarWorld)
    require(w.state.get("calendar_sync", True), "Calendar sync is off, so attendees cannot be notified: turn calendar sync on first")
    row = _upcoming(event_id)
    moment = _moment(new_start, "new_start")
    require(moment > NOW, f"new_start {new_start} is in the past (now is {_fmt(NOW)}); pick a future time")
    if _fmt(moment) != row["start"]:  # moving an event to where it already is changes nothing
        w.state.setdefault("moved", {})[event_id] = _fmt(moment)
    return _fmt(moment), _fmt(moment + timedelta(minutes=row["minutes"]))


@toolbox.tool(requires=("calendar_sync",), tags=("state_change",))
def invite_to_event(event_id: EventId, person: Invitee) -> int:
    """Invite a person to an upcoming event that has guests (personal appointments have none).

    Args:
        event_id: The event id, e.g. "EVT-1042".
        person: The invitee's full name, e.g. "Jane Doe".

    Returns:
        attendee_count: the number of attendees after the invitation.
    """
    w = world(CalendarWorld)
    require(w.state.get("calendar_sync", True), "Calendar sync is off, so the invitation cannot be sent: turn calendar sync on first")
    row = _upcoming(event_id)
    name = _person(person)
    require(name.lower() != OWNER.lower(), f"{name} owns this calendar and attends every event in it")
    require(bool(row["attendees"]), f"event {event_id} ({row['title']}) is a personal appointment without guests")
    require(name.lower() not in (a.lower() for a in row["attendees"]), f"{name} already attends event {event_id}")
    w.state.setdefault("invited", {}).setdefault(event_id, []).append(name)
    return len(row["attendees"]) + 1


@toolbox.tool(sense=(around("start", before=0, after=60), within("duration_minutes", 15, 240)))
def check_availability(start: ProposedTime, duration_minutes: Minutes) -> tuple[bool, int]:
    """Check whether the calendar is free for a period.

    Args:
        start: Start of the period (YYYY-MM-DDTHH:MM).
        duration_minutes: Length of the period in minutes (5-720).

    Returns:
        is_free: whether the period is free.
        conflicts: the number of overlapping events.
    """
    overlapping = _overlaps(world(CalendarWorld), _moment(start), _minutes(duration_minutes))
    return not overlapping, len(overlapping)


@toolbox.tool(sense=(around("date", before=0, after=60), within("duration_minutes", 15, 240)))
def find_free_slot(date: PlanningDay, duration_minutes: Minutes) -> tuple[FreeSlot, SlotMinutes]:
    """Find the earliest free slot of a given length on a date, within working hours (09:00-18:00).

    Args:
        date: The date (YYYY-MM-DD); today or later.
        duration_minutes: Length of the slot in minutes (5-540).

    Returns:
        slot_start: the start of the earliest free slot (YYYY-MM-DDTHH:MM, on the half hour).
        slot_minutes: the length of that free slot (the minutes asked for).
    """
    w = world(CalendarWorld)
    day = _day(date)
    require(day >= NOW.date(), f"{date} is in the past (today is {NOW.date()}); pick today or a later date")
    require(5 <= duration_minutes <= WORK_END - WORK_START, "duration_minutes must be between 5 and 540")
    base = datetime(day.year, day.month, day.day)
    first = WORK_START
    if day == NOW.date():
        first = max(first, -(-(NOW.hour * 60 + NOW.minute) // 30) * 30)
    for offset in range(first, WORK_END - duration_minutes + 1, 30):
        start = base + timedelta(minutes=offset)
        if not _overlaps(w, start, duration_minutes):
            return _fmt(start), duration_minutes
    raise ToolError(f"no free {duration_minutes}-minute slot on {date} between 09:00 and 18:00; try another date or a shorter slot")


@toolbox.tool(sense=(around("due", before=0, after=60),), requires=("reminder_alerts",), tags=("state_change",))
def add_reminder(text: ReminderText, due: ReminderTime) -> str:
    """Add a reminder with an alert at its due time.

    Args:
        text: What to be reminded of, e.g. "Buy milk".
        due: When the reminder is due (YYYY-MM-DDTHH:MM).

    Returns:
        reminder_id: the new reminder (its reminder id).
    """
    w = world(CalendarWorld)
    require(w.state.get("reminder_alerts", True),
            "Reminder alerts are turned off, so a new reminder could never alert you: turn reminder alerts on first")
    text = " ".join(text.split())
    require(0 < len(text) <= 120, "text must have 1 to 120 characters")
    moment = _moment(due, "due")
    added = w.state.setdefault("reminders_added", {})
    rid = f"REM-{901 + len(added)}"
    added[rid] = {"text": text, "due": _fmt(moment), "done": False}
    return rid


@toolbox.tool
def list_reminders(include_completed: bool = False) -> list[ReminderId]:
    """List reminder ids, soonest due first.

    Args:
        include_completed: Whether completed reminders are listed too (default: only open ones).

    Returns:
        reminder_ids: the reminders (reminder ids in due order).
    """
    rows = _reminders(world(CalendarWorld))
    return [rid for rid, row in sorted(rows.items(), key=lambda item: (item[1]["due"], item[0]))
            if include_completed or not row["done"]]


@toolbox.tool
def get_reminder(reminder_id: ReminderId) -> tuple[str, str, bool]:
    """Get a reminder's text, due time and whether it is completed.

    Args:
        reminder_id: The reminder id, e.g. "REM-305".

    Returns:
        text: the reminder's text.
        due: the reminder's due date and time (YYYY-MM-DDTHH:MM).
        completed: whether the reminder is completed.
    """
    row = _reminder(reminder_id)
    return row["text"], row["due"], row["done"]


@toolbox.tool(tags=("state_change",))
def complete_reminder(reminder_id: ReminderToComplete) -> int:
    """Mark a reminder as completed.

    Args:
        reminder_id: The reminder id, e.g. "REM-305".

    Returns:
        open_reminders: the number of reminders still open.
    """
    w = world(CalendarWorld)
    row = _reminder(reminder_id)
    require(not row["done"], f"reminder {reminder_id} ({row['text']}) is already completed")
    w.state.setdefault("reminders_done", []).append(reminder_id)
    return sum(not r["done"] for r in _reminders(w).values())


@toolbox.tool(tags=("state_change", "ends"))
def delete_reminder(reminder_id: ReminderToDelete) -> int:
    """Delete a reminder, open or completed.

    Args:
        reminder_id: The reminder id, e.g. "REM-305".

    Returns:
        remaining: the number of reminders left (open and completed).
    """
    w = world(CalendarWorld)
    _reminder(reminder_id)
    w.state.setdefault("reminders_deleted", []).append(reminder_id)
    return len(_reminders(w))


@toolbox.tool(tags=("state_change",))
def set_calendar_sync(enabled: Annotated[bool, Kind("calendar_sync_switch")]) -> bool:
    """Turn calendar sync (saving changes and notifying attendees) on or off.

    Args:
        enabled: True to turn calendar sync on, False to turn it off.

    Returns:
        sync_on: whether calendar sync is now on.
    """
    world(CalendarWorld).state["calendar_sync"] = enabled
    return enabled


@toolbox.tool(tags=("state_change",))
def set_reminder_alerts(enabled: Annotated[bool, Kind("reminder_alerts_switch")]) -> bool:
    """Turn reminder alerts (notifications when a reminder is due) on or off.

    Args:
        enabled: True to turn reminder alerts on, False to turn them off.

    Returns:
        alerts_on: whether reminder alerts are now on.
    """
    world(CalendarWorld).state["reminder_alerts"] = enabled
    return enabled


@toolbox.facts_about("event_id")
def _event_facts(w: CalendarWorld, event_id: str) -> dict:
    return {"city": w.events[event_id]["city"]}


# --- goals: what a person wants, and the tools that serve it ------------------------------
# One person and their own calendar. Looking up an event (the next one, the next one with
# someone, one I name) serves every goal about an event; the rest of a goal says why I
# looked it up. The tools a goal borrows from another seed cannot make a request on their
# own (they neither feed each other nor take the same thing from me), so every request
# uses the calendar: the forecast, the clock or the contact is there because of the event.

EVENT_LOOKUPS = ("get_next_event", "find_next_event_with", "resolve_event_mention")

