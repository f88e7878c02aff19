"""Behaviour of every Weather tool, including its error cases."""

import pytest

from tests.seeds.goal_helpers import consumers_of, requests_without_the_seed
from tests.seeds.toolbox_helpers import ToolboxSession


@pytest.fixture(scope="module")
def wx():
    return ToolboxSession("weather")


def test_every_city_and_day_has_weather_and_it_is_deterministic(wx):
    days = wx.values("date")
    assert days[0] == "2025-06-13" and days[-1] == "2025-06-27"  # literal days are today and the forecast window
    for city in wx.values("city"):
        for day in ("2025-05-14", days[0], days[-1]):  # past days are on record
            high, low, condition = wx.ok("get_daily_forecast", city=city, date=day)
            assert low < high and condition
    first = wx.ok("get_daily_forecast", city="Paris", date="2025-06-20")
    assert ToolboxSession("weather").ok("get_daily_forecast", city="Paris", date="2025-06-20") == first
    other = ToolboxSession("weather", world_seed=5)
    assert [other.ok("get_daily_forecast", city="Paris", date=d) for d in days[:10]] != \
        [wx.ok("get_daily_forecast", city="Paris", date=d) for d in days[:10]]


def test_climate_is_plausible(wx):
    # June: northern summer is warmer than southern winter, the tropics are hot
    singapore = wx.ok("get_daily_forecast", city="Singapore", date="2025-06-20")[0]
    stockholm = wx.ok("get_daily_forecast", city="Stockholm", date="2025-06-20")[0]
    melbourne = wx.ok("get_daily_forecast", city="Melbourne", date="2025-06-20")[0]
    assert singapore > stockholm > melbourne


def test_daily_tools_reject_days_outside_the_data(wx):
    for tool in ("get_daily_forecast", "get_air_quality", "get_uv_index", "get_wind_forecast"):
        assert "forecasts end 2025-06-27" in wx.error(tool, city="Paris", date="2025-07-01")
        assert "observations start 2025-05-14" in wx.error(tool, city="Paris", date="2025-05-01")
        assert "YYYY-MM-DD" in wx.error(tool, city="Paris", date="next friday")
        assert "no weather data for 'Atlantis'" in wx.error(tool, city="Atlantis", date="2025-06-20")


def test_search_weather_reads_city_and_day(wx):
    assert wx.ok("search_weather", query="Will it rain in Paris tomorrow?")[:2] == ("Paris", "2025-06-14")
    assert wx.ok("search_weather", query="new york weather")[:2] == ("New York", "2025-06-13")
    assert wx.ok("search_weather", query="tokyo on 2025-06-20")[:2] == ("Tokyo", "2025-06-20")
    assert wx.ok("search_weather", query="lyon weather next monday")[:2] == ("Lyon", "2025-06-16")
    city, day, condition = wx.ok("search_weather", query="rome weather in 3 days")
    assert condition == wx.ok("get_daily_forecast", city=city, date=day)[2]
    assert "no covered city" in wx.error("search_weather", query="weather in Gotham tomorrow")
    assert "forecasts end" in wx.error("search_weather", query="paris on 2025-08-01")
    for query in wx.values("weather_query"):
        wx.ok("search_weather", query=query)


def test_relative_days_resolve_from_friday_13_june(wx):
    expected = {"today": "2025-06-13", "tomorrow": "2025-06-14", "yesterday": "2025-06-12",
                "next friday": "2025-06-20", "this friday": "2025-06-13", "last friday": "2025-06-06",
                "next monday": "2025-06-16", "last sunday": "2025-06-08", "in 10 days": "2025-06-23",
                "2 weeks ago": "2025-05-30", "June 20": "2025-06-20", "the 25th of June": "2025-06-25",
                "a week from today": "2025-06-20", "The day after tomorrow": "2025-06-15"}
    for expression, day in expected.items():
        assert wx.ok("resolve_forecast_date", expression=expression) == day, expression
    for expression in wx.values("relative_day"):
        wx.ok("resolve_forecast_date", expression=expression)
    assert "outside the weather data" in wx.error("resolve_forecast_date", expression="in 40 days")
    assert "not a real calendar day" in wx.error("resolve_forecast_date", expression="june 31")
    assert "cannot read the day" in wx.error("resolve_forecast_date", expression="someday soon")
    assert "cannot read the day" in wx.error("resolve_forecast_date", expression="in 99999999 days")


