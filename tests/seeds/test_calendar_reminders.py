"""Behaviour of every Calendar and Reminders tool, including its error cases and state changes."""

import pytest

from factory.seeds.checks import library_pool
from factory.toolbox.user import USER
from tests.seeds.goal_helpers import requests_without_the_seed
from tests.seeds.toolbox_helpers import ToolboxSession

NOW = "2025-06-13T09:30"


def ahead(row):
    """An event yet to start, on its own city's clock."""
    from datetime import datetime

    from factory.toolbox.gazetteer import local_time

    here = local_time(row["city"], USER.home_city, datetime.strptime(NOW, "%Y-%m-%dT%H:%M"))
    return row["start"] > here.strftime("%Y-%m-%dT%H:%M")


def at_home(row):
    from datetime import datetime

    from factory.toolbox.gazetteer import local_time

    return local_time(USER.home_city, row["city"], datetime.strptime(row["start"], "%Y-%m-%dT%H:%M"))


@pytest.fixture(scope="module")
def cal():
    return ToolboxSession("calendar_reminders")


def _new():
    return ToolboxSession("calendar_reminders")


def test_calendar_is_dense_and_shares_the_people_directory(cal):
    assert len(cal.world.events) > 100
    people = cal.values("person_name")
    assert len(people) == 40 and "Maria Lopez" in people
    for person in people:  # everyone has an upcoming event, so the lookup always has an answer
        event_id, start, title = cal.ok("find_next_event_with", person=person)
        details = cal.ok("get_event_details", event_id=event_id)
        assert start > NOW and person in details[3] and title == details[0]


def test_next_event_and_details(cal):
    event_id, start, named = cal.ok("get_next_event")
    row = cal.world.events[event_id]
    assert ahead(row) and start == row["start"]
    # No event yet to start begins earlier, on one clock: an event in Osaka at 10:30 has begun
    # when it is 09:30 in San Francisco, though "10:30" reads later than "09:30".
    assert all(at_home(r) >= at_home(row) for r in cal.world.events.values() if ahead(r))
    assert any(r["start"] > NOW and not ahead(r) for r in cal.world.events.values())  # the case arises
    title, start2, city, attendees = cal.ok("get_event_details", event_id=event_id)
    assert start2 == start and city and isinstance(attendees, list) and title == named == cal.world.events[event_id]["title"]
    organizer = cal.ok("get_event_organizer", event_id=event_id)
    assert organizer in attendees or (not attendees and organizer == USER.name)
    assert "unknown event id" in cal.error("get_event_details", event_id="EVT-0")
    assert "unknown event id" in cal.error("get_event_organizer", event_id="meeting")


def test_find_next_event_with_unknown_people(cal):
    assert "no upcoming event" in cal.error("find_next_event_with", person="Nobody Here")
    assert "not a full name" in cal.error("find_next_event_with", person="Maria")
    assert cal.ok("find_next_event_with", person="maria lopez") == cal.ok("find_next_event_with", person="Maria Lopez")
    # The owner attends everything: "my next meeting with myself" is an error pointing to the next event.
    assert "ask for the next event" in cal.error("find_next_event_with", person=USER.name)


def test_events_on_a_date(cal):
    some_id = cal.values("event_id")[3]
    day = cal.world.events[some_id]["start"][:10]
    ids = cal.ok("list_events_on_date", date=day)
    assert some_id in ids
    starts = [cal.world.events[e]["start"] for e in ids]
    assert starts == sorted(starts) and all(s.startswith(day) for s in starts)
    assert cal.ok("list_events_on_date", date="2030-01-01") == []
    assert "YYYY-MM-DD" in cal.error("list_events_on_date", date="tomorrow")
    assert "not a real calendar date" in cal.error("list_events_on_date", date="2025-02-30")


