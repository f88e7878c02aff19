"""Behaviour of every Education tool, including its error cases and state changes, and the
links to the library seed (shared textbook ISBNs, instructors who are catalogue authors)."""

from datetime import date, timedelta
from pathlib import Path

import pytest

from factory.checks.context import CheckContext
from factory.checks.policy import load_policy
from factory.config import resource_dir
from factory.records import WorldSetup
from factory.seeds.checks import library_pool, seed_problems
from factory.toolbox.gazetteer import COUNTRIES, NOW
from factory.world.simulator import Simulator
from tests.seeds.toolbox_helpers import ToolboxSession, chain_problems

SLUG = "education"
TODAY = NOW.date()


@pytest.fixture(scope="module")
def edu():
    return ToolboxSession(SLUG)


def fresh(**state):
    return ToolboxSession(SLUG, state=state or None)


def graded(session, exclude_me=True):
    """(student id, course code, mark) of some recorded grade."""
    for sid, row in sorted(session.world.students.items()):
        if exclude_me and sid == session.world.me:
            continue
        for code, pct in sorted(row["grades"].items()):
            if row["grades"] and session.world.courses[code]["level"] >= 201:
                return sid, code, pct
    raise AssertionError("no grades in the world")


def test_course_search(edu):
    assert edu.ok("search_courses", query="linear algebra") == ["MATH102"]
    assert edu.ok("search_courses", query="physics") == ["PHYS101", "PHYS102", "PHYS201", "PHYS202", "PHYS301"]
    assert len(edu.ok("search_courses", query="physics", max_results=20)) == 6
    instructor = edu.world.courses["CS201"]["instructor"]
    assert "CS201" in edu.ok("search_courses", query=instructor.split()[-1], max_results=20)
    assert edu.ok("search_courses", query="astrology") == []
    assert "between 1 and 20" in edu.error("search_courses", query="physics", max_results=0)
    assert "at least one word" in edu.error("search_courses", query="  ")
    assert all(edu.ok("search_courses", query=q) for q in edu.values("course_query"))


def test_course_code_normalisation(edu):
    for text in ("cs 201", "CS-201", "cs201", "Computer Science 201", "  computer science   201 "):
        assert edu.ok("normalise_course_code", text=text) == "CS201"
    assert "cannot read a course code" in edu.error("normalise_course_code", text="intro to coding")
    assert "no department 'ART'" in edu.error("normalise_course_code", text="ART 101")
    assert "no course numbered 999" in edu.error("normalise_course_code", text="cs 999")
    for text in edu.values("course_code_text"):
        assert edu.ok("normalise_course_code", text=text) in edu.values("course_code")


def test_course_details_prerequisites_and_location(edu):
    row = edu.world.courses["ECON202"]
    assert edu.ok("get_course_details", course_code="ECON202") == (row["title"], row["instructor"], row["credits"], row["schedule"])
    assert row["title"] == "Game Theory"
    assert "normalise forms such as 'cs 201'" in edu.error("get_course_details", course_code="cs 201")
    assert edu.ok("get_course_prerequisites", course_code="CS101") == []
    assert edu.ok("get_course_prerequisites", course_code="CS202") == ["CS101", "CS102"]
    assert edu.ok("get_course_prerequisites", course_code="CS401") == ["CS301", "CS202"]
    assert "no course" in edu.error("get_course_prerequisites", course_code="CS999")
    building, room = edu.ok("get_course_location", course_code="HIST201")
    assert building == "Kingsway Building" and room == edu.world.courses["HIST201"]["room"]
    assert edu.ok("get_building_address", building=building) == ("214 Kingsway Court, London", "London")
    assert "no university building" in edu.error("get_building_address", building="Hogwarts")
    assert "no course" in edu.error("get_course_location", course_code="ART101")


