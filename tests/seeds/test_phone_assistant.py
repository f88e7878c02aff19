"""Behaviour of every Personal Device Assistant tool: contacts, messages, location and the
settings whose dependencies (cellular, location, wifi, low-battery mode) the scenarios break."""

import re

import pytest

from factory.queries.values import render_value
from factory.seeds.checks import library_pool
from factory.toolbox.gazetteer import CITY_BY_NAME
from tests.seeds.goal_helpers import requests_without_the_seed
from tests.seeds.toolbox_helpers import ToolboxSession

SLUG = "phone_assistant"


@pytest.fixture(scope="module")
def ph():
    return ToolboxSession(SLUG)


def test_contacts_are_the_shared_directory(ph):
    calendar = ToolboxSession("calendar_reminders")
    assert sorted(ph.values("person_name")) == sorted(calendar.values("person_name"))
    for name in ph.values("person_name"):
        city, country = ph.ok("get_contact_city", name=name)
        assert CITY_BY_NAME[city].country == country
        number = ph.ok("get_contact_phone", name=name)
        assert re.fullmatch(r"\+\d{1,3}-\d{3}-555-\d{4}", number)
        assert ph.ok("find_contact_by_phone", phone_number=number) == name
        assert ph.ok("get_contact_email", name=name) == name.lower().replace(" ", ".") + "@example.com"


def test_contact_lookups_reject_strangers(ph):
    for tool in ("get_contact_phone", "get_contact_email", "get_contact_city", "get_contact_birthday", "get_latest_message_from"):
        assert "not in your contacts" in ph.error(tool, name="Bruce Wayne")
    assert ph.ok("get_contact_email", name="maria lopez") == "maria.lopez@example.com"
    assert "no contact has the number" in ph.error("find_contact_by_phone", phone_number="+1-000-555-0000")
    assert "too short" in ph.error("find_contact_by_phone", phone_number="555")
    number = ph.ok("get_contact_phone", name="Maria Lopez")
    assert ph.ok("find_contact_by_phone", phone_number=number.replace("-", " ")) == "Maria Lopez"


def test_birthdays_are_upcoming(ph):
    for name in ph.values("person_name"):
        day, turning = ph.ok("get_contact_birthday", name=name)
        born = ph.world.contacts[name]["born"]
        assert "2025-06-13" <= day <= "2026-06-13" and day[5:] == born[5:]
        assert turning == int(day[:4]) - int(born[:4])


def test_search_contacts(ph):
    home_people = [n for n, row in ph.world.contacts.items() if row["city"] == "San Francisco"]
    assert ph.ok("search_contacts", query="san francisco", max_results=40) == sorted(home_people)
    assert ph.ok("search_contacts", query="okafor") == ["Aisha Okafor"]
    assert ph.ok("search_contacts", query="zzz") == []
    assert "between 1 and 40" in ph.error("search_contacts", query="a", max_results=0)
    assert "at least one word" in ph.error("search_contacts", query=" ")
    assert all(ph.ok("search_contacts", query=q) for q in ph.values("contact_search_terms"))


def test_resolve_contact_mentions(ph):
    for mention in ph.values("contact_mention"):
        assert ph.ok("resolve_contact_name", mention=mention) in ph.world.contacts
    assert ph.ok("resolve_contact_name", mention="Kenji T.") == "Kenji Tanaka"
    assert ph.ok("resolve_contact_name", mention="the Lopezes") == "Maria Lopez"
    assert ph.ok("resolve_contact_name", mention="james") == "James Smith"
    assert ph.ok("resolve_contact_name", mention="Dubois") == "Chloe Dubois"
    assert "could be" in ph.error("resolve_contact_name", mention="Kenji")
    assert "no contact matches" in ph.error("resolve_contact_name", mention="Gandalf")
    assert "empty" in ph.error("resolve_contact_name", mention="  ")


