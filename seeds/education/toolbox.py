"""Education: a multi-campus university's course catalogue, instructors, exams, textbooks,
student records and grades, scholarships, and the signed-in student's own registration and
tuition."""

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
    SUBJECTS,
    book_catalogue,
    city_distance_km,
    country_named,
    country_phrase,
)
from factory.toolbox.sense import around, sensible, together, within
from factory.toolbox.user import USER

toolbox = Toolbox()

CourseCode = Annotated[str, Kind("course_code")]
CourseText = Annotated[str, Kind("course_code_text")]
CourseQuery = Annotated[str, Kind("course_query")]
CourseTitle = Annotated[str, Kind("course_title")]
# Instructors and students are people in different roles: a student's name never asks for
# office hours, and an instructor is never looked up in the student directory.
Instructor = Annotated[str, Kind("person_name", role="instructor")]
StudentName = Annotated[str, Kind("person_name", role="student")]
StudentId = Annotated[str, Kind("student_id")]
Building = Annotated[str, Kind("campus_building")]
Registration = Annotated[str, Kind("registration_id")]
Percentage = Annotated[float, Kind("percentage")]
LetterGrade = Annotated[str, Kind("letter_grade")]
Isbn = Annotated[str, Kind("isbn")]
Title = Annotated[str, Kind("book_title")]
Day = Annotated[str, Kind("date")]
# An application deadline is for the applicant's diary; office hours, weather or the weekday on
# that day are nobody's question, so it feeds no date parameter.
Deadline = Annotated[str, Kind("date", role="deadline")]
Moment = Annotated[str, Kind("datetime")]
City = Annotated[str, Kind("city")]
# Where the asker lives, for the nearest campus: a city some other request produced (a flight's
# destination, a listing's, a campus building's own) reads as noise there.
HomeCity = Annotated[str, Kind("city", role="home")]
# Scholarships are for students of a nationality; a country some other request produced (a
# sender address's, a company's) is not the asker's.
Nationality = Annotated[str, Kind("country", role="citizenship")]
Address = Annotated[str, Kind("address")]
Award = Annotated[float, Kind("money_amount")]  # always beside its currency: "how much is that in dollars?"
AwardCurrency = Annotated[str, Kind("currency_code", role="amount")]


UNIVERSITY = "Northbridge University"
TERM = "Summer 2025"
TERM_TUITION = 4850.0  # US dollars per term
MAX_CREDITS = 20
TODAY = NOW.date()
LAST_PUBLISHED_DAY = date(2026, 12, 31)  # office hours are published to the end of 2026
BUILDINGS = {  # building → campus city, street address
    "Founders Hall": ("Boston", "1 Founders Way, Boston"),
    "Ashworth Hall": ("Boston", "140 Commonwealth Green, Boston"),
    "Beacon Science Center": ("Boston", "9 Beacon Quad, Boston"),
    "Maple Hall": ("Toronto", "75 College Crescent, Toronto"),
    "Thames House": ("London", "30 Riverside Walk, London"),
    "Kingsway Building": ("London", "214 Kingsway Court, London"),
    "Marina Research Tower": ("Singapore", "8 Science Park Rise, Singapore"),
    "Harbourview House": ("Sydney", "52 Quayside Terrace, Sydney"),
}
CAMPUSES = {  # campus city → main building
    "Boston": "Founders Hall", "Toronto": "Maple Hall", "London": "Thames House",
    "Singapore": "Marina Research Tower", "Sydney": "Harbourview House",
}
DEPARTMENT_BUILDING = {"CS": "Ashworth Hall", "MATH": "Maple Hall", "PHYS": "Beacon Science Center",
                       "CHEM": "Beacon Science Center", "BIO": "Marina Research Tower", "ECON": "Thames House",
                       "HIST": "Kingsway Building", "PSYC": "Harbourview House"}