def test_nearest_campus(edu):
    assert edu.ok("get_nearest_campus", city="Paris") == ("Northbridge University London Campus", "Thames House", 344.0)
    assert edu.ok("get_nearest_campus", city="Boston") == ("Northbridge University Boston Campus", "Founders Hall", 0.0)
    assert edu.ok("get_nearest_campus", city="Tokyo")[1] == "Marina Research Tower"
    assert "unknown city" in edu.error("get_nearest_campus", city="Atlantis")
    assert all(edu.ok("get_nearest_campus", city=c)[1] in edu.values("campus_building") for c in edu.values("city/home"))


def test_exams_and_textbooks(edu):
    start, building, minutes = edu.ok("get_exam_schedule", course_code="BIO201")
    moment = date.fromisoformat(start[:10])
    assert start[10:] in ("T09:30", "T14:00") and moment.weekday() < 5 and TODAY < moment <= TODAY + timedelta(days=28)
    assert building in ("Marina Research Tower",) and minutes in (120, 180)
    assert "no course" in edu.error("get_exam_schedule", course_code="BIO999")
    isbn, title = edu.ok("get_course_textbook", course_code="MATH102")
    assert len(isbn) == 13 and "Linear Algebra" in title and edu.world.books[isbn]["topic"] == "Linear Algebra"
    assert "no course" in edu.error("get_course_textbook", course_code="MATH")


def test_office_hours(edu):
    name, row = sorted(edu.world.instructors.items())[0]
    start, building = edu.ok("get_instructor_office_hours", instructor=name, date="2025-06-14")
    day = date.fromisoformat(start[:10])
    assert day >= date(2025, 6, 14) and day.weekday() in row["days"] and start.endswith(f"T{row['hour']:02d}:00")
    assert (day - date(2025, 6, 14)).days < 7 and building == row["building"]
    same = edu.ok("get_instructor_office_hours", instructor=name, date=start[:10])
    assert same == (start, building)  # a day with office hours returns that very day
    assert "published from" in edu.error("get_instructor_office_hours", instructor=name, date="2025-06-01")
    assert "YYYY-MM-DD" in edu.error("get_instructor_office_hours", instructor=name, date="next Monday")
    student = edu.world.students[edu.world.me]["name"]
    assert "no instructor named" in edu.error("get_instructor_office_hours", instructor=student, date="2025-06-14")


def test_student_lookup_transcript_and_grades(edu):
    sid, code, pct = graded(edu)
    name = edu.world.students[sid]["name"]
    assert edu.ok("find_student_id", student_name=name) == sid
    assert edu.ok("find_student_id", student_name=name.upper()) == sid
    assert "no student named" in edu.error("find_student_id", student_name="Nobody Atall")
    gpa, credits, passed = edu.ok("get_student_transcript", student_id=sid)
    grades = edu.world.students[sid]["grades"]
    assert passed == sorted(grades) and credits == sum(edu.world.courses[c]["credits"] for c in grades)
    letter_points = {c: edu.ok("convert_percentage_to_letter", percentage=p)[1] for c, p in grades.items()}
    assert gpa == round(sum(letter_points[c] * edu.world.courses[c]["credits"] for c in grades) / credits, 2)
    assert "no student with ID" in edu.error("get_student_transcript", student_id="S000000")
    assert edu.ok("get_course_grade", student_id=sid, course_code=code) == (pct, edu.ok("convert_percentage_to_letter", percentage=pct)[0])
    untaken = next(c for c in sorted(edu.world.courses) if c not in grades)
    assert "have not taken it" in edu.error("get_course_grade", student_id=sid, course_code=untaken)
    assert "no course" in edu.error("get_course_grade", student_id=sid, course_code="XX101")
    assert "no student with ID" in edu.error("get_course_grade", student_id="S1", course_code=code)


def test_letter_grade_scale(edu):
    cases = {100: ("A", 4.0), 93: ("A", 4.0), 92.9: ("A-", 3.7), 85: ("B", 3.0), 77.5: ("C+", 2.3), 60: ("D", 1.0),
             59.5: ("F", 0.0), 0: ("F", 0.0)}
    for pct, expected in cases.items():
        assert edu.ok("convert_percentage_to_letter", percentage=pct) == expected
    assert "between 0 and 100" in edu.error("convert_percentage_to_letter", percentage=101)
    assert "between 0 and 100" in edu.error("convert_percentage_to_letter", percentage=-0.5)
    assert "must be float" in edu.error("convert_percentage_to_letter", percentage="85")


