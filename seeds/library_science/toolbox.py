"""Library Science: catalogue search, ISBN scanning and conversion, book location with an
augmented-reality shelf guide, authors, loans, holds, fines, branch hours, interlibrary loans,
reading rooms and citations, for the signed-in patron of a multi-city library network."""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from factory.toolbox import Kind, Toolbox, ToolError, World, require, world
from factory.toolbox.days import day_after, iso_day
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    NOW,
    PUBLISHERS,
    book_catalogue,
    city_distance_km,
    isbn13_check,
)
from factory.toolbox.sense import around, distinct, sensible, together

toolbox = Toolbox()

# A book is named by its ISBN-13 or its title; the education seed's course textbooks are the
# same books (one shared catalogue), so both kinds are bridged below.
Isbn = Annotated[str, Kind("isbn")]
IsbnText = Annotated[str, Kind("isbn_text")]
Isbn10 = Annotated[str, Kind("isbn10")]
Title = Annotated[str, Kind("book_title")]
Author = Annotated[str, Kind("person_name", role="author")]
PubYear = Annotated[int, Kind("publication_year")]
Publisher = Annotated[str, Kind("publisher")]
Branch = Annotated[str, Kind("library_branch")]
# A branch to collect a book at is one the user names: a hold is not sent to a branch found
# for another book, and a later visit that day is to this same branch.
PickupBranch = Annotated[str, Kind("library_branch", role="pickup")]
ShelfMark = Annotated[str, Kind("shelf_mark")]
Availability = Annotated[Literal["available", "on loan"], Kind("book_availability")]
LoanId = Annotated[str, Kind("loan_id")]
# A loan a person renews is one coming due: nobody renews a book due back in a fortnight.
LoanDueSoon = Annotated[str, Kind("loan_id", role="due_soon")]
Card = Annotated[str, Kind("library_card")]
# Days and times of library visits (a due date, a pickup day, an opening time) plan another
# visit to a branch; they are not days to ask other seeds about (the weather on a due date,
# working days until a hold is ready), nor is any other seed's day (a contact's birthday, a
# scholarship deadline) a day to look up branch hours.
# (A role is also the noun a request uses for a value named again: "on that day".)
VisitDay = Annotated[str, Kind("date", role="day")]
Visit = Annotated[str, Kind("datetime", role="opening_time")]
Closing = Annotated[str, Kind("datetime", role="closing_time")]  # a second time of the day: "that time" no longer says which
# A branch's city is in its name: nobody asks for the weather or flights "in the city Boston
# Central Library is in". Its street address is a place to find on a map.
BranchCity = Annotated[str, Kind("city", role="library_branch")]
# An author's birthplace answers a question about the author; nobody plans around it (the
# weather there, a library there).
BirthCity = Annotated[str, Kind("city", role="birthplace")]
BirthCountry = Annotated[str, Kind("country", role="birthplace")]
# The city of a partner library lending a book: named by the user, taken from no other seed.
PartnerCity = Annotated[str, Kind("city", role="partner_library")]
Address = Annotated[str, Kind("address")]
Citation = Annotated[str, Kind("citation")]
Query = Annotated[str, Kind("catalogue_query")]
RoomHours = Annotated[int, Kind("reading_room_hours")]
FinePayment = Annotated[Literal["card", "cash"], Kind("fine_payment")]

NETWORK = "Atlas Library Network"
BRANCHES = {  # branch → code, city, street address, weekday / Saturday / Sunday hours, reading rooms
    # Every branch opens at the same time on a given kind of day (closing times differ), so an
    # opening time read at one branch is a valid booking time at any other.
    "Boston Central Library": {"code": "BOSC", "city": "Boston", "address": "48 Harbor Row, Boston",
                               "hours": (("09:00", "21:00"), ("10:00", "18:00"), ("12:00", "17:00")),
                               "rooms": ("Quiet Room A", "Quiet Room B", "Group Room C")},
    "Boston Riverside Branch": {"code": "BOSR", "city": "Boston", "address": "15 Charles Quay, Boston",
                                "hours": (("09:00", "20:00"), ("10:00", "17:00"), ("12:00", "17:00")),
                                "rooms": ("River Room",)},
    "Chicago Lakeside Branch": {"code": "CHIL", "city": "Chicago", "address": "220 Wabash Green, Chicago",
                                "hours": (("09:00", "20:00"), ("10:00", "17:00"), ("12:00", "17:00")),
                                "rooms": ("Lakeview Room", "Study Room 2")},
    "Toronto Central Library": {"code": "TORC", "city": "Toronto", "address": "88 Queens Wharf Road, Toronto",
                                "hours": (("09:00", "21:00"), ("10:00", "18:00"), ("12:00", "17:00")),
                                "rooms": ("Maple Room", "Birch Room")},
    "London Central Library": {"code": "LONC", "city": "London", "address": "12 Paternoster Yard, London",
                               "hours": (("09:00", "20:00"), ("10:00", "18:00"), ("12:00", "17:00")),
                               "rooms": ("Reading Room 1", "Reading Room 2", "Seminar Room")},
    "Edinburgh Old Town Branch": {"code": "EDIO", "city": "Edinburgh", "address": "5 Candlemaker Close, Edinburgh",
                                  "hours": (("09:00", "19:00"), ("10:00", "17:00"), ("12:00", "17:00")),
                                  "rooms": ("Close Room",)},
    "Singapore Marina Branch": {"code": "SINM", "city": "Singapore", "address": "31 Marina Reading Way, Singapore",
                                "hours": (("09:00", "21:00"), ("10:00", "21:00"), ("12:00", "18:00")),
                                "rooms": ("Orchid Room", "Bayfront Room")},
    "Sydney Harbour Library": {"code": "SYDH", "city": "Sydney", "address": "60 Circular Wharf Lane, Sydney",
                               "hours": (("09:00", "20:00"), ("10:00", "17:00"), ("12:00", "17:00")),
                               "rooms": ("Wattle Room", "Harbour Room")},
}
CALL_NUMBERS = {"Computer Science": "005", "Mathematics": "510", "Physics": "530", "Chemistry": "540",
                "Biology": "570", "Economics": "330", "History": "909", "Psychology": "150"}