LEVELS = (101, 102, 201, 202, 301, 401)  # the course number of each of a subject's six topics
PREREQUISITES = {101: (), 102: (), 201: (101,), 202: (101, 102), 301: (201,), 401: (301, 202)}
DAY_PATTERNS = {"Mon/Wed": (0, 2), "Tue/Thu": (1, 3), "Mon/Wed/Fri": (0, 2, 4)}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
EXAM_DAYS = [TODAY + timedelta(days=d) for d in range(17, 29) if (TODAY + timedelta(days=d)).weekday() < 5]
GRADE_SCALE = ((93, "A", 4.0), (90, "A-", 3.7), (87, "B+", 3.3), (83, "B", 3.0), (80, "B-", 2.7), (77, "C+", 2.3),
               (73, "C", 2.0), (70, "C-", 1.7), (67, "D+", 1.3), (60, "D", 1.0), (0, "F", 0.0))
SCHOLARSHIP_WORDS = ("Excellence", "Future Leaders", "Global Talent", "STEM Access", "Horizons", "Merit")
CARD_ENDINGS = {"Visa": "4242", "Mastercard": "4444", "American Express": "0005"}


def _letter(percentage: float) -> tuple[str, float]:
    return next((letter, points) for floor, letter, points in GRADE_SCALE if percentage >= floor)


@dataclass
class EducationWorld(World):
    courses: dict[str, dict] = field(default_factory=dict)  # code → title, subject, instructor, credits, schedule, ...
    instructors: dict[str, dict] = field(default_factory=dict)  # name → department, office days, hour, building
    students: dict[str, dict] = field(default_factory=dict)  # student id → name, year, grades {code: percentage}
    ids_by_name: dict[str, str] = field(default_factory=dict)
    scholarships: dict[str, list] = field(default_factory=dict)  # country → [(name, amount, currency, deadline)]
    books: dict[str, dict] = field(default_factory=dict)  # ISBN → shared catalogue row
    me: str = ""  # the signed-in student's id


def _can_take(grades: dict, code: str) -> bool:
    dept, level = code.rstrip("0123456789"), int(code[-3:])
    return all(f"{dept}{p}" in grades for p in PREREQUISITES[level])