def test_add_and_update_contacts():
    s = ToolboxSession(SLUG)
    new = s.values("new_contact_name")[0]
    assert new not in s.world.contacts
    assert "not in your contacts" in s.error("get_contact_phone", name=new)
    assert s.ok("add_contact", name=new, phone_number="+39-345-555-0182", city="rome", birthday="1990-02-17") == new
    assert s.ok("get_contact_phone", name=new) == "+39-345-555-0182"
    assert s.ok("get_contact_city", name=new) == ("Rome", "Italy")
    assert s.ok("find_contact_by_phone", phone_number="+39-345-555-0182") == new
    assert new in s.ok("search_contacts", query="rome")
    assert s.ok("get_contact_birthday", name=new) == ("2026-02-17", 36)
    assert "no messages" in s.error("get_latest_message_from", name=new)
    assert "already in your contacts" in s.error("add_contact", name=new, phone_number="+39-345-555-0182", city="Rome", birthday="1990-02-17")
    assert "already in your contacts" in s.error("add_contact", name="Maria Lopez", phone_number="+1-415-555-0134", city="Paris", birthday="1990-02-17")
    assert "international format" in s.error("add_contact", name="Zara Novak", phone_number="0345 555", city="Rome", birthday="1990-02-17")
    assert "unknown city" in s.error("add_contact", name="Zara Novak", phone_number="+39-345-555-0183", city="Gotham", birthday="1990-02-17")
    assert "not a full name" in s.error("add_contact", name="Zara", phone_number="+39-345-555-0183", city="Rome", birthday="1990-02-17")
    assert "YYYY-MM-DD" in s.error("add_contact", name="Zara Novak", phone_number="+39-345-555-0183", city="Rome", birthday="17/02/1990")
    assert "not a real calendar date" in s.error("add_contact", name="Zara Novak", phone_number="+39-345-555-0183", city="Rome", birthday="1990-02-30")
    assert "between 1900-01-01 and today" in s.error("add_contact", name="Zara Novak", phone_number="+39-345-555-0183", city="Rome", birthday="2030-01-01")
    leap = s.ok("add_contact", name="Zara Novak", phone_number="+39-345-555-0183", city="Rome", birthday="2000-02-29")
    assert s.ok("get_contact_birthday", name=leap) == ("2026-02-28", 26)  # no 29 February in 2026

    old_city, _ = s.ok("get_contact_city", name="Maria Lopez")
    target = "Berlin" if old_city != "Berlin" else "Paris"
    assert s.ok("update_contact_city", name="Maria Lopez", city=target) == old_city
    assert s.ok("get_contact_city", name="Maria Lopez")[0] == target
    before = dict(s.world.state)
    assert s.ok("update_contact_city", name="Maria Lopez", city=target) == target  # the same city again is a no-op
    assert s.world.state == before  # ... which leaves the world as it was, so a request for it is rejected as a no-op
    assert "not in your contacts" in s.error("update_contact_city", name="Bruce Wayne", city="Paris")
    assert "unknown city" in s.error("update_contact_city", name="Maria Lopez", city="Narnia")
    assert ToolboxSession(SLUG).ok("get_contact_city", name="Maria Lopez")[0] == old_city  # no leak between episodes


def test_messages(ph):
    for name in ph.values("person_name"):
        text, at = ph.ok("get_latest_message_from", name=name)
        incoming = [m for m in ph.world.messages if m["contact"] == name and m["direction"] == "in"]
        assert at == max(m["at"] for m in incoming) and at < "2025-06-13T09:30" and text
    hits = ph.ok("search_messages", query="lunch")
    assert hits and all("lunch" in h.lower() for h in hits) and hits == sorted(hits, reverse=True) and len(hits) <= 5
    assert ph.ok("search_messages", query="zzz") == []
    assert "between 1 and 20" in ph.error("search_messages", query="lunch", max_results=50)
    assert "at least one word" in ph.error("search_messages", query="")
    assert all(ph.ok("search_messages", query=q) for q in ph.values("message_search_terms"))


def test_send_message_changes_state():
    s = ToolboxSession(SLUG)
    assert s.ok("send_text_message", recipient="Maria Lopez", text="On my way!") == ("MSG-9001", "2025-06-13T09:30")
    assert s.ok("send_text_message", recipient="wei zhang", text="See you at the meeting.") == ("MSG-9002", "2025-06-13T09:31")
    assert s.ok("search_messages", query="on my way maria")[0] == "2025-06-13T09:30 To Maria Lopez: On my way!"
    # A sent message is not a message *from* the contact.
    assert s.ok("get_latest_message_from", name="Maria Lopez")[0] != "On my way!"
    assert "not in your contacts" in s.error("send_text_message", recipient="Bruce Wayne", text="hi")
    assert "1 to 500 characters" in s.error("send_text_message", recipient="Maria Lopez", text="  ")
    assert len(s.world.state["sent"]) == 2


def test_cellular_depends_on_low_battery_mode():
    s = ToolboxSession(SLUG, state={"low_battery_mode": True, "cellular": False, "location_service": False})
    assert "turn cellular service on first" in s.error("send_text_message", recipient="Maria Lopez", text="On my way!")
    assert "turn low-battery mode off first" in s.error("set_cellular", on=True)
    assert "setting is locked" in s.error("set_cellular", on=False)
    assert s.world.state["cellular"] is False
    assert s.ok("set_low_battery_mode", on=False) is False
    assert s.ok("set_cellular", on=True) is True
    assert s.ok("send_text_message", recipient="Maria Lopez", text="On my way!")[0] == "MSG-9001"


