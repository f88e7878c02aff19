"""Behaviour of every Library Science tool, including its error cases and state changes."""

import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from factory.toolbox.gazetteer import CITIES, CITY_BY_NAME, NOW
from tests.seeds.toolbox_helpers import ToolboxSession, chain_problems

SLUG = "library_science"
TODAY = NOW.date()
FIRST_ISBN = "9781452770482"  # first book of the shared catalogue, whatever the world seed


@pytest.fixture(scope="module")
def lib():
    return ToolboxSession(SLUG)


def fresh(**state):
    return ToolboxSession(SLUG, state=state or None)


def on_shelf(session, isbn):
    h = session.world.holdings[isbn]
    mine = sum(1 for loan in session.world.state["loans"].values() if loan["isbn"] == isbn)
    return h["copies"] - h["out"] - mine


def isbn_with(session, copies_free):
    return next(i for i in sorted(session.world.books) if on_shelf(session, i) == copies_free
                and i not in {loan["isbn"] for loan in session.world.state["loans"].values()})


def test_catalogue_search(lib):
    hits = lib.ok("search_library_catalogue", query="linear algebra")
    assert hits and all("Linear Algebra" in lib.world.books[i]["title"] for i in hits)
    titles = [lib.world.books[i]["title"] for i in hits]
    assert titles == sorted(titles) and len(hits) <= 5
    assert len(lib.ok("search_library_catalogue", query="physics", max_results=20)) == 12
    assert lib.ok("search_library_catalogue", query="zzzz") == []
    assert "between 1 and 20" in lib.error("search_library_catalogue", query="physics", max_results=21)
    assert "at least one word" in lib.error("search_library_catalogue", query=" ")
    assert all(lib.ok("search_library_catalogue", query=q) for q in lib.values("catalogue_query"))


def test_scan_locate_and_ar_guide_chain(lib):
    title, availability = lib.ok("scan_isbn", isbn=FIRST_ISBN)
    assert title == "Programming Fundamentals: A Modern Introduction"
    assert availability == ("available" if on_shelf(lib, FIRST_ISBN) > 0 else "on loan")
    branch, shelf = lib.ok("locate_book", title=title)
    assert branch == lib.world.holdings[FIRST_ISBN]["branch"] and shelf.startswith(lib.world.holdings[FIRST_ISBN]["shelf"][:4])
    message, minutes = lib.ok("launch_ar_shelf_guide", shelf_mark=shelf)
    if availability == "available":  # the guide knows whether a copy is in: to the shelf, or to the holds desk
        assert shelf in message and branch in message and minutes == 2 + 2 * lib.world.holdings[FIRST_ISBN]["floor"]
    else:
        assert "holds desk" in message and minutes == 2
    assert "locate the book first" in lib.error("launch_ar_shelf_guide", shelf_mark="XXX-9F-000")


def test_isbn_lookups_reject_other_forms(lib):
    assert "convert ISBN-10s" in lib.error("scan_isbn", isbn="978-1-452-77048-2")
    assert "convert ISBN-10s" in lib.error("get_book_details", isbn="1452770484")
    assert "no book with ISBN 9780000000002" in lib.error("scan_isbn", isbn="9780000000002")
    assert lib.ok("get_book_details", isbn=FIRST_ISBN) == \
        ("Programming Fundamentals: A Modern Introduction", "Liam Lopez", 2012, "Northgate Publishing")


def test_locate_unknown_title_suggests_a_match(lib):
    assert "did you mean 'Data Structures in Practice'" in lib.error("locate_book", title="Data Structures")
    assert "search the catalogue" in lib.error("locate_book", title="The Lost Book")


def test_isbn_conversion(lib):
    assert lib.ok("convert_isbn", isbn_text="1-452-77048-4") == (FIRST_ISBN, "1452770484")
    assert lib.ok("convert_isbn", isbn_text="978-1-452-77048-2") == (FIRST_ISBN, "1452770484")
    assert lib.ok("convert_isbn", isbn_text="0-306-40615-2") == ("9780306406157", "0306406152")  # textbook example
    assert "check digit" in lib.error("convert_isbn", isbn_text="1452770485")
    assert "check digit" in lib.error("convert_isbn", isbn_text="9781452770483")
    assert "expected 10 or 13 digits" in lib.error("convert_isbn", isbn_text="12345")
    assert "no ISBN-10 form" in lib.error("convert_isbn", isbn_text="9791234567896")
    for text in lib.values("isbn_text")[:60]:
        assert lib.ok("convert_isbn", isbn_text=text)[0] in lib.world.books