LOAN_DAYS = 21
MAX_RENEWALS = 2
MAX_LOANS = 12
LATE_FEE_PER_DAY = 0.25
FINE_LIMIT = 5.0  # a card is blocked from reactivation while the fines owed reach this (US dollars)
OPENING_FINES = 1.5  # fines the patron already owes from an earlier late return, under the limit
HOURS_FIRST_DAY, HOURS_LAST_DAY = date(2025, 1, 1), date(2026, 12, 31)  # published branch calendar
BOOKING_HORIZON_DAYS = 90
TODAY = NOW.date()


@dataclass
class LibraryWorld(World):
    books: dict[str, dict] = field(default_factory=dict)  # ISBN-13 → shared catalogue row
    holdings: dict[str, dict] = field(default_factory=dict)  # ISBN-13 → branch, floor, shelf mark, copies, out, queue
    by_title: dict[str, str] = field(default_factory=dict)  # title → ISBN-13
    by_shelf: dict[str, str] = field(default_factory=dict)  # shelf mark → ISBN-13
    authors: dict[str, dict] = field(default_factory=dict)  # author → birth city, country, birth year
    patrons: dict[str, dict] = field(default_factory=dict)  # card number → fines, overdue items (other patrons)
    my_card: str = ""


@toolbox.world
def build_world(rng: random.Random) -> LibraryWorld:
    books = {row["isbn"]: row for row in book_catalogue()}
    holdings, by_shelf = {}, {}
    branches = sorted(BRANCHES)
    for isbn, row in books.items():
        branch = rng.choice(branches)
        floor = rng.randint(1, 3)
        surname = row["author"].split()[-1][:3].upper()
        shelf = f"{BRANCHES[branch]['code']}-{floor}F-{CALL_NUMBERS[row['subject']]}.{rng.randint(10, 99)}-{surname}"
        copies = rng.randint(1, 4)
        out = copies if rng.random() < 0.15 else rng.randint(0, copies - 1)  # about one title in seven is all out
        holdings[isbn] = {"branch": branch, "floor": floor, "shelf": shelf, "copies": copies,
                          "out": out, "queue": rng.randint(0, 3) if out == copies else 0}
        by_shelf[shelf] = isbn
    authors = {}
    for name in sorted({row["author"] for row in books.values()}):
        city = rng.choice(CITIES)
        authors[name] = {"city": city.name, "country": city.country, "born": rng.randint(1941, 1988)}
    patrons = {}
    while len(patrons) < 30:
        fines = round(rng.choice([0, 0, 0, rng.randint(1, 60) * 0.25]), 2)
        patrons[f"LC-{rng.randint(100000, 999999)}"] = {"fines": fines, "overdue": int(fines > 0) + rng.randint(0, 1) * int(fines > 3)}
    my_card = f"LC-{rng.randint(100000, 999999)}"
    while my_card in patrons:
        my_card = f"LC-{rng.randint(100000, 999999)}"
    shelf_ready = sorted(i for i, h in holdings.items() if h["copies"] - h["out"] >= 2)
    loans = {}
    for n, (isbn, due) in enumerate(zip(rng.sample(shelf_ready, 3), (-3, 5, 12), strict=True)):
        loans[f"LN-{30001 + n}"] = {"isbn": isbn, "due": day_after(due), "renewals": 0}
    state = {"card_active": True, "fines_due": OPENING_FINES, "loans": loans, "holds": {}, "ill_requests": {},
             "reservations": {}, "next_number": 4}
    return LibraryWorld(state=state, books=books, holdings=holdings, by_title={r["title"]: i for i, r in books.items()},
                        by_shelf=by_shelf, authors=authors, patrons=patrons, my_card=my_card)


