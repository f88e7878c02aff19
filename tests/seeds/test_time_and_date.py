"""Behaviour of every Time and Date tool, including its error cases."""

from datetime import date

import pytest

from tests.seeds.goal_helpers import requests_without_the_seed
from tests.seeds.toolbox_helpers import ToolboxSession


@pytest.fixture(scope="module")
def td():
    return ToolboxSession("time_and_date")


def test_clock_reads_the_simulated_now(td):
    assert td.ok("get_current_local_datetime") == ("2025-06-13T09:30", "2025-06-13", "San Francisco")
    assert td.ok("get_local_time_in", city="London") == "2025-06-13T17:30"
    assert td.ok("get_local_time_in", city="Tokyo") == "2025-06-14T01:30"
    assert "unknown city" in td.error("get_local_time_in", city="Atlantis")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("next Friday 5pm", "2025-06-20T17:00"),  # today is Friday 2025-06-13
        ("tomorrow morning", "2025-06-14T09:00"),
        ("last Sunday", "2025-06-08T09:00"),
        ("in 3 days", "2025-06-16T09:30"),
        ("2 weeks ago", "2025-05-30T09:30"),
        ("this friday", "2025-06-13T09:00"),
        ("next monday at 9:30am", "2025-06-16T09:30"),
        ("end of the month", "2025-06-30T17:00"),
        ("next month", "2025-07-01T09:00"),
        ("tonight", "2025-06-13T20:00"),
        ("in 30 minutes", "2025-06-13T10:00"),
        ("next wednesday at 14:00", "2025-06-18T14:00"),
    ],
)
def test_relative_expressions_resolve(td, expression, expected):
    assert td.ok("resolve_relative_time", expression=expression) == (expected, expected[:10])


def test_relative_expressions_reject_nonsense(td):
    assert "cannot understand" in td.error("resolve_relative_time", expression="when pigs fly")
    assert "cannot understand" in td.error("resolve_relative_time", expression="next friday 25pm")
    assert "empty" in td.error("resolve_relative_time", expression="   ")


def test_every_generated_surface_form_is_understood(td):
    for expression in td.values("relative_time"):
        td.ok("resolve_relative_time", expression=expression)
    for text in td.values("date_text"):
        assert date.fromisoformat(td.ok("parse_date_text", text=text))


def test_written_dates(td):
    for text in ("June 20, 2025", "20 June 2025", "Jun 20th 2025", "06/20/2025", "20.06.2025", "2025/06/20"):
        assert td.ok("parse_date_text", text=text) == "2025-06-20"
    assert "cannot read" in td.error("parse_date_text", text="June 20")
    assert "cannot read" in td.error("parse_date_text", text="31/31/2025")
    assert "outside the supported years" in td.error("parse_date_text", text="June 20, 1900")


def test_date_arithmetic(td):
    assert td.ok("add_time_to_datetime", start="2025-06-13T23:30", amount=45, unit="minutes") == "2025-06-14T00:15"
    assert td.ok("add_time_to_datetime", start="2025-06-13T09:30", amount=2, unit="weeks") == "2025-06-27T09:30"
    assert "YYYY-MM-DDTHH:MM" in td.error("add_time_to_datetime", start="13/06/2025 9:30", amount=1, unit="days")
    assert "out of range" in td.error("add_time_to_datetime", start="2025-06-13T09:30", amount=20000, unit="days")
    assert "must be one of" in td.error("add_time_to_datetime", start="2025-06-13T09:30", amount=1, unit="years")
    assert td.ok("get_time_between", start="2025-06-13T09:30", end="2025-06-14T08:00") == (1350, 22.5)
    assert td.ok("get_time_between", start="2025-06-14T08:00", end="2025-06-13T09:30") == (-1350, -22.5)
    assert "not a real date" in td.error("get_time_between", start="2025-02-30T10:00", end="2025-03-01T10:00")


