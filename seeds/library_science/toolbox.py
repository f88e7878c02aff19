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

from factory.gazetteer import CITIES, CITY_BY_NAME, NOW, PUBLISHERS, book_catalogue, city_distance_km, isbn13_check
from factory.sense import around, distinct, sensible, together
from factory.toolbox import Kind, Toolbox, ToolError, World, require, world

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
        loans[f"LN-{30001 + n}"] = {"isbn": isbn, "due": (TODAY + timedelta(days=due)).isoformat(), "renewals": 0}
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


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ToolError(f"date {text!r} is not in YYYY-MM-DD format") from None


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
    return [(TODAY + timedelta(days=i)).isoformat() for i in range(1, 29)]


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
toolbox.written_as("isbn", "the book with ISBN {}")
toolbox.written_as("isbn_text", "ISBN {}")
toolbox.written_as("book_title", '"{}"')
toolbox.written_as("shelf_mark", "shelf {}")
toolbox.written_as("book_availability", "that the book is {}")
toolbox.written_as("loan_id", "loan {}")
toolbox.written_as("library_card", "library card {}")
toolbox.written_as("catalogue_query", '"{}"')
toolbox.written_as("fine_payment", lambda method: "in cash" if method == "cash" else "with my bank card")


def _partner_elsewhere(args: dict) -> bool:
    branch = BRANCHES.get(args["pickup_branch"])
    return branch is None or branch["city"] != args["partner_city"]


# --- catalogue, ISBNs and location ----------------------------------------------------------

@toolbox.tool(
    asks=(
        "search the library catalogue for {query} and give me the ISBNs[, at most {max_results}]",
        "which books in the catalogue match {query}? Give me their ISBNs.",
        "look up {query} in the library catalogue and list the ISBNs it finds[, at most {max_results}]",
        "I'm looking for books on {query}. What does the catalogue have? ISBNs, please.",
        "find books matching {query}[, up to {max_results},] and list their ISBNs",
        "what has the library got for {query}? I just need the ISBNs[, no more than {max_results}].",
        "run a catalogue search for {query} and tell me the ISBNs of the hits",
        "does the library hold anything for {query}? List the ISBNs[ of up to {max_results} books].",
        "give me the ISBNs of the catalogue matches for {query}[, {max_results} at most]",
    ),
    tags=("search",),
)
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