def test_search_and_mentions(cal):
    hits = cal.ok("search_calendar", query="budget review")
    assert hits and all(cal.world.events[e]["title"] == "Budget review" for e in hits) and len(hits) <= 10
    assert cal.ok("search_calendar", query="zzz") == []
    assert len(cal.ok("search_calendar", query="review", max_results=2)) == 2
    assert "between 1 and 50" in cal.error("search_calendar", query="review", max_results=0)
    assert "at least one word" in cal.error("search_calendar", query="  ")
    assert all(cal.ok("search_calendar", query=q) for q in cal.values("calendar_search_terms"))
    upcoming = [e for e, row in cal.world.events.items() if ahead(row)]  # mentions name every upcoming event
    for mention, event_id in zip(cal.values("event_mention"), upcoming, strict=True):
        assert cal.ok("resolve_event_mention", mention=mention) == event_id
    assert set(cal.values("event_id")) < set(upcoming)  # bare ids name meetings with guests only
    assert all(cal.world.events[e]["attendees"] for e in cal.values("event_id"))
    assert "no date" in cal.error("resolve_event_mention", mention="the budget review")
    assert "no event matches" in cal.error("resolve_event_mention", mention="the Moon landing on July 20")


def test_meals_are_at_mealtimes(cal):
    """No "Lunch with Maria" at 08:00 (reading 25 #29), no team dinner in the morning."""
    lunches = [row["start"][11:] for row in cal.world.events.values() if row["title"].startswith("Lunch with")]
    dinners = [row["start"][11:] for row in cal.world.events.values() if row["title"] == "Team dinner"]
    assert lunches and all("11:30" <= t <= "13:30" for t in lunches), sorted(set(lunches))
    assert dinners and all(t >= "18:00" for t in dinners), sorted(set(dinners))


def test_availability_and_free_slots(cal):
    event_id = cal.values("event_id")[5]
    row = cal.world.events[event_id]
    assert cal.ok("check_availability", start=row["start"], duration_minutes=15)[0] is False
    assert cal.ok("check_availability", start="2030-01-01T10:00", duration_minutes=60) == (True, 0)
    assert "between 5 and 720" in cal.error("check_availability", start="2030-01-01T10:00", duration_minutes=0)
    assert "YYYY-MM-DDTHH:MM" in cal.error("check_availability", start="2030-01-01 10am", duration_minutes=30)
    for day in cal.values("date"):
        slot, minutes = cal.ok("find_free_slot", date=day, duration_minutes=60)
        assert minutes == 60 and slot.startswith(day) and "09:00" <= slot[11:] <= "17:00"
        assert cal.ok("check_availability", start=slot, duration_minutes=60) == (True, 0)
    today, _ = cal.ok("find_free_slot", date="2025-06-13", duration_minutes=30)
    assert today >= NOW  # not before the current time
    assert "in the past" in cal.error("find_free_slot", date="2025-06-01", duration_minutes=30)
    assert "between 5 and 540" in cal.error("find_free_slot", date="2025-06-20", duration_minutes=600)


def test_create_event_changes_the_calendar():
    s = _new()
    event_id = s.ok("create_event", title="Contract review", start="2025-06-20T14:00", duration_minutes=60, city="Boston")
    assert event_id == "EVT-5001"
    assert s.ok("get_event_details", event_id=event_id) == ("Contract review", "2025-06-20T14:00", "Boston", [])
    assert s.ok("get_event_organizer", event_id=event_id) == USER.name
    assert event_id in s.ok("list_events_on_date", date="2025-06-20")
    assert s.ok("check_availability", start="2025-06-20T14:30", duration_minutes=15)[0] is False
    assert event_id in s.ok("search_calendar", query="contract boston")
    assert s.ok("resolve_event_mention", mention="the Contract review on June 20") == event_id
    assert s.ok("create_event", title="Gym session", start="2025-06-21T07:00", duration_minutes=45, city="Paris") == "EVT-5002"
    assert "unknown city" in s.error("create_event", title="X", start="2025-06-20T14:00", duration_minutes=60, city="Atlantis")
    assert "between 5 and 720" in s.error("create_event", title="X", start="2025-06-20T14:00", duration_minutes=1000, city="Boston")
    assert "1 to 80 characters" in s.error("create_event", title="  ", start="2025-06-20T14:00", duration_minutes=60, city="Boston")


