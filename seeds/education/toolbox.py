"""Education: a multi-campus university's course catalogue, instructors, exams, textbooks,
student records and grades, scholarships, and the signed-in student's own registration and
tuition."""

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
    SUBJECTS,
    book_catalogue,
    city_distance_km,
    country_named,
    country_phrase,
)
from factory.sense import around, sensible, together, within
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.user import USER

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
                           country.currency, (TODAY + timedelta(days=rng.randint(14, 200))).isoformat(), usd))
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


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


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
toolbox.written_as("student_id", "student {}")
toolbox.written_as("person_name/instructor", "Professor {}")  # who they are to me: not a stranger's office hours
toolbox.written_as("registration_id", "registration {}")
toolbox.written_as("percentage", "{}%")


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
    return [(TODAY + timedelta(days=i)).isoformat() for i in range(1, 29)]


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

@toolbox.tool(
    asks=(
        'search the course catalogue for "{query}"[ and show me at most {max_results}]',
        'which courses in the catalogue match "{query}"?',
        'I want to take something on "{query}". Which courses does the catalogue list?',
        'find courses about "{query}"[, no more than {max_results},] and give me their codes',
        'are there any courses on "{query}"? List their codes[, up to {max_results}].',
        'what does the university offer for "{query}"?',
        'look for "{query}" in the course list and tell me the codes[ of the first {max_results}]',
        "I'm interested in \"{query}\". Which courses could I sign up for?",
        'pull up the courses that mention "{query}"[, at most {max_results} of them]',
    ),
    tags=("search",),
)
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


@toolbox.tool(
    asks=(
        'what is the catalogue code of "{text}"?',
        'work out which catalogue course "{text}" means',
        'all I have written down is "{text}". Which course code is that?',
        "what's the official code for \"{text}\"?",
        'a friend wrote "{text}" on a sticky note. Which course is that, as a catalogue code?',
        'give me the standard catalogue code for "{text}"',
        'how does the catalogue write "{text}"?',
    ),
    gives={
        "course_code": (
            "{text}",
            "the course {text}",
            "the course listed as {text}",
            "the course I wrote down as {text}",
            "the {text} course",
            "the course my adviser referred to as {text}",
            "the course listed in my planner as {text}",
            "the course people call {text}",
            "the course that appears as {text} in my notes",
            "the class I know as {text}",
            "the course that goes by {text}",
            "the course my roommate calls {text}",
            "the course my study group calls {text}",
            "the course I saw advertised as {text}",
            "the course known around campus as {text}",
            "the class shown as {text} on the timetable",
            "the course I've heard called {text}",
        ),
    },  # people name the course as they write it; resolving it is the agent's part
    tags=("canonicalise",),
)
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