def test_apa_citation(lib):
    assert lib.ok("format_apa_citation", title="Programming Fundamentals: A Modern Introduction", author="Liam Lopez",
                  year=2012, publisher="Northgate Publishing") == \
        "Lopez, L. (2012). Programming fundamentals: A modern introduction. Northgate Publishing."
    assert lib.ok("format_apa_citation", title="Essentials of Game Theory", author="Mary Ann Smith", year=2001,
                  publisher="Linden & Hale") == "Smith, M. A. (2001). Essentials of game theory. Linden & Hale."
    # a reference to a book names its publisher: an agent that looks it up cannot differ from the gold
    assert "publisher must not be empty" in lib.error("format_apa_citation", title="Ecology", author="Ana Silva",
                                                      year=2001, publisher=" ")
    assert "full name" in lib.error("format_apa_citation", title="Ecology", author="Plato", year=2001, publisher="X")
    assert "out of range" in lib.error("format_apa_citation", title="Ecology", author="Ana Silva", year=2031, publisher="X")
    assert "must not be empty" in lib.error("format_apa_citation", title=" ", author="Ana Silva", year=2001, publisher="X")


def test_authors(lib):
    city, country, born = lib.ok("get_author_profile", author="Liam Lopez")
    assert city in {c.name for c in CITIES} and country == CITY_BY_NAME[city].country and 1941 <= born <= 1988
    assert "no author named" in lib.error("get_author_profile", author="Jane Austen")
    books = lib.ok("list_books_by_author", author="Liam Lopez")
    assert FIRST_ISBN in books and all(lib.world.books[i]["author"] == "Liam Lopez" for i in books)
    years = [lib.world.books[i]["year"] for i in books]
    assert years == sorted(years, reverse=True)
    assert lib.ok("list_books_by_author", author="Jane Austen") == []
    assert "full name" in lib.error("list_books_by_author", author="Lopez")


def test_branch_hours_and_address(lib):
    friday, saturday, sunday = "2025-06-20", "2025-06-21", "2025-06-22"
    assert lib.ok("get_branch_hours", branch="Boston Central Library", date=friday) == ("2025-06-20T09:00", "2025-06-20T21:00")
    assert lib.ok("get_branch_hours", branch="Boston Central Library", date=saturday) == ("2025-06-21T10:00", "2025-06-21T18:00")
    assert lib.ok("get_branch_hours", branch="Boston Central Library", date=sunday) == ("2025-06-22T12:00", "2025-06-22T17:00")
    assert "YYYY-MM-DD" in lib.error("get_branch_hours", branch="Boston Central Library", date="20/06/2025")
    assert "calendar covers" in lib.error("get_branch_hours", branch="Boston Central Library", date="2027-01-04")
    assert "unknown branch" in lib.error("get_branch_hours", branch="Gotham Library", date=friday)
    assert lib.ok("get_branch_address", branch="London Central Library") == ("12 Paternoster Yard, London", "London")
    assert "unknown branch" in lib.error("get_branch_address", branch="Gotham Library")


def test_checkout_changes_availability_and_blocks_repeats():
    s = fresh()
    isbn = isbn_with(s, 1)
    assert s.ok("scan_isbn", isbn=isbn)[1] == "available"
    loan_id, due = s.ok("checkout_book", isbn=isbn)
    assert due == (TODAY + timedelta(days=21)).isoformat() and s.world.state["loans"][loan_id]["isbn"] == isbn
    assert s.ok("scan_isbn", isbn=isbn)[1] == "on loan"
    assert "already have" in s.error("checkout_book", isbn=isbn)
    assert "place a hold" in s.error("checkout_book", isbn=isbn_with(s, 0))
    assert "convert ISBN-10s" in s.error("checkout_book", isbn="123")
    # Returning on time costs nothing and puts the copy back on the shelf.
    assert s.ok("return_book", loan_id=loan_id) == 0.0
    assert s.ok("scan_isbn", isbn=isbn)[1] == "available"
    assert "no open loan" in s.error("return_book", loan_id=loan_id)


