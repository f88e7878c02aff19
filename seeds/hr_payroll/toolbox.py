"""Human Resources and Payroll: the employee directory, departments and managers, salaries,
payslips and income tax, leave, timesheets, job titles, openings and performance reviews."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    COUNTRIES,
    COUNTRY_BY_NAME,
    CURRENCY_BY_CODE,
    FIRST_NAMES,
    LAST_NAMES,
    NOW,
    country_named,
    country_phrase,
    exchange_rate,
)
from factory.sense import around, distinct, sensible, together, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world

toolbox = Toolbox()

# The people here are employees: no patient, contact or estate agent is looked up in the directory.
PersonName = Annotated[str, Kind("person_name", role="employee")]
EmployeeId = Annotated[str, Kind("employee_id")]
Department = Annotated[str, Kind("company_department")]
JobTitle = Annotated[str, Kind("job_title")]
TitleText = Annotated[str, Kind("job_title_text")]
# Where someone works, or where a job is, matters to pay (a salary band's country); asking the
# weather or the hottest city there is no request an HR assistant gets, so workplaces keep a role.
City = Annotated[str, Kind("city", role="workplace")]
Country = Annotated[str, Kind("country", role="workplace")]
TaxCountry = Annotated[str, Kind("country", role="tax")]  # the country whose tax rules apply to an income
Address = Annotated[str, Kind("address", role="workplace")]
Email = Annotated[str, Kind("email", role="employee")]
Day = Annotated[str, Kind("date")]
Week = Annotated[str, Kind("timesheet_week")]
# Only the current week's open timesheets can be submitted: a fix-up, never drawn as a request of
# its own (its kind has no literal values; the condition states the week).
OpenWeek = Annotated[str, Kind("open_timesheet_week")]
Month = Annotated[str, Kind("pay_month")]
# An amount of pay comes with its currency, and with the country whose tax rules apply; a
# currency named to convert into is a currency in its own right (the finance convention). The
# currency of pay has a role of its own, so a share price or a hotel bill never goes through the
# payroll converter.
CurrencyCode = Annotated[str, Kind("currency_code", role="pay")]
NamedCurrency = Annotated[str, Kind("currency_code", role="currency")]
Salary = Annotated[float, Kind("money_amount", role="pay")]
RequestId = Annotated[str, Kind("leave_request_id")]
OpeningId = Annotated[str, Kind("job_opening_id")]
ReviewYear = Annotated[int, Kind("review_year")]
LeaveType = Literal["annual", "sick", "personal"]

DEPARTMENTS = {  # department → head title, manager title, staff titles
    "Engineering": ("VP of Engineering", "Engineering Manager",
                    ("Software Engineer", "Senior Software Engineer", "Data Scientist", "QA Engineer")),
    "Product": ("VP of Product", "Product Director", ("Product Manager", "Product Designer")),
    "Sales": ("VP of Sales", "Sales Manager", ("Account Executive", "Sales Development Representative")),
    "Marketing": ("Chief Marketing Officer", "Marketing Manager", ("Marketing Specialist", "Content Strategist")),
    "Finance": ("Chief Financial Officer", "Finance Manager", ("Financial Analyst", "Accountant")),
    "Human Resources": ("Chief People Officer", "HR Manager", ("HR Business Partner", "Recruiter")),
    "Operations": ("Chief Operating Officer", "Operations Manager", ("Operations Analyst", "Project Manager")),
    "Customer Support": ("VP of Customer Support", "Support Manager", ("Customer Support Specialist", "Support Engineer")),
}
CEO_TITLE = "Chief Executive Officer"
MANAGERS_PER_DEPARTMENT = 6
BASE_SALARY_USD = {
    CEO_TITLE: 420000, "VP of Engineering": 290000, "VP of Product": 270000, "VP of Sales": 260000,
    "Chief Marketing Officer": 250000, "Chief Financial Officer": 280000, "Chief People Officer": 230000,
    "Chief Operating Officer": 270000, "VP of Customer Support": 210000, "Engineering Manager": 185000,
    "Product Director": 180000, "Sales Manager": 150000, "Marketing Manager": 135000, "Finance Manager": 140000,
    "HR Manager": 125000, "Operations Manager": 130000, "Support Manager": 110000, "Software Engineer": 125000,
    "Senior Software Engineer": 160000, "Data Scientist": 140000, "QA Engineer": 100000, "Product Manager": 140000,
    "Product Designer": 115000, "Account Executive": 95000, "Sales Development Representative": 65000,
    "Marketing Specialist": 75000, "Content Strategist": 78000, "Financial Analyst": 90000, "Accountant": 80000,
    "HR Business Partner": 95000, "Recruiter": 72000, "Operations Analyst": 82000, "Project Manager": 105000,
    "Customer Support Specialist": 55000, "Support Engineer": 85000,
}
TITLES = sorted(BASE_SALARY_USD)
# How people write job titles → the canonical title.
TITLE_ALIASES = {
    "swe": "Software Engineer", "software dev": "Software Engineer", "developer": "Software Engineer",
    "sr swe": "Senior Software Engineer", "senior swe": "Senior Software Engineer", "senior dev": "Senior Software Engineer",
    "em": "Engineering Manager", "eng manager": "Engineering Manager", "ds": "Data Scientist",
    "qa": "QA Engineer", "tester": "QA Engineer", "pm": "Product Manager", "ux designer": "Product Designer",
    "designer": "Product Designer", "ae": "Account Executive", "sdr": "Sales Development Representative",
    "bdr": "Sales Development Representative", "hrbp": "HR Business Partner", "talent acquisition": "Recruiter",
    "fin analyst": "Financial Analyst", "bookkeeper": "Accountant", "cpa": "Accountant",
    "ops analyst": "Operations Analyst", "csr": "Customer Support Specialist",
    "support rep": "Customer Support Specialist", "cmo": "Chief Marketing Officer", "cfo": "Chief Financial Officer",
    "coo": "Chief Operating Officer", "cpo": "Chief People Officer", "ceo": CEO_TITLE, "copywriter": "Content Strategist",
}
TITLE_SURFACE_FORMS = (
    "SWE", "Sr. SWE", "senior dev", "EM", "DS", "QA", "tester", "PM", "UX designer", "AE", "SDR", "BDR", "HRBP",
    "talent acquisition", "fin analyst", "bookkeeper", "CPA", "ops analyst", "CSR", "support rep", "CFO", "COO",
    "copywriter", "software dev", "eng manager",
)
PAY_FACTOR = {  # local pay level against US pay
    "USA": 1.0, "Canada": 0.85, "Mexico": 0.35, "Brazil": 0.35, "Argentina": 0.3, "United Kingdom": 0.85,
    "France": 0.8, "Germany": 0.85, "Spain": 0.65, "Italy": 0.65, "Netherlands": 0.85, "Switzerland": 1.2,
    "Sweden": 0.8, "Egypt": 0.2, "Kenya": 0.2, "South Africa": 0.35, "United Arab Emirates": 0.9, "India": 0.3,
    "Singapore": 0.9, "China": 0.45, "Japan": 0.75, "South Korea": 0.7, "Australia": 0.9, "New Zealand": 0.8,
}
TAX_RATES = {  # country → marginal rates on the three brackets above the tax-free band
    "USA": (0.12, 0.24, 0.35), "Canada": (0.15, 0.26, 0.33), "Mexico": (0.1, 0.2, 0.32), "Brazil": (0.075, 0.225, 0.275),
    "Argentina": (0.09, 0.23, 0.35), "United Kingdom": (0.2, 0.4, 0.45), "France": (0.11, 0.3, 0.41),
    "Germany": (0.14, 0.3, 0.42), "Spain": (0.19, 0.3, 0.45), "Italy": (0.23, 0.35, 0.43), "Netherlands": (0.37, 0.37, 0.495),
    "Switzerland": (0.08, 0.15, 0.22), "Sweden": (0.2, 0.32, 0.52), "Egypt": (0.1, 0.2, 0.25), "Kenya": (0.1, 0.25, 0.3),
    "South Africa": (0.18, 0.31, 0.41), "United Arab Emirates": (0.0, 0.0, 0.0), "India": (0.05, 0.2, 0.3),
    "Singapore": (0.035, 0.115, 0.22), "China": (0.1, 0.25, 0.45), "Japan": (0.1, 0.23, 0.4),
    "South Korea": (0.15, 0.35, 0.42), "Australia": (0.19, 0.325, 0.45), "New Zealand": (0.175, 0.3, 0.39),
}
BRACKETS_USD = (10000, 50000, 150000)  # bracket starts, scaled to local pay levels
SOCIAL_RATE = 0.07  # employee social contributions, share of gross pay
PAY_MONTHS = [f"{y}-{m:02d}" for y, m in [(2024, m) for m in range(6, 13)] + [(2025, m) for m in range(1, 6)]]
CURRENT_WEEK = NOW.date() - timedelta(days=NOW.weekday())  # Monday of the current week
TIMESHEET_WEEKS = 26  # weeks of timesheet history kept
FIRST_WEEK = CURRENT_WEEK - timedelta(weeks=TIMESHEET_WEEKS - 1)
REVIEW_YEARS = range(2020, 2025)
LEAVE_ALLOWANCE = {"annual": (10, 25), "sick": (5, 12), "personal": (3, 6)}
DELEGATION_DAYS = 30
STREETS = ("Market Street", "King Street", "Harbour Road", "Park Avenue", "Queen Street", "Riverside Drive",
           "Station Square", "Innovation Way", "Commerce Street", "Canal Street")
ALL_NAMES = sorted(f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES)


@dataclass
class HRWorld(World):
    employees: dict[str, dict] = field(default_factory=dict)  # employee id → name, department, title, manager, city, salary
    ids: dict[str, str] = field(default_factory=dict)  # full name → employee id
    heads: dict[str, str] = field(default_factory=dict)  # department → employee id of its head
    offices: dict[str, str] = field(default_factory=dict)  # city → office street address
    openings: dict[str, dict] = field(default_factory=dict)  # opening id → title, department, city, closing date
    salt: str = ""

    def figure(self, *key: object) -> float:
        """A reproducible number in [0, 1) for a (table, key...) cell of this world."""
        return random.Random(":".join(map(str, (self.salt, *key)))).random()


def _email(name: str) -> str:
    first, last = name.lower().split()
    return f"{first}.{last}@northwind.example"


@toolbox.world
def build_world(rng: random.Random) -> HRWorld:
    order = ALL_NAMES[:]
    rng.shuffle(order)
    ids = {name: f"E-{1001 + i}" for i, name in enumerate(ALL_NAMES)}
    employees: dict[str, dict] = {}

    def add(name: str, department: str, title: str, manager: str | None, hired: date) -> str:
        city = rng.choice(CITIES)
        country = city.country
        local = BASE_SALARY_USD[title] * PAY_FACTOR[country] * rng.uniform(0.9, 1.1)
        currency = COUNTRY_BY_NAME[country].currency
        employees[ids[name]] = {
            "name": name, "department": department, "title": title, "manager": manager, "city": city.name,
            "country": country, "hire_date": hired.isoformat(), "currency": currency,
            "salary": float(round(local * CURRENCY_BY_CODE[currency].per_usd, -2)),
            "leave": {kind: rng.randint(lo, hi) for kind, (lo, hi) in LEAVE_ALLOWANCE.items()},
        }
        return ids[name]

    def hire_date(earliest: int) -> date:
        return date(earliest, 1, 1) + timedelta(days=rng.randint(0, (date(2025, 3, 1) - date(earliest, 1, 1)).days))

    names = iter(order)
    ceo = add(next(names), "Executive", CEO_TITLE, None, date(2012, 3, 1))
    heads, managers = {"Executive": ceo}, {}
    for department, (head_title, manager_title, _) in DEPARTMENTS.items():
        heads[department] = add(next(names), department, head_title, ceo, hire_date(2012))
        managers[department] = [add(next(names), department, manager_title, heads[department], hire_date(2013))
                                for _ in range(MANAGERS_PER_DEPARTMENT)]
    for name in names:
        department = rng.choice(sorted(DEPARTMENTS))
        title = rng.choice(DEPARTMENTS[department][2])
        # most staff were hired before the payroll history starts; a few are recent hires
        hired = hire_date(2014) if rng.random() < 0.93 else date(2024, 6, 1) + timedelta(days=rng.randint(0, 270))
        add(name, department, title, rng.choice(managers[department]), hired)

    offices = {c.name: f"{rng.randint(1, 250)} {rng.choice(STREETS)}, {c.name}" for c in CITIES}
    openings = {}
    for i in range(48):
        department = rng.choice(sorted(DEPARTMENTS))
        openings[f"JOB-{4001 + i}"] = {
            "title": rng.choice(DEPARTMENTS[department][2] + (DEPARTMENTS[department][1],)),
            "department": department,
            "city": rng.choice(CITIES).name,
            "closing": (NOW.date() + timedelta(days=rng.randint(7, 75))).isoformat(),
        }
    built = HRWorld(employees=employees, ids=ids, heads=heads, offices=offices, openings=openings,
                    salt=str(rng.random()))
    requests = {}
    staff = sorted(e for e, row in employees.items() if row["manager"])
    for i in range(5):  # leave requests already waiting for approval
        employee_id = rng.choice(staff)
        requests[f"LR-{3001 + i}"] = {
            "employee_id": employee_id, "type": "annual", "days": rng.randint(1, 3), "status": "pending",
            "start": (NOW.date() + timedelta(days=rng.randint(5, 60))).isoformat(),
        }
    # The delegation runs out in a few days, so turning it on again renews it.
    until = (NOW.date() + timedelta(days=5)).isoformat()
    built.state = {"timesheets_submitted": True, "approval_delegation": True, "delegation_until": until,
                   "leave_requests": requests}
    return built


# --- helpers -----------------------------------------------------------------------------


def _w() -> HRWorld:
    return world(HRWorld)


def _employee(employee_id: str) -> dict:
    w = _w()
    require(employee_id in w.employees,
            f"unknown employee id {employee_id!r}; look the employee up by full name to get an id like 'E-1001'")
    return w.employees[employee_id]


def _country(country: str) -> str:
    country = country_named(country) or country  # "the United States" is the USA
    require(country in TAX_RATES, f"no payroll rules for {country!r}; supported countries: {', '.join(sorted(TAX_RATES))}")
    return country


def _currency(code: str) -> str:
    require(code in CURRENCY_BY_CODE,
            f"unsupported currency {code!r}; use an ISO 4217 code among {', '.join(sorted(CURRENCY_BY_CODE))}")
    return code


def _title(title: str) -> str:
    require(title in BASE_SALARY_USD,
            f"unknown job title {title!r}; normalise the title first (canonical titles look like 'Software Engineer')")
    return title


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


def _scale(country: str) -> float:
    """Local currency units per US dollar of pay in a country."""
    return PAY_FACTOR[country] * CURRENCY_BY_CODE[COUNTRY_BY_NAME[country].currency].per_usd


def _income_tax(country: str, income: float) -> float:
    starts = [b * _scale(country) for b in BRACKETS_USD]
    tax = 0.0
    for k, rate in enumerate(TAX_RATES[country]):
        upper = starts[k + 1] if k + 1 < len(starts) else float("inf")
        if income > starts[k]:
            tax += (min(income, upper) - starts[k]) * rate
    return round(tax, 2)


def _leave_used(w: HRWorld, employee_id: str, kind: str) -> int:
    return sum(r["days"] for r in w.state.get("leave_requests", {}).values()
               if r["employee_id"] == employee_id and r["type"] == kind and r["status"] in ("pending", "approved"))


# --- value generators ----------------------------------------------------------------------


def _settled_staff(w: HRWorld) -> list[str]:
    """Employees with a manager, and payslips and reviews for every cycle on file: the people
    requests are about (the chief executive has no manager; a recent hire has no old payslips)."""
    return [e for e, row in sorted(w.employees.items())[3::7] if row["manager"] and row["hire_date"] < "2021-01-01"]


@toolbox.values_for("person_name/employee")
def _names(w: HRWorld) -> list[str]:
    return [w.employees[e]["name"] for e in _settled_staff(w)]


@toolbox.values_for("employee_id")
def _employee_ids(w: HRWorld) -> list[str]:
    return _settled_staff(w)


@toolbox.values_for("company_department")
def _departments(w: HRWorld) -> list[str]:
    return sorted(DEPARTMENTS)


@toolbox.values_for("job_title")
def _titles(w: HRWorld) -> list[str]:
    return [t for t in TITLES if t != CEO_TITLE]


@toolbox.values_for("job_title_text")
def _title_texts(w: HRWorld) -> list[str]:
    return list(TITLE_SURFACE_FORMS)


@toolbox.values_for("country")
def _countries(w: HRWorld) -> list[str]:
    return [c.name for c in COUNTRIES]


@toolbox.values_for("currency_code")
def _currencies(w: HRWorld) -> list[str]:
    return sorted(CURRENCY_BY_CODE)


@toolbox.values_for("currency_code/currency")
def _target_currencies(w: HRWorld) -> list[str]:
    """Currencies people compare pay in: the majors more often, every currency sometimes."""
    return ["USD", "EUR", "GBP", "USD", "EUR", "GBP", "JPY", "CHF", *sorted(CURRENCY_BY_CODE)]


def _yearly_pay(country: str) -> list[float]:
    """Annual incomes people earn in a country, in its currency, as round figures."""
    return [float(round(usd * _scale(country), -3)) for usd in (45000, 80000, 130000)]


@toolbox.values_for("money_amount", "country")
def _incomes(w: HRWorld) -> list[tuple[float, str]]:
    return [(amount, c.name) for c in COUNTRIES for amount in _yearly_pay(c.name)]


@toolbox.values_for("money_amount", "currency_code")
def _pay(w: HRWorld) -> list[tuple[float, str]]:
    return [(amount, c.currency) for c in COUNTRIES for amount in _yearly_pay(c.name)]


@toolbox.values_for("money_amount")
def _amounts(w: HRWorld) -> list[float]:
    return sorted({amount for amount, _ in _incomes(w)})


@toolbox.values_for("pay_month")
def _months(w: HRWorld) -> list[str]:
    return list(PAY_MONTHS)


@toolbox.values_for("date")
def _dates(w: HRWorld) -> list[str]:
    """Leave starts: the last few days (sick leave is reported after the fact) and the next months."""
    return [(NOW.date() + timedelta(days=k)).isoformat() for k in (-6, -3, -2, -1, *range(3, 90, 4))]


@toolbox.values_for("timesheet_week")
def _weeks(w: HRWorld) -> list[str]:
    # a day in the week, Monday to Friday: "the week of March 23", a Sunday, reads as the week it starts
    days = [CURRENT_WEEK - timedelta(days=k) for k in range(3, 84, 5)]
    return [d.isoformat() for d in days if d.weekday() < 5]


@toolbox.values_for("leave_days")
def _leave_days(w: HRWorld) -> list[int]:
    return [1, 2, 3]


@toolbox.values_for("leave_request_id")
def _requests(w: HRWorld) -> list[str]:
    return sorted(r for r, row in w.state.get("leave_requests", {}).items() if row["status"] == "pending")


@toolbox.values_for("job_opening_id")
def _openings(w: HRWorld) -> list[str]:
    return sorted(w.openings)


@toolbox.values_for("job_search_terms")
def _search_terms(w: HRWorld) -> list[str]:
    terms = [f"{row['title'].split()[-1].lower()} {row['city'].lower()}" for _, row in sorted(w.openings.items())]
    return sorted(set(terms))


@toolbox.values_for("review_year")
def _years(w: HRWorld) -> list[int]:
    return list(REVIEW_YEARS)[1:]


# Nothing is bridged in: nobody asks for the salary of the organiser of their meeting, and a
# currency found by the finance tools would only invite converting the same sum twice, at the
# market rate and at the payroll rate.
toolbox.written_as("country", country_phrase)
toolbox.written_as("employee_id", "employee {}")
toolbox.written_as("company_department", "the {} department")  # its noun: "that department", not "that company"
toolbox.written_as("leave_request_id", "leave request {}")
toolbox.written_as("job_opening_id", "opening {}")


@toolbox.facts_about("employee_id")
def _employee_facts(w: HRWorld, employee_id: str) -> dict:
    row = w.employees[employee_id]
    return {"person_name": row["name"], "country": row["country"], "city": row["city"],
            "company_department": row["department"], "job_title": row["title"]}


@toolbox.facts_about("leave_request_id")
def _request_facts(w: HRWorld, request_id: str) -> dict:
    employee_id = w.state["leave_requests"][request_id]["employee_id"]
    return {"employee_id": employee_id, "person_name": w.employees[employee_id]["name"]}


@toolbox.facts_about("job_opening_id")
def _opening_facts(w: HRWorld, opening_id: str) -> dict:
    row = w.openings[opening_id]
    return {"city": row["city"], "country": CITY_BY_NAME[row["city"]].country}


# --- tools ---------------------------------------------------------------------------------


@toolbox.tool(
    asks=(
        "what's the employee id of {full_name}?",
        "find {full_name} in the company directory and give me their employee id",
        "look up the employee number of {full_name}",
        "which staff ID does {full_name} have?",
        "pull up the directory entry for {full_name} and tell me the employee id",
        "I'm filling in a form about {full_name} and need their employee number. What is it?",
        "get me the personnel number of {full_name}",
        "what ID is {full_name} listed under in the staff directory?",
        "search the directory for {full_name}. I need the employee id.",
        "security is printing a badge for {full_name} and wants the employee number. Which one is it?",
        "which personnel ID belongs to {full_name}?",
        "payroll needs the employee ID of {full_name} for a form. Which one is registered to them?",
        "confirm the staff number HR has on record for {full_name}",
    ),
    gives={"employee_id": "{full_name}"},  # people name a colleague; the id is the agent's part
)
def find_employee_id(full_name: PersonName) -> EmployeeId:
    """Look up an employee's id in the company directory from their full name.

    Args:
        full_name: The employee's first and last name, e.g. "Jane Doe".

    Returns:
        employee_id: the employee's id (like "E-1001").
    """
    w = _w()
    key = " ".join(part.capitalize() for part in full_name.split())
    require(key in w.ids, f"no employee named {full_name!r}; give the first and last name as in the directory")
    return w.ids[key]


@toolbox.tool(
    asks=(
        "which department is {employee_id} in, what's their job title, who's their manager and when were they hired?",
        "get the department, job title, manager and hire date on file for {employee_id}",
        "tell me the department, title, manager and start date of {employee_id}",
        "what does {employee_id} do here? I need the title, the department, the manager and the hire date.",
        "pull up the HR profile of {employee_id} with department, role, line manager and date of joining",
        "for {employee_id}: which department and title, since when, and who is their manager?",
        "I'm preparing an org chart. Where does {employee_id} sit: department, job title, manager and hire date?",
        "look up the employment details of {employee_id}, including department, position, manager and the date they joined",
        "when did {employee_id} join, and what are their department, title and manager?",
        "what's the department, job title, manager and hire date of {employee_id}?",
        "tell me where {employee_id} sits in the company: department, title, manager and start date",
        "look up {employee_id} in the HR records: department, job title, who they report to and when they were hired",
        "find the role, department, manager and hire date of {employee_id}",
        "since when has {employee_id} been with us, and what are their department, title and manager?",
        "give me the department, position, manager and joining date for {employee_id}",
    ),
    gives={
        "department": (
            "the department of {employee_id}",
            "the department {employee_id} works in",
            "the department {employee_id} belongs to",
            "the part of the company {employee_id} works in",
            "the business unit of {employee_id}",
            "the department where {employee_id} works",
            "the department that employs {employee_id}",
            "the home department of {employee_id}",
        ),
        "job_title": (
            "the job title of {employee_id}",
            "the position {employee_id} holds",
            "the role of {employee_id}",
            "the current job title of {employee_id}",
        ),
        "manager_name": (
            "the manager of {employee_id}",
            "the person {employee_id} reports to",
            "the line manager of {employee_id}",
            "the direct supervisor of {employee_id}",
            "the boss of {employee_id}",
        ),
    },
)
def get_employee_profile(employee_id: EmployeeId) -> tuple[Department, JobTitle, PersonName, str]:
    """Get an employee's department, job title, manager and hire date.

    Args:
        employee_id: The employee's id, e.g. "E-1001".

    Returns:
        department: the employee's department.
        job_title: the employee's job title.
        manager_name: the employee's manager (full name; "Board of Directors" for the chief executive).
        hire_date: the employee's hire date (YYYY-MM-DD).
    """
    w = _w()
    row = _employee(employee_id)
    manager = w.employees[row["manager"]]["name"] if row["manager"] else "Board of Directors"
    return row["department"], row["title"], manager, row["hire_date"]


@toolbox.tool(
    asks=(
        "which office does {employee_id} work from? Give me the city, country and address.",
        "find the office city, country and street address of {employee_id}",
        "where is the office of {employee_id}: city, country and address?",
        "where is {employee_id} based? I need the full office address with city and country.",
        "what's the work address of {employee_id}, and which city and country is that in?",
        "look up the office location of {employee_id}, including the street address, city and country",
        "I'm sending a package to {employee_id} at work. What's the office address, and in which city and country?",
        "in which city and country does {employee_id} work, and at what address?",
        "get me the street address, city and country of the workplace of {employee_id}",
        "IT is shipping a new laptop to {employee_id}. Which office address should it go to, in what city and country?",
        "confirm where {employee_id} is stationed: street address, city and country of the office",
        "I'm arranging a visitor pass. What office does {employee_id} work out of? Street address, city and country, please.",
        "for the relocation file, I need the office street address, city and country of {employee_id}.",
        "what's the office address of {employee_id}, with the city and country?",
        "tell me which city, country and street address {employee_id} works at",
        "where does {employee_id} go to work? Give me the office address, city and country.",
        "look up the workplace of {employee_id}: address, city and country",
    ),
    gives={
        "office_city": (
            "the city where {employee_id} works",
            "the office city of {employee_id}",
            "the city {employee_id} works in",
            "the city {employee_id} is based in",
        ),
        "office_country": (
            "the country where {employee_id} works",
            "the country {employee_id} works in",
            "the office country of {employee_id}",
            "the country {employee_id} is based in",
            "the country where {employee_id} is stationed",
            "the country hosting the office of {employee_id}",
            "the office country on file for {employee_id}",
        ),
        "office_address": (
            "the office address of {employee_id}",
            "the street address of the office {employee_id} works from",
            "the address where {employee_id} works",
        ),
    },
)
def get_employee_office(employee_id: EmployeeId) -> tuple[City, Country, Address]:
    """Get the city, country and street address of the office an employee works from.

    Args:
        employee_id: The employee's id, e.g. "E-1001".

    Returns:
        office_city: the employee's office city.
        office_country: the employee's office country.
        office_address: the office's street address.
    """
    row = _employee(employee_id)
    return row["city"], row["country"], _w().offices[row["city"]]


@toolbox.tool(
    asks=(
        "who heads {department}, and what's their email?",
        "find the head of {department} and their work email",
        "I need to write to whoever runs {department}. Who is it, and what's their email address?",
        "who is in charge of {department}? Give me their name and email.",
        "look up the department head of {department}, with the email address",
        "give me the name and work email of the leader of {department}",
        "who leads {department}, and how do I email them?",
        "get the name and email of the top person in {department}",
        "which executive is responsible for {department}, and what's their email?",
        "an escalation has to go to the head of {department}. Who is that, and at what email address?",
        "name the executive over {department} and the address to email them at",
        "I'm sending the quarterly headcount report to the most senior person in {department}. Whom should I address it to, and at which email?",
        "identify who runs {department} and how to reach them by email",
    ),
    gives={
        "head_name": (
            "the head of {department}",
            "the person who runs {department}",
            "the leader of {department}",
            "the executive in charge of {department}",
        ),
    },
)
def get_department_head(department: Department) -> tuple[PersonName, Email]:
    """Find the head of a department and their work email.

    Args:
        department: Department name, e.g. "Engineering" or "Customer Support".

    Returns:
        head_name: the department head (full name).
        head_email: the department head's work email.
    """
    w = _w()
    require(department in w.heads, f"unknown department {department!r}; departments: {', '.join(sorted(w.heads))}")
    name = w.employees[w.heads[department]]["name"]
    return name, _email(name)


@toolbox.tool(
    asks=(
        "who are the teammates of {employee_id}?",
        "list the colleagues who share a manager with {employee_id}",
        "which people are on the same team as {employee_id}?",
        "who else reports to the same manager as {employee_id}?",
        "name everyone working alongside {employee_id} under the same manager",
        "I'm planning a team lunch with {employee_id}. Who else is on their team?",
        "give me the list of people who share a manager with {employee_id}",
        "who are the coworkers of {employee_id} under the same manager?",
        "show the peers of {employee_id}",
        "name the people who sit under the same line manager as {employee_id}",
        "{employee_id} is going on parental leave, and I want to brief the rest of the team. Who are they?",
        "for the offsite invite list, which coworkers report to the same boss as {employee_id}?",
        "list everybody who works under the same manager as {employee_id}",
        "who are the peers of {employee_id} under the same manager?",
        "list the teammates of {employee_id}",
        "which colleagues share a manager with {employee_id}?",
        "tell me who else reports to the manager of {employee_id}",
        "who reports to the manager of {employee_id} besides them?",
        "find the colleagues who report to the same manager as {employee_id}",
    ),
)
def list_team_members(employee_id: EmployeeId) -> list[PersonName]:
    """List the colleagues who share an employee's manager.

    Args:
        employee_id: The employee's id, e.g. "E-1001".

    Returns:
        teammates: the employee's teammates (full names, alphabetical).
    """
    w = _w()
    manager = _employee(employee_id)["manager"]
    return sorted(row["name"] for e, row in w.employees.items() if row["manager"] == manager and manager and e != employee_id)


SALARY_NAMES = (
    "the annual base salary of {employee_id}",
    "the yearly base pay of {employee_id}",
    "the gross yearly salary of {employee_id}",
    "the annual pay of {employee_id} before tax",
    "the yearly salary of {employee_id}",
    "the base annual compensation of {employee_id}",
    "the yearly salary drawn by {employee_id}",
    "the base pay of {employee_id} per year",
    "the salary {employee_id} is paid each year",
    "the annual base pay {employee_id} receives",
    "the base salary on record for {employee_id}",
)


@toolbox.tool(
    asks=(
        "what is the annual base salary of {employee_id}, in which currency, and in which country are they paid?",
        "get the yearly base pay of {employee_id} with its currency and country of employment",
        "how much does {employee_id} earn a year before tax, in what currency and in which country?",
        "what's the base salary of {employee_id}? Include the currency and the country they're employed in.",
        "look up the annual salary of {employee_id}, with its currency and the country of employment",
        "I'm reviewing compensation for {employee_id}. What's their yearly base pay, in which currency, and where are they taxed?",
        "what does {employee_id} make per year, and in what currency and country is that paid?",
        "pull the annual base pay of {employee_id}, plus the pay currency and the country of employment",
        "tell me the gross yearly salary of {employee_id}, the currency and the payroll country",
        "we're benchmarking pay. What is the annual base salary of {employee_id}, the currency it's paid in and the country of employment?",
        "{employee_id} asked for a letter for the mortgage lender. Confirm the yearly base salary, its currency and the country of employment.",
        "what base pay does {employee_id} draw per year, in which currency, and which country's payroll is it on?",
    ),
    # the salary with its currency (for a conversion) or with its tax country (for the tax)
    gives={"salary, currency": SALARY_NAMES, "salary, country": SALARY_NAMES},
)
def get_annual_salary(employee_id: EmployeeId) -> tuple[Salary, CurrencyCode, TaxCountry]:
    """Get an employee's annual base salary in the currency they are paid in.

    Args:
        employee_id: The employee's id, e.g. "E-1001".

    Returns:
        salary: the employee's annual base salary (in the pay currency).
        currency: the employee's pay currency.
        country: the country the employee is employed and taxed in.
    """
    row = _employee(employee_id)
    return row["salary"], row["currency"], row["country"]


@toolbox.tool(
    asks=(
        "what were the gross pay, income tax and net pay of {employee_id} for {month}?",
        "get the gross pay, tax withheld and net pay on the {month} payslip of {employee_id}",
        "how much did {employee_id} take home in {month}, after how much tax, from what gross pay?",
        "pull up the payslip of {employee_id} for {month} and give me gross, tax and net",
        "I'm checking the payroll run for {month}. What did {employee_id} earn gross, how much tax was withheld, and what was the net?",
        "break down the pay of {employee_id} in {month} into gross amount, income tax and net amount",
        "what was the net pay of {employee_id} in {month}, and what were the gross and the tax deducted?",
        "show me the gross, withholding and net on the salary slip of {employee_id} for {month}",
        "for {month}, what was the gross pay of {employee_id}, how much tax came off it, and what was paid out net?",
        "what did {employee_id} get paid for {month}: gross, tax and net?",
        "look at the {month} payslip of {employee_id} and tell me the gross pay, the income tax and the net pay",
        "how much was {employee_id} paid in {month} before and after tax, and how much tax came off?",
        "give me the gross, the tax deducted and the take-home pay of {employee_id} for {month}",
        "find the payslip of {employee_id} for {month} and read me the gross, tax and net amounts",
        "what was on the {month} payslip of {employee_id}? I need gross pay, income tax and net pay.",
        "tell me the net pay of {employee_id} for {month}, along with the gross and the tax withheld",
    ),
)
def get_payslip(employee_id: EmployeeId, month: Month) -> tuple[float, float, float]:
    """Get an employee's gross pay, income tax withheld and net pay for a payroll month.

    Args:
        employee_id: The employee's id, e.g. "E-1001".
        month: Payroll month in YYYY-MM, between 2024-06 and 2025-05.

    Returns:
        gross_pay: the month's gross pay (in the pay currency).
        income_tax: the income tax withheld that month.
        net_pay: the month's net pay after tax and social contributions.
    """
    row = _employee(employee_id)
    require(bool(re.fullmatch(r"\d{4}-\d{2}", month)), f"month {month!r} is not in YYYY-MM format")
    require(month <= PAY_MONTHS[-1], f"payroll for {month} has not run yet; the latest payroll month is {PAY_MONTHS[-1]}")
    require(month >= PAY_MONTHS[0], f"payslips are kept from {PAY_MONTHS[0]} on")
    require(month >= row["hire_date"][:7], f"{employee_id} was hired on {row['hire_date']}: no payslip for {month}")
    gross = round(row["salary"] / 12, 2)
    tax = round(_income_tax(row["country"], row["salary"]) / 12, 2)
    return gross, tax, round(gross - tax - gross * SOCIAL_RATE, 2)


@toolbox.tool(
    asks=(
        "how much yearly income tax is due on {income}, and at what effective rate?",
        "work out the annual income tax and effective tax rate on {income}",
        "calculate the income tax on {income} and the effective rate that works out to",
        "what's the tax bill for a year on {income}? Give me the effective rate as well.",
        "estimate the income tax owed on {income}, and the share of the income it takes",
        "how much income tax would be owed each year on {income}, and what's the effective rate?",
        "quick tax question: how much is due per year on {income}, and what effective rate is that?",
        "compute the yearly tax on {income} together with the effective rate",
        "what effective tax rate applies to {income}, and how much tax is that per year?",
        "what income tax is due each year on {income}, and what's the effective rate?",
        "figure out the yearly tax on {income} and the effective rate",
        "how much of {income} goes in income tax, and at what effective rate?",
        "tell me the annual income tax and the effective rate for {income}",
        "what income tax would be owed on {income}, and what effective rate is that?",
        "how much tax is owed each year on {income}, and what's the effective rate?",
        "give me the yearly income tax due on {income} and the effective rate",
        "what tax bill does {income} carry, and at what effective rate?",
        "compute the income tax on {income} and tell me the effective rate",
    ),
    groups={"income": "an income of {annual_income} a year in {country}"},  # the income is in that country's currency
)
def calculate_income_tax(country: TaxCountry, annual_income: Salary) -> tuple[float, float]:
    """Calculate the yearly income tax due on an annual income under a country's brackets.

    Args:
        country: Country whose tax rules apply, e.g. "Germany".
        annual_income: Annual taxable income in that country's currency.

    Returns:
        income_tax: the yearly income tax due (in the country's currency).
        effective_rate: the effective tax rate (percent of income).
    """
    country = _country(country)
    require(annual_income >= 0, "annual_income must not be negative")
    tax = _income_tax(country, annual_income)
    return tax, round(100 * tax / annual_income, 2) if annual_income else 0.0


@toolbox.tool(
    asks=(
        "convert {pay} into {to_currency}",
        "what does {pay} come to in {to_currency}?",
        "what is {pay} worth in {to_currency}?",
        "express {pay} in {to_currency} at today's exchange rate",
        "how much is {pay} in {to_currency}?",
        "I want to compare pay across countries. What's {pay} when converted into {to_currency}?",
        "convert {pay} into {to_currency} the way payroll would",
        "at today's exchange rate, how many {to_currency} is {pay}?",
        "a candidate abroad is comparing offers. What is {pay} in {to_currency}?",
        "for the relocation package, please convert {pay} into {to_currency}.",
        "what figure in {to_currency} does payroll put on {pay}?",
        "how much is {pay} once converted into {to_currency}?",
        "give me {pay} in {to_currency}, converted at today's rate",
        "turn {pay} into {to_currency} at the exchange rate payroll uses",
    ),
    groups={"pay": "{amount} {from_currency}"},  # an amount never travels without its currency
    sense=(distinct("from_currency", "to_currency"),),
)
def convert_salary_currency(amount: Salary, from_currency: CurrencyCode, to_currency: NamedCurrency) -> float:
    """Convert a pay amount between currencies at the payroll exchange rates.

    Args:
        amount: Amount to convert.
        from_currency: ISO 4217 code of the amount's currency, e.g. "EUR".
        to_currency: ISO 4217 code to convert into, e.g. "USD".

    Returns:
        converted: the converted amount (rounded to cents).
    """
    return round(amount * exchange_rate(_currency(from_currency), _currency(to_currency)), 2)


@toolbox.tool(
    asks=(
        "how many days of {leave_type} leave does {employee_id} have left?",
        "check the {leave_type} leave balance of {employee_id}",
        "how much {leave_type} leave can {employee_id} still take this year?",
        "what's left of the {leave_type} leave allowance of {employee_id}?",
        "does {employee_id} have any {leave_type} leave remaining? How many days?",
        "look up the remaining {leave_type} leave days of {employee_id}",
        "{employee_id} wants to take some time off. How many {leave_type} leave days are still available?",
        "give me the current {leave_type} leave balance on file for {employee_id}",
        "how many days of {leave_type} leave has {employee_id} got left for the year?",
        "before I approve more time off: how many days of {leave_type} leave does {employee_id} still have available?",
        "{employee_id} asked how much {leave_type} leave is left. How many days remain?",
        "count the unused {leave_type} leave days of {employee_id} for this year",
        "what {leave_type} leave entitlement remains for {employee_id}, in days?",
    ),
)
def get_leave_balance(employee_id: EmployeeId, leave_type: LeaveType) -> int:
    """Get the days of a leave type an employee still has this year (pending requests deducted).

    Args:
        employee_id: The employee's id, e.g. "E-1001".
        leave_type: Kind of leave: annual, sick or personal.

    Returns:
        days_left: the days of that leave still available.
    """
    w = _w()
    row = _employee(employee_id)
    return row["leave"][leave_type] - _leave_used(w, employee_id, leave_type)


@toolbox.tool(
    asks=(
        "book {days} day(s) of {leave_type} leave for {employee_id} starting {start_date}; what's the request id and how much of that leave is left?",
        "file a request for {days} day(s) of {leave_type} leave for {employee_id} from {start_date}, and tell me the request id and the days left",
        "{employee_id} needs {days} day(s) of {leave_type} leave from {start_date}. Put in the request and tell me the request id and remaining balance.",
        "submit a leave request for {employee_id}, {days} day(s) of {leave_type} leave beginning {start_date}. What's the request number, and how many days remain?",
        "put {employee_id} down for {days} day(s) of {leave_type} leave from {start_date} and let me know the request id and the balance afterwards",
        "log {days} day(s) of {leave_type} leave for {employee_id}, first day {start_date}, and give me the request reference and the days remaining",
        "request {leave_type} leave for {employee_id}: {days} day(s) starting {start_date}. Which request id did it get, and what's left of the allowance?",
        "can you enter {days} day(s) of {leave_type} leave for {employee_id} beginning {start_date}? Tell me the request id and the remaining days.",
        "record {days} day(s) of {leave_type} leave for {employee_id} from {start_date}; what request id comes back, and how many days are left?",
        "raise a leave request for {employee_id}: {days} day(s) of {leave_type} leave from {start_date}. Quote back the request reference and the balance that remains.",
        "mark {employee_id} down for {days} day(s) of {leave_type} leave from {start_date}; I'll need the request number and what's left of that allowance afterwards.",
        "key in {days} day(s) of {leave_type} leave for {employee_id}, effective {start_date}, and report the request number and the remaining balance",
    ),
    sense=(within("days", 1, 10), around("start_date", before=14, after=120),
           sensible("leave starts on a working day", ("start_date",),
                    lambda a: date.fromisoformat(str(a["start_date"])[:10]).weekday() < 5),
           sensible("sick leave is taken, not planned", ("leave_type", "start_date"),
                    lambda a: (a["leave_type"] == "sick") == (str(a["start_date"]) <= NOW.date().isoformat()))),
    requires=("timesheets_submitted",),
    tags=("state_change",),
)
def request_leave(employee_id: EmployeeId, leave_type: LeaveType, start_date: Day,
                  days: Annotated[int, Kind("leave_days")]) -> tuple[str, int]:
    """File a leave request for an employee; it waits for the manager's approval.

    Args:
        employee_id: The employee's id, e.g. "E-1001".
        leave_type: Kind of leave: annual, sick or personal.
        start_date: First day of leave in YYYY-MM-DD (today or later; sick leave may start up to 30 days back).
        days: Number of leave days (1-30).

    Returns:
        request_id: the new leave request (its id, like "LR-3006").
        days_left: the days of that leave left after this request.
    """
    w = _w()
    row = _employee(employee_id)
    start = _day(start_date)
    require(1 <= days <= 30, "days must be between 1 and 30")
    earliest = NOW.date() - timedelta(days=30 if leave_type == "sick" else 0)
    require(start >= earliest, f"leave cannot start on {start_date}: the earliest start is {earliest}")
    require(start <= NOW.date() + timedelta(days=365), "leave can be requested at most a year ahead")
    require(w.state.get("timesheets_submitted", False),
            "this week's timesheets are still open, which blocks new leave requests: submit the timesheets for the week of "
            f"{CURRENT_WEEK} first")
    left = row["leave"][leave_type] - _leave_used(w, employee_id, leave_type)
    require(days <= left, f"{employee_id} has only {left} days of {leave_type} leave left")
    requests = w.state.setdefault("leave_requests", {})
    request_id = f"LR-{3001 + len(requests)}"
    requests[request_id] = {"employee_id": employee_id, "type": leave_type, "days": days, "status": "pending", "start": start_date}
    return request_id, left - days


@toolbox.tool(
    asks=(
        "approve {request_id} and tell me whose leave it is and when it ends",
        "sign off {request_id} on the manager's behalf; whose leave is it, and what's the last day?",
        "please approve {request_id}. Who is off, and until when?",
        "give {request_id} the green light, and let me know who it's for and the final day of leave",
        "accept {request_id} and tell me the employee's name and the last day they're away",
        "I'm covering approvals today. Approve {request_id} and tell me who it belongs to and what their last day off is.",
        "mark {request_id} as approved; who requested it, and on what date does the leave end?",
        "can you approve {request_id}? I'd like to know who filed it and when the leave finishes.",
    ),
    gives={
        "approved_for": (
            "the person on {request_id}",
            "the employee who filed {request_id}",
            "the colleague behind {request_id}",
            "the person who put in {request_id}",
        ),
    },
    requires=("approval_delegation",),
    tags=("state_change",),
)
def approve_leave_request(request_id: RequestId) -> tuple[PersonName, str]:
    """Approve a pending leave request on behalf of the employee's manager.

    Args:
        request_id: The leave request id, e.g. "LR-3001".

    Returns:
        approved_for: the employee whose leave was approved (full name).
        last_day: the last day of the approved leave (YYYY-MM-DD).
    """
    w = _w()
    requests = w.state.get("leave_requests", {})
    require(request_id in requests, f"unknown leave request {request_id!r}; request ids look like 'LR-3001'")
    row = requests[request_id]
    require(row["status"] == "pending", f"leave request {request_id} is already {row['status']}")
    require(w.state.get("approval_delegation", False),
            "you have no approval rights: enable the manager's approval delegation first")
    row["status"] = "approved"
    last = _day(row["start"]) + timedelta(days=row["days"] - 1)
    return w.employees[row["employee_id"]]["name"], last.isoformat()


@toolbox.tool(
    asks=(
        "how many hours did {employee_id} log in the week of {week_of}, and how much of it was overtime?",
        "get the timesheet hours and overtime of {employee_id} for the week of {week_of}",
        "check the timesheet of {employee_id} for the week of {week_of} and tell me the total hours and overtime",
        "what did {employee_id} clock in the week of {week_of}? I need total hours and overtime hours.",
        "did {employee_id} do any overtime in the week of {week_of}? Give me the total hours too.",
        "look up the hours worked by {employee_id} during the week containing {week_of}, with overtime broken out",
        "pull the hours and overtime from the timesheet of {employee_id} for the week including {week_of}",
        "how long did {employee_id} work in the week of {week_of}, and how many of those hours were over 40?",
        "I'm checking overtime for payroll. For the week of {week_of}, what were the total and overtime hours of {employee_id}?",
        "payroll flagged {employee_id} for the week of {week_of}. How many hours were logged, and how many count as overtime?",
        "audit the timesheet of {employee_id} covering the week of {week_of}: total hours logged and anything past 40",
        "to approve an overtime claim from {employee_id}, I have to confirm the hours booked in the week of {week_of} and how many were overtime. What are they?",
        "sum up the hours {employee_id} recorded in the week of {week_of}, with overtime shown separately",
        "what hours did {employee_id} put in during the week of {week_of}, and how many were overtime?",
        "tell me the total and overtime hours {employee_id} logged in the week of {week_of}",
        "give me the hours and overtime on the timesheet of {employee_id} for the week of {week_of}",
        "find the logged hours of {employee_id} in the week of {week_of}, with the overtime",
    ),
    sense=(around("week_of", before=180, after=0),),
)
def get_timesheet_hours(employee_id: EmployeeId, week_of: Week) -> tuple[float, float]:
    """Get the hours an employee logged in the timesheet week containing a date.

    Args:
        employee_id: The employee's id, e.g. "E-1001".
        week_of: Any date in YYYY-MM-DD within the week; the last 26 weeks are kept.

    Returns:
        hours: the hours logged that week.
        overtime_hours: the hours beyond 40 that week.
    """
    w = _w()
    row = _employee(employee_id)
    monday = _day(week_of) - timedelta(days=_day(week_of).weekday())
    require(monday <= CURRENT_WEEK, f"no timesheet yet for the week of {monday}; the current week starts {CURRENT_WEEK}")
    require(monday >= FIRST_WEEK, f"timesheets are kept from the week of {FIRST_WEEK} on")
    require(monday >= _day(row["hire_date"]) - timedelta(days=6), f"{employee_id} was hired on {row['hire_date']}")
    days_worked = NOW.weekday() if monday == CURRENT_WEEK else 5
    hours = round(days_worked * (7.0 + 3.0 * w.figure("hours", employee_id, monday)), 1)
    return hours, round(max(0.0, hours - 40.0), 1)


@toolbox.tool(
    asks=(
        "submit the open timesheets for the week of {week_start} and tell me how many went in",
        "send the timesheets of the week of {week_start} to payroll on the managers' behalf; how many were submitted?",
        "close the week of {week_start} by submitting every open timesheet, and give me the count",
        "push all open timesheets for the week of {week_start} through to payroll and tell me the number submitted",
        "how many timesheets are still open for the week of {week_start}? Submit them all and tell me the count.",
        "file every outstanding timesheet for the week of {week_start} and report how many there were",
        "wrap up the timesheets for the week of {week_start} by submitting what's open, and tell me how many",
        "please submit the timesheets still open in the week of {week_start} for the managers. How many did that cover?",
        "get the week of {week_start} closed out in payroll by submitting all open timesheets, and tell me the total",
    ),
    requires=("approval_delegation",),
    tags=("state_change",),
)
def submit_week_timesheets(week_start: OpenWeek) -> int:
    """Submit every open timesheet of a week to payroll, on behalf of the managers.

    Args:
        week_start: Any date in YYYY-MM-DD within the week to submit.

    Returns:
        submitted: the number of timesheets submitted (0 when none were open).
    """
    w = _w()
    monday = _day(week_start) - timedelta(days=_day(week_start).weekday())
    require(monday <= CURRENT_WEEK, f"the week of {monday} has not started yet")
    require(w.state.get("approval_delegation", False),
            "submitting timesheets for others needs the manager's approval delegation: enable it first")
    if monday != CURRENT_WEEK or w.state.get("timesheets_submitted", False):
        return 0  # earlier weeks are closed already
    w.state["timesheets_submitted"] = True
    return 20 + int(40 * w.figure("open-timesheets", monday))


@toolbox.tool(
    asks=(
        "turn on the manager's approval delegation for me and tell me until when it lasts",
        "activate my approval delegation; when does it expire?",
        "I need to approve leave for my manager. Switch on the delegation and tell me how long it's valid.",
        "renew my approval delegation and give me the new expiry date",
        "set up the delegation so I can approve on my manager's behalf; what's the end date?",
        "enable approval rights for me on behalf of my manager, and tell me the date they run out",
        "please give me delegated approval authority. Until what date is it good?",
        "switch my manager's approvals over to me and tell me when that delegation ends",
        "grant me the manager's approval delegation and tell me its expiry date",
    ),
    tags=("state_change",),
)
def enable_approval_delegation() -> str:
    """Activate, or renew for 30 days, the delegation that lets the user approve leave and submit timesheets for managers.

    Returns:
        valid_until: the date the delegation expires (YYYY-MM-DD).
    """
    until = (NOW.date() + timedelta(days=DELEGATION_DAYS)).isoformat()
    _w().state.update(approval_delegation=True, delegation_until=until)
    return until


@toolbox.tool(
    asks=(
        'what standard job title does "{title_text}" mean?',
        'which of our job titles is "{title_text}"?',
        "what's the official title for \"{title_text}\"?",
        "someone wrote \"{title_text}\" on a form. What's the proper job title?",
        'match "{title_text}" to one of our standard job titles',
        'what is "{title_text}" called formally in our job catalogue?',
        'which standard job title is "{title_text}" filed under?',
        'in our HR system, which standard title matches "{title_text}"?',
    ),
    gives={
        "job_title": (
            "{title_text}",
            "the {title_text} role",
            "the {title_text} position",
            "the {title_text} job",
        ),
    },  # people say "SWE"; the standard title is the agent's part
    tags=("canonicalise",),
)
def normalize_job_title(title_text: TitleText) -> JobTitle:
    """Turn an informal or abbreviated job title into the company's standard job title.

    Args:
        title_text: A job title as people write it, e.g. "SWE", "Sr. SWE" or "talent acquisition".

    Returns:
        job_title: the standard job title.
    """
    text = " ".join(re.sub(r"[^a-z ]", " ", title_text.lower()).split())
    for title in TITLES:
        if text == title.lower():
            return title
    require(text in TITLE_ALIASES, f"cannot map {title_text!r} to a standard job title; try the full title, e.g. 'Software Engineer'")
    return TITLE_ALIASES[text]


@toolbox.tool(
    asks=(
        "what's the salary band for {job_title} in {country}?",
        "get the bottom and top of the pay band for {job_title} in {country}",
        "what's the pay band for {job_title} in {country}, from bottom to top?",
        "what salary range applies to {job_title} in {country}? Give me the minimum, the maximum and the currency.",
        "look up the floor, ceiling and currency of the compensation band for {job_title} in {country}",
        "I'm drafting an offer for {job_title} in {country}. What are the band minimum and maximum, and in what currency?",
        "how low and how high can pay go for {job_title} in {country}?",
        "in {country}, what does the band for {job_title} run from and to?",
        "give me the minimum and maximum annual salary for {job_title} in {country}, with the currency",
        "a candidate asks what we can offer for {job_title} in {country}. Give me the band floor and ceiling with the currency.",
        "to benchmark a counteroffer, I want the minimum and maximum of the band for {job_title} in {country}, and its currency.",
        "give me the compensation range for {job_title} in {country}: lowest, highest and the currency it's set in",
        "is pay for {job_title} in {country} capped? Show the lower and upper limits of the band and its currency.",
    ),
    gives={
        "band_min, currency": (
            "the bottom of the salary band in {country} for {job_title}",
            "the minimum of the pay band for {job_title} in {country}",
            "the lowest salary in the band for {job_title} in {country}",
            "the floor of the pay range for {job_title} in {country}",
            "the lower limit of the band for {job_title} in {country}",
            "the starting point of the salary range for {job_title} in {country}",
        ),
        "band_max, currency": (
            "the top of the salary band in {country} for {job_title}",
            "the maximum of the pay band for {job_title} in {country}",
            "the highest salary in the band for {job_title} in {country}",
            "the ceiling of the pay range for {job_title} in {country}",
        ),
    },
    sense=(together("job_title", "country"),),  # a title and a country of the same person or opening
)
def get_salary_band(job_title: JobTitle, country: Country) -> tuple[Salary, Salary, CurrencyCode]:
    """Get the company's annual salary band for a job title in a country.

    Args:
        job_title: Standard job title, e.g. "Data Scientist".
        country: Country of employment, e.g. "Japan".

    Returns:
        band_min: the bottom of the salary band (annual, local currency).
        band_max: the top of the salary band (annual, local currency).
        currency: the salary band currency.
    """
    country = _country(country)
    base = BASE_SALARY_USD[_title(job_title)] * _scale(country)
    return float(round(base * 0.85, -2)), float(round(base * 1.2, -2)), COUNTRY_BY_NAME[country].currency


@toolbox.tool(
    asks=(
        'which positions are open for "{query}"?',
        'search the open positions for "{query}"[ and show me at most {max_results}]',
        'find the job openings matching "{query}"',
        'are we hiring for "{query}"? List the openings.',
        'look for vacancies that match "{query}"[, up to {max_results} of them]',
        'what openings come up when I search for "{query}"?',
        'list the open roles for "{query}"[, no more than {max_results}]',
        "I'm looking for a job matching \"{query}\". Which openings are there?",
        'give me the ids of job openings matching "{query}"[, the first {max_results} only]',
    ),
    tags=("search",),
)
def search_job_openings(query: Annotated[str, Kind("job_search_terms")], max_results: int = 5) -> list[OpeningId]:
    """Search open positions by words in the job title, department or city.

    Args:
        query: Words to look for, e.g. "engineer berlin"; every word must match.
        max_results: Maximum number of opening ids to return (1-20).

    Returns:
        opening_ids: the matching openings (ids in order).
    """
    w = _w()
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = [o for o, row in sorted(w.openings.items())
            if all(word in f"{row['title']} {row['department']} {row['city']}".lower() for word in words)]
    return hits[:max_results]


@toolbox.tool(
    asks=(
        "what is {opening_id}: which job, in which city and country, and when do applications close?",
        "get the job title, city, country and closing date of {opening_id}",
        "tell me the role, the city and country, and the application deadline of {opening_id}",
        "what role is {opening_id} for, where is it based (city and country), and what's the deadline?",
        "look up {opening_id} and give me the title, city, country and closing date",
        "I want to apply for {opening_id}. What's the job, in which city and country, and by when do I have to apply?",
        "which position does {opening_id} advertise, in what city and country, and until what date is it open?",
        "fetch the title, city, country and closing date of {opening_id}",
        "when does {opening_id} close, and what job is it, in which city and country?",
    ),
    gives={
        "job_title": (
            "the role advertised in {opening_id}",
            "the job title of {opening_id}",
            "the position posted as {opening_id}",
            "the title of the role in {opening_id}",
        ),
        "country": (
            "the country of {opening_id}",
            "the country where {opening_id} is based",
            "the country {opening_id} is located in",
            "the country of the job in {opening_id}",
        ),
        "city": (
            "the city of {opening_id}",
            "the city where {opening_id} is based",
            "the city {opening_id} is in",
            "the city of the job in {opening_id}",
        ),
    },
)
def get_job_opening(opening_id: OpeningId) -> tuple[JobTitle, City, Country, str]:
    """Get the job title, location and application deadline of an open position.

    Args:
        opening_id: The opening id, e.g. "JOB-4001".

    Returns:
        job_title: the opening's job title.
        city: the opening's city.
        country: the opening's country (whose salary bands apply).
        closing_date: the application deadline (YYYY-MM-DD).
    """
    w = _w()
    require(opening_id in w.openings, f"unknown job opening {opening_id!r}; search the open positions for ids")
    row = w.openings[opening_id]
    return row["title"], row["city"], CITY_BY_NAME[row["city"]].country, row["closing"]


@toolbox.tool(
    asks=(
        "what score did {employee_id} get in the {year} performance review, and who gave it?",
        "get the {year} review score of {employee_id} and the reviewer",
        "how was {employee_id} rated in {year}, and by whom?",
        "what was the performance rating of {employee_id} for {year}? Who did the review?",
        "look up the score and the reviewing manager of the {year} appraisal of {employee_id}",
        "I'm preparing a promotion case for {employee_id}. What did they score in {year}, and who reviewed them?",
        "who reviewed {employee_id} in {year}, and what score did they give?",
        "pull the {year} performance review of {employee_id} with the rating and the name of the reviewer",
        "how did {employee_id} do in the {year} review cycle? Give me the score and the reviewer.",
        "calibration prep: the {year} appraisal score of {employee_id} and the name of the manager who wrote it.",
        "what mark did {employee_id} receive in the {year} review round, and which manager signed it off?",
        "for the bonus committee I have to confirm the {year} rating of {employee_id} along with the reviewer. What are they?",
        "which manager assessed {employee_id} for {year}, and with what score?",
    ),
    gives={
        "reviewer": (
            "the manager who reviewed {employee_id} in {year}",
            "the reviewer of {employee_id} in {year}",
            "the person who wrote the {year} review of {employee_id}",
            "the manager who rated {employee_id} in the {year} cycle",
            "the manager who appraised {employee_id} in {year}",
            "the person who scored {employee_id} in the {year} review",
            "the reviewing manager of {employee_id} for {year}",
            "the manager who signed off the {year} review of {employee_id}",
        ),
    },
)
def get_performance_review(employee_id: EmployeeId, year: ReviewYear) -> tuple[float, PersonName]:
    """Get an employee's performance review score for a year and who gave it.

    Args:
        employee_id: The employee's id, e.g. "E-1001".
        year: Review year between 2020 and 2024.

    Returns:
        score: the review score (1.0 to 5.0).
        reviewer: the reviewing manager (full name).
    """
    w = _w()
    row = _employee(employee_id)
    require(year in REVIEW_YEARS, f"no review cycle for {year}; closed cycles are {REVIEW_YEARS[0]}-{REVIEW_YEARS[-1]}")
    require(int(row["hire_date"][:4]) <= year, f"{employee_id} joined on {row['hire_date']}, after the {year} cycle")
    reviewer = w.employees[row["manager"]]["name"] if row["manager"] else "Board of Directors"
    return round(1.0 + 4.0 * w.figure("review", employee_id, year), 1), reviewer


toolbox.condition(
    "timesheets_submitted",
    holds=lambda w: bool(w.state.get("timesheets_submitted")),
    broken_state={"timesheets_submitted": False},
    fix=("submit_week_timesheets", {"week_start": CURRENT_WEEK.isoformat()}),
    consent="submit",  # submitting the team's timesheets is done on the managers' behalf
    # The day stays out of the opening clause: a request that has just said the timesheets are
    # open drops that clause, and a day written "Monday, June 9, 2025" holds commas of its own.
    context=("If open timesheets have to go in first, submit the ones for the week of {week_start}.",
             "If the open timesheets are in the way, submit them for the week of {week_start}.",
             "Should open timesheets be in the way, send the ones for the week of {week_start} to payroll."),
    says=("Some of my timesheets are still open.",
          "Nobody has closed the open timesheets yet.",
          "The open timesheets haven't been submitted yet."),
)
toolbox.condition(
    "approval_delegation",
    holds=lambda w: bool(w.state.get("approval_delegation")),
    broken_state={"approval_delegation": False},
    fix=("enable_approval_delegation", {}),
    consent="submit",  # approving on a manager's behalf needs the delegation the user chose to take up
    context=("If my approval delegation is off, switch it on.",
             "Switch my manager's approval delegation back on if it's off.",
             "Turn on the delegation that lets me approve for my manager if you need to."),
    says=("My manager's approval delegation isn't active for me.",
          "I can't approve on my manager's behalf right now.",
          "The approval delegation from my manager isn't switched on for me."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# The tools speak from HR and payroll about an employee by id; who asks differs by errand: a
# manager's delegate handles the team's time off, payroll pays people, a recruiter prices a
# role. An employee's performance review and pay are not a colleague's business, so looking
# people up around the office stays apart from both, and a pay review names the employee by
# id: with the directory in it, the manager who wrote the review became the one whose salary
# was asked for. No goal crosses seeds: the seed takes no kind from another (a party guest's
# country never picks a leave policy).

toolbox.goal(
    "handle my manager's team's time off",
    wants="approve and check leave and timesheets for my manager's team, on my manager's behalf",
    role="manager's delegate",
    # (filing leave is the employee's own: a delegate who approves a request and files another
    # for the same person mixes the approver's and the requester's parts)
    tools=("find_employee_id", "get_leave_balance", "approve_leave_request", "get_timesheet_hours",
           "submit_week_timesheets", "enable_approval_delegation"),
)
toolbox.goal(
    "record an employee's leave",
    wants="check what leave an employee has left and file leave for them, their timesheets in order",
    role="HR administrator",
    tools=("find_employee_id", "get_leave_balance", "request_leave", "get_timesheet_hours", "submit_week_timesheets"),
)
toolbox.goal(
    "check an employee's pay",
    wants="check what an employee earns, was paid and owes in tax, in their currency or another",
    role="payroll administrator",
    tools=("find_employee_id", "get_annual_salary", "get_payslip", "calculate_income_tax", "convert_salary_currency",
           "get_timesheet_hours"),
)
toolbox.goal(
    "review an employee's pay against their band",
    wants="see whether an employee is paid within the band for their job where they work, ahead of a pay review",
    role="HR business partner",
    tools=("get_employee_profile", "get_employee_office", "get_annual_salary", "get_salary_band",
           "convert_salary_currency", "get_performance_review", "normalize_job_title"),
)
toolbox.goal(
    "price an open position",
    wants="find an open position and what the company pays for that job in its country, before tax and after",
    role="recruiter",
    tools=("search_job_openings", "get_job_opening", "normalize_job_title", "get_salary_band",
           "convert_salary_currency", "calculate_income_tax"),
)
toolbox.goal(
    "find who is who around a colleague",
    wants="find a colleague, their team, their manager, their department head and where they sit",
    role="employee",
    tools=("find_employee_id", "get_employee_profile", "get_department_head", "list_team_members",
           "get_employee_office"),
)
