"""Behaviour of every Human Resources and Payroll tool, including its error cases and state changes."""

import pytest

from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW, exchange_rate
from tests.seeds.toolbox_helpers import ToolboxSession

SLUG = "hr_payroll"


@pytest.fixture(scope="module")
def hr():
    return ToolboxSession(SLUG)


@pytest.fixture
def fresh():
    return ToolboxSession(SLUG)


def staff_member(session, **match):
    """An employee id of someone with a manager whose record matches the given fields."""
    return next(e for e, row in sorted(session.world.employees.items())
                if row["manager"] and all(row[k] == v for k, v in match.items()))


def test_directory_lookup_and_profile(hr):
    employee_id = hr.ok("find_employee_id", full_name="Maria Lopez")
    assert employee_id.startswith("E-") and hr.ok("find_employee_id", full_name="MARIA lopez") == employee_id
    assert "no employee named" in hr.error("find_employee_id", full_name="Jane Doe")
    for name in hr.values("person_name/employee"):
        assert hr.ok("find_employee_id", full_name=name)
    department, title, manager, hired = hr.ok("get_employee_profile", employee_id=employee_id)
    row = hr.world.employees[employee_id]
    assert (department, title, hired) == (row["department"], row["title"], row["hire_date"])
    # The manager's name resolves back to an employee one level up.
    manager_id = hr.ok("find_employee_id", full_name=manager)
    assert row["manager"] == manager_id
    assert "unknown employee id" in hr.error("get_employee_profile", employee_id="E-1")


def test_chief_executive_reports_to_the_board(hr):
    ceo = hr.world.heads["Executive"]
    assert hr.ok("get_employee_profile", employee_id=ceo)[2] == "Board of Directors"
    assert hr.ok("list_team_members", employee_id=ceo) == []


def test_office_and_department_head(hr):
    employee_id = staff_member(hr, department="Sales")
    city, country, address = hr.ok("get_employee_office", employee_id=employee_id)
    assert city in address and country == hr.world.employees[employee_id]["country"]
    name, email = hr.ok("get_department_head", department="Sales")
    assert hr.world.employees[hr.world.heads["Sales"]]["name"] == name
    assert email == name.lower().replace(" ", ".") + "@northwind.example"
    assert "unknown department" in hr.error("get_department_head", department="Astronomy")


def test_teammates_share_the_manager(hr):
    employee_id = staff_member(hr, department="Engineering")
    manager = hr.world.employees[employee_id]["manager"]
    mates = hr.ok("list_team_members", employee_id=employee_id)
    assert mates == sorted(mates) and hr.world.employees[employee_id]["name"] not in mates
    for name in mates:
        assert hr.world.employees[hr.ok("find_employee_id", full_name=name)]["manager"] == manager


def test_salary_tax_and_conversion(hr):
    employee_id = staff_member(hr, country="Germany")
    salary, currency, country = hr.ok("get_annual_salary", employee_id=employee_id)
    assert currency == "EUR" and country == "Germany" and salary > 0
    tax, rate = hr.ok("calculate_income_tax", country="Germany", annual_income=salary)
    assert 0 < tax < salary and rate == round(100 * tax / salary, 2)
    assert hr.ok("calculate_income_tax", country="United Arab Emirates", annual_income=300000.0) == (0.0, 0.0)
    low, _ = hr.ok("calculate_income_tax", country="USA", annual_income=40000.0)
    high, _ = hr.ok("calculate_income_tax", country="USA", annual_income=400000.0)
    assert high > 10 * low  # progressive brackets
    assert hr.ok("calculate_income_tax", country="USA", annual_income=0.0) == (0.0, 0.0)
    assert "no payroll rules" in hr.error("calculate_income_tax", country="Atlantis", annual_income=1000.0)
    assert "must not be negative" in hr.error("calculate_income_tax", country="USA", annual_income=-5.0)
    usd = hr.ok("convert_salary_currency", amount=salary, from_currency="EUR", to_currency="USD")
    assert usd == round(salary * exchange_rate("EUR", "USD"), 2)  # the rate every world quotes (reading 28 #7)
    assert exchange_rate("EUR", "USD") == round(1 / CURRENCY_BY_CODE["EUR"].per_usd, 6)
    assert hr.ok("convert_salary_currency", amount=100.0, from_currency="USD", to_currency="JPY") == 14950.0
    assert "unsupported currency" in hr.error("convert_salary_currency", amount=1.0, from_currency="USD", to_currency="BTC")