def test_location_depends_on_low_battery_mode_and_the_map_on_wifi():
    s = ToolboxSession(SLUG)
    lat, lon = s.ok("get_current_location")
    assert abs(lat - 37.7749) < 0.05 and abs(lon + 122.4194) < 0.05
    assert s.ok("get_city_from_coordinates", latitude=lat, longitude=lon)[:2] == ("San Francisco", "USA")
    assert s.ok("set_low_battery_mode", on=True) is True
    assert s.world.state["location_service"] is False and s.world.state["cellular"] is False
    assert "turn location services on first" in s.error("get_current_location")
    assert "turn low-battery mode off first" in s.error("set_location_service", on=True)
    s.ok("set_low_battery_mode", on=False)
    assert s.ok("set_location_service", on=True) is True
    assert s.ok("get_current_location") == (lat, lon)
    assert s.ok("set_wifi", on=False) is False
    assert "turn wifi on first" in s.error("get_city_from_coordinates", latitude=lat, longitude=lon)
    s.ok("set_wifi", on=True)
    city, country, km = s.ok("get_city_from_coordinates", latitude=35.0, longitude=139.0)
    assert (city, country) == ("Tokyo", "Japan") and 50 < km < 150
    assert "out of range" in s.error("get_city_from_coordinates", latitude=91.0, longitude=0.0)
    assert "out of range" in s.error("get_city_from_coordinates", latitude=0.0, longitude=-181.0)


def test_declared_conditions_and_fixes():
    s = ToolboxSession(SLUG)
    conditions = s.seed.toolbox.conditions
    assert set(conditions) == {"cellular", "location_service", "wifi", "low_battery_off"}
    assert all(c.holds(s.world) for c in conditions.values())  # the default world satisfies every condition
    tools = s.seed.toolbox.tools
    assert tools["send_text_message"].requires == ("cellular",)
    assert tools["get_current_location"].requires == ("location_service",)
    assert tools["get_city_from_coordinates"].requires == ("wifi",)
    # Nested: the fixes for cellular and location need low-battery mode off.
    assert tools[conditions["cellular"].fix_tool].requires == ("low_battery_off",)
    assert tools[conditions["location_service"].fix_tool].requires == ("low_battery_off",)
    for name, condition in conditions.items():
        broken = ToolboxSession(SLUG, state=condition.broken_state)
        assert not condition.holds(broken.world), name
        for sub in tools[condition.fix_tool].requires:  # restore what the fix itself needs first
            fix = conditions[sub]
            broken.ok(fix.fix_tool, **fix.fix_arguments)
        broken.ok(condition.fix_tool, **condition.fix_arguments)
        assert condition.holds(broken.world), name


def test_other_settings():
    s = ToolboxSession(SLUG)
    assert s.ok("set_bluetooth", on=False) is False and s.world.state["bluetooth"] is False
    assert s.ok("set_do_not_disturb", on=True) is True and s.world.state["do_not_disturb"] is True
    assert "must be bool" in s.error("set_bluetooth", on="yes")
    assert s.ok("send_text_message", recipient="Maria Lopez", text="Happy birthday!")  # do-not-disturb does not block sending


def test_deterministic():
    a, b = ToolboxSession(SLUG), ToolboxSession(SLUG)
    assert a.world.contacts == b.world.contacts and a.world.messages == b.world.messages
    assert a.world.location == b.world.location
    other = ToolboxSession(SLUG, world_seed=3)
    assert other.world.contacts != a.world.contacts and sorted(other.world.contacts) == sorted(a.world.contacts)


@pytest.fixture(scope="module")
def pool(ph):
    return library_pool(ph.seeds)


def test_links_follow_roles_and_bridges(pool):
    links = pool.links
    assert ("get_event_organizer", "send_text_message") in links  # attendees are contacts: text the organiser
    assert ("get_event_organizer", "get_contact_phone") in links
    assert ("get_contact_city", "get_current_weather") in links  # the weather where a contact lives
    assert ("get_contact_phone", "find_contact_by_phone") not in links  # a contact's own number says nothing new
    assert ("get_latest_message_from", "send_text_message") not in links  # no echoing a received text back
    for producer in ("get_city_from_coordinates", "get_contact_city"):  # a move is news a person states
        assert (producer, "update_contact_city") not in links and (producer, "add_contact") not in links
    assert ("get_doctor_details", "send_text_message") not in links  # a doctor is not a contact
    assert ("resolve_contact_name", "find_patient_id") not in links  # nor is a contact a patient


def test_switches_are_drawn_as_a_change_from_the_usual_settings(ph):
    s = ToolboxSession(SLUG)
    for tool in ("set_wifi", "set_cellular", "set_location_service", "set_low_battery_mode", "set_bluetooth",
                 "set_do_not_disturb"):
        kind = s.seed.specs[tool].param("on").kind
        (value,) = s.values(kind)
        before = dict(ToolboxSession(SLUG).world.state)
        fresh = ToolboxSession(SLUG)
        fresh.ok(tool, on=value)
        assert fresh.world.state != before, tool


def test_conditions_state_the_value_their_fix_needs(ph):
    for name, condition in ph.seed.toolbox.conditions.items():
        assert condition.says and all(says.endswith(".") for says in condition.says)
        for context in condition.context:
            stated = context.format(**{k: render_value(v) for k, v in condition.fix_arguments.items()})
            assert render_value(condition.fix_arguments["on"]) in stated.split(), (name, context)


def test_every_goal_request_uses_the_phone():
    # The clock, the warnings or the calendar a goal borrows are there because of a contact
    # or of where I am: on their own they would make a request about something else.
    assert requests_without_the_seed("phone_assistant") == {}