def test_loan_limit():
    s = fresh()
    free = [i for i in sorted(s.world.books) if on_shelf(s, i) > 0 and i not in {loan["isbn"] for loan in s.world.state["loans"].values()}]
    for isbn in free[:9]:
        s.ok("checkout_book", isbn=isbn)
    assert "the limit" in s.error("checkout_book", isbn=free[9])


def test_late_return_adds_fines_and_reactivation_needs_fines_under_the_limit():
    s = fresh()
    overdue = s.world.state["loans"]["LN-30001"]
    assert overdue["due"] == (TODAY - timedelta(days=3)).isoformat()
    assert s.ok("get_patron_fines", card_number=s.world.my_card) == (1.5, 1)  # an earlier late return
    assert s.ok("return_book", loan_id="LN-30001") == 0.75
    assert s.ok("get_patron_fines", card_number=s.world.my_card) == (2.25, 0)
    s.world.state["card_active"] = False
    card, _ = s.ok("activate_library_card")  # small fines do not block the card
    assert card == s.world.my_card
    s.world.state.update(card_active=False, fines_due=5.0)
    assert "pay your library fines first" in s.error("activate_library_card")
    assert s.ok("pay_library_fines", payment_method="cash") == 5.0
    assert s.ok("pay_library_fines", payment_method="card") == 0.0
    card, expiry = s.ok("activate_library_card")
    assert card == s.world.my_card and expiry == "2026-06-13" and s.world.state["card_active"] is True


def test_renewals():
    s = fresh()
    due = s.world.state["loans"]["LN-30002"]["due"]
    first = s.ok("renew_loan", loan_id="LN-30002")
    assert first == (date.fromisoformat(due) + timedelta(days=21)).isoformat()
    second = s.ok("renew_loan", loan_id="LN-30002")
    assert second == (date.fromisoformat(first) + timedelta(days=21)).isoformat()
    assert "renewed 2 times" in s.error("renew_loan", loan_id="LN-30002")
    # An overdue loan is renewed from today.
    assert s.ok("renew_loan", loan_id="LN-30001") == (TODAY + timedelta(days=21)).isoformat()
    assert "no open loan" in s.error("renew_loan", loan_id="LN-99999")


def test_holds():
    s = fresh()
    free, out = isbn_with(s, 2), isbn_with(s, 0)
    home = s.world.holdings[free]["branch"]
    assert s.ok("place_hold", isbn=free, pickup_branch=home) == (1, (TODAY + timedelta(days=1)).isoformat())
    assert "already have a hold" in s.error("place_hold", isbn=free, pickup_branch=home)
    position, ready = s.ok("place_hold", isbn=out, pickup_branch="Sydney Harbour Library")
    assert position == s.world.holdings[out]["queue"] + 1
    transit = 1 if s.world.holdings[out]["branch"] == "Sydney Harbour Library" else 3
    assert ready == (TODAY + timedelta(days=7 * position + transit)).isoformat()
    mine = s.world.state["loans"]["LN-30002"]["isbn"]
    assert "on loan" in s.error("place_hold", isbn=mine, pickup_branch=home)
    assert "unknown branch" in s.error("place_hold", isbn=out, pickup_branch="Nowhere")