def test_payslip_matches_salary_and_tax(hr):
    employee_id = staff_member(hr, country="France")
    salary, _, country = hr.ok("get_annual_salary", employee_id=employee_id)
    tax_year, _ = hr.ok("calculate_income_tax", country=country, annual_income=salary)
    if hr.world.employees[employee_id]["hire_date"] < "2024-06":
        gross, tax, net = hr.ok("get_payslip", employee_id=employee_id, month="2024-09")
        assert gross == round(salary / 12, 2) and tax == round(tax_year / 12, 2) and net < gross - tax
    assert "has not run yet" in hr.error("get_payslip", employee_id=employee_id, month="2025-06")
    assert "kept from" in hr.error("get_payslip", employee_id=employee_id, month="2023-01")
    assert "YYYY-MM" in hr.error("get_payslip", employee_id=employee_id, month="May 2025")
    recent = next(e for e, r in hr.world.employees.items() if r["hire_date"] > "2024-08")
    assert "was hired on" in hr.error("get_payslip", employee_id=recent, month="2024-06")


def test_leave_request_uses_the_balance(fresh):
    employee_id = staff_member(fresh)
    before = fresh.ok("get_leave_balance", employee_id=employee_id, leave_type="personal")
    request_id, left = fresh.ok("request_leave", employee_id=employee_id, leave_type="personal",
                                start_date="2025-07-01", days=2)
    assert request_id == "LR-3006" and left == before - 2
    assert fresh.ok("get_leave_balance", employee_id=employee_id, leave_type="personal") == left
    assert fresh.world.state["leave_requests"][request_id]["status"] == "pending"
    assert "only" in fresh.error("request_leave", employee_id=employee_id, leave_type="personal",
                                 start_date="2025-07-10", days=left + 1)
    assert "earliest start" in fresh.error("request_leave", employee_id=employee_id, leave_type="annual",
                                           start_date="2025-06-01", days=1)
    # Sick leave may be logged a few weeks after the fact.
    assert fresh.ok("request_leave", employee_id=employee_id, leave_type="sick", start_date="2025-06-01", days=1)
    assert "at most a year ahead" in fresh.error("request_leave", employee_id=employee_id, leave_type="annual",
                                                 start_date="2026-12-01", days=1)
    assert "between 1 and 30" in fresh.error("request_leave", employee_id=employee_id, leave_type="annual",
                                             start_date="2025-07-01", days=0)
    assert "YYYY-MM-DD" in fresh.error("request_leave", employee_id=employee_id, leave_type="annual",
                                       start_date="next week", days=1)
    assert "must be one of" in fresh.error("get_leave_balance", employee_id=employee_id, leave_type="vacation")


def test_approving_leave(fresh):
    request_id = fresh.values("leave_request_id")[0]
    row = fresh.world.state["leave_requests"][request_id]
    name, last_day = fresh.ok("approve_leave_request", request_id=request_id)
    assert name == fresh.world.employees[row["employee_id"]]["name"] and last_day >= row["start"]
    assert row["status"] == "approved" and request_id not in fresh.values("leave_request_id")
    assert "already approved" in fresh.error("approve_leave_request", request_id=request_id)
    assert "unknown leave request" in fresh.error("approve_leave_request", request_id="LR-1")