def test_weekdays_and_weeks(td):
    assert td.ok("get_weekday", date="2025-06-14") == ("Saturday", True)
    assert td.ok("get_weekday", date="2025-06-13") == ("Friday", False)
    assert td.ok("get_week_number", date="2024-12-30") == (1, 2025)  # ISO week-year differs from the calendar year
    assert td.ok("get_week_number", date="2025-06-13") == (24, 2025)
    assert td.ok("get_next_weekday_date", weekday="Friday", after="2025-06-13") == "2025-06-20"
    assert td.ok("get_next_weekday_date", weekday="saturday", after="2025-06-13") == "2025-06-14"
    assert "unknown weekday" in td.error("get_next_weekday_date", weekday="Funday", after="2025-06-13")
    assert "YYYY-MM-DD" in td.error("get_weekday", date="June 13")
    assert "outside the supported years" in td.error("get_weekday", date="1900-01-01")


def test_time_zones(td):
    assert td.ok("convert_time_between_cities", moment="2025-06-13T17:00", from_city="San Francisco", to_city="Tokyo") == "2025-06-14T09:00"
    assert td.ok("convert_time_between_cities", moment="2025-06-13T10:00", from_city="london", to_city="New York") == "2025-06-13T05:00"
    assert "unknown city" in td.error("convert_time_between_cities", moment="2025-06-13T10:00", from_city="Gotham", to_city="Tokyo")
    # the clocks keep daylight saving as the places do: Munich is two hours ahead in June
    assert td.ok("get_city_utc_offset", city="Mumbai") == (5.5, "India")
    assert td.ok("get_city_utc_offset", city="Munich") == (2, "Germany")
    # on 15 March San Francisco already keeps summer time (UTC-7) and London not yet (UTC+0)
    assert td.ok("convert_time_between_cities", moment="2025-03-15T09:00", from_city="San Francisco",
                 to_city="London") == "2025-03-15T16:00"
    assert td.ok("convert_time_between_cities", moment="2025-01-15T09:00", from_city="San Francisco",
                 to_city="London") == "2025-01-15T17:00"
    assert td.ok("get_city_utc_offset", city="Buenos Aires") == (-3, "Argentina")


def test_public_holidays(td):
    german = td.ok("list_public_holidays", country="Germany", year=2025)
    assert "2025-04-18 Good Friday" in german and "2025-10-03 German Unity Day" in german and german == sorted(german)
    us = td.ok("list_public_holidays", country="USA", year=2025)
    assert "2025-11-27 Thanksgiving Day" in us and "2025-05-26 Memorial Day" in us
    dutch = td.ok("list_public_holidays", country="Netherlands", year=2025)  # April 27, 2025 is a Sunday
    assert "2025-04-26 King's Day" in dutch and "2026-04-27 King's Day" in td.ok("list_public_holidays", country="Netherlands", year=2026)
    assert "2016-03-27" not in " ".join(td.ok("list_public_holidays", country="Germany", year=2016))
    assert "2016-03-28 Easter Monday" in td.ok("list_public_holidays", country="Germany", year=2016)
    assert "no holiday calendar" in td.error("list_public_holidays", country="Narnia", year=2025)
    assert "outside the supported years" in td.error("list_public_holidays", country="Germany", year=1800)
    assert td.ok("get_next_public_holiday", country="Germany", after="2025-06-20") == ("German Unity Day", "2025-10-03")
    assert td.ok("get_next_public_holiday", country="Germany", after="2025-12-27") == ("New Year's Day", "2026-01-01")
    assert td.ok("get_next_public_holiday", country="USA", after="2025-07-04") == ("Independence Day", "2025-07-04")
    assert td.ok("is_public_holiday", date="2025-04-21", country="United Kingdom") == (True, "Easter Monday")
    assert td.ok("is_public_holiday", date="2025-06-13", country="France") == (False, "")
    assert "no holiday calendar" in td.error("is_public_holiday", date="2025-06-13", country="Mars")