# --- helpers ----------------------------------------------------------------------------

def _lib() -> LibraryWorld:
    return world(LibraryWorld)


def _book(isbn: str) -> dict:
    w = _lib()
    require(isinstance(isbn, str) and re.fullmatch(r"\d{13}", isbn) is not None,
            f"ISBN {isbn!r} is not 13 digits without hyphens: convert ISBN-10s and hyphenated forms to ISBN-13 first")
    require(isbn in w.books, f"no book with ISBN {isbn} in the {NETWORK} catalogue; search the catalogue by title or author")
    return w.books[isbn]


def _branch(name: str) -> dict:
    require(name in BRANCHES, f"unknown branch {name!r}; branches: {', '.join(sorted(BRANCHES))}")
    return BRANCHES[name]


def _my_copies(w: LibraryWorld, isbn: str) -> int:
    return sum(1 for loan in w.state["loans"].values() if loan["isbn"] == isbn)


def _on_shelf(w: LibraryWorld, isbn: str) -> int:
    h = w.holdings[isbn]
    return h["copies"] - h["out"] - _my_copies(w, isbn)


def _hours(branch: str, day: date) -> tuple[str, str]:
    weekday, saturday, sunday = BRANCHES[branch]["hours"]
    return sunday if day.weekday() == 6 else saturday if day.weekday() == 5 else weekday


def _next_number(w: LibraryWorld) -> int:
    n = w.state["next_number"]
    w.state["next_number"] = n + 1
    return n


def _isbn10_check(first9: str) -> str:
    value = (11 - sum((10 - i) * int(d) for i, d in enumerate(first9)) % 11) % 11
    return "X" if value == 10 else str(value)


def _hyphenate13(isbn: str) -> str:
    return f"{isbn[:3]}-{isbn[3]}-{isbn[4:7]}-{isbn[7:12]}-{isbn[12]}"


def _as_isbn10(isbn: str) -> str:
    return isbn[3:12] + _isbn10_check(isbn[3:12])


def _require_card_active(w: LibraryWorld) -> None:
    require(w.state.get("card_active", False),
            "Your library card is inactive: reactivate your library card first, then try again.")


# --- value generators ------------------------------------------------------------------

@toolbox.values_for("isbn")
def _isbns(w: LibraryWorld) -> list[str]:
    return sorted(w.books)


@toolbox.values_for("isbn_text")
def _isbn_texts(w: LibraryWorld) -> list[str]:
    """How ISBNs are written on covers and in reading lists: ISBN-10s and hyphenated ISBN-13s."""
    forms = []
    for isbn in sorted(w.books):
        ten = _as_isbn10(isbn)
        forms += [_hyphenate13(isbn), ten, f"{ten[0]}-{ten[1:4]}-{ten[4:9]}-{ten[9]}"]
    return forms


@toolbox.values_for("isbn10")
def _isbn10s(w: LibraryWorld) -> list[str]:
    return [_as_isbn10(isbn) for isbn in sorted(w.books)]


@toolbox.values_for("book_title")
def _titles(w: LibraryWorld) -> list[str]:
    return sorted(w.by_title)


@toolbox.values_for("person_name/author")
def _authors(w: LibraryWorld) -> list[str]:
    return sorted(w.authors)


@toolbox.values_for("book_title", "person_name", "publication_year")
def _books(w: LibraryWorld) -> list[tuple[str, str, int]]:
    """A book as a reference names it: its title, author and year, together."""
    return [(row["title"], row["author"], row["year"]) for _, row in sorted(w.books.items())]


@toolbox.values_for("publication_year")
def _years(w: LibraryWorld) -> list[int]:
    return sorted({row["year"] for row in w.books.values()})


@toolbox.values_for("publisher")
def _publishers(w: LibraryWorld) -> list[str]:
    return [name for name, _ in PUBLISHERS]


@toolbox.values_for("library_branch")
def _branches(w: LibraryWorld) -> list[str]:
    return sorted(BRANCHES)


@toolbox.values_for("library_branch/pickup")
def _pickup_branches(w: LibraryWorld) -> list[str]:
    return sorted(BRANCHES)


@toolbox.values_for("shelf_mark")
def _shelves(w: LibraryWorld) -> list[str]:
    return sorted(w.by_shelf)


@toolbox.values_for("book_availability")
def _availabilities(w: LibraryWorld) -> list[str]:
    return ["available", "on loan"]


@toolbox.values_for("loan_id")
def _loans(w: LibraryWorld) -> list[str]:
    return sorted(w.state["loans"])


@toolbox.values_for("loan_id/due_soon")
def _loans_due_soon(w: LibraryWorld) -> list[str]:
    """Loans due within a week, or overdue: the ones a person renews."""
    return sorted(n for n, loan in w.state["loans"].items() if date.fromisoformat(loan["due"]) <= TODAY + timedelta(days=7))


@toolbox.values_for("library_card")
def _cards(w: LibraryWorld) -> list[str]:
    return sorted([*w.patrons, w.my_card])