def test_unit_canonicalisation(wx):
    assert wx.ok("convert_temperature_reading", reading="72°F") == 22.2
    assert wx.ok("convert_temperature_reading", reading="32 degrees Fahrenheit") == 0.0
    assert wx.ok("convert_temperature_reading", reading="295.15 K") == 22.0
    assert wx.ok("convert_temperature_reading", reading="-3 °C") == -3.0
    assert "cannot read the temperature" in wx.error("convert_temperature_reading", reading="warm")
    assert "below absolute zero" in wx.error("convert_temperature_reading", reading="-500 F")
    assert wx.ok("convert_wind_speed_reading", reading="10 mph") == 16.1
    assert wx.ok("convert_wind_speed_reading", reading="20 knots") == 37.0
    assert wx.ok("convert_wind_speed_reading", reading="7.5 m/s") == 27.0
    assert wx.ok("convert_wind_speed_reading", reading="force 6") == 44.5
    assert "0 to 12" in wx.error("convert_wind_speed_reading", reading="force 14")
    assert "cannot read the wind speed" in wx.error("convert_wind_speed_reading", reading="breezy")
    for reading in wx.values("temperature_reading"):
        wx.ok("convert_temperature_reading", reading=reading)
    for reading in wx.values("wind_speed_reading"):
        wx.ok("convert_wind_speed_reading", reading=reading)


def test_feels_like(wx):
    assert wx.ok("calculate_feels_like", temperature_c=-5.0, wind_speed_kmh=30.0) < -5.0  # wind chill
    assert wx.ok("calculate_feels_like", temperature_c=34.0, wind_speed_kmh=5.0, humidity_percent=70) > 34.0
    assert wx.ok("calculate_feels_like", temperature_c=18.0, wind_speed_kmh=20.0) == 18.0
    assert "out of range" in wx.error("calculate_feels_like", temperature_c=80.0, wind_speed_kmh=5.0)
    assert "out of range" in wx.error("calculate_feels_like", temperature_c=10.0, wind_speed_kmh=-1.0)
    assert "out of range" in wx.error("calculate_feels_like", temperature_c=10.0, wind_speed_kmh=1.0, humidity_percent=120)


def test_current_and_point_weather(wx):
    temp, condition, humidity = wx.ok("get_current_weather", city="Cairo")
    high, low, today = wx.ok("get_daily_forecast", city="Cairo", date="2025-06-13")
    assert low - 3 <= temp <= high + 3 and condition == today and 0 <= humidity <= 100
    assert wx.ok("get_weather_by_coordinates", latitude=30.1, longitude=31.3) == (temp, condition, "Cairo")
    assert "out of range" in wx.error("get_weather_by_coordinates", latitude=91.0, longitude=0.0)
    assert "no weather data" in wx.error("get_current_weather", city="Springfield")


def test_hourly_forecast_follows_the_day(wx):
    high, low, _ = wx.ok("get_daily_forecast", city="Berlin", date="2025-06-18")
    at_three = wx.ok("get_hourly_forecast", city="Berlin", when="2025-06-18T15:00")
    at_five = wx.ok("get_hourly_forecast", city="Berlin", when="2025-06-18T05:00")
    assert at_three[0] == high and at_five[0] == low and 0 <= at_three[1] <= 100
    assert "YYYY-MM-DDTHH:MM" in wx.error("get_hourly_forecast", city="Berlin", when="2025-06-18")
    assert "no hourly data" in wx.error("get_hourly_forecast", city="Berlin", when="2025-09-01T12:00")
    # one figure an hour: 10:30 reads the 10:00 hour (reading 71 #7)
    assert wx.ok("get_hourly_forecast", city="Berlin", when="2025-06-18T10:30") == \
        wx.ok("get_hourly_forecast", city="Berlin", when="2025-06-18T10:00")