def test_business_days(td):
    # 2025-06-09 is Whit Monday in Germany: two weeks minus one holiday.
    assert td.ok("count_business_days", start="2025-06-09", end="2025-06-20", country="Germany") == 9
    assert td.ok("count_business_days", start="2025-06-20", end="2025-06-09", country="Germany") == 9
    assert td.ok("count_business_days", start="2025-06-09", end="2025-06-20", country="USA") == 9  # Juneteenth
    assert td.ok("count_business_days", start="2025-06-09", end="2025-06-20", country="Japan") == 10
    assert td.ok("count_business_days", start="2025-06-14", end="2025-06-15", country="USA") == 0
    assert "longer than ten years" in td.error("count_business_days", start="2000-01-01", end="2025-01-01", country="USA")
    # Christmas and Boxing Day are skipped in the UK.
    assert td.ok("add_business_days", start="2025-12-23", days=3, country="United Kingdom") == "2025-12-30"
    assert td.ok("add_business_days", start="2025-06-13", days=1, country="USA") == "2025-06-16"
    assert "between 1 and 500" in td.error("add_business_days", start="2025-06-13", days=0, country="USA")


def test_sun_times(td):
    sunrise, sunset = td.ok("get_sunrise_sunset", city="Stockholm", date="2025-06-21")
    assert sunrise.startswith("2025-06-21T0") and sunset > "2025-06-21T20:00"
    winter_rise, winter_set = td.ok("get_sunrise_sunset", city="Stockholm", date="2025-12-21")
    assert winter_rise > sunrise[:11] + "08:00" and winter_set < "2025-12-21T15:00"
    assert td.ok("get_daylight_hours", latitude=59.3293, longitude=18.0686, date="2025-06-21") > 18
    assert td.ok("get_daylight_hours", latitude=80.0, longitude=0.0, date="2025-12-21") == 0.0
    assert td.ok("get_daylight_hours", latitude=80.0, longitude=0.0, date="2025-06-21") == 24.0
    assert 11.5 < td.ok("get_daylight_hours", latitude=1.3521, longitude=103.8198, date="2025-03-01") < 12.5
    assert "out of range" in td.error("get_daylight_hours", latitude=95.0, longitude=0.0, date="2025-06-21")
    assert "out of range" in td.error("get_daylight_hours", latitude=10.0, longitude=200.0, date="2025-06-21")
    assert "unknown city" in td.error("get_sunrise_sunset", city="Nowhere", date="2025-06-21")


def test_search(td):
    assert td.ok("search_time_and_date", query="tokyo") == ["Tokyo, Japan: UTC+9, local time 2025-06-14T01:30"]
    christmas = td.ok("search_time_and_date", query="christmas germany")
    assert christmas == ["2025-12-25 Christmas Day (Germany)", "2025-12-26 Second Day of Christmas (Germany)",
                         "2026-12-25 Christmas Day (Germany)", "2026-12-26 Second Day of Christmas (Germany)"]
    assert td.ok("search_time_and_date", query="zzz") == []
    assert len(td.ok("search_time_and_date", query="day", max_results=3)) == 3
    assert "between 1 and 30" in td.error("search_time_and_date", query="day", max_results=0)
    assert "at least one word" in td.error("search_time_and_date", query=" ")
    assert all(td.ok("search_time_and_date", query=q) for q in td.values("time_search_terms"))


def test_home_city_moves_the_local_clock():
    session = ToolboxSession("time_and_date")
    assert session.ok("set_home_city", city="berlin") == ("2025-06-13T18:30", 2)
    assert session.world.state["home_city"] == "Berlin"
    assert session.ok("get_current_local_datetime") == ("2025-06-13T18:30", "2025-06-13", "Berlin")
    assert session.ok("resolve_relative_time", expression="in 6 hours") == ("2025-06-14T00:30", "2025-06-14")
    assert "unknown city" in session.error("set_home_city", city="Springfield")
    assert session.world.state["home_city"] == "Berlin"
    # A new episode starts from the default home again.
    assert ToolboxSession("time_and_date").ok("get_current_local_datetime")[2] == "San Francisco"


def test_generated_values_are_accepted(td):
    for day in td.values("date")[::10]:
        td.ok("get_weekday", date=day)
        td.ok("is_public_holiday", date=day, country=td.values("country")[0])
    for moment in td.values("datetime")[::25]:
        td.ok("add_time_to_datetime", start=moment, amount=1, unit="hours")
    for city in td.values("city"):
        td.ok("get_sunrise_sunset", city=city, date="2025-06-13")