@toolbox.values_for("date/day")
def _dates(w: LibraryWorld) -> list[str]:
    return [day_after(i) for i in range(1, 29)]


@toolbox.values_for("datetime/opening_time")
def _moments(w: LibraryWorld) -> list[str]:
    """Future times every branch is open for at least two hours, whatever the weekday."""
    return [f"{TODAY + timedelta(days=i)}T{t}" for i in range(1, 29) for t in ("12:00", "13:30", "14:00", "15:00")]


@toolbox.values_for("city/partner_library")
def _partner_cities(w: LibraryWorld) -> list[str]:
    """Partner libraries are in cities the network has no branch in."""
    ours = {row["city"] for row in BRANCHES.values()}
    return [c.name for c in CITIES if c.name not in ours]


@toolbox.values_for("catalogue_query")
def _queries(w: LibraryWorld) -> list[str]:
    terms = {row["subject"].lower() for row in w.books.values()}
    terms |= {row["topic"].lower() for row in w.books.values()}
    terms |= {row["author"].split()[-1].lower() for row in w.books.values()}
    return sorted(terms)


@toolbox.values_for("reading_room_hours")
def _room_hours(w: LibraryWorld) -> list[int]:
    return [1, 2]


# --- what values imply, how they are written, what other seeds may feed ---------------------

def _book_facts(w: LibraryWorld, isbn: str) -> dict:
    row = w.books[isbn]
    return {"isbn": isbn, "book_title": row["title"], "person_name": row["author"], "publication_year": row["year"],
            "publisher": row["publisher"], "book_availability": "available" if _on_shelf(w, isbn) > 0 else "on loan"}


@toolbox.facts_about("isbn")
def _isbn_facts(w: LibraryWorld, isbn: str) -> dict:
    return _book_facts(w, isbn)


@toolbox.facts_about("book_title")
def _title_facts(w: LibraryWorld, title: str) -> dict:
    return _book_facts(w, w.by_title[title])


@toolbox.facts_about("shelf_mark")
def _shelf_facts(w: LibraryWorld, shelf: str) -> dict:
    isbn = w.by_shelf[shelf]
    return {**_book_facts(w, isbn), "library_branch": w.holdings[isbn]["branch"]}


@toolbox.facts_about("loan_id")
def _loan_facts(w: LibraryWorld, loan_id: str) -> dict:
    isbn = w.state["loans"][loan_id]["isbn"]  # a loan is returned to, and renewed at, the branch holding its book
    return {"isbn": isbn, "book_title": w.books[isbn]["title"], "library_branch": w.holdings[isbn]["branch"]}


@toolbox.facts_about("library_branch")
def _branch_facts(w: LibraryWorld, branch: str) -> dict:
    city = BRANCHES[branch]["city"]
    return {"city": city, "country": CITY_BY_NAME[city].country}


# A course's textbook (education) is looked up, located and borrowed here.
toolbox.bridge("isbn", "book_title")
toolbox.written_as("fine_payment", lambda method: "in cash" if method == "cash" else "with my bank card")


def _partner_elsewhere(args: dict) -> bool:
    branch = BRANCHES.get(args["pickup_branch"])
    return branch is None or branch["city"] != args["partner_city"]


# --- catalogue, ISBNs and location ----------------------------------------------------------

@toolbox.tool(tags=("search",))
def search_library_catalogue(query: Query, max_results: int = 5) -> list[Isbn]:
    """Search the library catalogue by words in a book's title, author, subject or publisher.

    Args:
        query: Words to look for, e.g. "linear algebra" or "patel"; every word must match.
        max_results: Maximum number of ISBNs to return (1-20).

    Returns:
        isbns: the ISBN-13s of the matching books (alphabetical by title).
    """
    w = _lib()
    require(1 <= max_results <= 20, "max_results must be between 1 and 20")
    words = query.lower().split()
    require(bool(words), "query must contain at least one word")
    hits = []
    for isbn, row in sorted(w.books.items(), key=lambda item: item[1]["title"]):
        text = f"{row['title']} {row['author']} {row['subject']} {row['publisher']}".lower()
        if all(word in text for word in words):
            hits.append(isbn)
    return hits[:max_results]


@toolbox.tool
def scan_isbn(isbn: Isbn) -> tuple[Title, Availability]:
    """Scan a book's ISBN to get its title and whether a copy is on the shelf.

    Args:
        isbn: ISBN-13 of the book, 13 digits without hyphens, e.g. "9781452770482".

    Returns:
        title: the title of the scanned book.
        availability: the scanned book's availability ("available" or "on loan").
    """
    w = _lib()
    row = _book(isbn)
    return row["title"], "available" if _on_shelf(w, isbn) > 0 else "on loan"