@toolbox.world
def build_world(rng: random.Random) -> EducationWorld:
    catalogue = book_catalogue()
    textbooks = {}
    for row in catalogue:
        textbooks.setdefault(row["topic"], row)  # a topic's first book is the set textbook
    by_subject: dict[str, list[str]] = {}
    for row in catalogue:
        if row["author"] not in by_subject.setdefault(row["subject"], []):
            by_subject[row["subject"]].append(row["author"])
    courses, instructors = {}, {}
    for dept, subject, topics in SUBJECTS:
        for name in by_subject[subject]:
            instructors[name] = {"dept": dept, "days": sorted(rng.sample(range(5), 2)), "hour": rng.randint(10, 15),
                                 "building": DEPARTMENT_BUILDING[dept]}
        for level, topic in zip(LEVELS, topics, strict=True):
            pattern = rng.choice(sorted(DAY_PATTERNS))
            start_hour, start_minute = rng.choice([(8, 30), (10, 0), (11, 30), (13, 0), (14, 30), (16, 0)])
            length = 50 if len(DAY_PATTERNS[pattern]) == 3 else 75
            end = start_hour * 60 + start_minute + length
            main = CAMPUSES[BUILDINGS[DEPARTMENT_BUILDING[dept]][0]]
            courses[f"{dept}{level}"] = {
                "title": topic, "dept": dept, "subject": subject, "level": level,
                "instructor": rng.choice(by_subject[subject]), "credits": rng.choice([3, 3, 4]),
                "days": pattern, "schedule": f"{pattern} {start_hour:02d}:{start_minute:02d}-{end // 60:02d}:{end % 60:02d}",
                "building": DEPARTMENT_BUILDING[dept], "room": f"{rng.randint(1, 4)}.{rng.randint(1, 30):02d}",
                "exam": f"{rng.choice(EXAM_DAYS).isoformat()}T{rng.choice(['09:30', '14:00'])}",
                "exam_building": rng.choice([DEPARTMENT_BUILDING[dept], main]), "exam_minutes": rng.choice([120, 180]),
                "textbook": textbooks[topic]["isbn"],
            }
    authors = set(instructors)
    pool = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES if f"{first} {last}" not in authors]
    names = rng.sample(pool, 41)
    order = sorted(courses, key=lambda code: (courses[code]["level"], code))
    students, ids = {}, {}
    for index, name in enumerate(names):
        sid = f"S{rng.randint(100000, 999999)}"
        while sid in students:
            sid = f"S{rng.randint(100000, 999999)}"
        year = 2 if index == 0 else rng.randint(2, 4)
        grades: dict[str, float] = {}
        for code in order:
            level = courses[code]["level"]
            if index == 0:  # the signed-in student: every 101, some 102s and 201s
                chance = {101: 1.0, 102: 0.5, 201: 0.3}.get(level, 0.0)
            else:
                chance = {101: 0.98, 102: 0.96, 201: 0.95, 202: 0.92, 301: 0.5 + 0.15 * year, 401: 0.15 * year}[level]
            if _can_take(grades, code) and rng.random() < chance:
                grades[code] = round(min(99.0, max(60.0, rng.gauss(83, 8))) * 2) / 2
        students[sid] = {"name": name, "year": year, "grades": grades}
        ids[name] = sid
    me = ids[names[0]]
    mine = students[me]["grades"]
    open_now = [c for c in sorted(courses) if c not in mine and _can_take(mine, c)]
    registrations = {f"REG-{40001 + n}": code for n, code in enumerate(sorted(rng.sample(open_now, 3)))}
    scholarships = {}
    for country in COUNTRIES:
        rate = CURRENCY_BY_CODE[country.currency].per_usd
        offers = []
        for word in rng.sample(SCHOLARSHIP_WORDS, 2):
            usd = rng.randrange(2000, 20001, 500)
            offers.append((f"{country.name} {word} Scholarship", float(round(usd * rate, -1 if rate >= 10 else 0)),
                           country.currency, day_after(rng.randint(14, 200)), usd))
        scholarships[country.name] = offers
    state = {"tuition_due": 0.0, "payment_card": USER.card, "registrations": registrations, "next_number": 4}
    return EducationWorld(state=state, courses=courses, instructors=instructors, students=students, ids_by_name=ids,
                          scholarships=scholarships, books={row["isbn"]: row for row in catalogue}, me=me)


# --- helpers ----------------------------------------------------------------------------

def _edu() -> EducationWorld:
    return world(EducationWorld)


def _course(code: str) -> dict:
    w = _edu()
    require(code in w.courses, f"no course {code!r} in the catalogue; course codes look like CS201 "
                               "(normalise forms such as 'cs 201' first, or search the catalogue)")
    return w.courses[code]


def _student(student_id: str) -> dict:
    w = _edu()
    require(student_id in w.students, f"no student with ID {student_id!r}; look the ID up by the student's name")
    return w.students[student_id]


def _registered_credits(w: EducationWorld) -> int:
    return sum(w.courses[code]["credits"] for code in w.state["registrations"].values())


def _open_courses(w: EducationWorld) -> list[str]:
    """Courses the signed-in student may enrol in now: not passed, not registered, prerequisites met."""
    mine = w.students[w.me]["grades"]
    registered = set(w.state["registrations"].values())
    return [c for c in sorted(w.courses) if c not in mine and c not in registered and _can_take(mine, c)]


# --- links, wording and value generators ---------------------------------------------------

# A home city or a nationality named elsewhere asks for the nearest campus or for scholarships.
# Days are not bridged: the days other requests produce (a contact's birthday, a flight's) are no
# reason to visit an instructor; office hours are asked from a day the asker names or their first class.
toolbox.bridge("city", "country")
toolbox.written_as("country", country_phrase)


@toolbox.values_for("course_code")
def _course_codes(w: EducationWorld) -> list[str]:
    """Courses the signed-in student could enrol in now: every other student has taken nearly all of them."""
    return _open_courses(w)