def test_interlibrary_loans_only_for_books_with_no_copy_on_the_shelf():
    s = fresh()
    out, other_out, free = isbn_with(s, 0), sorted(i for i in s.world.books if on_shelf(s, i) == 0)[1], isbn_with(s, 1)
    request_id, arrival = s.ok("request_interlibrary_loan", isbn=out, partner_city="Boston",
                               pickup_branch="Boston Central Library")
    assert request_id.startswith("ILL-") and arrival == (TODAY + timedelta(days=2)).isoformat()
    _, far = s.ok("request_interlibrary_loan", isbn=other_out, partner_city="Sydney", pickup_branch="London Central Library")
    assert (date.fromisoformat(far) - TODAY).days == 2 + 9  # about 17,000 km at 2,000 km a day
    assert "already requested" in s.error("request_interlibrary_loan", isbn=out, partner_city="Paris",
                                          pickup_branch="Boston Central Library")
    assert "place a hold instead" in s.error("request_interlibrary_loan", isbn=free, partner_city="Paris",
                                             pickup_branch="Boston Central Library")
    assert "no partner library" in s.error("request_interlibrary_loan", isbn=out, partner_city="Atlantis",
                                           pickup_branch="Boston Central Library")


def test_reading_rooms():
    s = fresh()
    start = "2025-06-16T14:00"  # a Monday
    rooms = [s.ok("reserve_reading_room", branch="Boston Central Library", start=start)[1] for _ in range(3)]
    assert rooms == ["Quiet Room A", "Quiet Room B", "Group Room C"]
    assert "already booked by you" in s.error("reserve_reading_room", branch="Boston Central Library", start="2025-06-16T14:30")
    assert s.ok("reserve_reading_room", branch="Boston Central Library", start="2025-06-16T15:00")[1] == "Quiet Room A"
    assert "already passed" in s.error("reserve_reading_room", branch="Boston Central Library", start="2025-06-13T09:00")
    assert "inside the branch's opening hours" in s.error("reserve_reading_room", branch="Boston Central Library", start="2025-06-15T16:30", hours=2)
    assert "inside the branch's opening hours" in s.error("reserve_reading_room", branch="Boston Central Library", start="2025-06-16T08:30")
    # The refusal does not give the hours away: an item without the hours tool stays without them.
    assert not re.search(r"\d{2}:\d{2}-\d{2}:\d{2}", s.error("reserve_reading_room", branch="Boston Central Library",
                                                          start="2025-06-16T08:30"))
    assert "90 days ahead" in s.error("reserve_reading_room", branch="Boston Central Library", start="2025-12-01T14:00")
    assert "between 1 and 4" in s.error("reserve_reading_room", branch="Boston Central Library", start=start, hours=5)
    assert "YYYY-MM-DDTHH:MM" in s.error("reserve_reading_room", branch="Boston Central Library", start="tomorrow 2pm")
    opens, _ = s.ok("get_branch_hours", branch="Edinburgh Old Town Branch", date="2025-06-17")
    assert s.ok("reserve_reading_room", branch="Edinburgh Old Town Branch", start=opens, hours=2)[1] == "Close Room"
    # Branches share opening times, so an opening time read at one branch books a room at any other.
    for day in ("2025-06-20", "2025-06-21", "2025-06-22"):
        opens = {b: s.ok("get_branch_hours", branch=b, date=day)[0] for b in s.values("library_branch")}
        assert len(set(opens.values())) == 1
        assert fresh().ok("reserve_reading_room", branch="Sydney Harbour Library", start=opens["Toronto Central Library"])


def test_patron_fines(lib):
    card, row = next((c, r) for c, r in sorted(lib.world.patrons.items()) if r["fines"] > 0)
    assert lib.ok("get_patron_fines", card_number=card) == (row["fines"], row["overdue"])
    assert "no library card" in lib.error("get_patron_fines", card_number="LC-000000")


def test_inactive_card_blocks_circulation_until_reactivated():
    s = fresh(card_active=False)
    for tool, args in [("checkout_book", {"isbn": isbn_with(s, 2)}), ("renew_loan", {"loan_id": "LN-30002"}),
                       ("place_hold", {"isbn": FIRST_ISBN, "pickup_branch": "Boston Central Library"}),
                       ("request_interlibrary_loan", {"isbn": isbn_with(s, 0), "partner_city": "Paris", "pickup_branch": "Boston Central Library"}),
                       ("reserve_reading_room", {"branch": "Boston Central Library", "start": "2025-06-16T14:00"})]:
        assert "reactivate your library card first" in s.error(tool, **args)
    assert s.ok("return_book", loan_id="LN-30003") == 0.0  # returns never need an active card
    s.ok("activate_library_card")
    assert s.ok("checkout_book", isbn=isbn_with(s, 2))[0].startswith("LN-")