@toolbox.tool
def get_book_details(isbn: Isbn) -> tuple[Title, Author, PubYear, Publisher]:
    """Get the title, author, publication year and publisher of a book.

    Args:
        isbn: ISBN-13 of the book, 13 digits without hyphens.

    Returns:
        title: the book's title.
        author: the book's author.
        year: the book's publication year.
        publisher: the book's publisher.
    """
    row = _book(isbn)
    return row["title"], row["author"], row["year"], row["publisher"]


@toolbox.tool
def locate_book(title: Title) -> tuple[Branch, ShelfMark]:
    """Locate the physical copies of a book: the branch that holds it and its shelf mark.

    Args:
        title: Exact book title, e.g. "Foundations of Data Structures".

    Returns:
        branch: the branch that holds the book.
        shelf_mark: the book's shelf mark (branch code, floor and call number).
    """
    w = _lib()
    isbn = w.by_title.get(title)
    if isbn is None:
        close = [t for t in sorted(w.by_title) if title.lower() in t.lower()]
        hint = f"; did you mean {close[0]!r}?" if close else "; search the catalogue for the exact title"
        raise ToolError(f"no book titled {title!r}{hint}")
    h = w.holdings[isbn]
    return h["branch"], h["shelf"]


@toolbox.tool
def launch_ar_shelf_guide(shelf_mark: ShelfMark) -> tuple[str, int]:
    """Start an augmented-reality walk to a book's shelf (to the holds desk when every copy is out).

    Args:
        shelf_mark: Shelf mark of the book, e.g. "BOSC-2F-005.42-KIM".

    Returns:
        ar_message: the guide's spoken instructions.
        duration_minutes: the estimated length of the guided walk (minutes).
    """
    w = _lib()
    require(shelf_mark in w.by_shelf, f"unknown shelf mark {shelf_mark!r}; locate the book first to get its shelf mark")
    isbn = w.by_shelf[shelf_mark]
    h, row = w.holdings[isbn], w.books[isbn]
    if _on_shelf(w, isbn) > 0:
        message = (f"Follow the glowing trail to floor {h['floor']} of {h['branch']}, shelf {shelf_mark}: "
                   f"'{row['title']}' is on the {['bottom', 'middle', 'top'][len(row['title']) % 3]} shelf.")
        return message, 2 + 2 * h["floor"]
    message = (f"'{row['title']}' is out on loan: the guide leads to the holds desk on the ground floor of "
               f"{h['branch']}, where you can queue for the next copy.")
    return message, 2


@toolbox.tool(
    tags=("canonicalise", "self_evident"),  # an ISBN without its hyphens needs no tool: calling it is a detour
)
def convert_isbn(isbn_text: IsbnText) -> tuple[Isbn, Isbn10]:
    """Convert an ISBN as written (ISBN-10 or ISBN-13, with or without hyphens) to its canonical forms.

    Args:
        isbn_text: The ISBN as printed, e.g. "978-1-452-77048-2", "1452770484" or "1-452-77048-4".

    Returns:
        isbn13: the 13-digit ISBN (digits only).
        isbn10: the 10-digit ISBN (digits only, last character may be X).
    """
    text = re.sub(r"[\s-]", "", isbn_text).upper()
    if re.fullmatch(r"\d{9}[\dX]", text):
        require(_isbn10_check(text[:9]) == text[9], f"{isbn_text!r} is not a valid ISBN-10: its check digit is wrong")
        isbn13 = "978" + text[:9] + isbn13_check("978" + text[:9])
        return isbn13, text
    require(re.fullmatch(r"\d{13}", text) is not None,
            f"{isbn_text!r} is not an ISBN: expected 10 or 13 digits (hyphens and spaces are ignored)")
    require(isbn13_check(text[:12]) == text[12], f"{isbn_text!r} is not a valid ISBN-13: its check digit is wrong")
    require(text.startswith("978"), f"{isbn_text!r} is a 979 ISBN-13, which has no ISBN-10 form")
    return text, _as_isbn10(text)


@toolbox.tool(
    # Title, author, year and publisher of one reference all describe the same book.
    sense=(together("title", "author", "year", "publisher"),),
    tags=("arithmetic",),
)
def format_apa_citation(title: Title, author: Author, year: PubYear, publisher: Publisher) -> Citation:
    """Format a book reference in APA style from its title, author, year and publisher.

    Args:
        title: Book title as printed, e.g. "Foundations of Data Structures".
        author: Author's full name, first name first, e.g. "Ingrid Patel".
        year: Year of publication (1450-2025).
        publisher: Publisher's name, e.g. "Linden & Hale".

    Returns:
        citation: the APA-style reference (surname and initials, year, title in sentence case, publisher).
    """
    require(bool(title.strip()), "title must not be empty")
    parts = author.split()
    require(len(parts) >= 2, f"author {author!r} must be a full name, first name first, e.g. \"Ingrid Patel\"")
    require(1450 <= year <= NOW.year, f"publication year {year} is out of range (1450-{NOW.year})")
    words = title.strip().split()
    sentence = []
    for i, word in enumerate(words):
        after_colon = i > 0 and words[i - 1].endswith(":")
        sentence.append(word[0].upper() + word[1:] if i == 0 or after_colon else word.lower())
    initials = " ".join(f"{p[0].upper()}." for p in parts[:-1])
    require(bool(publisher.strip()), "publisher must not be empty: an APA reference to a book names its publisher")
    return f"{parts[-1]}, {initials} ({year}). {' '.join(sentence).rstrip('.')}. {publisher.strip()}."