@toolbox.values_for("course_code_text")
def _course_texts(w: EducationWorld) -> list[str]:
    """How people write course codes by subject ("Computer Science 201"): only the catalogue
    knows the code's letters. "cs 201" or "CS-201" are not drawn: anyone writes them as CS201,
    so looking them up would be a detour."""
    return [f"{w.courses[code]['subject']} {w.courses[code]['level']}" for code in _open_courses(w)]


@toolbox.values_for("course_query")
def _course_queries(w: EducationWorld) -> list[str]:
    """Subjects and course titles people search for (an instructor's surname alone reads as noise)."""
    terms = set()
    for code in _open_courses(w):
        row = w.courses[code]
        terms |= {row["subject"].lower(), row["title"].lower()}
    return sorted(terms)


@toolbox.values_for("person_name/instructor")
def _instructor_names(w: EducationWorld) -> list[str]:
    return sorted(w.instructors)


def _others(w: EducationWorld) -> list[str]:
    """Students other than the signed-in one, whose records an adviser looks up."""
    return sorted(sid for sid in w.students if sid != w.me)


@toolbox.values_for("person_name/student")
def _student_names(w: EducationWorld) -> list[str]:
    return sorted(w.students[sid]["name"] for sid in _others(w))


@toolbox.values_for("student_id")
def _student_ids(w: EducationWorld) -> list[str]:
    return _others(w)


@toolbox.values_for("campus_building")
def _buildings(w: EducationWorld) -> list[str]:
    return sorted(BUILDINGS)


@toolbox.values_for("registration_id")
def _registrations(w: EducationWorld) -> list[str]:
    return sorted(w.state["registrations"])


@toolbox.values_for("percentage")
def _percentages(w: EducationWorld) -> list[float]:
    return [52.0, 61.5, 68.0, 71.5, 74.0, 78.5, 81.0, 84.5, 88.0, 91.5, 95.0, 98.0]


@toolbox.values_for("date")
def _dates(w: EducationWorld) -> list[str]:
    return [day_after(i) for i in range(1, 29)]


@toolbox.values_for("city/home")
def _cities(w: EducationWorld) -> list[str]:
    """Cities without a campus: a campus city's nearest campus is itself."""
    return [c.name for c in CITIES if c.name not in CAMPUSES]


@toolbox.values_for("country")
def _countries(w: EducationWorld) -> list[str]:
    return [c.name for c in COUNTRIES]


# What a value implies: a course is taught by one department on one campus, an instructor works
# in one department, and a registration is for one course. A request naming a course and an
# instructor names one of that department's own staff, and asks about the weather of the
# course's own campus city.
@toolbox.facts_about("course_code")
def _course_facts(w: EducationWorld, code: str) -> dict:
    row = w.courses[code]
    # its instructor: office hours asked beside a course are that course's instructor's
    return {"city": BUILDINGS[row["building"]][0], "department": row["dept"], "person_name/instructor": row["instructor"]}


@toolbox.facts_about("course_code_text")
def _course_text_facts(w: EducationWorld, text: str) -> dict:
    """A course as written ("cs 201") implies what its catalogue code does."""
    match = re.fullmatch(r"\s*([A-Za-z][A-Za-z ]*?)\s*-?\s*(\d{3})\s*", text)
    depts = {dept.lower(): dept for dept, _, _ in SUBJECTS} | {subject.lower(): dept for dept, subject, _ in SUBJECTS}
    dept = depts.get(match.group(1).strip().lower(), "") if match else ""
    code = f"{dept}{match.group(2)}" if dept else ""
    return _course_facts(w, code) if code in w.courses else {}


@toolbox.facts_about("person_name/instructor")
def _instructor_facts(w: EducationWorld, name: str) -> dict:
    row = w.instructors[name]
    return {"city": BUILDINGS[row["building"]][0], "department": row["dept"]}


@toolbox.facts_about("campus_building")
def _building_facts(w: EducationWorld, building: str) -> dict:
    return {"city": BUILDINGS[building][0]}