def test_conditions_are_declared_with_working_fixes():
    seed = ToolboxSession(SLUG).seed
    conditions = seed.toolbox.conditions
    assert set(conditions) == {"card_active", "fines_under_limit"}
    assert seed.toolbox.tools["activate_library_card"].requires == ("fines_under_limit",)  # nested dependency
    s = fresh()
    assert all(c.holds(s.world) for c in conditions.values())  # the default world satisfies every condition
    broken = fresh(**conditions["card_active"].broken_state, **conditions["fines_under_limit"].broken_state)
    assert not any(c.holds(broken.world) for c in conditions.values())
    assert "$6.50" in broken.error(conditions["card_active"].fix_tool, **conditions["card_active"].fix_arguments)
    broken.ok(conditions["fines_under_limit"].fix_tool, **conditions["fines_under_limit"].fix_arguments)
    broken.ok(conditions["card_active"].fix_tool, **conditions["card_active"].fix_arguments)
    assert all(c.holds(broken.world) for c in conditions.values())


def test_worlds_are_deterministic_and_share_the_catalogue():
    a, b, other = ToolboxSession(SLUG), ToolboxSession(SLUG), ToolboxSession(SLUG, world_seed=7)
    assert a.world.holdings == b.world.holdings and a.world.state == b.world.state
    assert a.world.books == other.world.books  # the catalogue never depends on the world seed
    assert a.world.holdings != other.world.holdings
    assert a.ok("scan_isbn", isbn=FIRST_ISBN) == b.ok("scan_isbn", isbn=FIRST_ISBN)


def test_value_generators_give_accepted_values(lib):
    for branch in lib.values("library_branch"):
        for moment in lib.values("datetime/opening_time")[::9]:
            assert fresh().ok("reserve_reading_room", branch=branch, start=moment, hours=2)
    for shelf in lib.values("shelf_mark")[:10]:
        assert lib.ok("launch_ar_shelf_guide", shelf_mark=shelf)
    for loan in lib.values("loan_id"):
        assert fresh().ok("return_book", loan_id=loan) >= 0
    for loan in lib.values("loan_id/due_soon"):
        assert fresh().ok("renew_loan", loan_id=loan)
    for card in lib.values("library_card"):
        assert lib.ok("get_patron_fines", card_number=card)[0] >= 0


# --- what makes a request sensible -------------------------------------------------------------

@pytest.fixture(scope="module")
def judge(lib):
    """The plausibility problems of a chain written as code, executed over the default world."""
    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.config import resource_dir

    seeds = lib.seeds
    ctx = CheckContext(seeds, load_policy(Path(resource_dir("validators"))))

    def problems(code, toolboxes=(SLUG,)):
        return chain_problems(seeds, code, toolboxes=list(toolboxes), ctx=ctx)

    return problems


def _rules(found):
    return {p.split(":")[0] for p in found}


def _two_books(lib):
    a, b = sorted(lib.world.books)[:2]
    return (a, lib.world.books[a]), (b, lib.world.books[b])


def test_sensible_library_requests_pass(lib, judge):
    (isbn, row), _ = _two_books(lib)
    assert judge(f'a, b = scan_isbn(isbn="{isbn}")\nc, d = locate_book(title=a)\n'
                 'e, f = launch_ar_shelf_guide(shelf_mark=d)') == []
    text = lib.values("isbn_text")[0]
    assert judge(f'a, b = convert_isbn(isbn_text="{text}")\nc, d, e, f = get_book_details(isbn=a)\n'
                 'g = format_apa_citation(title=c, author=d, year=e, publisher=f)') == []
    assert judge(f'g = format_apa_citation(title="{row["title"]}", author="{row["author"]}", year={row["year"]}, '
                 f'publisher="{row["publisher"]}")') == []
    assert judge(f'a, b = scan_isbn(isbn="{isbn}")\nc, d = locate_book(title=a)\n'
                 'e, f = get_branch_address(branch=c)') == []
    day = (TODAY + timedelta(days=5)).isoformat()
    assert judge(f'a, b = get_branch_hours(branch="Toronto Central Library", date="{day}")\n'
                 'c, d = reserve_reading_room(branch="Toronto Central Library", start=a, hours=2)') == []
    home = lib.world.holdings[lib.world.state["loans"]["LN-30002"]["isbn"]]["branch"]
    assert judge(f'a = renew_loan(loan_id="LN-30002")\nb, c = get_branch_hours(branch="{home}", date=a)') == []