def test_historical_temperature(wx):
    one = wx.ok("get_historical_temperature", city="Rome", date="2025-06-13")
    ten = wx.ok("get_historical_temperature", city="Rome", date="2025-06-13", years_back=10)
    assert one != ten and one[1] < one[0]
    assert wx.ok("get_historical_temperature", city="Rome", date="2025-06-13", years_back=2) == \
        wx.ok("get_historical_temperature", city="Rome", date="2024-06-13", years_back=1)
    assert "between 1 and 30" in wx.error("get_historical_temperature", city="Rome", date="2025-06-13", years_back=31)
    assert "beyond the forecast range" in wx.error("get_historical_temperature", city="Rome", date="2025-08-13")
    assert "no records before 1995" in wx.error("get_historical_temperature", city="Rome", date="2000-01-10", years_back=10)


def test_air_quality_uv_and_wind(wx):
    aqi, category, pollutant = wx.ok("get_air_quality", city="Shanghai", date="2025-06-15")
    assert 0 < aqi <= 500 and category in ("good", "moderate", "unhealthy for sensitive groups", "unhealthy",
                                           "very unhealthy") and pollutant
    uv_north, risk = wx.ok("get_uv_index", city="Madrid", date="2025-06-15")
    uv_south, _ = wx.ok("get_uv_index", city="Melbourne", date="2025-06-15")
    assert uv_north > uv_south and risk in ("low", "moderate", "high", "very high", "extreme")
    speed, direction = wx.ok("get_wind_forecast", city="Chicago", date="2025-06-15")
    assert speed > 0 and direction in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def test_alerts(wx):
    alert_id, event, city = wx.ok("get_severe_weather_alerts", country="Japan")
    assert city in ("Tokyo", "Osaka") and event
    severity, issued, expires = wx.ok("get_alert_details", alert_id=alert_id)
    assert issued < "2025-06-14T01:30" < expires  # Japan's clock: 09:30 in San Francisco is 01:30 there
    same_country = [a for a in wx.world.alerts.values() if a["country"] == "Japan"]
    order = ["minor", "moderate", "severe", "extreme"]
    assert order.index(severity) == max(order.index(a["severity"]) for a in same_country)
    for country in wx.values("country"):
        wx.ok("get_severe_weather_alerts", country=country)
    assert "unknown country" in wx.error("get_severe_weather_alerts", country="Narnia")
    assert "unknown alert" in wx.error("get_alert_details", alert_id="ALR-XX-0000")


def test_hottest_city(wx):
    city, high = wx.ok("find_hottest_city", country="USA", date="2025-06-20")
    highs = {c: wx.ok("get_daily_forecast", city=c, date="2025-06-20")[0]
             for c in ("San Francisco", "Los Angeles", "Seattle", "Chicago", "New York", "Boston", "Austin")}
    assert high == max(highs.values()) and highs[city] == high
    assert wx.ok("find_hottest_city", country="Kenya", date="2025-06-20")[0] == "Nairobi"
    assert "unknown country" in wx.error("find_hottest_city", country="Mars", date="2025-06-20")
    for alias in ("United States", "the US", "united states of america"):  # as people name it
        assert wx.ok("find_hottest_city", country=alias, date="2025-06-20") == (city, high)


def test_stations(wx):
    station, km = wx.ok("find_nearest_weather_station", latitude=51.5074, longitude=-0.1278)
    assert wx.world.stations[station]["city"] == "London" and km < 25
    temp, pressure, observed = wx.ok("get_station_reading", station_id=station)
    assert observed == "2025-06-13T09:00" and 950 < pressure < 1050
    assert abs(temp - wx.ok("get_hourly_forecast", city="London", when=observed)[0]) <= 1.5
    assert "unknown station" in wx.error("get_station_reading", station_id="WS-00000")
    assert "out of range" in wx.error("find_nearest_weather_station", latitude=0.0, longitude=181.0)