@toolbox.facts_about("registration_id")
def _registration_facts(w: EducationWorld, registration: str) -> dict:
    code = w.state["registrations"][registration]
    return {"course_code": code, **_course_facts(w, code)}


def _campus_elsewhere(args: dict) -> bool:
    return args["city"] not in CAMPUSES


# --- catalogue ---------------------------------------------------------------------------

@toolbox.tool(tags=("search",))
def search_courses(query: CourseQuery, max_results: int = 5) -> list[CourseCode]:
    """Search the course catalogue by words in a course's code, title, subject or instructor's name.

    Args:
        query: Words to look for, e.g. "linear algebra" or "physics"; every word must match.
        max_results: Maximum number of course codes to return (1-20).

    Returns:
        course_codes: the codes of the matching courses (in code order).
    """
    w = _edu()
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = [code for code, row in sorted(w.courses.items())
            if all(word in f"{code} {row['title']} {row['subject']} {row['instructor']}".lower() for word in words)]
    return hits[:max_results]


@toolbox.tool(tags=("canonicalise",))
def normalise_course_code(text: CourseText) -> CourseCode:
    """Turn a course code as people write it into the catalogue's canonical course code.

    Args:
        text: The course as written: department code or subject name plus number, e.g. "cs 201", "CS-201" or "Computer Science 201".

    Returns:
        course_code: the named course (its canonical code, e.g. CS201).
    """
    w = _edu()
    match = re.fullmatch(r"\s*([A-Za-z][A-Za-z ]*?)\s*-?\s*(\d{3})\s*", text)
    require(match is not None, f"cannot read a course code in {text!r}; write a department and a number, e.g. \"cs 201\"")
    dept_text, number = match.group(1).strip().lower(), match.group(2)
    depts = {dept.lower(): dept for dept, _, _ in SUBJECTS} | {subject.lower(): dept for dept, subject, _ in SUBJECTS}
    require(dept_text in depts, f"no department {match.group(1).strip()!r}; departments: "
                                f"{', '.join(f'{d} ({s})' for d, s, _ in SUBJECTS)}")
    code = f"{depts[dept_text]}{number}"
    require(code in w.courses, f"{depts[dept_text]} has no course numbered {number}; its courses are numbered "
                               f"{', '.join(str(level) for level in LEVELS)}")
    return code


@toolbox.tool
def get_course_details(course_code: CourseCode) -> tuple[CourseTitle, Instructor, int, str]:
    """Get a course's title, instructor, credit value and weekly meeting times.

    Args:
        course_code: Canonical course code, e.g. "CS201".

    Returns:
        title: the course's title.
        instructor: the course's instructor.
        credits: the number of credits the course is worth.
        schedule: the course's weekly meeting times (days and HH:MM-HH:MM).
    """
    row = _course(course_code)
    return row["title"], row["instructor"], row["credits"], row["schedule"]


@toolbox.tool
def get_course_prerequisites(course_code: CourseCode) -> list[CourseCode]:
    """List the courses that must be passed before taking a course.

    Args:
        course_code: Canonical course code, e.g. "CS301".

    Returns:
        prerequisites: the course codes that must be passed first (empty when there are none).
    """
    row = _course(course_code)
    return [f"{row['dept']}{level}" for level in PREREQUISITES[row["level"]]]


@toolbox.tool
def get_course_location(course_code: CourseCode) -> tuple[Building, str]:
    """Find the building and room where a course's classes meet.

    Args:
        course_code: Canonical course code, e.g. "ECON202".

    Returns:
        building: the building where the course meets.
        room: the course's room number (floor.room).
    """
    row = _course(course_code)
    return row["building"], row["room"]


@toolbox.tool
def get_building_address(building: Building) -> tuple[Address, City]:
    """Get the street address and city of a university building.

    Args:
        building: Building name, e.g. "Ashworth Hall".

    Returns:
        address: the building's street address.
        city: the city of the building's campus.
    """
    require(building in BUILDINGS, f"no university building named {building!r}; buildings: {', '.join(sorted(BUILDINGS))}")
    city, address = BUILDINGS[building]
    return address, city