def test_scholarships(edu):
    name, amount, currency, deadline = edu.ok("get_largest_scholarship", country="Kenya")
    assert name.startswith("Kenya ") and currency == "KES" and amount > 0
    assert date.fromisoformat(deadline) > TODAY
    offers = edu.world.scholarships["Kenya"]
    assert name == max(offers, key=lambda o: (o[4], o[0]))[0]
    for country in COUNTRIES:
        assert edu.ok("get_largest_scholarship", country=country.name)[2] == country.currency
    assert "no scholarships listed" in edu.error("get_largest_scholarship", country="Narnia")


def test_enrolment_and_drop_change_registration():
    s = fresh()
    codes, regs, credits = s.ok("list_my_enrolments")
    assert regs == ["REG-40001", "REG-40002", "REG-40003"] and len(codes) == 3
    assert credits == sum(s.world.courses[c]["credits"] for c in codes)
    course = s.values("course_code")[0]
    registration, first = s.ok("enrol_in_course", course_code=course)
    assert registration == "REG-40004"
    first_day = date.fromisoformat(first)
    assert TODAY < first_day <= TODAY + timedelta(days=7)
    assert first_day.strftime("%a") in s.world.courses[course]["days"]
    assert course in s.ok("list_my_enrolments")[0]
    assert "already registered" in s.error("enrol_in_course", course_code=course)
    assert s.ok("drop_course", registration_id=registration) == (course, credits)
    assert "no registration" in s.error("drop_course", registration_id=registration)
    assert s.ok("enrol_in_course", course_code=course)[0] == "REG-40005"  # dropped courses can be taken again


def test_enrolment_rules():
    s = fresh()
    mine = s.world.students[s.world.me]["grades"]
    assert "already passed" in s.error("enrol_in_course", course_code="CS101")
    locked = next(c for c in sorted(s.world.courses) if c.endswith("401"))
    assert "prerequisite" in s.error("enrol_in_course", course_code=locked)
    assert "CS999" in s.error("enrol_in_course", course_code="CS999")
    assert all(c not in mine for c in s.values("course_code"))
    for course in s.values("course_code"):
        result = s.call("enrol_in_course", course_code=course)
        if result.error:
            assert "20-credit limit" in result.error
            break
    else:
        raise AssertionError("the credit limit was never reached")
    assert s.ok("list_my_enrolments")[2] <= 20


def test_tuition_and_payment_card():
    s = fresh()
    assert "nothing to pay" in s.error("pay_tuition")  # nothing owed: paying is only ever a fix-up
    unpaid = fresh(tuition_due=4850.0)
    assert "tuition of $4850.00 is unpaid" in unpaid.error("enrol_in_course", course_code=unpaid.values("course_code")[0])
    paid, receipt = unpaid.ok("pay_tuition")
    assert paid == 4850.0 and receipt.startswith("RCPT-") and unpaid.world.state["tuition_due"] == 0.0
    assert unpaid.ok("enrol_in_course", course_code=unpaid.values("course_code")[0])
    no_card = fresh(tuition_due=4850.0, payment_card="")
    assert "add a payment card" in no_card.error("pay_tuition")
    assert no_card.ok("add_payment_card", card_brand="American Express") == "American Express ending 0005"
    assert no_card.ok("pay_tuition")[0] == 4850.0
    assert "must be one of" in no_card.error("add_payment_card", card_brand="Diners")


def test_conditions_are_declared_with_working_fixes():
    seed = ToolboxSession(SLUG).seed
    conditions = seed.toolbox.conditions
    assert set(conditions) == {"tuition_paid", "payment_card_on_file"}
    assert seed.toolbox.tools["enrol_in_course"].requires == ("tuition_paid",)
    assert seed.toolbox.tools["pay_tuition"].requires == ("payment_card_on_file",)  # nested dependency
    assert all(c.holds(fresh().world) for c in conditions.values())
    broken = fresh(**conditions["tuition_paid"].broken_state, **conditions["payment_card_on_file"].broken_state)
    assert not any(c.holds(broken.world) for c in conditions.values())
    broken.ok(conditions["payment_card_on_file"].fix_tool, **conditions["payment_card_on_file"].fix_arguments)
    broken.ok(conditions["tuition_paid"].fix_tool, **conditions["tuition_paid"].fix_arguments)
    assert all(c.holds(broken.world) for c in conditions.values())