# --- authors -----------------------------------------------------------------------------

@toolbox.tool
def get_author_profile(author: Author) -> tuple[BirthCity, BirthCountry, int]:
    """Get an author's place and year of birth.

    Args:
        author: Author's full name, e.g. "Ingrid Patel".

    Returns:
        birth_city: the author's city of birth.
        birth_country: the author's country of birth.
        birth_year: the author's year of birth.
    """
    w = _lib()
    require(author in w.authors, f"no author named {author!r} in the catalogue; search the catalogue by surname")
    row = w.authors[author]
    return row["city"], row["country"], row["born"]


@toolbox.tool
def list_books_by_author(author: Author) -> list[Isbn]:
    """List the books in the catalogue written by an author.

    Args:
        author: Author's full name, e.g. "Ingrid Patel".

    Returns:
        isbns: the ISBN-13s of the author's books (newest first; empty when the catalogue has none).
    """
    w = _lib()
    require(len(author.split()) >= 2, f"author {author!r} must be a full name, first name first")
    rows = [(row["year"], isbn) for isbn, row in w.books.items() if row["author"].lower() == author.strip().lower()]
    return [isbn for _, isbn in sorted(rows, reverse=True)]


# --- branches ------------------------------------------------------------------------------

@toolbox.tool(
    # A day found for one branch (a hold's pickup day) is a visit to that branch.
    sense=(around("date", before=0, after=60), together("branch", "date")),
)
def get_branch_hours(branch: Branch, date: VisitDay) -> tuple[Visit, Closing]:
    """Get a branch's opening hours on a date.

    Args:
        branch: Branch name, e.g. "London Central Library".
        date: The day in YYYY-MM-DD (the published calendar covers 2025-2026).

    Returns:
        opens_at: the branch's opening time that day (YYYY-MM-DDTHH:MM).
        closes_at: the branch's closing time that day (YYYY-MM-DDTHH:MM).
    """
    _branch(branch)
    day = iso_day(date)
    require(HOURS_FIRST_DAY <= day <= HOURS_LAST_DAY,
            f"no opening hours published for {date}: the calendar covers {HOURS_FIRST_DAY} to {HOURS_LAST_DAY}")
    opens, closes = _hours(branch, day)
    return f"{day.isoformat()}T{opens}", f"{day.isoformat()}T{closes}"


@toolbox.tool
def get_branch_address(branch: Branch) -> tuple[Address, BranchCity]:
    """Get the street address and city of a library branch.

    Args:
        branch: Branch name, e.g. "Toronto Central Library".

    Returns:
        address: the branch's street address.
        city: the city the branch is in.
    """
    row = _branch(branch)
    return row["address"], row["city"]


# --- loans, holds and requests ------------------------------------------------------------

@toolbox.tool(requires=("card_active",), tags=("state_change",))
def checkout_book(isbn: Isbn) -> tuple[str, VisitDay]:
    """Check out a copy of a book on the signed-in patron's library card.

    Args:
        isbn: ISBN-13 of the book, 13 digits without hyphens.

    Returns:
        loan_id: the new loan's number.
        due_date: the date the loan is due back (YYYY-MM-DD).
    """
    w = _lib()
    row = _book(isbn)
    _require_card_active(w)
    require(_my_copies(w, isbn) == 0, f"you already have '{row['title']}' on loan; renew that loan instead")
    require(len(w.state["loans"]) < MAX_LOANS, f"you have {MAX_LOANS} loans, the limit: return a book first")
    require(_on_shelf(w, isbn) > 0, f"no copy of '{row['title']}' is on the shelf: place a hold or request it from a partner library")
    loan_id = f"LN-{30000 + _next_number(w)}"
    due = day_after(LOAN_DAYS)
    w.state["loans"][loan_id] = {"isbn": isbn, "due": due, "renewals": 0}
    return loan_id, due


def _loan(w: LibraryWorld, loan_id: str) -> dict:
    require(loan_id in w.state["loans"],
            f"no open loan {loan_id!r} on your card; your open loans are {', '.join(sorted(w.state['loans'])) or 'none'}")
    return w.state["loans"][loan_id]


@toolbox.tool(tags=("state_change", "ends"))
def return_book(loan_id: LoanId) -> float:
    """Return a borrowed book; a late return adds its fee to the patron's fines.

    Args:
        loan_id: Loan number, e.g. "LN-30002".

    Returns:
        late_fee: the late fee charged for the return (US dollars, 0 when on time).
    """
    w = _lib()
    loan = _loan(w, loan_id)
    days_late = max(0, (TODAY - date.fromisoformat(loan["due"])).days)
    fee = round(days_late * LATE_FEE_PER_DAY, 2)
    del w.state["loans"][loan_id]
    w.state["fines_due"] = round(w.state.get("fines_due", 0.0) + fee, 2)
    return fee