@toolbox.tool(sense=(sensible("a campus city is its own nearest campus", ("city",), _campus_elsewhere),))
def get_nearest_campus(city: HomeCity) -> tuple[str, Building, float]:
    """Find the university campus closest to a city, with its main building.

    Args:
        city: City name, e.g. "Paris".

    Returns:
        campus: the nearest campus (named after its city).
        main_building: the nearest campus's main building.
        distance_km: the distance from the city to that campus (kilometres, rounded to 1 km).
    """
    require(city in CITY_BY_NAME, f"unknown city {city!r}; use a major world city such as Paris or Tokyo")
    nearest = min(CAMPUSES, key=lambda campus: (city_distance_km(city, campus), campus))
    return f"{UNIVERSITY} {nearest} Campus", CAMPUSES[nearest], float(round(city_distance_km(city, nearest)))


@toolbox.tool
def get_exam_schedule(course_code: CourseCode) -> tuple[Moment, Building, int]:
    """Get the date, time, place and length of a course's final exam this term.

    Args:
        course_code: Canonical course code, e.g. "BIO201".

    Returns:
        exam_start: the start of the final exam (YYYY-MM-DDTHH:MM, campus local time).
        exam_building: the building where the exam is held.
        duration_minutes: the length of the exam (minutes).
    """
    row = _course(course_code)
    return row["exam"], row["exam_building"], row["exam_minutes"]


@toolbox.tool
def get_course_textbook(course_code: CourseCode) -> tuple[Isbn, Title]:
    """Get the ISBN and title of a course's required textbook.

    Args:
        course_code: Canonical course code, e.g. "MATH102".

    Returns:
        isbn: the textbook's ISBN (ISBN-13, digits only).
        title: the textbook's title.
    """
    w = _edu()
    isbn = _course(course_code)["textbook"]
    return isbn, w.books[isbn]["title"]


@toolbox.tool(
    # Office hours after the first class of a course are those of its own instructor.
    sense=(around("date", before=0, after=60), together("instructor", "date")),
)
def get_instructor_office_hours(instructor: Instructor, date: Day) -> tuple[Moment, Building]:
    """Find an instructor's next weekly office hours on or after a date.

    Args:
        instructor: Instructor's full name, e.g. "Ingrid Patel".
        date: First acceptable day in YYYY-MM-DD (from today up to the end of 2026).

    Returns:
        office_hours_start: the start of the office hours (YYYY-MM-DDTHH:MM; each session lasts one hour).
        office_building: the building where the office hours are held.
    """
    w = _edu()
    require(instructor in w.instructors, f"no instructor named {instructor!r}; course details name each course's instructor")
    day = iso_day(date)
    require(TODAY <= day <= LAST_PUBLISHED_DAY, f"office hours are published from {TODAY} to {LAST_PUBLISHED_DAY}, not for {date}")
    row = w.instructors[instructor]
    while day.weekday() not in row["days"]:
        day += timedelta(days=1)
    return f"{day.isoformat()}T{row['hour']:02d}:00", row["building"]


# --- student records ---------------------------------------------------------------------

@toolbox.tool
def find_student_id(student_name: StudentName) -> StudentId:
    """Look up a student's ID by their full name in the student directory.

    Args:
        student_name: Student's full name, e.g. "Jane Doe".

    Returns:
        student_id: the student's ID.
    """
    w = _edu()
    match = next((sid for name, sid in w.ids_by_name.items() if name.lower() == student_name.strip().lower()), None)
    require(match is not None, f"no student named {student_name!r} in the directory; check the spelling of the full name")
    return match