def test_a_reference_names_one_book(lib, judge):
    (isbn_a, row_a), (isbn_b, row_b) = _two_books(lib)
    assert row_a["author"] != row_b["author"]
    mixed = (f'a, b, c, d = get_book_details(isbn="{isbn_a}")\ne, f, g, h = get_book_details(isbn="{isbn_b}")\n'
             'i = format_apa_citation(title=a, author=f, year=c, publisher=d)')
    assert "group" in _rules(judge(mixed))
    wrong_author = (f'g = format_apa_citation(title="{row_a["title"]}", author="{row_b["author"]}", year={row_a["year"]}, '
                    f'publisher="{row_a["publisher"]}")')
    assert "coherent" in _rules(judge(wrong_author))
    wrong_publisher = (f'a, b, c, d = get_book_details(isbn="{isbn_a}")\ne, f, g, h = get_book_details(isbn="{isbn_b}")\n'
                       'i = format_apa_citation(title=a, author=b, year=c, publisher=h)')
    assert any("together" in p for p in judge(wrong_publisher))


def test_a_pickup_branch_is_named_and_a_later_visit_that_day_is_to_it(lib, judge, pool):
    assert ("locate_book", "place_hold") not in pool.links  # no hold sent to a branch found for another book
    assert ("locate_book", "request_interlibrary_loan") not in pool.links
    isbn = isbn_with(lib, 1)
    pickup = next(b for b in ("Chicago Lakeside Branch", "Boston Riverside Branch")
                  if b != lib.world.holdings[isbn]["branch"])  # the book is shelved at another branch
    hold = f'a, b = place_hold(isbn="{isbn}", pickup_branch="{pickup}")\n'
    assert judge(hold + f'c, d = get_branch_hours(branch="{pickup}", date=b)') == []
    found = judge(hold + f'c, d = locate_book(title="{lib.world.books[isbn]["title"]}")\ne, f = get_branch_hours(branch=c, date=b)')
    assert any("together" in p for p in found)


def test_interlibrary_loans_come_from_another_city(lib, judge):
    out = isbn_with(lib, 0)
    same_city = f'a, b = request_interlibrary_loan(isbn="{out}", partner_city="Boston", pickup_branch="Boston Riverside Branch")'
    assert any("partner library in the pickup branch's city" in p for p in judge(same_city))
    assert "Boston" not in lib.values("city/partner_library")
    elsewhere = f'a, b = request_interlibrary_loan(isbn="{out}", partner_city="Paris", pickup_branch="Boston Riverside Branch")'
    assert judge(elsewhere) == []


def test_reading_rooms_are_booked_from_their_own_branch_hours(judge):
    title = "Programming Fundamentals: A Modern Introduction"
    day = (TODAY + timedelta(days=5)).isoformat()
    other = (f'a, b = locate_book(title="{title}")\n'
             f'c, d = get_branch_hours(branch="Sydney Harbour Library", date="{day}")\n'
             'e, f = reserve_reading_room(branch=a, start=c)')
    assert any("together" in p for p in judge(other))
    far = (TODAY + timedelta(days=80)).isoformat()
    assert any("around" in p for p in judge(f'a, b = get_branch_hours(branch="Sydney Harbour Library", date="{far}")'))


def test_only_loans_coming_due_are_renewed_and_new_loans_feed_nothing(lib):
    due = {n: loan["due"] for n, loan in lib.world.state["loans"].items()}
    renewable = lib.values("loan_id/due_soon")
    assert renewable and set(renewable) < set(lib.values("loan_id"))
    assert all(date.fromisoformat(due[n]) <= TODAY + timedelta(days=7) for n in renewable)
    assert any(date.fromisoformat(d) > TODAY + timedelta(days=7) for d in due.values())  # one loan is not due yet