@toolbox.tool(
    asks=(
        "look up the title, instructor, credits and meeting times of {course_code}",
        "who teaches {course_code}, what is it called, how many credits is it worth and when does it meet?",
        "I'm thinking about {course_code}. What's its title, who teaches it, how many credits does it carry and when are the classes?",
        "pull up the catalogue entry for {course_code}: title, instructor, credit value and weekly schedule.",
        "tell me about {course_code}: its name, who teaches it, its credits and its class times",
        "give me the basics on {course_code} (full title, lecturer, credits and when it meets)",
        "quick one about {course_code}: what's it called, who's teaching, how many credits, and what's the timetable?",
        "before I decide on {course_code}, I need its full title, the instructor, the credit weight and the meeting days and times.",
        "which days and times does {course_code} meet, who's the instructor, what's the full title and how many credits does it count for?",
        "what's the name of {course_code}, who's the lecturer, how many credits do I get for it and what's the weekly schedule?",
        "I'm putting together my timetable. For {course_code}, what's the title, the instructor, the credit count and the class times?",
        "describe {course_code} for me: title, teacher, credit value and meeting times.",
        "find the title and credit value of {course_code}, who teaches it and its weekly meeting pattern",
        "give me the title, lecturer, credit count and weekly times of {course_code}",
        "who's teaching {course_code}, and what are its title, credits and meeting times?",
        "check {course_code} in the course catalogue: the title, the instructor, the credits and the schedule",
        "how many credits is {course_code}, when are its classes, who teaches it, and what's the full title?",
        "I'm choosing my electives. For {course_code}, what are the title, the instructor, the credits and the meeting times?",
        "what are the title, instructor, credits and class times of {course_code}?",
        "find {course_code} in the catalogue and give me the title, instructor, credits and meeting times",
        "tell me who teaches {course_code}, its full title, how many credits it carries and when it meets",
    ),
    gives={
        "instructor": (
            "the instructor of {course_code}",
            "the person teaching {course_code}",
            "the lecturer for {course_code}",
            "the professor who teaches {course_code}",
            "the teacher of {course_code}",
            "whoever teaches {course_code}",
            "the lecturer in charge of {course_code}",
            "the faculty member teaching {course_code}",
            "the instructor who runs {course_code}",
            "the professor in charge of {course_code}",
            "the instructor teaching {course_code}",
            "the professor for {course_code}",
            "the person who teaches {course_code}",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "list the prerequisites of {course_code}",
        "which courses do I need to pass before taking {course_code}?",
        "Before I sign up for {course_code}, what has to be passed first?",
        "what are the prereqs for {course_code}?",
        "check which courses are required before {course_code}",
        "can I go straight into {course_code}, or are there courses I must pass first? Which ones?",
        "find out what I have to complete before enrolling in {course_code}",
        "my adviser mentioned {course_code}. Does it have prerequisites, and if so, which?",
        "tell me the courses someone must pass to get into {course_code}",
        "what do I need before I can take {course_code}?",
        "which courses are prerequisites for {course_code}?",
        "is there anything I have to pass before signing up for {course_code}? If so, what?",
        "what must I pass before I can enrol in {course_code}?",
        "give me the prerequisite courses for {course_code}",
        "does {course_code} require any earlier courses? List them.",
        "which earlier courses does {course_code} build on as prerequisites?",
        "show me the courses required before {course_code}",
        "I'm mapping out my next terms. Which courses stand between me and {course_code}?",
    ),
)
def get_course_prerequisites(course_code: CourseCode) -> list[CourseCode]:
    """List the courses that must be passed before taking a course.

    Args:
        course_code: Canonical course code, e.g. "CS301".

    Returns:
        prerequisites: the course codes that must be passed first (empty when there are none).
    """
    row = _course(course_code)
    return [f"{row['dept']}{level}" for level in PREREQUISITES[row["level"]]]


@toolbox.tool(
    asks=(
        "find the building and room where {course_code} meets",
        "where are the classes of {course_code} held? I need the building and the room.",
        "I've never been to {course_code} before. Which building and room does it meet in?",
        "look up the classroom for {course_code}, building included.",
        "tell me where {course_code} is taught: building and room number.",
        "which lecture room does {course_code} use? Give me the building and the room number.",
        "where do I go for {course_code}? Building and room, please.",
        "get me the location of the classes for {course_code}, with the room number and the building",
        "I'm new on campus. Where does {course_code} meet? Building and room number, please.",
        "I've lost the room details for {course_code}. Which building is it in, and what's the room number?",
    ),
    gives={
        "building": (
            "the building where {course_code} meets",
            "the building {course_code} is taught in",
            "the building that hosts {course_code}",
            "the building where {course_code} is taught",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "find the street address of {building} and the city it's in",
        "what's the address of {building}, and in which city is it?",
        "I have to get to {building}. What's its street address and which campus city is it in?",
        "where exactly is {building}? Give me the street address and the city.",
        "look up the address and city of {building}",
        "in which city is {building}, and what's its street address?",
        "I need directions to {building}: street address and city, please.",
        "tell me the street address of {building}, including the city",
        "what street address and city should I put into my maps app for {building}?",
        "give me the address of {building}, with the city",
        "I'm meeting someone at {building}. What's the street address, and which city is that in?",
        "where is {building} located? I need the street address and the city.",
        "what's the street address of {building}, and what city is it in?",
        "find {building} for me: street address and city",
        "tell me the address and the city of {building}",
    ),
    gives={
        "address": (
            "the street address of {building}",
            "the address of {building}",
            "the postal address of {building}",
            "the full address of {building}",
        ),
        "city": (
            "the city of {building}",
            "the campus city of {building}",
            "the city housing {building}",
            "the city that is home to {building}",
            "the city that contains {building}",
            "the city whose campus includes {building}",
            "the city named in the address of {building}",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "find the university campus nearest to {city}, with its main building and distance",
        "which of the university's campuses is closest to {city}, what's its main building, and how far away is it?",
        "I'm commuting from {city}. Which campus is nearest, what's its main building and how many km away is it?",
        "what's the closest campus to {city}? Tell me its main building and the distance.",
        "look up the nearest campus to {city}, its main building and how many kilometres away it is",
        "how far is the nearest campus from {city}, which one is it, and what's its main building?",
        "I'm moving to {city} next year. Which campus would be closest, which building is its main one, and how far is it?",
        "work out which campus is within easiest reach of {city}, plus its main building and the distance in km",
        "which campus is nearest to {city}, what is its main building, and how far away is it?",
    ),
    gives={
        "main_building": (
            "the main building of the campus nearest to {city}",
            "the main building of the closest campus to {city}",
            "the principal building of the campus nearest {city}",
        ),
    },
    sense=(sensible("a campus city is its own nearest campus", ("city",), _campus_elsewhere),),
)
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


@toolbox.tool(
    asks=(
        "find when and where the final exam of {course_code} takes place, and how long it lasts",
        "when is the final exam of {course_code}, in which building, and how long is it?",
        "I'm planning my exam weeks. When and where is the final of {course_code}, and how many minutes does it last?",
        "what time is the final for {course_code}, where is it, and how long does it run?",
        "look up the final exam for {course_code}: date and time, building and length.",
        "I need to know when and where I sit the final in {course_code}, and how long it takes.",
        "check the exam timetable for {course_code}: when does the final start, in which building, and for how many minutes?",
        "when's the final for {course_code}, where's it held, and what's the duration?",
        "find out the date, time, place and length of the final exam in {course_code}",
        "my parents want to visit around exam week. When does the final for {course_code} start, where is it, and how many minutes does it run?",
        "I get extra time through disability services, so I need the basics for {course_code}: when the final begins, which building it's in and its standard length in minutes.",
        "confirm the final-exam slot for {course_code}: start date and time, exam building and duration",
        "when does the final exam for {course_code} start, where is it, and how long is it?",
        "give me the date, time, building and duration of the final in {course_code}",
        "where and when do I take the final for {course_code}, and how many minutes do I get?",
        "tell me the final exam details for {course_code}: start, building and length",
        "how long is the final exam of {course_code}, and when and where does it take place?",
        "look up the exam slot for {course_code} with its start time, building and length in minutes",
    ),
    gives={
        "exam_start": (
            "the time the final exam of {course_code} begins",
            "the moment the final for {course_code} starts",
            "the scheduled start of the exam in {course_code}",
        ),
        "exam_building": (
            "the building where the final exam of {course_code} is held",
            "the exam venue for {course_code}",
            "the building hosting the final for {course_code}",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "find the required textbook for {course_code}, with its title and ISBN",
        "which textbook does {course_code} use? Give me the title and ISBN.",
        "what book is set for {course_code}? I need the title and the ISBN.",
        "what's the set text for {course_code}, and what's its ISBN?",
        "look up the title and ISBN of the book assigned for {course_code}",
        "I'm buying books for {course_code}. Which textbook do I need, and what's the ISBN?",
        "tell me the title and ISBN of the book assigned in {course_code}",
        "get the textbook on the reading list of {course_code}: its title and its ISBN number",
        "does {course_code} have a required textbook? What's it called and what's its ISBN?",
        "I'm hunting for a second-hand copy of the book for {course_code}. What's the title, and which ISBN should I search for?",
        "the campus bookshop won't order anything without an ISBN. Which title is required for {course_code}, and what's its ISBN?",
        "for my library hold request, I need the title and ISBN of the set book in {course_code}.",
    ),
    gives={
        "isbn": (
            "the textbook for {course_code}",
            "the required textbook of {course_code}",
            "the textbook set for {course_code}",
            "the assigned book for {course_code}",
            "the book required for {course_code}",
            "the set textbook of {course_code}",
            "the textbook on the reading list of {course_code}",
            "the course book for {course_code}",
            "the textbook {course_code} uses",
        ),
        "title": (
            "the textbook set for {course_code}",
            "the required book for {course_code}",
            "the textbook assigned in {course_code}",
            "the set text of {course_code}",
        ),
    },
)
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
    asks=(
        "find the first office hours {instructor} holds on or after {date}, and where",
        "when and where can I catch {instructor} in office hours, starting from {date}?",
        "I have questions for {instructor}. When are their next office hours on or after {date}, and in which building?",
        "when does {instructor} next hold office hours, starting from {date}, and in what building?",
        "look up the next office-hours slot {instructor} has on or after {date}, with the building",
        "I'd like to drop by and see {instructor} on {date} or later. When's the earliest office hour, and where?",
        "check when {instructor} is next available for office hours from {date}, and which building they'll be in",
        "what's the earliest office-hours session with {instructor} on or after {date}, and where is it held?",
        "when and in which building does {instructor} hold the first office hours from {date} onwards?",
        "when can I next see {instructor} during office hours on or after {date}, and where should I go?",
        "I need to talk to {instructor}. What's the first office-hours slot from {date} onwards, and in which building?",
        "look up when {instructor} next has office hours, no earlier than {date}, and the building they're held in",
        "what's the soonest I can get office-hours time with {instructor}, counting from {date}, and where?",
        "find the earliest office hours {instructor} has on or after {date}, with the building",
        "tell me when and where {instructor} holds office hours next, from {date} onwards",
        "where and when does {instructor} first hold office hours on or after {date}?",
        "find the first time {instructor} holds office hours from {date} onwards, and the building",
        "tell me when I can see {instructor} in office hours, starting {date}, and in which building",
        "look up the next office-hours session {instructor} holds from {date} on, with its building",
    ),
    gives={
        "office_hours_start": (
            "the start of the first office hours {instructor} holds on or after {date}",
            "the first office-hours slot {instructor} offers from {date} onwards",
        ),
        "office_building": (
            "the building where {instructor} holds office hours from {date} onwards",
            "the building of the first office hours {instructor} holds on or after {date}",
            "the building where I can meet {instructor} in office hours on or after {date}",
            "the building where {instructor} sees students on or after {date}",
        ),
    },
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
    day = _parse_day(date)
    require(TODAY <= day <= LAST_PUBLISHED_DAY, f"office hours are published from {TODAY} to {LAST_PUBLISHED_DAY}, not for {date}")
    row = w.instructors[instructor]
    while day.weekday() not in row["days"]:
        day += timedelta(days=1)
    return f"{day.isoformat()}T{row['hour']:02d}:00", row["building"]



# --- student records ---------------------------------------------------------------------

@toolbox.tool(
    asks=(
        "look up the student ID of {student_name}",
        "what is the student number of {student_name}?",
        "find {student_name} in the student directory and give me their ID",
        "I need the student ID for {student_name}.",
        "get me the ID number the university has on file for {student_name}",
        "which student ID belongs to {student_name}?",
        "search the directory for {student_name} and tell me the ID",
        "do we have a student ID for {student_name}? What is it?",
        "tell me the university ID of the student called {student_name}",
    ),
    gives={
        "student_id": (
            "{student_name}",
            "the student {student_name}",
            "the student named {student_name}",
            "the student called {student_name}",
            "the student on file as {student_name}",
            "the student listed as {student_name}",
            "our student {student_name}",
        ),
    },  # a record stands for its student
)
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


@toolbox.tool(
    asks=(
        "get the transcript of {student_id}: GPA, credits earned and passed courses.",
        "what is the GPA of {student_id}, how many credits have they earned, and which courses have they passed?",
        "I'm advising {student_id}. Pull up their grade point average, earned credits and the courses they passed.",
        "how is {student_id} doing overall? I need the GPA, the credits so far and the list of passed courses.",
        "look up the academic record of {student_id}, with the GPA, total credits earned and every course passed",
        "show me the transcript for {student_id}: grade point average, credit count and completed courses",
        "which courses has {student_id} passed, how many credits does that make, and what's the GPA?",
        "summarise the record of {student_id}: GPA, earned credits and passed courses.",
        "before my progress meeting with {student_id}, I want their GPA, the credits they have and the courses they've passed.",
        "the scholarship paperwork for {student_id} asks for the GPA, the number of credits earned and the courses passed so far.",
        "I'm writing a reference letter for {student_id}. What grade point average, how many earned credits and which passed courses are on the record?",
        "run an academic standing check on {student_id}: GPA, credit total and passed courses",
    ),
)
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


@toolbox.tool(
    asks=(
        "find the final mark and letter grade of {student_id} in {course_code}",
        "what did {student_id} get in {course_code}? I need the percentage and the letter grade.",
        "how did {student_id} do in {course_code}? Tell me the mark and the letter grade.",
        "look up the grade {student_id} received for {course_code}, both the percentage and the letter",
        "what percentage and letter grade does {student_id} have in {course_code}?",
        "pull up the result of {student_id} in {course_code}, as a percentage and as a letter grade",
        "I'm checking on {student_id}. What final mark and letter did they earn in {course_code}?",
        "which letter grade did {student_id} end up with in {course_code}, and what was the exact percentage?",
        "get me the final score of {student_id} for {course_code} along with the letter grade",
        "what was the result of {student_id} in {course_code}, in percent and as a letter?",
        "I'm reviewing grades. For {student_id} in {course_code}, what's the final percentage and the letter?",
        "check the mark and letter grade on record for {student_id} in {course_code}",
        "tell me how {student_id} scored in {course_code}: percentage and letter grade.",
        "a parent is asking how {student_id} got on in {course_code}. What percentage and letter grade are on file?",
        "I'm preparing a grade appeal for {student_id} in {course_code}. What's the recorded final percentage, and which letter does it carry?",
        "for the dean's list review, confirm the final percentage and letter grade of {student_id} in {course_code}.",
        "double-check what's been posted for {student_id} in {course_code}: the mark out of 100 and the letter grade.",
    ),
    gives={
        "percentage": (
            "the final mark of {student_id} in {course_code}",
            "the percentage earned by {student_id} in {course_code}",
            "the final score of {student_id} for {course_code}",
            "the mark achieved by {student_id} in {course_code}",
            "the percentage {student_id} scored in {course_code}",
            "the final course mark on record for {student_id} in {course_code}",
            "the score out of 100 that {student_id} got in {course_code}",
            "the final percentage posted for {student_id} in {course_code}",
        ),
    },
)
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
    asks=(
        "which letter grade and how many grade points does {percentage} earn?",
        "convert {percentage} to a letter grade and grade points on the university scale",
        "what does {percentage} come to on the letter-grade scale, and how many grade points is that?",
        "what letter is {percentage}, and what's it worth in grade points?",
        "translate {percentage} into a letter grade and its grade-point value",
        "look up the letter grade and grade points for {percentage}",
        "on the university's grading scale, where does {percentage} land? Letter grade and grade points, please.",
        "tell me the letter and the grade points that {percentage} corresponds to",
        "what grade points and what letter go with {percentage}?",
        "for my scholarship paperwork, what letter grade and how many grade points does {percentage} translate to?",
        "map {percentage} onto the university grading scale: letter and grade-point value",
        "I'm working out my GPA by hand. What letter and grade points does a mark of {percentage} give?",
    ),
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


@toolbox.tool(
    asks=(
        "find the largest scholarship open to students from {country}: its name, amount and deadline.",
        "which is the biggest scholarship for students from {country}, how much is it worth and when is the deadline?",
        "I'm applying from {country}. What's the largest scholarship I could get, for how much, and by when must I apply?",
        "look up the top scholarship for applicants from {country}, with its value and application deadline",
        "what's the most generous award for students from {country}? Name, amount and closing date, please.",
        "check which scholarship for nationals of {country} pays the most, how much it pays, and when applications close",
        "I'm a citizen of {country}. Which scholarship gives the most money, how much is it, and what's the deadline?",
        "tell me the name, award amount and deadline of the largest scholarship for students from {country}",
        "what's the biggest scholarship someone from {country} can apply for, what does it pay, and when is it due?",
    ),
    gives={
        "amount, currency_code": (
            "the award of the largest scholarship for students from {country}",
            "the largest scholarship amount for students from {country}",
            "the amount of the biggest scholarship for applicants from {country}",
            "the sum paid by the top scholarship for students from {country}",
        ),
        "deadline": (
            "the application deadline of the largest scholarship for students from {country}",
            "the closing date of the biggest scholarship for applicants from {country}",
            "the deadline to apply for the top scholarship for students from {country}",
            "the last day to apply for the largest scholarship open to students from {country}",
        ),
    },
)
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

@toolbox.tool(
    asks=(
        "enrol me in {course_code} this term and tell me the registration number and the date of my first class",
        "sign me up for {course_code}; what's my registration number and when is the first class?",
        "I want to take {course_code} this term. Register me, and tell me the confirmation number and the day of my first lecture.",
        "register me for {course_code} and let me know my enrolment reference and when my first class is",
        "put me on the roster for {course_code}. What's the registration number, and what day is my first session?",
        "add {course_code} to my schedule this term and tell me the registration ID and the first class date",
        "I'd like a place in {course_code}. Enrol me and give me the reference number and the date the course starts for me.",
        "I've decided on {course_code}. Sign me up, and what's my registration number and when do I have my first class?",
        "get me enrolled in {course_code}, and give me the registration code and the day classes start for me",
        "can you squeeze me into {course_code} this term? I'll need the registration number and the date I first have to show up.",
        "book my seat in {course_code} and tell me when the first meeting is and what my registration number is",
        "I'm ready to commit to {course_code}. Enrol me. Which registration number do I get, and on what date is my first class?",
        "enrol me in {course_code}. I need the registration number for my records and the date of the first session.",
        "the advising office has cleared me for {course_code}. Please enrol me and tell me my registration number and the date of my first class.",
        "lock in my place in {course_code} before it fills up. I'll want the registration number and the day of the first class.",
        "my scholarship requires a full course load, so add {course_code} for me. What registration number do I get, and what date is the first lecture?",
        "process my enrolment in {course_code} and send back the registration reference and the date my classes start",
        "time to register for {course_code}. Put me on the class list and tell me my registration number and when my first class falls.",
        "I've got a free slot in my week for {course_code}. Enrol me, please, and give me the registration number and the date of my opening class.",
        "my employer reimburses tuition but wants proof, so enrol me in {course_code} and give me the registration number plus the date of the first class.",
        "reserve me a place in {course_code} and confirm both my registration number and the first day of teaching",
        "enrol me in {course_code}, then tell me my registration number and the date of my first class",
        "please register me in {course_code} and send me the registration number and first class date",
        "I want in on {course_code}. Enrol me and tell me my registration number and when my first class is.",
        "sign me up to {course_code} this term; I need the registration ID and the date I start.",
        "get me a place in {course_code} and tell me the registration number and the day of the first class",
        "go ahead and enrol me in {course_code}. What's the registration number, and when's my first class?",
        "register me on {course_code}; I'll need the registration number and the date of the first class.",
        "please sign me up for {course_code} and tell me the registration ID and when the course starts for me",
        "I'd like to join {course_code} this term. Enrol me and give me the registration number and first class date.",
        "enrol me on {course_code} and tell me what registration number I get and when classes begin",
        "can you add me to {course_code}? Send back the registration number and the day of my first class.",
    ),
    gives={
        "first_class": (
            "the day of my first class in {course_code}",
            "the date of my first class in {course_code}",
            "the day my classes in {course_code} begin",
            "the day I start {course_code}",
        ),
    },
    requires=("tuition_paid",),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=(
        "drop {registration_id} and tell me which course it was and how many credits I have left",
        "please withdraw me from {registration_id}. Which course was that, and what's my credit load now?",
        "cancel {registration_id}; which course did I drop, and how many registered credits remain?",
        "withdraw me from the course under {registration_id} and tell me what course that was and my remaining credits",
        "I no longer want {registration_id}. Drop it, and tell me the course and my new credit total.",
        "remove {registration_id} from my schedule, and say which course it was and how many credits I'm left with",
        "drop {registration_id} for me. Which course did that free me from, and where does my credit total stand?",
        "get rid of {registration_id} and tell me the course code and how many credits I still have this term",
        "unenrol me from {registration_id}: which course was it, and what's my credit count afterwards?",
    ),
    tags=("state_change", "ends"),
)
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


@toolbox.tool(
    asks=(
        "list the courses I am registered for this term, with registration numbers and my total credits",
        "what am I enrolled in this term? Give me the courses, their registration numbers and my credit total.",
        "which courses am I taking this term, under which registration numbers, and how many credits is that?",
        "show me my current registrations, with course codes, registration numbers and total credits",
        "what's on my schedule this term? I need each course, its registration number and my total credits.",
        "how many credits am I taking this term, in which courses, and under which registration numbers?",
        "pull up my enrolments for this term: courses, registration numbers and the credit total.",
        "remind me what I signed up for this term, with the registration numbers and how many credits it adds up to",
        "I've lost track of my registrations. Which courses am I in, what are the registration numbers, and what's my credit load?",
    ),
)
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
    asks=(
        "pay my outstanding tuition with the card on file and tell me the amount and the receipt number",
        "settle this term's tuition with my card on file and give me the amount and the receipt",
        "I still owe tuition. Charge it to the card on file and tell me the amount and receipt number.",
        "charge my tuition balance to the card on file; how much was it, and what's the receipt number?",
        "clear what I owe in tuition using my saved card, and tell me the amount paid and the receipt number",
        "how much tuition do I owe? Pay it with my card on file and give me the receipt number.",
        "use the card on my account to pay this term's tuition, and give me the total charged and the receipt ID",
        "pay off my tuition with the saved card. What was charged, and what's the receipt number?",
        "please take care of my unpaid tuition with the card on file; I need the amount and the receipt number.",
    ),
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


@toolbox.tool(
    asks=(
        "add a {card_brand} card to my student account for payments and tell me which card is on file",
        "put my {card_brand} card on my student account; which card is on file then?",
        "I want to pay university fees with my {card_brand}. Add it to my account and confirm the card on file.",
        "save my {card_brand} to my student account and show me the card now on file",
        "link a {card_brand} card to my university account. Which card does it show on file afterwards?",
        "register my {card_brand} as the payment card on my account and tell me which card is on file",
        "make my {card_brand} the payment card on my student account; what's the card on file now?",
        "set up my {card_brand} for tuition payments and confirm which card is saved",
        "my student account needs a card. Add my {card_brand} and tell me the card now on file.",
    ),
    tags=("state_change",),
)
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
    context=("If unpaid tuition is in the way, go ahead and pay it.",
             "If my tuition for the term is still due, pay it.",
             "Should my tuition still be due, settle it."),
    says=("I haven't paid my tuition for this term yet.",
          "My tuition for this term is still outstanding.",
          "My tuition for this term is still unpaid."),
)
toolbox.condition(
    "payment_card_on_file",
    holds=lambda w: bool(w.state.get("payment_card")),
    broken_state={"payment_card": ""},
    fix=("add_payment_card", {"card_brand": "Visa"}),
    consent="share",  # a card goes on the account only with the student's word
    context=("If the account needs a card, add my {card_brand}.",
             "My {card_brand} card can go on the account if one is needed.",
             "Put my {card_brand} on file if the account asks for a card."),
    says=("There's no payment card on my student account any more.",
          "My card was removed from my student account.",
          "My student account doesn't have a card on file now."),
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

toolbox.goal(
    "plan my courses this term",
    wants="pick courses for this term, check I can take them, sign up or drop, and know when the exams are",
    role="student",
    tools=("search_courses", "normalise_course_code", "get_course_details", "get_course_prerequisites",
           "enrol_in_course", "drop_course", "list_my_enrolments", "add_payment_card", "get_exam_schedule",
           "get_instructor_office_hours", "get_course_textbook", "list_events_on_date"),
)
toolbox.goal(
    "find my way to class",
    wants="know where and when my class, exam or instructor's office hours are, and the address to go to",
    role="student",
    tools=("normalise_course_code", "get_course_details", "get_course_location", "get_exam_schedule",
           "get_instructor_office_hours", "get_building_address"),
)
toolbox.goal(
    "advise a student",
    wants="go over a student's record and their grades in their courses",
    role="academic adviser",
    tools=("find_student_id", "get_student_transcript", "get_course_grade", "convert_percentage_to_letter"),
)
# What the largest scholarship for my country is worth in my own currency is the finance seed's.
toolbox.goal(
    "study here from abroad",
    wants="find the scholarship I can get from my country, what it is worth to me, and the campus and courses "
          "I would attend",
    role="prospective student",
    tools=("get_largest_scholarship", "get_nearest_campus", "get_building_address", "search_courses",
           "normalise_course_code", "get_course_details", "get_course_prerequisites", "convert_currency_amount",
           "get_country_currency_code", "currency_name_to_code"),
)