def test_worlds_are_deterministic():
    a, b, other = ToolboxSession(SLUG), ToolboxSession(SLUG), ToolboxSession(SLUG, world_seed=5)
    assert a.world.students == b.world.students and a.world.courses == b.world.courses and a.world.state == b.world.state
    assert a.world.students != other.world.students
    assert a.world.books == other.world.books and set(a.world.instructors) == set(other.world.instructors)


def test_value_generators_give_accepted_values(edu):
    for sid in edu.values("student_id")[:10]:
        assert edu.ok("get_student_transcript", student_id=sid)
    for name in edu.values("person_name/student")[:10]:
        assert edu.ok("find_student_id", student_name=name) in edu.values("student_id")
    for name in edu.values("person_name/instructor"):
        assert edu.ok("get_instructor_office_hours", instructor=name, date=edu.values("date")[0])
    for building in edu.values("campus_building"):
        assert edu.ok("get_building_address", building=building)
    for registration in edu.values("registration_id"):
        assert fresh().ok("drop_course", registration_id=registration)
    for pct in edu.values("percentage"):
        assert edu.ok("convert_percentage_to_letter", percentage=pct)


def test_education_and_library_share_books_and_people():
    edu = ToolboxSession(SLUG)
    lib = ToolboxSession("library_science")
    assert set(edu.world.instructors) == set(lib.world.authors)  # every instructor is a catalogue author
    for code in edu.world.courses:
        assert edu.world.courses[code]["textbook"] in lib.world.books
    # A cross-domain chain: a course's textbook is scanned and located in the library, its
    # instructor's books are listed, and a reading room is booked at exam time.
    seeds = edu.seeds
    sim = Simulator(seeds, WorldSetup(toolboxes=[SLUG, "library_science"], seed=0))
    specs = {**seeds[SLUG].specs, **seeds["library_science"].specs}
    isbn, title = sim.call(specs["get_course_textbook"], {"course_code": "CS201"}).values
    assert sim.call(specs["scan_isbn"], {"isbn": isbn}).values[0] == title
    assert sim.call(specs["locate_book"], {"title": title}).error is None
    instructor = sim.call(specs["get_course_details"], {"course_code": "CS201"}).values[1]
    assert sim.call(specs["list_books_by_author"], {"author": instructor}).values[0]
    assert sim.call(specs["get_author_profile"], {"author": instructor}).error is None
    for code in edu.world.courses:
        exam = sim.call(specs["get_exam_schedule"], {"course_code": code}).values[0]
        booking = Simulator(seeds, WorldSetup(toolboxes=[SLUG, "library_science"], seed=0))
        assert booking.call(specs["reserve_reading_room"], {"branch": "Boston Riverside Branch", "start": exam}).error is None


# --- what makes a request sensible ---------------------------------------------------------

@pytest.fixture(scope="module")
def judge(edu):
    """plausibility(code, state) → the plausibility problems of an executed chain over every seed."""
    seeds = edu.seeds
    ctx = CheckContext(seeds, load_policy(Path(resource_dir("validators"))))

    def plausibility(code, state=None):
        return chain_problems(seeds, code, state=state, ctx=ctx)

    return plausibility


def campus_city(session, code):
    building = session.ok("get_course_location", course_code=code)[0]
    return session.ok("get_building_address", building=building)[1]


