"""Human Resources and Payroll: the employee directory, departments and managers, salaries,
payslips and income tax, leave, timesheets, job titles, openings and performance reviews."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, World, require, world
from factory.toolbox.days import day_after, iso_day
from factory.toolbox.gazetteer import (
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
from factory.toolbox.sense import around, distinct, sensible, together, within

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
            "closing": day_after(rng.randint(7, 75)),
        }
    built = HRWorld(employees=employees, ids=ids, heads=heads, offices=offices, openings=openings,
                    salt=str(rng.random()))
    requests = {}
    staff = sorted(e for e, row in employees.items() if row["manager"])
    for i in range(5):  # leave requests already waiting for approval
        employee_id = rng.choice(staff)
        requests[f"LR-{3001 + i}"] = {
            "employee_id": employee_id, "type": "annual", "days": rng.randint(1, 3), "status": "pending",
            "start": day_after(rng.randint(5, 60)),
        }
    # The delegation runs out in a few days, so turning it on again renews it.
    until = day_after(5)
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
    return [day_after(k) for k in (-6, -3, -2, -1, *range(3, 90, 4))]


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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool
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


@toolbox.tool(sense=(distinct("from_currency", "to_currency"),))
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


@toolbox.tool
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
    start = iso_day(start_date)
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


@toolbox.tool(requires=("approval_delegation",), tags=("state_change",))
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
    last = iso_day(row["start"]) + timedelta(days=row["days"] - 1)
    return w.employees[row["employee_id"]]["name"], last.isoformat()


@toolbox.tool(sense=(around("week_of", before=180, after=0),))
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
    monday = iso_day(week_of) - timedelta(days=iso_day(week_of).weekday())
    require(monday <= CURRENT_WEEK, f"no timesheet yet for the week of {monday}; the current week starts {CURRENT_WEEK}")
    require(monday >= FIRST_WEEK, f"timesheets are kept from the week of {FIRST_WEEK} on")
    require(monday >= iso_day(row["hire_date"]) - timedelta(days=6), f"{employee_id} was hired on {row['hire_date']}")
    days_worked = NOW.weekday() if monday == CURRENT_WEEK else 5
    hours = round(days_worked * (7.0 + 3.0 * w.figure("hours", employee_id, monday)), 1)
    return hours, round(max(0.0, hours - 40.0), 1)


@toolbox.tool(requires=("approval_delegation",), tags=("state_change",))
def submit_week_timesheets(week_start: OpenWeek) -> int:
    """Submit every open timesheet of a week to payroll, on behalf of the managers.

    Args:
        week_start: Any date in YYYY-MM-DD within the week to submit.

    Returns:
        submitted: the number of timesheets submitted (0 when none were open).
    """
    w = _w()
    monday = iso_day(week_start) - timedelta(days=iso_day(week_start).weekday())
    require(monday <= CURRENT_WEEK, f"the week of {monday} has not started yet")
    require(w.state.get("approval_delegation", False),
            "submitting timesheets for others needs the manager's approval delegation: enable it first")
    if monday != CURRENT_WEEK or w.state.get("timesheets_submitted", False):
        return 0  # earlier weeks are closed already
    w.state["timesheets_submitted"] = True
    return 20 + int(40 * w.figure("open-timesheets", monday))


@toolbox.tool(tags=("state_change",))
def enable_approval_delegation() -> str:
    """Activate, or renew for 30 days, the delegation that lets the user approve leave and submit timesheets for managers.

    Returns:
        valid_until: the date the delegation expires (YYYY-MM-DD).
    """
    until = day_after(DELEGATION_DAYS)
    _w().state.update(approval_delegation=True, delegation_until=until)
    return until


@toolbox.tool(tags=("canonicalise",))
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


@toolbox.tool(tags=("search",))
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


@toolbox.tool
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


@toolbox.tool
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
)
toolbox.condition(
    "approval_delegation",
    holds=lambda w: bool(w.state.get("approval_delegation")),
    broken_state={"approval_delegation": False},
    fix=("enable_approval_delegation", {}),
    consent="submit",  # approving on a manager's behalf needs the delegation the user chose to take up
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# The tools speak from HR and payroll about an employee by id; who asks differs by errand: a
# manager's delegate handles the team's time off, payroll pays people, a recruiter prices a
# role. An employee's performance review and pay are not a colleague's business, so looking
# people up around the office stays apart from both, and a pay review names the employee by
# id: with the directory in it, the manager who wrote the review became the one whose salary
# was asked for. No goal crosses seeds: the seed takes no kind from another (a party guest's
# country never picks a leave policy).