@pytest.fixture(scope="module")
def pool(lib):
    from factory.seeds.checks import library_pool

    return library_pool(lib.seeds)


def test_links_follow_what_a_person_would_ask(pool):
    links = pool.links
    # A course's textbook (education) is scanned, located and borrowed here.
    assert ("get_course_textbook", "scan_isbn") in links and ("get_course_textbook", "checkout_book") in links
    assert ("get_course_textbook", "locate_book") in links
    # A branch's address is a place to find on a map; its city (in its name) and an author's
    # birthplace are not places to ask other seeds about.
    assert [c for p, c in links if p == "get_branch_address"] == ["geocode_address"]
    assert not [pair for pair in links if pair[0] == "get_author_profile"]
    # Library days plan library visits only, and no other seed's day (a birthday) is one.
    for producer in ("checkout_book", "renew_loan", "place_hold", "request_interlibrary_loan"):
        assert [c for p, c in links if p == producer] == ["get_branch_hours"]
    assert sorted(p for p, c in links if c == "get_branch_hours") == ["checkout_book", "locate_book", "place_hold",
                                                                       "renew_loan", "request_interlibrary_loan"]
    # An opening time books a reading room, nothing in other seeds.
    assert [c for p, c in links if p == "get_branch_hours"] == ["reserve_reading_room"]
    # A loan just made is not renewed or returned; a loan's new due date is a day to visit a branch.
    assert ("checkout_book", "renew_loan") not in links and ("checkout_book", "return_book") not in links
    assert ("renew_loan", "get_branch_hours") in links and ("checkout_book", "get_branch_hours") in links
    # Reactivation only restores the card; a reference's book comes from one look-up.
    assert pool.entries["activate_library_card"].tags == ("state_change", "fix_only")
    assert ("scan_isbn", "format_apa_citation") in links  # the title fits, but alone it cannot fill the group
    from factory.chains.composer import can_feed

    assert not can_feed(pool, "scan_isbn", "format_apa_citation") and can_feed(pool, "get_book_details", "format_apa_citation")


def test_literal_values_agree_with_what_they_imply(lib):
    facts = lib.seed.toolbox.facts
    for shelf in lib.values("shelf_mark")[:20]:
        implied = facts["shelf_mark"](lib.world, shelf)
        assert lib.ok("locate_book", title=implied["book_title"]) == (implied["library_branch"], shelf)
        assert lib.ok("scan_isbn", isbn=implied["isbn"]) == (implied["book_title"], implied["book_availability"])
    for title, author, year in lib.seed.toolbox.joint_values[("book_title", "person_name", "publication_year")](lib.world)[:20]:
        isbn = facts["book_title"](lib.world, title)["isbn"]
        assert lib.ok("get_book_details", isbn=isbn)[:3] == (title, author, year)
    for loan in lib.values("loan_id"):
        assert facts["loan_id"](lib.world, loan)["isbn"] == lib.world.state["loans"][loan]["isbn"]
    for branch in lib.values("library_branch"):
        assert facts["library_branch"](lib.world, branch)["city"] == lib.ok("get_branch_address", branch=branch)[1]
    written = lib.seed.toolbox.written
    assert written["fine_payment"]("cash") == "in cash" and written["isbn"].format("978") == "the book with ISBN 978"


def test_goals_ask_for_one_book_one_way(lib):
    """Checking a book out, holding it and asking a partner library for it answer one question:
    no goal holds two of them, so a request never holds a book and checks it out as well."""
    ways = {"checkout_book", "place_hold", "request_interlibrary_loan"}
    goals = lib.seed.toolbox.goals.values()
    assert ways <= {t for g in goals for t in g.tools}
    assert all(len(ways & set(g.tools)) <= 1 for g in goals)
    # The course's set book comes from the education seed: the one goal that crosses seeds.
    assert {g.name for g in goals if "get_course_textbook" in g.tools} == {"borrow the textbook for my course"}