def test_sensible_requests_pass_the_plausibility_check(edu, judge):
    course = edu.values("course_code")[0]
    text = next(t for t in edu.values("course_code_text") if edu.ok("normalise_course_code", text=t) == course)
    assert judge(f'c = normalise_course_code(text="{text}")\ni, t = get_course_textbook(course_code=c)') == []
    sid, code, _ = graded(edu)
    assert judge(f'p, l = get_course_grade(student_id="{sid}", course_code="{code}")\n'
                 'g, q = convert_percentage_to_letter(percentage=p)') == []
    # office hours of a course's own instructor from the day of my first class in that course
    assert judge(f't, who, cr, s = get_course_details(course_code="{course}")\n'
                 f'r, first = enrol_in_course(course_code="{course}")\n'
                 'o, b = get_instructor_office_hours(instructor=who, date=first)') == []
    # the largest scholarship, converted into a currency the user names
    assert judge('n, a, cur, d = get_largest_scholarship(country="Kenya")\n'
                 'x, rate = convert_currency_amount(amount=a, from_currency=cur, to_currency="USD")') == []


def test_absurd_requests_are_rejected(edu, judge):
    # the nearest campus to a campus city is that campus
    found = judge('a, c = get_building_address(building="Founders Hall")\nn, m, km = get_nearest_campus(city=c)')
    assert any(p.startswith("sense:") and "own nearest campus" in p for p in found)
    assert judge('n, m, km = get_nearest_campus(city="Paris")') == []
    # office hours half a year away
    name = edu.values("person_name/instructor")[0]
    far = (TODAY + timedelta(days=200)).isoformat()
    assert any("around" in p for p in judge(f'o, b = get_instructor_office_hours(instructor="{name}", date="{far}")'))
    # office hours of one course's instructor from the first class of another course
    one, other = edu.values("course_code")[:2]
    assert edu.world.courses[one]["instructor"] != edu.world.courses[other]["instructor"]
    found = judge(f't, who, cr, s = get_course_details(course_code="{one}")\n'
                  f'r, first = enrol_in_course(course_code="{other}")\n'
                  'o, b = get_instructor_office_hours(instructor=who, date=first)')
    assert any("together" in p for p in found)
    # the weather on the day of my first class in a Boston course, asked for another city
    boston = next(c for c in edu.values("course_code") if campus_city(edu, c) == "Boston")
    enrol = f'r, first = enrol_in_course(course_code="{boston}")\n'
    assert judge(enrol + 'h, lo, sky = get_daily_forecast(city="Boston", date=first)') == []
    found = judge(enrol + 'h, lo, sky = get_daily_forecast(city="Tokyo", date=first)')
    assert any(p.startswith("coherent:") and "Boston" in p for p in found)


def test_links_follow_roles(edu):
    links = library_pool(edu.seeds).links
    assert ("get_course_details", "get_instructor_office_hours") in links
    assert ("get_course_details", "find_student_id") not in links  # an instructor is not a student
    assert ("find_student_id", "get_course_grade") in links and ("get_course_grade", "convert_percentage_to_letter") in links
    assert ("enrol_in_course", "drop_course") not in links  # no dropping the registration just made
    assert ("drop_course", "enrol_in_course") not in links  # nor re-enrolling in the course just dropped
    assert ("enrol_in_course", "get_instructor_office_hours") in links
    for elsewhere in ("get_contact_birthday", "parse_date_text", "get_flight_details"):
        assert (elsewhere, "get_instructor_office_hours") not in links  # nobody visits office hours on a contact's birthday
    assert ("enrol_in_course", "list_events_on_date") in links  # what else is on the day of my first class
    assert ("get_largest_scholarship", "get_instructor_office_hours") not in links  # a deadline is no visiting day
    assert sorted(p for _, p in links[("get_largest_scholarship", "convert_currency_amount")]) == ["amount", "from_currency"]
    for building_source in ("get_course_location", "get_exam_schedule", "get_nearest_campus", "get_instructor_office_hours"):
        assert (building_source, "get_building_address") in links
    assert ("get_building_address", "get_daily_forecast") in links  # a campus city has weather
    assert ("get_building_address", "get_nearest_campus") not in links  # a campus city's nearest campus is itself
    for elsewhere in ("get_contact_city", "get_flight_details", "get_listing_location"):
        assert (elsewhere, "get_nearest_campus") not in links  # only where the asker lives
    for elsewhere in ("get_contact_city", "verify_sender_address", "geocode_city"):
        assert (elsewhere, "get_largest_scholarship") not in links  # scholarships follow a nationality the asker names