def test_leave_needs_submitted_timesheets_which_need_delegation():
    session = ToolboxSession(SLUG, state={"timesheets_submitted": False, "approval_delegation": False})
    employee_id = staff_member(session)
    assert "submit the timesheets for the week of 2025-06-09 first" in session.error(
        "request_leave", employee_id=employee_id, leave_type="annual", start_date="2025-07-01", days=1)
    assert "enable it first" in session.error("submit_week_timesheets", week_start="2025-06-09")
    assert "enable the manager's approval delegation first" in session.error(
        "approve_leave_request", request_id=session.values("leave_request_id")[0])
    assert session.ok("enable_approval_delegation") == "2025-07-13"
    assert session.ok("submit_week_timesheets", week_start="2025-06-11") > 0
    assert session.ok("submit_week_timesheets", week_start="2025-06-09") == 0  # nothing open any more
    assert session.ok("request_leave", employee_id=employee_id, leave_type="annual", start_date="2025-07-01", days=1)


def test_conditions_hold_by_default_and_break_as_declared(hr):
    conditions = hr.seed.toolbox.conditions
    assert set(conditions) == {"timesheets_submitted", "approval_delegation"}
    for condition in conditions.values():
        assert condition.holds(hr.world)
        broken = type(hr.world)(**{**hr.world.__dict__, "state": {**hr.world.state, **condition.broken_state}})
        assert not condition.holds(broken)


def test_timesheets(hr):
    employee_id = staff_member(hr)
    hours, overtime = hr.ok("get_timesheet_hours", employee_id=employee_id, week_of="2025-05-14")
    assert 35 <= hours <= 50 and overtime == round(max(0.0, hours - 40), 1)
    assert hr.ok("get_timesheet_hours", employee_id=employee_id, week_of="2025-05-12") == (hours, overtime)
    this_week, _ = hr.ok("get_timesheet_hours", employee_id=employee_id, week_of="2025-06-13")
    assert this_week <= 40  # four days logged so far
    assert "no timesheet yet" in hr.error("get_timesheet_hours", employee_id=employee_id, week_of="2025-06-20")
    assert "kept from" in hr.error("get_timesheet_hours", employee_id=employee_id, week_of="2024-01-03")
    assert hr.ok("submit_week_timesheets", week_start="2025-05-14") == 0
    assert "has not started" in hr.error("submit_week_timesheets", week_start="2025-07-01")


def test_job_titles_bands_and_openings(hr):
    assert hr.ok("normalize_job_title", title_text="SWE") == "Software Engineer"
    assert hr.ok("normalize_job_title", title_text="Sr. SWE") == "Senior Software Engineer"
    assert hr.ok("normalize_job_title", title_text="data scientist") == "Data Scientist"
    for text in hr.values("job_title_text"):
        assert hr.ok("normalize_job_title", title_text=text) in hr.values("job_title") + ["Chief Executive Officer"]
    assert "cannot map" in hr.error("normalize_job_title", title_text="wizard")
    low, high, currency = hr.ok("get_salary_band", job_title="Data Scientist", country="Japan")
    assert currency == "JPY" and 0 < low < high
    assert "unknown job title" in hr.error("get_salary_band", job_title="SWE", country="Japan")
    hits = hr.ok("search_job_openings", query=hr.values("job_search_terms")[0])
    assert hits and all(h.startswith("JOB-") for h in hits)
    assert all(hr.ok("search_job_openings", query=q) for q in hr.values("job_search_terms"))
    assert hr.ok("search_job_openings", query="zzz") == []
    assert "between 1 and 20" in hr.error("search_job_openings", query="engineer", max_results=50)
    title, city, country, closing = hr.ok("get_job_opening", opening_id=hits[0])
    assert title in hr.values("job_title") and closing > "2025-06-13" and city
    assert hr.ok("get_salary_band", job_title=title, country=country)  # an opening's band is in its own country
    assert "unknown job opening" in hr.error("get_job_opening", opening_id="JOB-1")


def test_performance_reviews(hr):
    employee_id = next(e for e, r in sorted(hr.world.employees.items()) if r["manager"] and r["hire_date"] < "2020")
    score, reviewer = hr.ok("get_performance_review", employee_id=employee_id, year=2022)
    assert 1.0 <= score <= 5.0
    assert reviewer == hr.world.employees[hr.world.employees[employee_id]["manager"]]["name"]
    assert "no review cycle" in hr.error("get_performance_review", employee_id=employee_id, year=2025)
    recent = next(e for e, r in hr.world.employees.items() if r["hire_date"] > "2024-08")
    assert "after the 2023 cycle" in hr.error("get_performance_review", employee_id=recent, year=2023)