@toolbox.tool(requires=("card_active",), tags=("state_change",))
def renew_loan(loan_id: LoanDueSoon) -> VisitDay:
    """Renew a loan for three more weeks (at most two renewals per loan).

    Args:
        loan_id: Loan number, e.g. "LN-30002".

    Returns:
        new_due_date: the loan's new due date (YYYY-MM-DD).
    """
    w = _lib()
    loan = _loan(w, loan_id)
    _require_card_active(w)
    require(loan["renewals"] < MAX_RENEWALS, f"loan {loan_id} was already renewed {MAX_RENEWALS} times: return the book instead")
    start = max(TODAY, date.fromisoformat(loan["due"]))
    loan["due"] = (start + timedelta(days=LOAN_DAYS)).isoformat()
    loan["renewals"] += 1
    return loan["due"]


@toolbox.tool(requires=("card_active",), tags=("state_change",))
def place_hold(isbn: Isbn, pickup_branch: PickupBranch) -> tuple[int, VisitDay]:
    """Place a hold on a book, to be collected at a chosen branch.

    Args:
        isbn: ISBN-13 of the book, 13 digits without hyphens.
        pickup_branch: Branch where the patron will collect the book, e.g. "Boston Riverside Branch".

    Returns:
        queue_position: my place in the hold queue (1 is next).
        ready_date: the date the held copy is expected at the pickup branch (YYYY-MM-DD).
    """
    w = _lib()
    row = _book(isbn)
    _branch(pickup_branch)
    _require_card_active(w)
    require(isbn not in w.state["holds"], f"you already have a hold on '{row['title']}'")
    require(_my_copies(w, isbn) == 0, f"you already have '{row['title']}' on loan")
    h = w.holdings[isbn]
    transit = 1 if pickup_branch == h["branch"] else 3
    if _on_shelf(w, isbn) > 0:
        position, ready = 1, TODAY + timedelta(days=transit)
    else:
        position = h["queue"] + 1
        ready = TODAY + timedelta(days=7 * position + transit)
    w.state["holds"][isbn] = {"branch": pickup_branch, "ready": ready.isoformat()}
    return position, ready.isoformat()


@toolbox.tool(
    # The partner library is the far end of the loan: never in the pickup branch's own city
    # (distinct also lets it differ from the city that branch implies).
    sense=(distinct("partner_city", "pickup_branch"),
           sensible("partner library in the pickup branch's city", ("partner_city", "pickup_branch"), _partner_elsewhere)),
    requires=("card_active",),
    tags=("state_change",),
)
def request_interlibrary_loan(isbn: Isbn, partner_city: PartnerCity, pickup_branch: PickupBranch) -> tuple[str, VisitDay]:
    """Request a book from a partner library in another city through interlibrary loan (only when no copy is on the shelf here).

    Args:
        isbn: ISBN-13 of the book, 13 digits without hyphens.
        partner_city: City of the partner library that lends the copy, e.g. "Paris".
        pickup_branch: Branch of this network where the copy is collected.

    Returns:
        request_id: the interlibrary loan request number.
        arrival_date: the expected arrival date of the borrowed copy (YYYY-MM-DD).
    """
    w = _lib()
    row = _book(isbn)
    require(partner_city in CITY_BY_NAME, f"no partner library in {partner_city!r}; partners are in major world cities such as Paris or Tokyo")
    branch = _branch(pickup_branch)
    _require_card_active(w)
    require(isbn not in w.state["ill_requests"], f"you already requested '{row['title']}' through interlibrary loan")
    require(_on_shelf(w, isbn) == 0, f"a copy of '{row['title']}' is on the shelf at {w.holdings[isbn]['branch']}: "
                                     "check it out or place a hold instead of an interlibrary loan")
    days = 2 + math.ceil(city_distance_km(partner_city, branch["city"]) / 2000)
    request_id = f"ILL-{50000 + _next_number(w)}"
    arrival = day_after(days)
    w.state["ill_requests"][isbn] = {"id": request_id, "city": partner_city, "branch": pickup_branch, "arrival": arrival}
    return request_id, arrival