def test_facts_agree_with_what_the_tools_say(edu):
    facts = edu.seed.toolbox.facts
    for code in edu.values("course_code"):
        department = code.rstrip("0123456789")
        instructor = edu.ok("get_course_details", course_code=code)[1]
        assert facts["course_code"](edu.world, code) == {"city": campus_city(edu, code), "department": department,
                                                         "person_name/instructor": instructor}
        exam_hall = edu.ok("get_exam_schedule", course_code=code)[1]
        assert edu.ok("get_building_address", building=exam_hall)[1] == campus_city(edu, code)  # exams on the same campus
    for code in edu.values("course_code"):  # a course's instructor belongs to its department, on its campus
        instructor = edu.ok("get_course_details", course_code=code)[1]
        course = facts["course_code"](edu.world, code)
        assert facts["person_name/instructor"](edu.world, instructor) == {k: course[k] for k in ("city", "department")}
        building = edu.ok("get_instructor_office_hours", instructor=instructor, date=edu.values("date")[0])[1]
        assert edu.ok("get_building_address", building=building)[1] == campus_city(edu, code)
    for building in edu.values("campus_building"):
        assert facts["campus_building"](edu.world, building)["city"] == edu.ok("get_building_address", building=building)[1]
    codes, regs, _ = edu.ok("list_my_enrolments")
    for code, reg in zip(codes, regs, strict=True):
        assert facts["registration_id"](edu.world, reg)["course_code"] == code
    assert all(c not in ("Boston", "Toronto", "London", "Singapore", "Sydney") for c in edu.values("city/home"))
    for text in edu.values("course_code_text"):  # a course as written implies what its code does
        code = edu.ok("normalise_course_code", text=text)
        assert facts["course_code_text"](edu.world, text) == facts["course_code"](edu.world, code)
    assert facts["course_code_text"](edu.world, "intro to coding") == facts["course_code_text"](edu.world, "ART 101") == {}
    assert edu.world.me not in edu.values("student_id")  # the signed-in student's own record is not an adviser's look-up
    assert edu.seed.toolbox.written["student_id"].format("S123456") == "student S123456"


def test_conditions_are_knowable_and_paying_is_only_a_fix(edu):
    toolbox = edu.seed.toolbox
    assert [p for p in seed_problems(edu.seed, library_pool(edu.seeds)) if "condition" in p] == []
    assert all(c.says for c in toolbox.conditions.values())
    # Paying and putting a card on file are the student's decisions: each is authorised in words.
    assert {name: c.consent for name, c in toolbox.conditions.items()} == {"tuition_paid": "spend",
                                                                           "payment_card_on_file": "share"}
    assert all(c.context for c in toolbox.conditions.values())
    assert "fix_only" in toolbox.tools["pay_tuition"].tags
    assert {"arithmetic"} == set(toolbox.tools["convert_percentage_to_letter"].tags)
    assert "canonicalise" in toolbox.tools["normalise_course_code"].tags
    assert {n for n, e in toolbox.tools.items() if "state_change" in e.tags} == \
        {"enrol_in_course", "drop_course", "pay_tuition", "add_payment_card"}


def test_goals_keep_a_student_apart_from_other_students_records(edu):
    """A student who enrols never reads another student's grade in the same request: records
    by student ID are an adviser's goal, and no goal of the adviser acts on "my" registration."""
    goals = edu.seed.toolbox.goals.values()
    by_student = {name for name, spec in edu.seed.specs.items() if any(p.kind == "student_id" for p in spec.parameters)}
    mine = {"enrol_in_course", "drop_course", "list_my_enrolments", "add_payment_card"}
    assert by_student and mine <= {t for g in goals for t in g.tools}
    for goal in goals:
        assert not (by_student & set(goal.tools) and mine & set(goal.tools)), goal.name
    assert {g.role for g in goals if by_student & set(g.tools)} == {"academic adviser"}