@toolbox.tool
def get_student_transcript(student_id: StudentId) -> tuple[float, int, list[CourseCode]]:
    """Get a student's grade point average, earned credits and passed courses.

    Args:
        student_id: Student ID, e.g. "S482913".

    Returns:
        gpa: the student's grade point average (credit-weighted, 0-4 scale, 2 decimals).
        credits_earned: the credits the student has earned.
        passed_courses: the codes of the courses the student has passed (in code order).
    """
    w = _edu()
    grades = _student(student_id)["grades"]
    credits = sum(w.courses[code]["credits"] for code in grades)
    points = sum(_letter(pct)[1] * w.courses[code]["credits"] for code, pct in grades.items())
    return (round(points / credits, 2) if credits else 0.0), credits, sorted(grades)


@toolbox.tool
def get_course_grade(student_id: StudentId, course_code: CourseCode) -> tuple[Percentage, LetterGrade]:
    """Get a student's final mark and letter grade in a course they have taken.

    Args:
        student_id: Student ID, e.g. "S482913".
        course_code: Canonical course code, e.g. "CS201".

    Returns:
        percentage: the student's final mark in the course (percent).
        letter_grade: the student's letter grade in the course.
    """
    student = _student(student_id)
    _course(course_code)
    require(course_code in student["grades"],
            f"{student['name']} ({student_id}) has no grade in {course_code}: they have not taken it; their transcript lists the courses they passed")
    pct = student["grades"][course_code]
    return pct, _letter(pct)[0]


@toolbox.tool(
    sense=(within("percentage", 0, 100),),
    tags=("arithmetic",),  # the standard US scale: a careful person can look it up, so it is never withheld
)
def convert_percentage_to_letter(percentage: Percentage) -> tuple[LetterGrade, float]:
    """Convert a percentage mark to the university's letter grade and grade points.

    Args:
        percentage: Mark in percent, 0-100 (e.g. 87.5).

    Returns:
        letter_grade: the letter grade for the mark.
        grade_points: the grade points for the mark (0-4 scale).
    """
    require(0 <= percentage <= 100, f"a mark must be between 0 and 100 percent, got {percentage}")
    return _letter(percentage)


@toolbox.tool
def get_largest_scholarship(country: Nationality) -> tuple[str, Award, AwardCurrency, Deadline]:
    """Find the largest scholarship for students from a country, with its amount and deadline.

    Args:
        country: Student's home country, e.g. "Kenya".

    Returns:
        scholarship: the scholarship's name.
        amount: the scholarship's award amount (in the award's currency).
        currency_code: the currency of the award (ISO 4217 code).
        deadline: the scholarship's application deadline (YYYY-MM-DD).
    """
    w = _edu()
    country = country_named(country) or country
    require(country in COUNTRY_BY_NAME, f"no scholarships listed for {country!r}; use a country name such as \"Kenya\" or \"Japan\"")
    name, amount, currency, deadline, _ = max(w.scholarships[country], key=lambda offer: (offer[4], offer[0]))
    return name, amount, currency, deadline


# --- the signed-in student's registration and tuition ----------------------------------------

@toolbox.tool(requires=("tuition_paid",), tags=("state_change",))
def enrol_in_course(course_code: CourseCode) -> tuple[str, Day]:
    """Enrol the signed-in student in a course this term (prerequisites passed, tuition paid).

    Args:
        course_code: Canonical course code, e.g. "CS201".

    Returns:
        registration_id: the new registration's number.
        first_class: the date of my first class in the course (YYYY-MM-DD).
    """
    w = _edu()
    row = _course(course_code)
    mine = w.students[w.me]["grades"]
    require(course_code not in mine, f"you already passed {course_code}; choose a course you have not taken")
    require(course_code not in w.state["registrations"].values(), f"you are already registered for {course_code} this term")
    missing = [f"{row['dept']}{level}" for level in PREREQUISITES[row["level"]] if f"{row['dept']}{level}" not in mine]
    require(not missing, f"you have not passed the prerequisite(s) {', '.join(missing)} of {course_code}; "
                         "choose a course whose prerequisites you have passed")
    require(_registered_credits(w) + row["credits"] <= MAX_CREDITS,
            f"enrolling would take you over the {MAX_CREDITS}-credit limit: drop a course first")
    due = w.state.get("tuition_due", 0.0)
    require(due == 0, f"your {TERM} tuition of ${due:.2f} is unpaid: pay your tuition first, then enrol")
    number = w.state["next_number"]
    w.state["next_number"] = number + 1
    registration = f"REG-{40000 + number}"
    w.state["registrations"][registration] = course_code
    day = TODAY + timedelta(days=1)
    while day.weekday() not in DAY_PATTERNS[row["days"]]:
        day += timedelta(days=1)
    return registration, day.isoformat()