@toolbox.tool(
    # A room is booked from a time the branch itself is open (its own opening time that day).
    sense=(around("start", before=0, after=60), together("branch", "start")),
    requires=("card_active",),
    tags=("state_change",),
)
def reserve_reading_room(branch: Branch, start: Visit, hours: RoomHours = 1) -> tuple[str, str]:
    """Reserve a reading room at a branch for one or more hours within its opening hours.

    Args:
        branch: Branch name, e.g. "Boston Central Library".
        start: Start of the booking in YYYY-MM-DDTHH:MM (local time, within the next 90 days).
        hours: Length of the booking in whole hours (1-4).

    Returns:
        reservation_id: the reading-room reservation number.
        room: the reserved room's name.
    """
    w = _lib()
    row = _branch(branch)
    try:
        begin = datetime.strptime(start, "%Y-%m-%dT%H:%M")
    except (TypeError, ValueError):
        raise ToolError(f"start {start!r} is not in YYYY-MM-DDTHH:MM format") from None
    require(1 <= hours <= 4, "hours must be between 1 and 4")
    require(begin > NOW, f"{start} has already passed (it is now {NOW:%Y-%m-%dT%H:%M}); choose a later time")
    require(begin <= NOW + timedelta(days=BOOKING_HORIZON_DAYS), f"reading rooms can be booked at most {BOOKING_HORIZON_DAYS} days ahead")
    end = begin + timedelta(hours=hours)
    opens, closes = _hours(branch, begin.date())
    require(f"{begin:%H:%M}" >= opens and end.date() == begin.date() and f"{end:%H:%M}" <= closes,
            f"{branch} is not open for the whole booking at {begin:%H:%M} on {begin.date()}: the booking must fit inside "
            "the branch's opening hours that day")
    _require_card_active(w)
    taken = {r["room"] for r in w.state["reservations"].values()
             if r["branch"] == branch and r["start"] < end.isoformat(timespec="minutes") and begin.isoformat(timespec="minutes") < r["end"]}
    free = [room for room in row["rooms"] if room not in taken]
    require(bool(free), f"every reading room at {branch} is already booked by you at that time")
    reservation_id = f"RR-{70000 + _next_number(w)}"
    w.state["reservations"][reservation_id] = {"branch": branch, "room": free[0], "start": begin.isoformat(timespec="minutes"),
                                               "end": end.isoformat(timespec="minutes")}
    return reservation_id, free[0]


# --- card and fines ------------------------------------------------------------------------

@toolbox.tool
def get_patron_fines(card_number: Card) -> tuple[float, int]:
    """Get the outstanding fines and overdue items of a library card.

    Args:
        card_number: Library card number, e.g. "LC-482913".

    Returns:
        amount_due: the fines owed on the card (US dollars).
        overdue_items: the number of overdue items on the card.
    """
    w = _lib()
    if card_number == w.my_card:
        overdue = sum(1 for loan in w.state["loans"].values() if date.fromisoformat(loan["due"]) < TODAY)
        return round(w.state.get("fines_due", 0.0), 2), overdue
    require(card_number in w.patrons, f"no library card {card_number!r}; card numbers look like LC-123456")
    return w.patrons[card_number]["fines"], w.patrons[card_number]["overdue"]


@toolbox.tool(tags=("state_change",))
def pay_library_fines(payment_method: FinePayment) -> float:
    """Pay all outstanding fines on the signed-in patron's account.

    Args:
        payment_method: How to pay: "card" or "cash" (cash at the desk of any branch).

    Returns:
        amount_paid: the amount of fines paid (US dollars, 0 when nothing was owed).
    """
    w = _lib()
    paid = round(w.state.get("fines_due", 0.0), 2)
    w.state["fines_due"] = 0.0
    return paid


@toolbox.tool(
    requires=("fines_under_limit",),
    # The card is active in the world as it stands, so a reactivation only ever restores it.
    tags=("state_change", "fix_only"),
)
def activate_library_card() -> tuple[str, str]:
    """Reactivate the signed-in patron's library card for another year (fines owed must be under $5.00).

    Returns:
        card_number: my library card number.
        expiry_date: the card's new expiry date (YYYY-MM-DD).
    """
    w = _lib()
    fines = w.state.get("fines_due", 0.0)
    require(fines < FINE_LIMIT, f"you owe ${fines:.2f} in library fines, over the ${FINE_LIMIT:.2f} limit: "
                                "pay your library fines first, then reactivate the card")
    w.state["card_active"] = True
    return w.my_card, day_after(365)


toolbox.condition(
    "card_active",
    holds=lambda w: bool(w.state.get("card_active")),
    broken_state={"card_active": False},
    fix=("activate_library_card", {}),
    consent="sign",  # reactivating signs the patron up for another year: only on their word
)
toolbox.condition(
    "fines_under_limit",
    holds=lambda w: w.state.get("fines_due", 0.0) < FINE_LIMIT,
    broken_state={"fines_due": 6.5},
    fix=("pay_library_fines", {"payment_method": "card"}),
    consent="spend",
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# Every tool serves a patron on their own card; what differs is the errand: a book on the
# shelf today, a book that is out, the loans and fines on my card, a reference for a paper.
# Checking a book out, holding it and asking a partner library for it are three answers to
# one question, never one request about the same book, so each serves its own goal.
# No goal goes to the maps seed: my phone's position is in one city and the branches in many,
# so "how long to the branch from here" is mostly a trip across the world, and the coordinates
# of a branch's address are a detour nobody asks for.