def test_deterministic():
    a, b = ToolboxSession("time_and_date"), ToolboxSession("time_and_date")
    assert a.values("time_search_terms") == b.values("time_search_terms")
    assert a.ok("get_sunrise_sunset", city="Paris", date="2025-06-13") == b.ok("get_sunrise_sunset", city="Paris", date="2025-06-13")
    assert a.ok("count_business_days", start="2025-01-01", end="2025-12-31", country="France") == b.ok(
        "count_business_days", start="2025-01-01", end="2025-12-31", country="France")


def test_sense_rules_reject_requests_nobody_makes(td):
    from factory.toolbox.sense import violations

    def broken(tool, **args):
        return violations(td.seed.toolbox.tools[tool].sense, args, {})

    # converting the time it is now somewhere is asking for the local time in a roundabout way
    now_home = td.ok("get_current_local_datetime")[0]
    assert broken("convert_time_between_cities", moment=now_home, from_city="London", to_city="Tokyo")
    assert broken("convert_time_between_cities", moment=td.ok("get_local_time_in", city="Paris"), from_city="Paris",
                  to_city="Tokyo")
    assert not broken("convert_time_between_cities", moment="2025-06-20T17:00", from_city="London", to_city="Tokyo")
    assert broken("convert_time_between_cities", moment="2025-06-20T17:00", from_city="Paris", to_city="Berlin")  # one clock
    assert broken("add_time_to_datetime", start="2025-06-20T17:00", amount=2, unit="minutes")
    assert broken("add_time_to_datetime", start="2025-06-20T17:00", amount=45, unit="weeks")
    assert not broken("add_time_to_datetime", start="2025-06-20T17:00", amount=45, unit="minutes")
    assert broken("get_time_between", start="2025-06-21T08:00", end="2025-06-20T17:00")
    assert broken("get_time_between", start="2025-07-04T07:30", end="2025-10-27T19:03") == [
        ("sensible", "months counted in minutes and hours")]
    assert not broken("get_time_between", start="2025-06-20T08:00", end="2025-06-22T17:00")
    assert broken("count_business_days", start="2025-01-01", end="2027-01-01", country="France")
    # the tool takes either order, but a request names the earlier day first
    assert broken("count_business_days", start="2025-07-01", end="2025-06-20", country="France") == [
        ("sensible", "the period runs backwards")]
    assert not broken("count_business_days", start="2025-06-20", end="2025-07-01", country="France")
    assert broken("set_home_city", city="San Francisco")


def test_requests_state_dates_without_their_weekday(td):
    written = td.seed.toolbox.written["date"]
    assert written("Friday, June 20, 2025") == "June 20, 2025" and written("20 June 2025") == "20 June 2025"
    assert td.ok("resolve_relative_time", expression="2 hours from now") == ("2025-06-13T11:30", "2025-06-13")
    assert td.seed.toolbox.facts["latitude"](td.world, 35.6762) == {"city": "Tokyo", "country": "Japan"}


def test_a_moment_is_converted_from_the_clock_it_comes_with(td):
    assert td.seed.toolbox.tools["convert_time_between_cities"].groups == {"when": "{moment} in {from_city}"}
    # a day's holiday is checked in a country drawn on its own, never pushed onto the holiday's own country
    assert td.seed.specs["is_public_holiday"].param("country").kind == "holiday_country"
    assert td.values("holiday_country") == td.values("country")
    assert td.seed.toolbox.written["holiday_country"]("USA") == "the USA"


def test_every_goal_request_is_about_dates_and_times():
    # The warmest city, my calendar, the forecast or the place a goal borrows are there
    # because of a holiday or the daylight, never a request of their own.
    assert requests_without_the_seed("time_and_date") == {}