@toolbox.tool(tags=("state_change", "ends"))
def drop_course(registration_id: Registration) -> tuple[str, int]:
    """Drop one of the signed-in student's course registrations this term.

    Args:
        registration_id: Registration number, e.g. "REG-40002".

    Returns:
        course_code: the dropped course (its code).
        credits: my registered credits after the drop.
    """
    w = _edu()
    registrations = w.state["registrations"]
    require(registration_id in registrations,
            f"no registration {registration_id!r} this term; your registrations are {', '.join(sorted(registrations)) or 'none'}")
    code = registrations.pop(registration_id)
    return code, _registered_credits(w)


@toolbox.tool
def list_my_enrolments() -> tuple[list[CourseCode], list[Registration], int]:
    """List the signed-in student's course registrations this term.

    Returns:
        course_codes: the codes of my registered courses (in registration order).
        registration_ids: the registration numbers of my courses (same order).
        credits: my registered credits this term.
    """
    w = _edu()
    items = sorted(w.state["registrations"].items())
    return [code for _, code in items], [reg for reg, _ in items], _registered_credits(w)


@toolbox.tool(
    requires=("payment_card_on_file",),
    tags=("state_change", "fix_only"),  # tuition is paid up unless a scenario says otherwise
)
def pay_tuition() -> tuple[float, str]:
    """Pay the signed-in student's outstanding tuition for this term with the payment card on file.

    Returns:
        amount_paid: the tuition paid (US dollars).
        receipt_id: the payment receipt number.
    """
    w = _edu()
    require(bool(w.state.get("payment_card")), "no payment card is on file: add a payment card to your student account first")
    paid = round(w.state.get("tuition_due", 0.0), 2)
    require(paid > 0, f"you owe no tuition for {TERM}: there is nothing to pay")
    w.state["tuition_due"] = 0.0
    number = w.state["next_number"]
    w.state["next_number"] = number + 1
    return paid, f"RCPT-{60000 + number}"


@toolbox.tool(tags=("state_change",))
def add_payment_card(card_brand: Literal["Visa", "Mastercard", "American Express"]) -> str:
    """Add a payment card to the signed-in student's account, replacing any card on file.

    Args:
        card_brand: Card network: "Visa", "Mastercard" or "American Express".

    Returns:
        card: the card now on file (brand and last four digits).
    """
    w = _edu()
    label = f"{card_brand} ending {CARD_ENDINGS[card_brand]}"
    w.state["payment_card"] = label
    return label


toolbox.condition(
    "tuition_paid",
    holds=lambda w: w.state.get("tuition_due", 0.0) == 0,
    broken_state={"tuition_due": TERM_TUITION},
    fix=("pay_tuition", {}),
    consent="spend",
)
toolbox.condition(
    "payment_card_on_file",
    holds=lambda w: bool(w.state.get("payment_card")),
    broken_state={"payment_card": ""},
    fix=("add_payment_card", {"card_brand": "Visa"}),
    consent="share",  # a card goes on the account only with the student's word
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# A student acts on their own registration ("enrol me", "my enrolments") and reads the
# catalogue; reading a student's transcript or grades by student ID is an adviser's errand,
# never the same request as enrolling oneself (a student who registers, then reads another
# student's grade). The catalogue's tools speak as the student ("which courses do I need to
# pass before taking ...", "the course my roommate calls ..."), so they stay out of the
# adviser's goal. Borrowing a course's set book is the library seed's goal; the weather at the
# time of an exam is no goal: forecasts end before exam week, and the weather seed's phrasings
# speak from other errands ("the ground crew needs ...").