@toolbox.tool(
    asks=(
        "what's the title of {isbn}, and is a copy on the shelf?",
        "look up {isbn} in the catalogue and tell me its title and whether it's available",
        "I've got {isbn} on my reading list. What is it called, and can I find a copy on the shelf right now?",
        "look up {isbn}: what's its title, and is it on the shelf or out on loan?",
        "is {isbn} available right now, and what's the book called?",
        "check whether {isbn} is in or checked out, and give me its title",
        "tell me the name of {isbn} and whether there's a copy I could take today",
        "what's the title of {isbn}? And is there a copy on the shelves, or are they all out?",
        "what's {isbn} called, and is a copy available?",
        "is there a copy of {isbn} on the shelf? Tell me the title too.",
        "give me the title of {isbn} and tell me if it's available",
        "can I borrow {isbn} right now, and what is its title?",
        "find out what {isbn} is called and whether any copy is on the shelf",
        "can I get hold of {isbn} today? Give me its title and whether it's on the shelf.",
        "is {isbn} on the shelf right now? What's it called?",
        "tell me whether {isbn} is in, and what its title is",
        "check the availability of {isbn} and give me the title",
        "look up {isbn} and tell me the title and whether a copy is free",
        "what's the title of {isbn}, and could I borrow it now?",
    ),
    gives={
        "title": ("{isbn}",),
        "availability": (
            "whether {isbn} is on the shelf",
            "whether a copy of {isbn} is available",
            "whether {isbn} is in or out on loan",
            "whether {isbn} can be borrowed right now",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "what's the title of {isbn}, who wrote it, when was it published and by whom?",
        "look up the title, author, publication year and publisher of {isbn}",
        "I need to cite {isbn}. Give me its title, author, year and publisher.",
        "pull up the catalogue record of {isbn}: title, author, year and publisher.",
        "who is the author of {isbn}, what's it called, which publisher put it out and in what year?",
        "find the bibliographic details of {isbn} (title, author, year of publication and publisher)",
        "give me the full record for {isbn}: title, author, publisher and year.",
        "get me the author, title, publisher and publication year for {isbn}",
        "I have {isbn} written down. Who wrote it, what's the full title, who published it and when?",
        "who wrote {isbn}, what's its title, and which publisher released it in which year?",
        "give me the title, author, year and publisher of {isbn}",
        "tell me about {isbn}: the title, the author, the year it came out and the publisher",
        "what are the title, author, publisher and year of {isbn}?",
        "look up {isbn} and give me the title, the author, the year and the publisher",
        "who is the author of {isbn}, and what are its title, year and publisher?",
        "find the title, author, publisher and year of publication for {isbn}",
    ),
    # A book's title, author and year travel together into a reference: all from one book.
    gives={
        "title": ("{isbn}",),
        "author": (
            "the author of {isbn}",
            "the person who wrote {isbn}",
            "the writer of {isbn}",
            "the author behind {isbn}",
        ),
        "publisher": (
            "the publisher of {isbn}",
            "the publishing house behind {isbn}",
            "the press that put out {isbn}",
            "the publisher listed for {isbn}",
        ),
        "title, author, year": ("{isbn}",),
    },
)
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


@toolbox.tool(
    asks=(
        "where is {title} kept? Give me the branch and the shelf mark.",
        "find the branch and shelf where {title} is kept",
        "I want to fetch {title} from the shelf myself. Which branch has it, and on which shelf?",
        "which branch holds {title}, and what's the shelf mark?",
        "look up the location of {title}: branch and shelf mark.",
        "where would I find {title}? Tell me the branch and the shelf.",
        "tell me which library branch has {title} and under which shelf mark",
        "track down {title} for me: which branch, which shelf?",
        "I'm heading out to pick up {title}. Which branch should I go to, and what's the shelf mark?",
        "find {title} for me: the branch that has it and its shelf mark",
        "I need {title} today. Which branch has it, and where is it on the shelves?",
    ),
    gives={
        "branch": (
            "the branch that holds {title}",
            "the branch where {title} is shelved",
            "the library branch that has {title}",
            "the branch where I'd find {title}",
            "the branch that stocks {title}",
            "the branch that keeps copies of {title}",
            "the branch carrying {title}",
            "the branch I'd have to visit for {title}",
            "the branch listed as holding {title}",
            "the branch housing {title}",
            "the branch the catalogue lists for {title}",
        ),
        "shelf_mark": (
            "the shelf where {title} is kept",
            "the shelf of {title}",
            "the shelf holding {title}",
            "the shelf {title} sits on",
            "the shelf location of {title}",
            "the spot where {title} is shelved",
            "the shelf {title} is kept on",
            "the shelf number for {title}",
            "the place on the shelves where {title} sits",
            "the shelf where copies of {title} stand",
            "the shelf where I'd find {title}",
            "the shelf {title} is on",
        ),
    },
)
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


@toolbox.tool(
    asks=(
        "start the augmented-reality guide to {shelf_mark} and tell me what it says and how long the walk takes",
        "launch the AR shelf guide for {shelf_mark}. What are the directions, and how many minutes will the walk take?",
        "I want the augmented-reality walk to {shelf_mark}. Start it and give me the directions and the walking time.",
        "open the AR guide to {shelf_mark} and read me its instructions and the walking time",
        "guide me to {shelf_mark} in augmented reality. What does the guide tell me, and how many minutes is the walk?",
        "can the AR guide walk me to {shelf_mark}? Tell me its directions and the walking time.",
        "fire up the augmented-reality shelf finder for {shelf_mark} and tell me its directions and how many minutes the walk takes",
        "I can never find my way to {shelf_mark}. Start the augmented-reality guide and let me know the directions and how long the walk takes.",
        "run the AR wayfinding to {shelf_mark} and give me its instructions and the estimated walking time",
        "set the AR navigator going toward {shelf_mark}; what route does it describe, and how many minutes will that take?",
        "these stacks are a maze. Have the augmented-reality guide lead me to {shelf_mark}, and tell me its directions and how many minutes I'll be walking.",
    ),
)
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
    asks=(
        "convert {isbn_text} to its 13-digit and 10-digit forms",
        "what are the ISBN-13 and the ISBN-10 of {isbn_text}?",
        "my reading list gives {isbn_text}. What is that as a 13-digit ISBN, and as a 10-digit one?",
        "normalise {isbn_text}: give me both the ISBN-13 and the ISBN-10, digits only.",
        "I have {isbn_text} from an old citation. What are its 10- and 13-digit versions?",
        "rewrite {isbn_text} as a plain 13-digit ISBN and as a 10-digit one",
        "which ISBN-13 and ISBN-10 correspond to {isbn_text}?",
        "turn {isbn_text} into clean ISBN-13 and ISBN-10 numbers",
        "the back cover says {isbn_text}. What would that be in 13-digit form, and in 10-digit form?",
    ),
    # Naming the book by the ISBN as printed is the user's part; normalising it is the agent's.
    gives={
        "isbn13": (
            "the book with {isbn_text}",
            "the book listed under {isbn_text}",
            "the edition with {isbn_text}",
            "the book printed with {isbn_text}",
            "the book identified by {isbn_text}",
            "the volume with {isbn_text} on its back cover",
            "the book my reading list cites as {isbn_text}",
            "the book that carries {isbn_text}",
        ),
    },
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
    asks=(
        "format an APA reference for {book}, published by {publisher}",
        "how do I cite {book}, published by {publisher}, in APA style?",
        "I'm writing my bibliography. Give me the APA-style reference for {book}, published by {publisher}.",
        "write the APA citation for {book}, published by {publisher}",
        "what does {book}, published by {publisher}, look like as an APA reference?",
        "turn {book}, from {publisher}, into an APA-style bibliography entry",
        "my professor wants APA. How should {book}, published by {publisher}, appear in my reference list?",
        "I need an APA reference-list entry for {book}, published by {publisher}.",
        "cite {book}, published by {publisher}, for me in APA format",
        "our journal follows APA. Produce the reference entry for {book} (publisher: {publisher}).",
        "the thesis office keeps bouncing my references. Write {book}, published by {publisher}, as a proper APA entry.",
        "draft the APA line for {book} with {publisher} as the publisher so I can paste it into my reference list",
        "set {book}, published by {publisher}, in APA format for the references section of my essay",
    ),
    groups={"book": "{title} by {author} ({year})"},
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

@toolbox.tool(
    asks=(
        "in which city and country was {author} born, and in what year?",
        "look up the birthplace and birth year of {author}",
        "I'm writing a short note on {author}. Which city and country were they born in, and in which year?",
        "find out where {author} was born (city and country) and the year of birth",
        "what year was {author} born, and in which city and country?",
        "pull up the profile of {author}: birth city, country and year.",
        "tell me the city, country and year of birth of {author}",
        "I'd love to know more about {author}. Which city and country were they born in, and when?",
        "get the birth details of {author}: city, country and year.",
    ),
)
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


@toolbox.tool(
    asks=(
        "which books by {author} does the library have? Give me the ISBNs, newest first.",
        "list the ISBNs of the catalogue's books by {author}, newest first",
        "I enjoyed a book by {author}. What else of theirs is in the catalogue? Give me the ISBNs, newest first.",
        "find everything by {author} that the library holds, and list the ISBNs from newest to oldest",
        "what does the library have by {author}? ISBNs, latest first, please.",
        "look up the works of {author} in the catalogue and give me their ISBNs, most recent first",
        "show me the ISBNs of all the books by {author} in the collection, sorted newest first",
        "has the library got anything written by {author}? List the ISBNs, newest first.",
        "I'm working through everything by {author}. Which of their books can I borrow here? ISBNs, newest first, please.",
        "list the ISBNs of every book by {author} in the catalogue, latest first",
        "my book club is reading {author} this term. Which of their books could we borrow here? List the ISBNs, starting with the newest.",
        "which works by {author} are in the collection? Show every ISBN, newest at the top.",
    ),
)
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
    asks=(
        "when does {branch} open and close on {date}?",
        "check the opening hours at {branch} on {date}",
        "I'm planning to go to {branch} on {date}. What time does it open, and when does it close?",
        "what are the hours at {branch} on {date}?",
        "look up when {branch} opens and closes on {date}",
        "find the opening and closing times at {branch} for {date}",
        "what time do the doors open at {branch} on {date}, and when do they close?",
        "I want to study at {branch} on {date}. When does it open, and how late does it stay open?",
        "what are the opening times at {branch} on {date}?",
        "I'm dropping in at {branch} on {date}. When does it open, and what time does it shut?",
        "tell me the hours at {branch} on {date}",
        "how early does {branch} open on {date}, and what's the closing time?",
    ),
    gives={
        "opens_at": (
            "the time {branch} opens on {date}",
            "the moment {branch} opens its doors on {date}",
            "the hour {branch} opens on {date}",
            "the time the doors of {branch} open on {date}",
        ),
    },
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
    day = _parse_day(date)
    require(HOURS_FIRST_DAY <= day <= HOURS_LAST_DAY,
            f"no opening hours published for {date}: the calendar covers {HOURS_FIRST_DAY} to {HOURS_LAST_DAY}")
    opens, closes = _hours(branch, day)
    return f"{day.isoformat()}T{opens}", f"{day.isoformat()}T{closes}"


@toolbox.tool(
    asks=(
        "what's the street address of {branch}, and which city is it in?",
        "find the address and city of {branch}",
        "I've never been to {branch}. Where exactly is it? Give me the street address and the city.",
        "look up the street address and city of {branch}.",
        "in which city is {branch}, and what's its street address?",
        "get me the full address of {branch}, city included",
        "tell me the street address and city for {branch}",
        "I need to send something to {branch}. What's the street address, and which city?",
        "how do I find {branch}? I want the street address and the city.",
        "what's the address of {branch}, including the city?",
        "give me the street address and the city of {branch}",
        "I'm heading to {branch}. Which street address should I go to, and in which city?",
    ),
    gives={
        "address": (
            "the street address of {branch}",
            "the address of {branch}",
            "the postal address of {branch}",
            "the mailing address of {branch}",
        ),
    },
)
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

@toolbox.tool(
    asks=(
        "check out {isbn} on my library card and tell me the loan number and due date",
        "borrow {isbn} for me; what's the loan number, and when is it due back?",
        "I'd like to take {isbn} home. Check it out on my card and tell me the loan number and the due date.",
        "lend me {isbn}, and give me the loan number and the return date",
        "issue {isbn} to my card. What's the loan number and the due date?",
        "put {isbn} on my card as a loan and tell me the loan ID and when I have to bring it back",
        "can I borrow {isbn}? Please check it out and tell me the loan number and due date.",
        "sign {isbn} out to me and tell me the loan number and the date it's due",
        "I need {isbn} for the next few weeks. Check it out to me, and what's the loan number and due date?",
        "I'm at the self-service kiosk with {isbn}. Check it out to my card and read me the loan number and due date.",
        "I have an exam coming up, and I want {isbn} at home to revise. Register the loan on my card; which loan number and return deadline does it get?",
        "borrow {isbn} on my library account and tell me the loan reference and the date it's due back",
        "sign out {isbn} on my library account. Which loan number is that, and by what date must it come back?",
    ),
    # A loan just made is not renewed or returned in the same breath: its number feeds nothing.
    gives={
        "due_date": (
            "the day {isbn} is due back",
            "the due date of {isbn}",
            "the date I have to return {isbn}",
            "the return date for {isbn}",
        ),
    },
    requires=("card_active",),
    tags=("state_change",),
)
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
    due = (TODAY + timedelta(days=LOAN_DAYS)).isoformat()
    w.state["loans"][loan_id] = {"isbn": isbn, "due": due, "renewals": 0}
    return loan_id, due


def _loan(w: LibraryWorld, loan_id: str) -> dict:
    require(loan_id in w.state["loans"],
            f"no open loan {loan_id!r} on your card; your open loans are {', '.join(sorted(w.state['loans'])) or 'none'}")
    return w.state["loans"][loan_id]


@toolbox.tool(
    asks=(
        "return the book on {loan_id} and tell me the late fee, if any",
        "check in the book I borrowed on {loan_id}; what's the late fee, if there is one?",
        "I'm bringing back the book from {loan_id}. Return it, and tell me what the late fee comes to.",
        "return {loan_id} and let me know the late fee",
        "close {loan_id} by returning the book; was there a late charge, and how much?",
        "I've finished with the book on {loan_id}. Check it back in and tell me how much I owe for lateness.",
        "mark {loan_id} as returned and tell me the late fee charged",
        "please return the book on {loan_id}. Is there a late fee, and how much?",
        "hand back the book on {loan_id} for me and report any late fee",
    ),
    tags=("state_change", "ends"),
)
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


@toolbox.tool(
    asks=(
        "renew {loan_id} for another three weeks and tell me the new due date",
        "I'd like to keep the book on {loan_id} longer. Can you renew it? When is it due back after that?",
        "extend {loan_id} by three weeks; what's the new due date?",
        "renew {loan_id} and give me the new return date",
        "I need more time with the book on {loan_id}. Renew it and tell me when it's due now.",
        "push back the due date on {loan_id}; what's the new date?",
        "can {loan_id} be renewed? Renew it and let me know the new due date.",
        "give me another three weeks on {loan_id}, and tell me the date it's due after renewal",
        "renew {loan_id} and tell me by when I have to return it",
    ),
    gives={
        "new_due_date": (
            "the new due date of {loan_id} once renewed",
            "the day {loan_id} is due after renewing it",
            "the date {loan_id} is due once extended",
            "the renewed due date of {loan_id}",
        ),
    },
    requires=("card_active",),
    tags=("state_change",),
)
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


@toolbox.tool(
    asks=(
        "place a hold on {isbn} for pickup at {pickup_branch}; where am I in the queue, and when will it be ready?",
        "put {isbn} on hold for me at {pickup_branch} and tell me my place in the queue and the pickup date",
        "I'd like to collect {isbn} at {pickup_branch}. Place a hold, and tell me my queue position and when it'll be ready.",
        "reserve {isbn} for collection at {pickup_branch}, and tell me my queue position and the ready date",
        "hold {isbn} for me at {pickup_branch}. What number am I in line, and when can I pick it up?",
        "I want {isbn} waiting for me at {pickup_branch}. Put a hold on it and tell me my place in line and the pickup date.",
        "can you put a hold on {isbn} with pickup at {pickup_branch}? I'd like to know my queue position and when it'll be ready.",
        "request {isbn} for pickup at {pickup_branch} and tell me where I stand in the hold queue and the expected ready date",
        "which day can I collect {isbn} at {pickup_branch}, and what's my queue position? Place the hold, please.",
        "add me to the waiting list for {isbn}, collecting at {pickup_branch}; which position do I hold, and when should it be on the hold shelf?",
        "I'd rather collect {isbn} at {pickup_branch} than hunt for it. Set up a hold there and report my spot in the queue and the expected pickup day.",
        "at {pickup_branch}, line me up for {isbn}: queue number and the day it'll be waiting.",
        "queue me for {isbn} with collection at the holds desk of {pickup_branch}. How far up the line am I, and which day will it be ready?",
        "put a hold on {isbn} to pick up at {pickup_branch}, and tell me my queue position and the ready date",
        "reserve {isbn} for me at {pickup_branch}; what's my place in the queue and when can I collect it?",
        "I'd like {isbn} held at {pickup_branch}. Place the hold and tell me my spot in line and when it'll be ready.",
        "set up a hold on {isbn} for collection at {pickup_branch}, and give me my queue number and the ready date",
        "place a hold for me on {isbn} at {pickup_branch}. Where am I in the queue, and what's the pickup date?",
        "hold {isbn} for pickup at {pickup_branch}; what's my queue position and the ready date?",
        "please place a hold on {isbn} with pickup at {pickup_branch}, and tell me my place in line and when it'll be ready",
        "put me in the queue for {isbn} at {pickup_branch} and tell me my position and the date it'll be ready",
    ),
    gives={
        "ready_date": (
            "the day my hold on {isbn} will be ready at {pickup_branch}",
            "the day {isbn} can be picked up at {pickup_branch}",
            "the date {isbn} will be waiting for me at {pickup_branch}",
            "the pickup date for {isbn} at {pickup_branch}",
        ),
    },
    requires=("card_active",),
    tags=("state_change",),
)
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
    asks=(
        "ask the partner library in {partner_city} to send {isbn} to {pickup_branch}; what's the request number, and when will it arrive?",
        "request {isbn} through interlibrary loan from {partner_city}, for pickup at {pickup_branch}, and tell me the request number and arrival date",
        "borrow {isbn} from our partner library in {partner_city} so I can collect it at {pickup_branch}: what's the request number and the arrival date?",
        "order {isbn} from the partner library in {partner_city} for pickup at {pickup_branch}, with the request number and arrival date",
        "get {isbn} sent over from {partner_city} to {pickup_branch} on interlibrary loan. What's the request number, and when will it arrive?",
        "set up an interlibrary loan of {isbn} from {partner_city}, to collect at {pickup_branch}, and tell me the request number and when it gets in",
        "can the library in {partner_city} lend me {isbn}? Request it for pickup at {pickup_branch} and give me the request number and arrival date.",
        "I need {isbn}. Have the partner library in {partner_city} send it to {pickup_branch}, and tell me the request number and the arrival date.",
        "file an interlibrary loan request for {isbn} from {partner_city}, delivered to {pickup_branch}, and give me the request number and the expected arrival date",
    ),
    gives={
        "arrival_date": (
            "the day {isbn} arrives at {pickup_branch} from {partner_city}",
            "the day the copy of {isbn} from {partner_city} reaches {pickup_branch}",
            "the arrival date of {isbn} at {pickup_branch} from {partner_city}",
            "the date the interlibrary loan of {isbn} from {partner_city} gets to {pickup_branch}",
        ),
    },
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
    arrival = (TODAY + timedelta(days=days)).isoformat()
    w.state["ill_requests"][isbn] = {"id": request_id, "city": partner_city, "branch": pickup_branch, "arrival": arrival}
    return request_id, arrival


@toolbox.tool(
    asks=(
        "reserve a reading room at {branch}[ for {hours} hour(s)] from {start}; which room did I get, and what's the reservation number?",
        "book me a reading room at {branch}[ for {hours} hour(s)] from {start} and tell me the room and the reservation number",
        "I need a quiet place to study at {branch}[ for {hours} hour(s)] from {start}. Reserve a reading room and tell me which one and the reservation number.",
        "get me a study room at {branch}[ for {hours} hour(s)] starting from {start}, and tell me which room and the booking number",
        "is there a reading room free at {branch}[ for {hours} hour(s)] from {start}? Book it and give me the room name and the reservation number.",
        "I'd like to work at {branch}[ for {hours} hour(s)] from {start}. Book me a reading room, and tell me which room and the reservation number.",
        "hold a reading room for me at {branch} from {start}[, {hours} hour(s) long], and tell me the room name and reservation number",
        "book a room to read in at {branch}[ for {hours} hour(s)] from {start}. Which room is it, and what's my reservation number?",
        "reserve study space at {branch}[ for {hours} hour(s)] from {start} and let me know the room and the confirmation number",
        "I want a study room at {branch}[ for {hours} hour(s)] from {start}. Can you book one and give me the room and the booking reference?",
        "grab me a quiet room at {branch}[ for {hours} hour(s)] from {start}; which room, and what's the confirmation code?",
        "set aside a room to study in at {branch}[ for {hours} hour(s)] from {start} and send me the room name and the booking number",
        "could I have a reading room at {branch}[ for {hours} hour(s)] from {start}? Which one do I get, and under what reservation number?",
        "reserve me somewhere quiet to work at {branch}, starting from {start}[, for {hours} hour(s)], and tell me the room and the booking reference",
        "I have a thesis deadline. Secure me a reading room at {branch}[ for {hours} hour(s)] from {start}; which room, and under which reservation number?",
        "put a reading-room booking in my name at {branch} from {start}[, {hours} hour(s) long], and tell me the room I get and its reservation number",
        "I'll be revising at {branch}[ for {hours} hour(s)] from {start} and need somewhere silent. Book a reading room; which one did I get, and what reservation number goes with it?",
    ),
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

@toolbox.tool(
    asks=(
        "how much is owed in fines on {card_number}, and how many items on it are overdue?",
        "check the fines and overdue items on {card_number}",
        "I'm worried about {card_number}. How much is owed on it in fines, and how many books on it are overdue?",
        "look up the fine balance and the overdue count for {card_number}",
        "what's the fine total on {card_number}, and how many overdue items does it have?",
        "is anything owed on {card_number}? Tell me the fines due and the number of overdue items.",
        "get the outstanding fines on {card_number} and how many of its loans are overdue",
        "how much is owed to the library on {card_number}, and how many books on it are late?",
        "pull up {card_number}: fines owed and overdue items.",
    ),
)
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


@toolbox.tool(
    asks=(
        "pay my library fines {payment_method} and tell me how much that was",
        "settle what I owe the library, {payment_method}; how much did I pay?",
        "I'd like to clear my library fines. Pay them {payment_method} and tell me the amount.",
        "pay off my overdue fines {payment_method}; what's the total?",
        "clear my fines balance {payment_method} and let me know how much was paid",
        "I want to pay my late fees {payment_method}. Take care of it and tell me the total.",
        "how much do I owe in library fines? Pay all of it {payment_method}.",
        "wipe out my library fines, paying {payment_method}, and tell me the amount",
        "settle my library account {payment_method}; how much did it come to?",
    ),
    tags=("state_change",),
)
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
    asks=(
        "reactivate my library card and tell me the card number and when it now expires",
        "turn my library card back on; what's the card number, and until when is it valid?",
        "my library card was switched off. Reactivate it and tell me the card number and the new expiry date.",
        "renew my library card for another year and give me its number and expiry date",
        "get my library card working again; what's its number and new expiry date?",
        "reactivate my card at the library, and tell me the number and the date it runs out",
        "switch my library card back on and confirm the card number and the expiry date",
        "I can't borrow because my card is inactive. Turn it back on and tell me the card number and expiry date.",
        "unblock my library card. What's the number, and when does it expire now?",
    ),
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
    return w.my_card, (TODAY + timedelta(days=365)).isoformat()


toolbox.condition(
    "card_active",
    holds=lambda w: bool(w.state.get("card_active")),
    broken_state={"card_active": False},
    fix=("activate_library_card", {}),
    consent="sign",  # reactivating signs the patron up for another year: only on their word
    context=("If my card has lapsed, renew my library card for me.",
             "Reactivate my library card if it has lapsed.",
             "Should it have lapsed, go ahead and renew my library card."),
    says=("My library card seems to have been deactivated.",
          "My library card stopped working.",
          "The library says my card isn't active."),
)
toolbox.condition(
    "fines_under_limit",
    holds=lambda w: w.state.get("fines_due", 0.0) < FINE_LIMIT,
    broken_state={"fines_due": 6.5},
    fix=("pay_library_fines", {"payment_method": "card"}),
    consent="spend",
    context=("If fines are holding things up, pay them off {payment_method}.",
             "Settle any fines on my account {payment_method} if you have to.",
             "Should my fines be in the way, pay them {payment_method}."),
    says=("I owe the library more than $5 in fines.",
          "I've racked up over $5 in library fines.",
          "There are more than five dollars of overdue fines on my card."),
)


# --- goals: what a person wants, and the tools that serve it ------------------------------
# Every tool serves a patron on their own card; what differs is the errand: a book on the
# shelf today, a book that is out, the loans and fines on my card, a reference for a paper.
# Checking a book out, holding it and asking a partner library for it are three answers to
# one question, never one request about the same book, so each serves its own goal.
# No goal goes to the maps seed: my phone's position is in one city and the branches in many,
# so "how long to the branch from here" is mostly a trip across the world, and the coordinates
# of a branch's address are a detour nobody asks for.

toolbox.goal(
    "fetch a book from the shelf",
    wants="find a book, check a copy is in, walk to its shelf and take it home or read it there",
    role="patron",
    tools=("search_library_catalogue", "convert_isbn", "scan_isbn", "get_book_details", "locate_book",
           "launch_ar_shelf_guide", "get_branch_hours", "get_branch_address", "checkout_book", "reserve_reading_room"),
)
toolbox.goal(
    "hold a book that is out",
    wants="find a book none of whose copies is on the shelf, hold it at a branch and know when to collect it",
    role="patron",
    tools=("search_library_catalogue", "convert_isbn", "scan_isbn", "get_book_details", "list_books_by_author",
           "place_hold", "get_branch_hours", "get_branch_address"),
)
toolbox.goal(
    "borrow a book from a partner library",
    wants="have a book the library here lacks sent from a partner library in another city, and know when to collect it",
    role="patron",
    tools=("convert_isbn", "scan_isbn", "get_book_details", "request_interlibrary_loan", "get_branch_hours",
           "get_branch_address"),
)
toolbox.goal(
    "keep my loans and card in order",
    wants="return or renew what I have borrowed, see to the fines on my card, and plan my next visit to the branch",
    role="patron",
    tools=("return_book", "renew_loan", "get_patron_fines", "pay_library_fines", "get_branch_hours",
           "get_branch_address", "reserve_reading_room"),
)
toolbox.goal(
    "cite a book and its author",
    wants="get a book's details and its author's for a paper, and a reference to cite it by",
    role="student writing a paper",
    tools=("search_library_catalogue", "convert_isbn", "scan_isbn", "get_book_details", "format_apa_citation",
           "get_author_profile", "list_books_by_author", "locate_book"),
)
# A course's set book, found in the course catalogue (the education seed's), then at the library.
toolbox.goal(
    "borrow the textbook for my course",
    wants="find the book my course sets, where it is kept, and hold a copy at the library",
    role="student",
    tools=("get_course_textbook", "scan_isbn", "get_book_details", "locate_book", "launch_ar_shelf_guide",
           "place_hold", "get_branch_hours"),
)