def test_cancel_reschedule_and_invite():
    s = _new()
    event_id = s.values("event_id")[4]
    title = s.world.events[event_id]["title"]
    day = s.world.events[event_id]["start"][:10]
    assert s.ok("cancel_event", event_id=event_id) == title
    assert event_id not in s.ok("list_events_on_date", date=day)
    assert s.ok("get_event_details", event_id=event_id)[0] == title  # a cancelled event can still be read ...
    assert "was cancelled" in s.error("invite_to_event", event_id=event_id, person="Maria Lopez")  # ... not changed
    assert "was cancelled" in s.error("cancel_event", event_id=event_id)

    other = s.values("event_id")[6]
    minutes = s.world.events[other]["minutes"]
    start, end = s.ok("reschedule_event", event_id=other, new_start="2025-07-01T10:00")
    assert start == "2025-07-01T10:00" and s.ok("get_event_details", event_id=other)[1] == start
    assert end == f"{start[:11]}{(10 * 60 + minutes) // 60:02d}:{(10 * 60 + minutes) % 60:02d}"
    assert other in s.ok("list_events_on_date", date="2025-07-01")
    assert "in the past" in s.error("reschedule_event", event_id=other, new_start="2025-06-01T10:00")

    count = len(s.ok("get_event_details", event_id=other)[3])
    newcomer = next(p for p in s.values("person_name") if p not in s.ok("get_event_details", event_id=other)[3])
    assert s.ok("invite_to_event", event_id=other, person=newcomer) == count + 1
    assert newcomer in s.ok("get_event_details", event_id=other)[3]
    assert "already attends" in s.error("invite_to_event", event_id=other, person=newcomer)
    assert "not a full name" in s.error("invite_to_event", event_id=other, person="x")

    past = next(e for e, row in s.world.events.items() if row["start"] < NOW)
    assert "already took place" in s.error("cancel_event", event_id=past)
    assert "already took place" in s.error("invite_to_event", event_id=past, person=newcomer)
    assert "already took place" in s.error("reschedule_event", event_id=past, new_start="2025-07-01T10:00")


def test_calendar_sync_condition():
    s = ToolboxSession("calendar_reminders", state={"calendar_sync": False})
    event_id = s.values("event_id")[0]
    for tool, args in [
        ("create_event", {"title": "X", "start": "2025-06-20T14:00", "duration_minutes": 60, "city": "Boston"}),
        ("cancel_event", {"event_id": event_id}),
        ("reschedule_event", {"event_id": event_id, "new_start": "2025-07-01T10:00"}),
        ("invite_to_event", {"event_id": event_id, "person": "Maria Lopez"}),
    ]:
        assert "turn calendar sync on first" in s.error(tool, **args)
    assert s.world.state.get("created") is None and s.world.state.get("cancelled") is None
    assert s.ok("set_calendar_sync", enabled=True) is True
    assert s.ok("cancel_event", event_id=event_id)
    assert s.ok("set_calendar_sync", enabled=False) is False
    assert "turn calendar sync on first" in s.error("create_event", title="X", start="2025-06-20T14:00", duration_minutes=60, city="Boston")
    condition = s.seed.toolbox.conditions["calendar_sync"]
    assert not condition.holds(s.world) and condition.fix_tool == "set_calendar_sync"
    assert _new().seed.toolbox.conditions["calendar_sync"].holds(_new().world)  # the default world satisfies it


def test_reminders_lifecycle():
    s = _new()
    open_ids = s.ok("list_reminders")
    everything = s.ok("list_reminders", include_completed=True)
    assert set(open_ids) < set(everything) and len(everything) == 16
    assert set(open_ids) == set(s.values("reminder_id"))
    rid = s.ok("add_reminder", text="Buy milk", due="2025-06-14T18:00")
    assert rid == "REM-901" and rid in s.ok("list_reminders")
    assert s.ok("get_reminder", reminder_id=rid) == ("Buy milk", "2025-06-14T18:00", False)
    assert s.ok("complete_reminder", reminder_id=rid) == len(open_ids)
    assert s.ok("get_reminder", reminder_id=rid)[2] is True
    assert rid not in s.ok("list_reminders") and rid in s.ok("list_reminders", include_completed=True)
    assert "already completed" in s.error("complete_reminder", reminder_id=rid)
    assert s.ok("delete_reminder", reminder_id=rid) == 16
    assert "was deleted" in s.error("get_reminder", reminder_id=rid)
    assert "was deleted" in s.error("delete_reminder", reminder_id=rid)
    assert "unknown reminder id" in s.error("complete_reminder", reminder_id="REM-1")
    done = next(r for r in everything if r not in open_ids)
    assert "already completed" in s.error("complete_reminder", reminder_id=done)
    assert "YYYY-MM-DDTHH:MM" in s.error("add_reminder", text="Buy milk", due="tomorrow")
    assert "1 to 120 characters" in s.error("add_reminder", text=" ", due="2025-06-14T18:00")