def test_days_in_words_mean_one_day_to_every_reader():
    """Said on Friday, June 13: "next Saturday" may be tomorrow or June 21, "this Monday" the one
    past or the one to come, and "Friday at noon" today or June 20, so no request draws them;
    "next Monday", "this Sunday" and "Tuesday" are one day."""
    from factory.toolbox.gazetteer import one_day_to_all
    from tests.seeds.toolbox_helpers import ToolboxSession

    assert not one_day_to_all("next Saturday") and not one_day_to_all("this Monday at 10am")
    assert not one_day_to_all("Friday at noon") and not one_day_to_all("on Friday") and not one_day_to_all("this Friday")
    assert one_day_to_all("next Monday") and one_day_to_all("this Sunday") and one_day_to_all("last Saturday")
    assert not one_day_to_all("last Thursday") and not one_day_to_all("last Monday")  # readings 69 #35, 68 #34
    assert one_day_to_all("last Friday")  # a week ago, to anyone
    assert one_day_to_all("Tuesday at noon") and one_day_to_all("next Friday 5pm")
    for slug, kind in (("time_and_date", "relative_time"), ("weather", "relative_day")):
        drawn = ToolboxSession(slug).values(kind)
        assert drawn and all(one_day_to_all(d) for d in drawn), slug


def test_holidays_of_a_lunar_calendar_are_listed_for_the_years_the_world_covers(td):
    """The UAE's holidays are mostly Islamic ones (reading 27 #37): Eid al-Adha falls on
    2025-06-06; Japan's equinox days are holidays; years outside the data list none."""
    assert "2025-06-06 Eid al-Adha" in td.ok("list_public_holidays", country="United Arab Emirates", year=2025)
    assert "2026-02-17 Spring Festival" in td.ok("list_public_holidays", country="China", year=2026)
    assert "2025-09-23 Autumnal Equinox Day" in td.ok("list_public_holidays", country="Japan", year=2025)
    assert not any("Eid" in h for h in td.ok("list_public_holidays", country="United Arab Emirates", year=2030))
    assert td.ok("get_next_public_holiday", country="United Arab Emirates", after="2025-06-13") == (
        "Islamic New Year", "2025-06-26")


def test_working_days_follow_the_country_s_own_week():
    """Egypt works Sunday to Thursday: 7 working days after Wednesday, July 30, 2025 is Sunday,
    August 10 there, not Friday, August 8 as in France (reading 57 #30)."""
    from tests.seeds.toolbox_helpers import ToolboxSession

    s = ToolboxSession("time_and_date")
    assert s.ok("add_business_days", start="2025-07-30", days=7, country="Egypt") == "2025-08-10"
    assert s.ok("add_business_days", start="2025-07-30", days=7, country="France") == "2025-08-08"
    assert s.ok("count_business_days", start="2025-08-03", end="2025-08-09", country="Egypt") == 5  # Sun to Thu


def test_daylight_is_what_sunrise_and_sunset_give():
    """The hours of daylight are sunset minus sunrise as the tools state them (07:04 to 19:05 is
    12.02 hours, where the unrounded model said 12.03: reading 59 #40)."""
    from tests.seeds.toolbox_helpers import ToolboxSession

    s = ToolboxSession("time_and_date")
    for city, day in (("Singapore", "2025-07-07"), ("Singapore", "2025-07-25"), ("Edinburgh", "2025-12-01"), ("Sydney", "2025-06-13")):
        rise, set_ = s.ok("get_sunrise_sunset", city=city, date=day)
        row = s.world.cities[city]
        hours = s.ok("get_daylight_hours", latitude=row["latitude"], longitude=row["longitude"], date=day)
        clock = lambda t: int(t[-5:-3]) * 60 + int(t[-2:])  # noqa: E731
        assert hours == round((clock(set_) - clock(rise)) / 60, 2), (city, rise, set_, hours)


def test_a_span_is_asked_as_a_whole_in_each_unit():
    """The tool gives the whole span in each unit (1639 minutes, 27.32 hours); "how many hours
    and how many minutes lie between" reads as 27 h 19 min."""
    import re
    from pathlib import Path

    from factory.seeds.phrasings import read_phrasings

    asks = read_phrasings(Path("seeds/time_and_date"))["tools"]["get_time_between"]["asks"]
    both_units = re.compile(r"(hours|minutes) and (how many )?(hours|minutes)")
    assert [a for a in asks if both_units.search(a) and not re.search(r"\bin (minutes|hours)\b", a)] == []