def test_worlds_are_deterministic():
    a, b = ToolboxSession(SLUG, world_seed=2), ToolboxSession(SLUG, world_seed=2)
    assert a.world.employees == b.world.employees and a.world.state == b.world.state
    assert ToolboxSession(SLUG, world_seed=3).world.employees != a.world.employees
    # Ids follow the names, so they are the same in every world.
    assert a.ok("find_employee_id", full_name="Zara Khan") == ToolboxSession(SLUG, world_seed=3).ok(
        "find_employee_id", full_name="Zara Khan")


def test_pay_travels_with_its_currency_and_its_tax_country(hr):
    toolbox = hr.seed.toolbox
    assert toolbox.tools["convert_salary_currency"].groups == {"pay": "{amount} {from_currency}"}
    assert toolbox.tools["calculate_income_tax"].groups == {"income": "an income of {annual_income} a year in {country}"}
    # A literal income is sized for its country's currency, so a tax bill reads like a real one.
    for amount, country in toolbox.joint_values[("money_amount", "country")](hr.world):
        tax, rate = hr.ok("calculate_income_tax", country=country, annual_income=amount)
        assert 0 <= rate < 50, (amount, country)
    employee_id = hr.values("employee_id")[0]
    salary, currency, country = hr.ok("get_annual_salary", employee_id=employee_id)
    assert hr.ok("calculate_income_tax", country=country, annual_income=salary)[1] > 0 or country == "United Arab Emirates"
    assert hr.ok("convert_salary_currency", amount=salary, from_currency=currency, to_currency="USD") > 0


def test_people_requests_are_about_have_a_history_and_a_manager(hr):
    for employee_id in hr.values("employee_id"):
        row = hr.world.employees[employee_id]
        assert row["manager"] and hr.ok("get_payslip", employee_id=employee_id, month="2024-06")
        assert hr.ok("get_performance_review", employee_id=employee_id, year=2021)
    assert [hr.world.employees[e]["name"] for e in hr.values("employee_id")] == hr.values("person_name/employee")


def test_leave_starts_offered_fit_the_kind_of_leave(hr):
    from factory.toolbox.sense import violations

    rules = hr.seed.toolbox.tools["request_leave"].sense
    past, future = "2025-06-10", "2025-07-01"
    base = {"employee_id": "E-1001", "days": 2}
    assert not violations(rules, {**base, "leave_type": "sick", "start_date": past}, {})
    assert violations(rules, {**base, "leave_type": "sick", "start_date": future}, {})  # nobody plans sick leave
    assert violations(rules, {**base, "leave_type": "annual", "start_date": past}, {})
    assert {d < NOW.date().isoformat() for d in hr.values("date")} == {True, False}


def test_fix_ups_only_and_renewals_change_the_world():
    s = ToolboxSession(SLUG)
    before = dict(s.world.state)
    until = s.ok("enable_approval_delegation")
    assert until > before["delegation_until"] and s.world.state["delegation_until"] == until  # a renewal
    # Submitting this week's timesheets is only ever a fix-up: its kind has no literal values.
    week = s.seed.specs["submit_week_timesheets"].parameters[0]
    assert week.kind not in s.seed.toolbox.values


def test_goals_keep_pay_apart_from_the_directory(hr):
    """A colleague looking people up sees no pay or review, and a pay review names its employee
    by id: with the directory in it, the manager who wrote the review became the one whose
    salary was asked for ("the salary of the manager who appraised E-1795")."""
    goals = hr.seed.toolbox.goals.values()
    confidential = {"get_annual_salary", "get_payslip", "get_performance_review", "get_salary_band"}
    for goal in goals:
        tools = set(goal.tools)
        assert not ({"get_performance_review", "find_employee_id"} <= tools), goal.name
        if goal.role == "employee":
            assert not tools & confidential, goal.name
    assert any(g.role == "employee" for g in goals)