def test_reminder_alerts_condition():
    s = ToolboxSession("calendar_reminders", state={"reminder_alerts": False})
    assert "turn reminder alerts on first" in s.error("add_reminder", text="Buy milk", due="2025-06-14T18:00")
    assert s.world.state.get("reminders_added") is None
    assert s.ok("complete_reminder", reminder_id=s.values("reminder_id")[0]) >= 0  # other reminder tools still work
    assert s.ok("set_reminder_alerts", enabled=True) is True
    assert s.ok("add_reminder", text="Buy milk", due="2025-06-14T18:00") == "REM-901"


def test_generated_values_mostly_succeed(cal):
    import itertools
    calls = [("create_event", {"title": t, "start": d, "duration_minutes": m, "city": c})
             for t, d, m, c in itertools.islice(zip(cal.values("event_title") * 50, cal.values("datetime"),
                                                    cal.values("duration_minutes") * 200, cal.values("city") * 50), 200)]
    s = _new()
    assert all(s.call(tool, **args).error is None for tool, args in calls)
    for event_id in cal.values("event_id"):
        cal.ok("get_event_details", event_id=event_id)


def test_deterministic():
    a, b = _new(), _new()
    assert a.world.events == b.world.events and a.world.reminders == b.world.reminders
    assert ToolboxSession("calendar_reminders", world_seed=1).world.events != a.world.events


def test_invitations_go_to_guests_other_than_the_owner():
    s = _new()
    personal = next(e for e, row in s.world.events.items() if row["start"] > NOW and not row["attendees"])
    assert "personal appointment" in s.error("invite_to_event", event_id=personal, person="Maria Lopez")
    meeting = s.values("event_id")[0]
    assert "owns this calendar" in s.error("invite_to_event", event_id=meeting, person=USER.name)


def test_changes_that_contradict_each_other_are_refused():
    s = _new()
    moved, invited = s.values("event_id")[1], s.values("event_id")[2]
    s.ok("reschedule_event", event_id=moved, new_start="2025-07-02T10:00")
    assert "ask the user" in s.error("cancel_event", event_id=moved)
    guest = next(p for p in s.values("person_name") if p not in s.world.events[invited]["attendees"])
    s.ok("invite_to_event", event_id=invited, person=guest)
    assert "ask the user" in s.error("cancel_event", event_id=invited)
    untouched = _new()
    event_id = untouched.values("event_id")[3]
    before = dict(untouched.world.state)
    untouched.ok("reschedule_event", event_id=event_id, new_start=untouched.world.events[event_id]["start"])
    assert untouched.world.state == before  # moving an event to its own time changes nothing: a no-op


@pytest.fixture(scope="module")
def pool(cal):
    return library_pool(cal.seeds)


def test_moments_and_people_feed_only_where_a_person_would_use_them(pool):
    links = pool.links
    assert sorted(p for _, p in links[("find_free_slot", "create_event")]) == ["duration_minutes", "start"]
    assert {g.params for g in pool.groups["create_event"]} == {("start", "duration_minutes")}
    for busy in ("get_next_event", "find_next_event_with", "get_event_details"):  # an event's start is a busy time
        for consumer, moment in (("create_event", "start"), ("check_availability", "start"),
                                 ("reschedule_event", "new_start"), ("add_reminder", "due")):
            assert moment not in [p for _, p in links.get((busy, consumer), [])]
        assert (busy, "get_hourly_forecast") in links or busy == "get_event_details"
    assert ("get_event_details", "get_hourly_forecast") in links  # the weather where and when a meeting starts
    assert ("get_event_organizer", "send_text_message") in links  # organisers are contacts: text them
    assert ("get_event_organizer", "find_next_event_with") not in links  # whom to meet is named, not looked up
    assert ("get_event_organizer", "invite_to_event") not in links  # whom to invite is the person's own choice
    assert ("get_event_details", "create_event") not in links  # nor where a new event happens
    assert ("resolve_contact_name", "find_next_event_with") not in links
    assert ("get_next_available_slot", "check_availability") not in links  # moments are not bridged in
    assert ("get_contact_birthday", "list_events_on_date") in links  # days are


def test_every_goal_request_uses_the_calendar():
    # The weather, the clock, the places or the contact a goal borrows are there because of
    # an event: on their own they would make a request about something else, filed here.
    assert requests_without_the_seed("calendar_reminders") == {}