def test_alert_subscriptions_need_notifications():
    session = ToolboxSession("weather")
    assert session.ok("subscribe_to_weather_alerts", city="Mumbai") == 1
    assert session.ok("subscribe_to_weather_alerts", city="Mumbai") == 1
    assert session.ok("subscribe_to_weather_alerts", city="Tokyo") == 2
    assert session.world.state["alert_subscriptions"] == ["Mumbai", "Tokyo"]
    assert "no weather data" in session.error("subscribe_to_weather_alerts", city="Gotham")

    broken = ToolboxSession("weather", state={"notifications": "off"})
    condition = broken.seed.toolbox.conditions["weather_notifications"]
    assert not condition.holds(broken.world) and condition.holds(session.world)
    assert "turn weather notifications on first" in broken.error("subscribe_to_weather_alerts", city="Paris")
    assert broken.world.state["alert_subscriptions"] == []
    assert broken.ok("enable_weather_notifications", channel="sms") == "sms"
    assert broken.ok("subscribe_to_weather_alerts", city="Paris") == 1
    assert "must be one of" in broken.error("enable_weather_notifications", channel="pigeon")
    assert ToolboxSession("weather").world.state["alert_subscriptions"] == []


def test_coordinate_pairs_are_real_points(wx):
    pairs = wx.seed.toolbox.joint_values[("latitude", "longitude")](wx.world)
    for lat, lon in pairs:
        _, km = wx.ok("find_nearest_weather_station", latitude=lat, longitude=lon)
        assert km < 30


def test_every_goal_request_is_about_the_weather():
    assert requests_without_the_seed("weather") == {}


def test_no_goal_reads_a_forecast_at_an_alerts_hour():
    # A chain gives the forecast the alert's expiry and, as often as not, a city of its own:
    # "the forecast for Osaka when Singapore's alert expires".
    for moment in ("issued_at", "expires_at"):
        assert consumers_of("weather", "get_alert_details", moment) == []


def test_an_alert_is_as_severe_as_its_name_says():
    """No "Extreme heat warning" of minor severity, no advisory that is extreme."""
    for world_seed in range(4):
        for alert in ToolboxSession("weather", world_seed=world_seed).world.alerts.values():
            level = alert["severity"]
            if alert["event"].startswith("Extreme"):
                assert level in ("severe", "extreme"), alert
            elif alert["event"].endswith("warning"):
                assert level != "minor", alert
            else:
                assert level in ("minor", "moderate"), alert


def test_an_alert_in_force_has_not_expired_by_its_own_city_s_clock():
    """An alert in Buenos Aires expiring at 13:00 is over when it is 13:30 there."""
    from factory.toolbox.gazetteer import NOW, local_time
    from factory.toolbox.user import USER

    for alert in ToolboxSession("weather").world.alerts.values():
        here = local_time(alert["city"], USER.home_city, NOW).strftime("%Y-%m-%dT%H:%M")
        assert alert["issued"] < here < alert["expires"], (alert, here)


def test_the_worst_alert_is_asked_for_by_what_it_warns_of():
    """The gold answer names the alert by its title, the hazard ("Heat advisory"); "give me the
    most severe alert, its hazard and the city" asks for two things where it holds one, and a
    reader expects the alert's id as the first."""
    import re
    from pathlib import Path

    from factory.seeds.phrasings import read_phrasings

    asks = read_phrasings(Path("seeds/weather"))["tools"]["get_severe_weather_alerts"]["asks"]
    alert_then_hazard = re.compile(r"(alert|warning|one|worst)\b[^,?:.]*[,?:.] (I want |tell me |with |along with )?"
                                   r"(what|its|the) (hazard|it warns|does it warn|it's for|is it for)")
    assert [a for a in asks if alert_then_hazard.search(a)] == []
