"""Wording one chain: each asked call as a request in the seed's own phrasings, and every nested
value described by what it is ("the city Anna lives in"), never by the step that makes it.

A phrasing (`asks`) or description (`gives`) is a template over the call's parameters:
`{param}`, a group placeholder `{point}` standing for parameters that travel together,
`[...]` around a part stated only when its optional parameters are given, and `word(s)` after
a number for agreement. A nested argument is filled with the description of the value that
feeds it, recursively; a value described once is later called "that city", and a name, an
address or an id stated once in full (in the request or the sentences that open it) is later
"that library branch", "that patient", whenever nothing else in the request goes by that noun.
"""

from __future__ import annotations

import random
import re
import string
from collections import ChainMap, Counter
from dataclasses import dataclass, field
from typing import Any

from factory.chains.pool import TODAY, groups_of, placeholders
from factory.queries.placement import TIME_KINDS, day_first
from factory.queries.readable import COMPANION_KINDS, to_ask, transparent
from factory.queries.situations import fits_goal, situation
from factory.queries.values import DateStyle, render_value
from factory.records import Call, Chain, Output, Param, Ref, ToolSpec, Value
from factory.toolbox import Goal, ToolEntry
from factory.toolbox.gazetteer import CITY_BY_NAME, COUNTRY_BY_NAME
from factory.toolbox.sense import SCENE_KINDS, is_day, is_moment, is_named
from factory.toolbox.user import USER, known_by_first_name

_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_SUFFIXES = ("_name", "_title", "_id", "_text", "_code", "_mention", "_names", "_ids", "_codes", "_numbers",
             "_c", "_kmh", "_percent", "_m2", "_minutes")  # a unit is not part of the noun: "that temperature"
# Kinds whose role only qualifies them: a listing's latitude is "that latitude", not "that listing".
_PLAIN_KINDS = frozenset({"latitude", "longitude", "city", "country", "address", "date", "datetime", "email",
                          "phone_number"})  # (an employee's email is "that email", not a second "that employee")
# Nouns of places, days and amounts: a call given one may find another ("the warehouse nearest
# that city" is in another city).
_THERE_KINDS = ("city", "country")  # places a description may say again as "there"
_PLACE_NOUNS = frozenset({"city", "country", "address", "location", "date", "time", "latitude", "longitude", "amount"})
_MONEY_NOUNS = ("price", "salary", "fee", "fine", "fare", "total", "balance", "cost", "pay", "budget", "refund", "charge",
                "tuition", "postage", "rent", "payment", "income", "revenue", "value")
GROUP_NOUNS = {frozenset({"latitude", "longitude"}): "location", frozenset({"money_amount", "currency_code"}): "amount"}


def written_form(forms: dict[str, Any], kind: str | None, role: str | None) -> Any:
    """How a value of this kind and role is written (`Toolbox.written_as`): the role's form
    first, then the kind's; None when the seed declares neither."""
    return forms.get(f"{kind}/{role}") or forms.get(kind or "")


_SHIFTING_KINDS = {"years_back"}  # parameters that move the day a call is about away from the day it is given
def _is_money(output: Output) -> bool:
    """Whether an output is a sum of money: of its kind, named as one (a payslip's net_pay), or
    documented as one (a conversion's "converted amount", a price "in the requested currency");
    a rate is none."""
    return output.kind == "money_amount" or bool(set(output.name.split("_")) & set(_MONEY_NOUNS)) or (
        output.type in ("int", "float") and not output.name.endswith("rate")
        and re.search(r"\b(?:amount|currency|cents)\b", output.description.lower()) is not None)


_TIME_NOUNS = {"day", "days", "date", "dates", "time", "times", "moment", "moments"}  # "that day" means the last one


def noun_of(outputs: list[Output], written: dict | None = None) -> str:
    """A short noun for a described value, for "that city": the noun of its kind's written form
    ("the book with ISBN {}" → "book"), else its role ("that patient"; a place or a measure goes
    by its kind; a person by what their name is of: "manager_name" is "that manager"), else its
    kind."""
    kinds = frozenset(o.kind or "" for o in outputs)
    if kinds in GROUP_NOUNS:
        return GROUP_NOUNS[kinds]
    first = outputs[0]
    noun = literal_noun(written_form(written or {}, first.kind, first.role))
    if noun:
        return noun + "s" if is_list(first) and not noun.endswith("s") else noun
    if first.kind == "money_amount" and not first.role:
        # A sum goes by what it is ("the closing share price": "that price"), not "that money amount"
        said = re.findall(rf"\b({'|'.join(_MONEY_NOUNS)})\b", re.sub(r"\([^)]*\)", "", first.description))
        return said[-1] if said else "amount"
    word = first.kind if first.kind in _PLAIN_KINDS else first.role or first.kind or first.name
    if first.kind == "person_name" and first.name.endswith("_name") and first.name != "full_name":
        word = first.name.removesuffix("_name")  # an employee's manager is "that manager", not "that employee"
    if first.kind == "datetime" and (first.role or "").endswith("_slot"):
        word = first.role  # "that delivery slot": unlike "that time", still itself after other times
    if first.kind and first.kind.endswith(_FREE_TEXT):
        word = first.name  # a product's category feeds a search, yet it is "that category", not "that product search terms"
    if word == "datetime":
        return "time"  # "at that time"
    for suffix in _SUFFIXES:
        word = word.removesuffix(suffix)
    word = word.replace("_", " ")
    return word + "s" if is_list(first) and not word.endswith("s") else word


def _names_days(output: Output) -> bool:
    """Whether an output is or lists days or times: after a year's holidays, each with its date,
    "that date" no longer says the day named before them (reading 49 #18)."""
    return is_day(output) or is_moment(output) or "YYYY-MM-DD" in output.description


def is_list(output: Output) -> bool:
    return output.type.startswith("list")





def that(noun: str, plural: bool, rng: random.Random | None = None) -> str:
    """A thing named again: "that hotel", "those hotels". Not "the same hotel" or "this hotel":
    cold readers stumbled over "the same listing" when only one listing was ever named."""
    return f"{'those' if plural else 'that'} {noun}"


def agree(text: str) -> str:
    """`1 night(s)` → `1 night`, `3 night(s)` → `3 nights`."""
    text = re.sub(r"(?<![\d.,])1 (\w+)\(s\)", r"1 \1", text)
    return text.replace("(s)", "s")


_BARE_DAYS = (r"today|tonight|tomorrow|yesterday|a week from today|the day after tomorrow|the day before yesterday|in \d+ \w+"
              r"|\d+ \w+ ago|a week ago|in a week|(?:next|last|this) (?i:mon|tues|wednes|thurs|fri|satur|sun)day")
_DAY_SAID = (rf"{_BARE_DAYS}|next \w+|\d{{4}}-\d{{2}}-\d{{2}}|(?:\w+day, )?[A-Z][a-z]+ \d{{1,2}}, \d{{4}}"
             r"|\d{1,2} [A-Z][a-z]+ \d{4}|that (?:day|date)")  # a day just named, in words or as a date
_MONTH = "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DAY_STATED = rf"{_BARE_DAYS}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH} \d{{1,2}}|\d{{1,2}} {_MONTH}"  # a day named, in any style


# "On that day" inside a description that follows the day it means, in one phrasing: "the air
# quality next Monday in the hottest city in China on that date" says the day twice in one phrase.
_THAT_DAY_INSIDE = re.compile(r",? (?:on|for) that (?:day|date)\b")


def _day_said_again(description: str) -> str:
    """A description that follows a day its phrasing just stated says "that day" for its own
    "on that day" (one it says before any other day: after "flight AU1 on June 3", "that day"
    is June 3's): "the UV the day after tomorrow for the hottest city in Germany that day",
    where without a day at all a reader asks "hottest when?", and a trailing "then" read as
    a loose end."""
    match = _THAT_DAY_INSIDE.search(description)
    if match is None or re.search(rf"\b(?:{_DAY_STATED})\b", description[:match.start()]):
        return description
    return description[:match.start()] + " that day" + description[match.end():]


def _short_of_said(before: str, value: str) -> str:
    """A thing named again without a word its phrasing has just said: "with the wind at that
    speed", not "with the wind at that wind speed"."""
    match = re.fullmatch(r"(that|those) ([a-z]+(?: [a-z]+)+)", value)
    if match is None:
        return value
    just_said = set(re.findall(r"[a-z]+", before.lower())[-3:])
    kept = [word for word in match.group(2).split() if word not in just_said]
    return f"{match.group(1)} {' '.join(kept)}" if kept and len(kept) < len(match.group(2).split()) else value


# A slot right after "the city" or "the date" opens a clause ("the city {parcel} is going to"):
# a literal written with a bare noun ("parcel AF1") takes an article there.
_AFTER_A_NOUN = re.compile(r"\bthe [a-z]+(?: [a-z]+)? $")
_NOT_NOUNS = frozenset("of for to from in on at by with about into onto near around under over between than as via per "
                       "and or is are was were that which who whose where when".split())
_BARE_NOUN_LITERAL = re.compile(r"[a-z]+ [A-Z0-9]")


def with_article(before: str, value: str) -> str:
    """A value with "the" when it is a literal written with a bare noun ("parcel OC857") and
    opens a clause after a noun: "the city the parcel OC857 is going to", not "the city parcel
    OC857 is going to"."""
    if _AFTER_A_NOUN.search(before) and before.split()[-1] not in _NOT_NOUNS and _BARE_NOUN_LITERAL.match(value):
        return "the " + value
    return value


def in_form(form: Any, text: str) -> str:
    """A value's text in a written form: a template ("order {}") or a function; as it is without one."""
    if form is None:
        return text
    return form(text) if callable(form) else form.format(text)


def literal_noun(form: object) -> str | None:
    """The noun of a written form that names a thing by its id or name ("order {}" → "order",
    "the book with ISBN {}" → "book"), so that a second mention can say "that order"; None for
    units, quotes and functions; "the {} department" → "department"."""
    if not isinstance(form, str):
        return None
    match = re.fullmatch(r"(?:the )?([a-z]+(?: [a-z]+)?)(?: (?:with|of) [A-Za-z ]+)? \{\}", form)
    after = re.fullmatch(r"the \{\} ([a-z]+)", form)  # "the {} department": "that department"
    return match.group(1) if match else after.group(1) if after else None


# Kinds of free text (a search, a message, a surface form to resolve): said again, they are
# not a thing to call "that search".
_FREE_TEXT = ("_search_terms", "_query", "_text", "_mention", "_description")


# Slots where a value fits and a description does not: read as what a clock or a gauge shows;
# opening a relative clause ("the bottles of that wine that the country it comes from sent
# overseas"); fronted before the question ("Right now in the city that contact calls home,
# what's the time?"); or followed by a participle that would attach to the description's last
# noun ("the property closest to 47 Chapel Lane booked for June 22").
_VALUE_SLOTS = (re.compile(r"\b(?:it's|it is|it was|(?:meeting|call) (?:set|scheduled) for|that|which) \{(\w+)\}"),
                re.compile(r"^[^,.?!{]*\{(\w+)\}[^,.?!{]*, (?:what|which|how|when|where|who)\b"),
                re.compile(r"\{(\w+)\},? booked for\b"),
                # "the exchange value of the closing share price of X on March 21 in SEK today"
                re.compile(r"\bthe (?:exchange )?value of \{(\w+)\}"), re.compile(r"\{(\w+)\} in \{\w+\} today\b"),
                # "a mortgage of the price being asked for that listing at 6.5%" (reading 45 #19)
                re.compile(r"\{(\w+)\} at \{\w+\}%"),
                # "if I converted the live quote for that stock into AED" (reading 56 #1): money one has
                re.compile(r"\bif I (?:converted|changed|swapped) \{(\w+)\}"),
                # "the UV index for the city that comes out hottest in China that day and its risk
                # level": "its" reads as the description's (reading 61 #39)
                re.compile(r"\{(\w+)\}(?=[^.?!]*\b(?:its|their)\b)"))
_ASKER_MISPLACED = re.compile(r"\b(?:of|name|under|as) me\b")  # "me" read as a name, not the person
# A value named again right after its own noun says nothing: "if the temperature is that
# temperature", "the apparent temperature when it's that temperature".
_SAID_OF_ITSELF = re.compile(r"\b(\w+)(?: \w+){0,2}(?: (?:is|are|was|of|at|as|around|for)|'s) (?:that|those) \1\b",
                             re.IGNORECASE)
# A period, the present or "local" said twice in one part: "the yearly tax on the base pay of
# E-1459 per year"; "the weather right now at where I am right now" (reading 54 #21); "the local
# time in Melbourne for the local start time of that event" (reading 57 #3).
_PERIOD = r"(?:yearly|annual|annually|(?:a|per|each|every) year|monthly|(?:a|per|each|every) month)"
_PRESENT = r"(?:right now|at the moment|at present|currently)"
# A "where" clause after a preposition that takes a noun: "the weather at where I am".
_AT_WHERE = re.compile(r"\b(?:at|in|of|for|on|to) where\b", re.IGNORECASE)
_SAID_TWICE = re.compile(rf"\b{_PERIOD}\b.*\b{_PERIOD}\b|\b{_PRESENT}\b.*\b{_PRESENT}\b|\blocal\b.*\blocal\b|\bcurrent\b.*\bcurrent\b",
                         re.IGNORECASE)
# A situation that is a plan, not a look back: "we're shooting ...", "I'm flying ...", "we'll ...".
_PLAN = re.compile(r"\b(?:we're|we are|i'm|i am|we'll|i'll|will|going to|planning|plan to|booked)\b", re.IGNORECASE)
# What reads as a description's own when it follows one: a relative clause ("everything by the
# writer of the book with ISBN 978... that the library holds"), a fixed place ("... in the
# catalogue"), or a verb whose subject the description is ("which weekday the day Aisha
# celebrates her next birthday falls on"), readings 50 #33 and 52 #20, #29.
_LINKING = ("in|on|at|for|from|to|and|or|with|by|of|near|around|after|before|until|since|between|into|over|under"
            "|as|than|starting|counting|then|too|please|instead|via|per|if|when|while|so|but|because|during|within"
            "|across|through|up|out|along|beside|against|among|is|are|was|were|be|has|have|had|do|does|did|will|would"
            "|can|could|should|may|might|now|today|tomorrow|again|first|next|last|plus|also|only|each|every|both|all")
# A means, a place or a "for me" said after a description is read as its own too: "whoever
# organised the budget review on July 26 by text" (reading 68 #18), "the drug most recently
# prescribed to that patient in that city" (reading 70 #28), "the city where that place is for
# me" (reading 71 #10).
_RELATIVE = r"(?:that|which|who|whom|whose|where)\b"
_CLAUSE_NEXT = re.compile(rf"\s+(?:{_RELATIVE}|(?:in|at|on|from|of|with) (?:the|our|my|your)\b"
                          rf"|in (?:that|those) (?!day|date|time)\w|for me\b"
                          rf"|(?:by|via|as|in) (?:an? )?(?:text|SMS|email|e-mail|phone|post|mail|card|cash)\b"
                          rf"|(?!(?:{_LINKING})\b)[a-z])")
# A relative clause after "that grape variety" (a thing said again) is the variety's too: "a
# wine made from that grape variety that comes from Australia" (reading 68 #25).
_RELATIVE_NEXT = re.compile(rf"\s+{_RELATIVE}")
_ISO_DAY_OR_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}(?:T.*)?")
# A situation of this very moment: "I'm about to hang laundry out in {city}. What's ... now".
_NOW = re.compile(r"\b(?:about to|right now|now|at the moment|this minute|current|currently|deciding whether|today|tonight)\b",
                  re.IGNORECASE)
# A day in the person's words that opens with a preposition, after one: "one year before in a
# week", "from in 3 days" (reading 37 #29).
# ... or one that counts back from now after one that counts from it: "one year prior to a week ago"
# (reading 68 #37).
PREPOSITION_CLASH = re.compile(r"\b(?:before|after|from|until|since|on|by|of|for|at) (?:in|within) (?:a|an|\d+|one|two|three) \w+"
                               r"|\b(?:before|after|prior to|until|since) (?:a|an|\d+|one|two|three) \w+ ago\b")
# A past day in a question asked in the present: "are offices in Australia closed for a public
# holiday a week ago?", "is yesterday a public holiday?".
_PAST_DAY = r"(?:yesterday|the day before yesterday|\d+ \w+ ago|a week ago|last (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
# "is it raining yesterday", "which city has the highest temperature a week ago" (reading 78 #18)
TENSE_CLASH = re.compile(rf"(?:(?:^|[.?!:]\s+)(?:is|are|do|does)\b[^.?!]*?|\b(?:has|have)\b[^.?!,;]*?)\b{_PAST_DAY}",
                         re.IGNORECASE)
_SAID_OF_ITSELF_AT_ONCE = re.compile(r"\b(\w+(?: \w+)?) (?:is|are|was|of|at|as|around) (?:that|those) \1\b", re.IGNORECASE)


def _said_of_itself(text: str) -> int:
    """How badly a text names values after their own nouns, the noun right before worst."""
    return 2 * len(_SAID_OF_ITSELF_AT_ONCE.findall(text)) + len(_SAID_OF_ITSELF.findall(text))


# People the asker knows, said again by their first name ("Omar Haddad ... Omar's email"); an
# author, a patient or an employee is "that author" ("where Omar was born" of a book's author
# reads as someone the asker knows).
_FIRST_NAME_ROLES = frozenset({"contact", "attendee", "invitee", "traveller"})


def reference_noun(kind: str | None, role: str | None) -> str | None:
    """The noun a named literal goes by when mentioned again: a person by their role ("that
    patient"), anything else by its kind ("that library branch", "that course"); None for free
    text, days and times, and values without a kind."""
    if not kind or kind in SCENE_KINDS or kind.endswith(_FREE_TEXT):
        return None
    if kind == "person_name":
        return (role or "person").replace("_", " ")
    if kind == "email":
        return "email address"
    word = kind
    for suffix in (*_SUFFIXES, "_title", "_number"):
        word = word.removesuffix(suffix)
    return word.replace("_", " ")


def sentence_start(ask: str) -> str:
    """An ask as frames expect it, starting in lower case ("And my bank is offering ..."), since
    a frame capitalises what opens a sentence; "I" and acronyms ("UV", "IATA") keep theirs."""
    first = ask.split(" ", 1)[0]
    if first[:1].isupper() and first[1:2].islower():
        return ask[:1].lower() + ask[1:]
    return ask


ABBREVIATIONS = "Ltd|Inc|Co|Corp|Bros|Ave|St"  # whose period also ends a sentence ("... of Acme Inc. Another thing")


def tidy(text: str) -> str:
    """Spacing, doubled words and phrases, and articles left by filled templates."""
    # Not prepositions: "the city Anna lives in in June" collapsed would say something else; the
    # faithfulness check rejects such a request instead.
    text = re.sub(r"\b(the|a|an|and)\s+\1\b", r"\1", text, flags=re.IGNORECASE)
    text = re.sub(r"\b((?:on|in|for|at) (?:that|the same) \w+)(?: \1)+\b", r"\1", text)  # "on that day on that day"
    text = re.sub(rf"\b({_DAY_SAID}),? (?:on|for) that (?:day|date)\b", r"\1", text)  # "tomorrow on that date"
    # "Air quality today for the hottest city in Italy that day?" (reading 40 #8): today goes without
    # saying; after another day, "that day" stays ("next Monday in the hottest city in China that day")
    text = re.sub(rf"(\btoday\b(?:(?!{_DAY_STATED})[^.?!])*?) (?:on |for )?that day\b", r"\1", text)
    text = re.sub(r"\b(?:a|an|the) (the|that|those|my|your|this)\b", r"\1", text, flags=re.IGNORECASE)  # "order the that item"
    text = re.sub(rf"\bon ({_BARE_DAYS})\b(?!')", r"\1", text)  # "on today's market" keeps its "on"
    text = re.sub(r"\bon (the (?:end|start|beginning) of the (?:week|month|year))\b", r"at \1", text)
    text = re.sub(r"\b(open|opens|closed|closes|at) at ((?:[A-Z][a-z]+day, )?[A-Z][a-z]+ \d{1,2}, \d{4} at)", r"\1 on \2",
                  text)  # "open at June 23, 2025 at 13:00": a day is "on"
    text = re.sub(r"\b(around|by|before|after|until) ((?:[A-Z][a-z]+day, )?[A-Z][a-z]+ \d{1,2}, \d{4}|\d{1,2} [A-Z][a-z]+ \d{4}"
                  r"|\d{4}-\d{2}-\d{2}) at (\d{1,2}(?::\d{2})? ?(?:[ap]m)?)(?!\w|:\d)", r"\1 \3 on \2",
                  text)  # "around June 24, 2025 at 8:00 am": the hour first, "around 8:00 am on June 24, 2025"
    text = re.sub(r"\b(around|by|before|after|until) ((?:next|this|coming) [A-Z][a-z]+day|tomorrow) at "
                  r"(\d{1,2}(?::\d{2})? ?(?:[ap]m)?)(?!\w|:\d)", r"\1 \3 \2",
                  text)  # "15 minutes after next Monday at 9:30am" reads as after Monday: "after 9:30am next Monday"
    # "right now ... in EUR today", "today's stock price ... in CAD today": one "now" a sentence
    text = re.sub(r"(\b(?:right now|today's|today)\b[^.?!]*?),? today\b(?!')", r"\1", text)
    text = re.sub(rf"\b({ABBREVIATIONS})\.\.", r"\1.", text)  # an abbreviation ending a sentence
    text = re.sub(r'([.?!])"\.', r'\1"', text)  # a quoted message that ends its own sentence: '"... address."', not '."."'
    text = re.sub(r"\b(\w+) among those \1s\b", r"of those \1s", text)  # "which hotel among those hotels"
    text = re.sub(r"\s+([,.?!;:])", r"\1", text)
    return " ".join(text.split())


# Nouns a second "that X" in one sentence may not become "it": people ("that patient" is not
# "it"), places and days ("in it", "on it" lose what they name), and what travels with them.
_NOT_IT = frozenset({"day", "date", "time", "year", "city", "country", "location", "address", "place", "amount",
                     "person", "contact", "patient", "employee", "student", "instructor", "teacher", "doctor",
                     "physician", "agent", "estate agent", "customer", "buyer", "traveller", "reviewer", "author",
                     "attendee", "invitee", "ceo", "manager", "head", "organiser", "organizer", "host", "member"})
_ANOTHER_IT = re.compile(r"\b(?:it|its|those \w+|that (?:city|country|location|place|address))\b")  # "it" would be unclear


def pronouns(text: str, nouns: set[str]) -> str:
    """A thing named a second time in one sentence as "it": "bottles of that wine shipped from
    the country it was made in", not "that wine" twice. Not for people, places or days
    (`_NOT_IT`), nor after "of" ("the price of it"), nor when something else that could be "it"
    is spoken of in between. The phrasing's own words stay as they are, for a reader who finds
    each part of the request by them (`factory.evaluate.static.reading`)."""
    things = sorted((n for n in nouns if n not in _NOT_IT and not n.endswith("s")), key=len, reverse=True)
    if not things:
        return text
    named = re.compile(rf"\bthat ({'|'.join(map(re.escape, things))})\b(?!-)")
    sentences = re.split(r"(?<=[.?!]) ", text)
    return " ".join(_pronoun_once(sentence, named) for sentence in sentences)


def _pronoun_once(sentence: str, named: re.Pattern) -> str:
    matches = list(named.finditer(sentence))
    for first, second in zip(matches, matches[1:], strict=False):
        between = sentence[first.end():second.start()]
        if first.group(1) != second.group(1) or named.search(between) or _ANOTHER_IT.search(between):
            continue
        before, after = sentence[:second.start()], sentence[second.end():]
        if before.endswith("of ") or after.startswith("'"):
            return sentence  # "the price of it", "it's": kept as named
        return before + "it" + after
    return sentence


def _copied(memory: dict[str, Any]) -> dict[str, Any]:
    """A copy of a wording's memory, one level deep (the values inside are strings and tuples),
    and two for `given`, whose values are sets."""
    copied = {k: (type(v)(v) if isinstance(v, (dict, list)) else v) for k, v in memory.items()}
    copied["given"] = {k: set(v) for k, v in memory["given"].items()}
    return copied


@dataclass
class Wording:
    chain: Chain
    specs: dict[str, ToolSpec]
    entries: dict[str, ToolEntry]
    joint_kinds: list[tuple[str, ...]]
    rng: random.Random
    written: dict[str, dict[str, str]] = field(default_factory=dict)  # toolbox → kind → how a literal is written
    said: dict[tuple[str, ...], str] = field(default_factory=dict)  # described outputs → short noun
    nouns: Counter = field(default_factory=Counter)  # short noun → how many things were called so
    literals: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, value) stated → its noun
    # The day or time the request named last: ("day", date), ("moment", date-time) for a literal,
    # ("call", index) for a value described or asked for. "That day" means this one to a reader.
    last_day: tuple[str, Any] | None = None
    day_given_to: int | None = None  # the call the last literal day or time was given to
    used: Counter | None = None  # (tool, phrasing) → times the run's kept requests used it
    chosen: list[tuple[str, str]] = field(default_factory=list)  # (tool, phrasing) this request used
    mentioned: list[int] = field(default_factory=list)  # calls in the order the text first speaks of them
    stated: str = ""  # what the sentences opening the request already state (a fix-up's context)
    unnamed: Counter = field(default_factory=Counter)  # noun → literals stated that go by it and are no name ("Paris")
    given: dict[int, set[str]] = field(default_factory=dict)  # call → nouns of the literals it was given
    goal: Goal | None = None  # what the person wants, in which role: a situation must fit it
    style: DateStyle | None = None  # how this request writes days and times (drawn from rng when None)
    situated: bool = False  # an ask already said the person's situation ("I'm planning around June 3.")
    asks_worded: int = 0  # asks worded so far: a situation said after one reads as a non sequitur
    spoken: list[str] = field(default_factory=list)  # what the slots of the ask being worded hold so far
    held: dict[tuple[int, str], str] = field(default_factory=dict)  # (call, argument) → words for a value not said
    day_again: bool = False  # the phrasing just filled says a day its description stated as "that day"
    filling: int | None = None  # the call whose phrasing is being filled
    clause_after: bool = False  # in the phrasing just filled, what follows a description reads as its own
    told: str = ""  # what the phrasings chosen so far say

    def __post_init__(self) -> None:
        self.any_forms = ChainMap(*(self.written[t] for t in sorted(self.written)))  # every toolbox's written forms
        self.producers = self.chain.producers()
        self.groups = [{g.name: g for g in groups_of(self.specs[c.tool], self.entries.get(c.tool), self.joint_kinds)}
                       for c in self.chain.calls]

    # --- templates ----------------------------------------------------------------------

    def _members(self, index: int, slot: str) -> tuple[str, ...]:
        group = self.groups[index].get(slot)
        return group.params if group else (slot,)

    def fill(self, index: int, template: str) -> str | None:
        """The template stated for call `index`, or None when it cannot state every argument given."""
        self.filling = index
        given = set(self.chain.calls[index].arguments)
        mentioned = {p for slot in placeholders(template) for p in self._members(index, slot)}
        if given - mentioned:
            return None

        def optional(match: re.Match) -> str:
            inner = match.group(1)
            ok = all(set(self._members(index, s)) <= given for s in placeholders(inner))
            return inner if ok else ""

        text = _OPTIONAL.sub(optional, self._days_first(index, template))
        slots = placeholders(text)
        if any(not set(self._members(index, s)) <= given for s in slots):
            return None
        values = {}
        day_said = again = False  # a day or moment of this phrasing is stated before the slot being filled
        clause = False  # what follows a description may be read as the description's own (`_CLAUSE_NEXT`)
        for slot in slots:
            described = self._describes(index, slot)
            before, after = text.split(f"{{{slot}}}", 1)
            values[slot] = _short_of_said(before, with_article(before, self._slot(index, slot)))
            # (a description set off by a comma piles nouns up: 'I want "Call with the bank" in
            # San Francisco, my earliest free window of 120 minutes on 10 July', reading 68 #13)
            clause = clause or described and (_CLAUSE_NEXT.match(after) is not None or before.endswith(", ")) \
                or values[slot].startswith(("that ", "those ")) and _RELATIVE_NEXT.match(after) is not None
            day = self._is_day_literal(index, slot)
            if described and day_said and not self._is_time(index, slot):
                # (a time described beside a moment keeps its day: "between this Saturday at 10am
                # and sunset in Toronto that day")
                values[slot] = _day_said_again(values[slot])
            elif day and re.fullmatch(r"that (?:day|date|time)", values[slot]) and any(
                    re.search(rf"\b(?:{_DAY_STATED})\b", said) for said in values.values()):
                # "Will the city flight AU7010 lands in on June 27 be sunny on that day?": the
                # day, stated in the description before, is said again; another phrasing is taken
                again = True
            day_said = day_said or day
            self.spoken.append(values[slot])
        self.day_again = again  # (after the descriptions inside, which fill phrasings of their own)
        self.clause_after = clause
        return agree(string.Formatter().vformat(text, (), values))

    def _is_time(self, index: int, slot: str) -> bool:
        spec = self.specs[self.chain.calls[index].tool]
        return any((p := spec.param(m)) is not None and p.kind in TIME_KINDS for m in self._members(index, slot))

    def _is_day_literal(self, index: int, slot: str) -> bool:
        """Whether a slot states a day or a moment in the user's words ("June 3", "next Monday"
        resolved by a canonicalising call), not one a call finds."""
        call, spec = self.chain.calls[index], self.specs[self.chain.calls[index].tool]
        for member in self._members(index, slot):
            arg, param = call.arguments.get(member), spec.param(member)
            if param is None or param.kind not in TIME_KINDS:
                continue
            if isinstance(arg, Value) or isinstance(arg, Ref) and transparent(
                    self.chain.calls[self.producers[arg.ref]].tool, self.entries):
                return True
        return False

    def _days_first(self, index: int, template: str) -> str:
        """The template with a day that follows a slot holding a description moved before that
        slot (`factory.queries.placement`): "the earliest slot on or after June 20 in the city
        that parcel is going to", not "... going to on or after June 20"."""
        given = self.chain.calls[index].arguments
        spec = self.specs[self.chain.calls[index].tool]
        for day in placeholders(template):
            members = self._members(index, day)
            if not set(members) <= set(given) or self._describes(index, day) or not any(
                    (p := spec.param(m)) is not None and p.kind in TIME_KINDS for m in members):
                continue  # (a day that is itself a description stays where it is: two clauses would run together)
            for nested in placeholders(template):
                if nested != day and self._describes(index, nested):
                    template = day_first(template, nested, day) or template
        return template

    def _describes(self, index: int, slot: str) -> bool:
        """Whether a slot of call `index` will hold a description (not a value, not "that city")."""
        call = self.chain.calls[index]
        args = [call.arguments.get(p) for p in self._members(index, slot)]
        if not args or not all(isinstance(a, Ref) for a in args):
            return False
        refs = [a.ref for a in args if isinstance(a, Ref)]
        grouped = len({self.producers[r] for r in refs}) == 1 and slot in self.groups[index]
        parts = [tuple(refs)] if grouped or len(refs) == 1 else [(r,) for r in refs]
        return any(self._reference(part) is None and not transparent(self.chain.calls[self.producers[part[0]]].tool,
                                                                      self.entries) for part in parts)

    def _slot(self, index: int, slot: str) -> str:
        self.filling = index
        call = self.chain.calls[index]
        group = self.groups[index].get(slot)
        members = group.params if group else (slot,)
        args = [call.arguments[p] for p in members]
        if all(isinstance(a, Ref) for a in args):
            sources = {self.producers[a.ref] for a in args}
            if len(sources) == 1:
                variables = tuple(a.ref for a in args)
                text = self.describe(variables)
                # What a call finds about a thing it is given goes by that thing's noun and is
                # that thing (the name of the doctor it is given), as with a named literal.
                noun = self.said.get(variables)
                if noun is not None and noun not in _PLACE_NOUNS:
                    self.given.setdefault(index, set()).add(noun)
                return text
        if group and all(isinstance(a, Value) for a in args):
            again = self._group_again(index, members, args)
            if again is not None:
                return again
            return group.template.format(**{p: self._literal(index, p, a.value) for p, a in zip(members, args, strict=True)})
        return " and ".join(self.describe((a.ref,)) if isinstance(a, Ref) else self._literal(index, p, a.value)
                            for p, a in zip(members, args, strict=True))

    def _asked_on(self, index: int, day: str) -> bool:
        """Whether call `index` was given this day as a stated date and is about it (its times are
        of that day); not when it finds another day (5 working days after August 8)."""
        spec = self.specs[self.chain.calls[index].tool]
        return not any(is_day(o) for o in spec.returns) and any(isinstance(a, Value) and a.value == day and (p := spec.param(name)) is not None and p.kind == "date"
                   for name, a in self.chain.calls[index].arguments.items())

    def _literal(self, index: int, name: str, value: object) -> str:
        spec = self.specs[self.chain.calls[index].tool]
        param = spec.param(name)
        if param is not None and param.kind in ("date", "datetime") and isinstance(value, str):
            said = ("day" if param.kind == "date" else "moment", value)
            again = None
            if self.last_day == said:
                again = "that day" if param.kind == "date" else "that time"  # just named: not repeated in another form
            elif param.kind == "date" and self.last_day is not None and self.last_day[0] == "moment" and \
                    str(self.last_day[1])[:10] == value:
                again = "that day"  # the day of the time just named
            elif param.kind == "date" and self.last_day is not None and self.last_day[0] == "call" and \
                    self._asked_on(self.last_day[1], value):
                again = "that day"  # the day the call just asked about was asked for ("opens on 22 June ... that day")
            if again is not None:  # (remembered as given to this call: its other day makes "that day" say neither)
                self.last_day, self.day_given_to = said, index
                return again
            if self.last_day is not None and self.last_day[0] in ("day", "moment") and self.day_given_to == index:
                said = ("two", index)  # a period's start and end: "that day" would say neither
            if any(p.kind in _SHIFTING_KINDS for p in spec.parameters):
                said = ("two", index)  # "one year before June 24": after it, "that day" may be either
            self.last_day, self.day_given_to = said, index
        forms = self.written.get(spec.toolbox or "", {})
        form = written_form(forms, param.kind, param.role) if param else None
        noun = literal_noun(form)
        if noun and not isinstance(value, list):
            self.given.setdefault(index, set()).add(noun)
            key = (f"{spec.toolbox}/{param.kind}", repr(value))
            if key in self.literals:
                if self.nouns[noun] == 1:
                    return that(noun, False, self.rng)  # the order already named, when no other order is in play
            else:
                self.literals[key] = noun
                self.nouns[noun] += 1
        elif param is not None and not isinstance(value, list) and not transparent(spec.name, self.entries):
            # (what a canonicalising call is given is the user's own words: "next Tuesday" twice,
            # never "that relative day")
            again = self._named_again(index, param, value)
            if again is not None:
                return again
        text = render_value(value, self.rng, self.style)
        if (index, name) in self.held:
            return self.held[(index, name)]  # (after drawing as for the value: the rest is worded alike)
        return in_form(form, text)

    def _group_again(self, index: int, members: tuple[str, ...], args: list[Any]) -> str | None:
        """"that location" for a point (or an amount) stated in full before, when nothing else in
        the request goes by that noun; None the first time, or when another would."""
        spec = self.specs[self.chain.calls[index].tool]
        noun = GROUP_NOUNS.get(frozenset((p.kind or "") for m in members if (p := spec.param(m)) is not None))
        if noun is None:
            return None
        key = (noun, repr([a.value for a in args]))
        if key not in self.literals:
            self.literals[key] = noun
            self.nouns[noun] += 1
            return None
        return that(noun, False, self.rng) if self.nouns[noun] == 1 else None

    def _named_again(self, index: int, param: Param, value: object) -> str | None:
        """"that library branch" for a name, address or id stated in full before (here or in
        the opening sentences), when nothing else stated goes by that noun; None otherwise."""
        noun = reference_noun(param.kind, param.role)
        if noun is None:
            return None
        self.given.setdefault(index, set()).add(noun)
        key = (param.kind or "", " ".join(str(value).casefold().split()))
        if not is_named(value):
            if key not in self.literals:
                self.literals[key] = noun
                self.unnamed[noun] += 1
            return None
        before = key in self.literals or re.search(rf"(?<!\w){re.escape(key[1])}(?!\w)",
                                                    " ".join(self.stated.casefold().split())) is not None
        if key not in self.literals:
            self.literals[key] = noun
            self.nouns[noun] += 1
        if param.kind == "person_name" and str(value) == USER.name:
            # The person asking: "me" once named ("create a profile for Jordan Avery ..."); the
            # first time, "me (Jordan Avery)", or a reader takes the name for someone else's.
            return "me" if before else f"me ({value})"
        if before and param.kind == "person_name" and param.role in _FIRST_NAME_ROLES and len(str(value).split()) > 1:
            first = str(value).split()[0]
            namesakes = [k for k in self.literals if k[0] == "person_name" and k[1].split()[0] == first.casefold()]
            if len(namesakes) == 1 and (param.role == "traveller" or known_by_first_name(str(value))):
                # "Omar Haddad ... Omar's email", as people say it, not "that contact's"; not
                # "Leila" for one of two in the contacts or the calendar
                return first
        if before and self._namesakes(noun) == 1:
            return that(noun, False, self.rng)
        return None

    def _namesakes(self, noun: str) -> int:
        """How many things said so far go by a noun a literal is named again by: named or described
        ones, and those of a list asked for since ("which courses are required before HIST201?
        ... the exam of that course" has two readings: reading 57 #37). (A thing described after
        a list, the cheapest of those hotels, is "that hotel" still: the last one spoken of.)"""
        plural = 0 if noun.endswith("s") else self.nouns[noun + "s"]
        return self.nouns[noun] + self.unnamed[noun] + plural

    def _choose(self, index: int, templates: tuple[str, ...], description: bool = False) -> str | None:
        """A phrasing that states every argument given: drawn at random, or, when the run
        counts phrasings, one its requests have used least (a random one among those). One
        person on one occasion: a phrasing that says the person's situation comes last once
        another has, or when it puts them at work their goal does not (`factory.queries.situations`)."""
        tool = self.chain.calls[index].tool
        options = list(templates)
        self.rng.shuffle(options)
        if self.used is not None:
            options.sort(key=lambda t: self.used[tool, t])  # stable: ties keep the random order
        options.sort(key=lambda t: (self._out_of_place(t, index), self._only_for_values(t, index)))
        fallback = None
        for template in options:
            before = self._memory()
            text = self.fill(index, template)
            if text is not None and _ASKER_MISPLACED.search(text):
                text = None  # "in the name of me": the asker named again fits only where "me" does
            if text is not None and (_SAID_OF_ITSELF.search(text) or description and self._owned_again(text)
                                     or self.day_again or self.clause_after or _SAID_TWICE.search(text)
                                     or PREPOSITION_CLASH.search(text) or TENSE_CLASH.search(text)
                                     or _AT_WHERE.search(text)):
                # "if the temperature is that temperature"; "that wine ... the home country of that
                # wine"; "the city flight AU7010 lands in on June 27 ... on that day"; "the yearly
                # tax on the salary E-1 is paid each year", "right now at where I am right now" (the
                # present twice, and "at where");
                # "everything by the writer of the book
                # with ISBN 978... that the library holds" (reading 50 #33)
                if fallback is None or _said_of_itself(text) < _said_of_itself(fallback[1]):
                    fallback = (template, text, self._memory())
                text = None
            if text is not None:
                return self._chosen(tool, template, text)
            self._recall(before)  # a phrasing not taken names nothing: the next one says it first
        if fallback is None:
            return None
        self._recall(fallback[2])
        return self._chosen(tool, fallback[0], fallback[1])

    _MEMORY = ("said", "nouns", "literals", "last_day", "day_given_to", "chosen", "mentioned", "unnamed",
               "given", "situated", "spoken", "told")

    def _memory(self) -> dict[str, Any]:
        """What the request has named so far, to take back when a filled phrasing is not used."""
        return _copied({name: getattr(self, name) for name in self._MEMORY})

    def _recall(self, memory: dict[str, Any]) -> None:
        for name, value in _copied(memory).items():
            setattr(self, name, value)

    def _owned_again(self, description: str) -> bool:
        """Whether a description says "of that wine" for a thing its ask already named "that
        wine": another description ("the country that wine comes from") lets the second be "it"."""
        return any(f"of {ref}" in description for ref in set(self.spoken)
                   if self.spoken.count(ref) > 1 and re.fullmatch(r"that [a-z]+(?: [a-z]+)?", ref)
                   and ref.removeprefix("that ") not in _NOT_IT)

    def _chosen(self, tool: str, template: str, text: str) -> str:
        self.chosen.append((tool, template))
        self.told += f" {text}"
        self.situated = self.situated or situation(template) is not None
        return text

    def _out_of_place(self, template: str, index: int) -> bool:
        """Whether a phrasing would say a second situation, one that does not fit the goal, one
        after an earlier part of the request ("Cancel viewing VW-102. Besides that, I'm flying in
        to look at homes. Book ..." reads as a non sequitur where the opening would not), or one
        that holds a found value: "my sister just landed in {city}" is said of a city the person
        names, never of "the city nearest to me" or "the hottest city in India"; nor one before
        a question about a found value, which it was not written for ("I'm comparing prices
        across borders" before the dividend of a company, reading 50 #3)."""
        said = situation(template)
        if said is None:
            return False
        call = self.chain.calls[index]
        nested = {name for name, arg in call.arguments.items() if isinstance(arg, Ref)}
        entry = self.entries.get(call.tool)
        nested |= {group for group, text in (entry.groups if entry else {}).items()
                   if any(f"{{{name}}}" in text for name in nested)}
        found = any(isinstance(arg, Ref) and not transparent(self.chain.calls[self.producers[arg.ref]].tool, self.entries)
                    for arg in call.arguments.values())
        return (self.situated or self.asks_worded > 0 or not fits_goal(said, self.goal)
                or any(f"{{{name}}}" in said for name in nested) or found or self._past_plan(said, index)
                or self._not_now(template, index))

    def _not_now(self, template: str, index: int) -> bool:
        """Whether a situation of this moment ("I'm about to hang laundry out") would open a
        request that also asks about another day: the air quality on Wednesday does not help
        with the laundry now (reading 49 #32)."""
        if not _NOW.search(template):
            return False
        return any(call.asked and k != index and any(
            isinstance(arg, Value) and isinstance(arg.value, str) and _ISO_DAY_OR_MOMENT.fullmatch(arg.value)
            and arg.value[:10] != TODAY for arg in call.arguments.values()) for k, call in enumerate(self.chain.calls))

    def _past_plan(self, said: str, index: int) -> bool:
        """Whether a situation speaks of a plan ("we're shooting an outdoor wedding in {city} on
        {date}") on a day the call is given that is already past (reading 38 #19)."""
        if not _PLAN.search(said):
            return False
        call = self.chain.calls[index]
        return any(f"{{{name}}}" in said and isinstance(arg, Value) and isinstance(arg.value, str)
                   and _ISO_DAY_OR_MOMENT.fullmatch(arg.value) is not None and arg.value[:10] < TODAY
                   for name, arg in call.arguments.items())

    def _only_for_values(self, template: str, index: int) -> bool:
        """Whether a phrasing puts a slot where only a value reads well (`_VALUE_SLOTS`: "when
        it's {when}", "{product} that {location} sent overseas", "right now in {city}, what's
        ...") while that slot will hold a description: "at the moment it's the local start time
        of the coffee with Chloe" is stilted where "convert the local start time of ... to local
        time in Zurich" is not."""
        return any(self._describes(index, slot) for pattern in _VALUE_SLOTS for slot in pattern.findall(template))

    # --- nested values ------------------------------------------------------------------

    def describe(self, variables: tuple[str, ...]) -> str:
        """A noun phrase for output variables of one call: what they are, or "that X" when
        already described and unambiguous."""
        index = self.producers[variables[0]]
        self._mention(index)
        call = self.chain.calls[index]
        spec = self.specs[call.tool]
        outputs = [spec.returns[call.outputs.index(v)] for v in variables]
        reference = self._reference(variables)
        if reference is not None:
            return that(reference, is_list(outputs[0]), self.rng)
        again = any(self.producers[k[0]] == index for k in self.said)  # asked or described before
        timed = any(_names_days(o) for o in outputs)
        entry = self.entries.get(call.tool)
        names = frozenset(o.name for o in outputs)
        texts = next((t for key, t in entry.gives.items() if frozenset(key) == names), ()) if entry else ()
        text = self._choose(index, texts, description=True) if texts else None
        if text is None and len(variables) > 1:
            text = " and ".join(self.describe((v,)) for v in variables)
        if text is None:
            text = self._fallback_description(index, outputs[0])
        if again:
            text = self._there(index, text)
        self._name(variables, outputs, spec, index)
        if timed:
            self.last_day = ("call", index)
        return text

    def _there(self, index: int, text: str) -> str:
        """A description of a call spoken of before says the place it was given as "there" when
        the request names no other: "how low and how high can pay go for that job in
        Switzerland? ... the floor of the pay range for that job there", not "in Switzerland"
        twice (reading 36 #3)."""
        places = {a.value for c in self.chain.calls for a in c.arguments.values()
                  if isinstance(a, Value) and isinstance(a.value, str) and (a.value in CITY_BY_NAME or a.value in COUNTRY_BY_NAME)}
        if len(places) != 1:  # (another place anywhere in the request, and "there" may be it: reading 40 #21)
            return text
        call, spec = self.chain.calls[index], self.specs[self.chain.calls[index].tool]
        for name, arg in call.arguments.items():
            param = spec.param(name)
            if isinstance(arg, Value) and isinstance(arg.value, str) and param is not None and param.kind in _THERE_KINDS:
                return re.sub(rf"\b(?:in|at) (?:the )?{re.escape(arg.value)}\b", "there", text, count=1)  # ("the Netherlands")
        return text

    def _reference(self, variables: tuple[str, ...]) -> str | None:
        """The noun to say these values again by ("that city"), or None to describe them."""
        index = self.producers[variables[0]]
        call = self.chain.calls[index]
        spec = self.specs[call.tool]
        outputs = [spec.returns[call.outputs.index(v)] for v in variables]
        if any(o.kind and sum((r.kind, r.role) == (o.kind, o.role) for r in spec.returns) > 1 for o in outputs):
            return None  # one of two of a kind (a band's floor and ceiling): "that pay" would not say which
        days = [is_day(o) or is_moment(o) for o in outputs]
        # Named before, with or without what travels with it ("the salary of E-1207" with its
        # tax country, then with its currency): "that salary"; values of a call asked for, each
        # named, together: "those flights" for the flights found and their day. A day or a time
        # is "that day" only while it is the last one the request named: after another, it
        # reads as that one.
        before = variables if variables in self.said else next(
            (k for k in self.said if set(k) & set(variables) and self.producers[k[0]] == index
             and all(spec.returns[call.outputs.index(v)].kind in COMPANION_KINDS for v in set(k) ^ set(variables))),
            None)
        recent = not all(days) or self.last_day == ("call", index) or self._times_on(variables)
        if before is None and len(variables) > 1 and not all(days) and all((v,) in self.said for v in variables):
            group = GROUP_NOUNS.get(frozenset(o.kind or "" for o in outputs))
            if group is not None and not self.nouns[group]:
                # a point whose latitude and longitude were each asked: "that location", unless
                # a point stated in full is one too ("from that location to that location")
                return group
            before = (next(v for v, day in zip(variables, days, strict=True) if not day),)
        money = before is not None and any(_is_money(o) for o in outputs) and any(
            other != index and self._sum_called(other, self.said[before]) for other in {self.producers[k[0]] for k in self.said})
        # (nor "that location" for a point once a place was found near it: the place has a
        # location too, reading 48 #15)
        placed = before is not None and self.said[before] == "location" and self._place_found(index)
        if before is not None and self.nouns[self.said[before]] + self.unnamed[self.said[before]] - self._beside(
                self.said[before]) == 1 and (
                recent or self.said[before] not in _TIME_NOUNS) and not money and not placed and not self._person_since(before):
            # (nor "that pay" for a salary once a payslip's pay was spoken of, before or after it:
            # reading 34 #27, reading 41 #8)
            # (a city named in between, "Amsterdam", makes "that city" say neither; a time that
            # goes by its own noun, "that delivery slot", stays itself after other times)
            return self._person_noun(before)
        if before is None and recent and transparent(call.tool, self.entries) and any(
                self.producers[k[0]] == index for k in self.said):
            # Another value of a time the user named ("this Saturday at 10am", then its day):
            # said again, it is "that day", not the same words twice.
            return noun_of(outputs)
        return None

    def _times_on(self, variables: tuple[str, ...]) -> bool:
        """Whether the day or time spoken of last is of a call given this day, whose times are of
        it (a branch's hours on the new due date): "that date" is still the due date, where it
        was described again in full (reading 49 #2)."""
        if self.last_day is None or self.last_day[0] != "call":
            return False
        call, spec = self.chain.calls[self.last_day[1]], self.specs[self.chain.calls[self.last_day[1]].tool]
        return not any(is_day(o) for o in spec.returns) and any(
            isinstance(arg, Ref) and arg.ref in variables and (param := spec.param(name)) is not None
            and param.kind == "date" for name, arg in call.arguments.items())

    def _beside(self, noun: str) -> int:
        """Literals going by this noun and no name that the call being filled is given itself:
        "combine clarithromycin with that drug" cannot mean clarithromycin, where the drug was
        described again in full (reading 49 #9)."""
        if self.filling is None:
            return 0
        call, spec = self.chain.calls[self.filling], self.specs[self.chain.calls[self.filling].tool]
        return sum(1 for name, arg in call.arguments.items() if isinstance(arg, Value) and not is_named(arg.value)
                   and (param := spec.param(name)) is not None and reference_noun(param.kind, param.role) == noun)

    def _person_noun(self, before: tuple[str, ...]) -> str | None:
        """The noun to say a value again by; for a person the request never called by it
        ("whoever runs the Human Resources department ... the workplace of that head", reading
        51 #31), "that person" while no one else was spoken of, else a description again."""
        noun = self.said[before]
        if not self._persons(before) or re.search(rf"\b{re.escape(noun)}\b", self.told, re.IGNORECASE):
            return noun
        others = any(self.producers[k[0]] != self.producers[before[0]] and self._persons(k) for k in self.said)
        return None if others or self.nouns["person"] or any(k[0] == "person_name" for k in self.literals) else "person"

    def _persons(self, key: tuple[str, ...]) -> bool:
        """Whether described values name a person."""
        call = self.chain.calls[self.producers[key[0]]]
        return any(self.specs[call.tool].returns[call.outputs.index(v)].kind == "person_name" for v in key)

    def _person_since(self, before: tuple[str, ...]) -> bool:
        """Whether `before` names a person and another call's person was spoken of after it: an
        employee's manager is not "that manager" once the executive over their department was
        named, who manages too (reading 49 #26)."""
        keys = list(self.said)
        return self._persons(before) and any(self.producers[k[0]] != self.producers[before[0]] and self._persons(k)
                                             for k in keys[keys.index(before) + 1:])

    def _place_found(self, index: int) -> bool:
        """Whether the request spoke of a place another call found (a café, a landmark)."""
        return any(self.producers[k[0]] != index and any(
            o.kind == "place_id" for o in self.specs[self.chain.calls[self.producers[k[0]]].tool].returns)
            for k in self.said)

    def _sum_called(self, index: int, noun: str) -> bool:
        """Whether call `index` found a sum that goes by this noun too (a payslip's net pay and
        "that pay"; any sum and "that amount"), so the noun would not say which."""
        spec = self.specs[self.chain.calls[index].tool]
        return any(_is_money(o) and (noun in ("amount", "value", "total") or set(noun.split()) & set(o.name.split("_")))
                   for o in spec.returns)

    def _mention(self, index: int) -> None:
        """The text now speaks of call `index` (its ask, or a description of its value): where it
        does first is where the call's place in the request is (`factory.queries.order`)."""
        if index not in self.mentioned:
            self.mentioned.append(index)

    def _name(self, variables: tuple[str, ...], outputs: list[Output], spec: ToolSpec, index: int) -> None:
        """Remember a value once described or asked for, so that later it can be "that city".
        A value that goes by the noun of a literal its call was given is about that same thing
        (the name of hotel HTL-2041): it leaves "that hotel" unambiguous."""
        if variables not in self.said:
            # The producer's own forms first, then another toolbox's: a textbook's ISBN from the
            # education seed is "that book", as the library seed writes ISBNs, not "that isbn".
            noun = noun_of(outputs, ChainMap(self.written.get(spec.toolbox or "", {}), self.any_forms))
            # A thing's id and its name, found by one call, are one hotel, and an amount's currency
            # goes with it: counted twice, "that hotel" looked ambiguous and the cheapest hotel was
            # described again in full. Two places, days or amounts of one call stay two.
            same = (noun not in _PLACE_NOUNS or outputs[0].kind == "currency_code") and any(
                self.producers[k[0]] == index and said == noun for k, said in self.said.items())
            # A value of the very kind of one the call was given, under another name, is another
            # thing (the mall a route from a landmark leads to): not the one it was given.
            other = any(p.kind == outputs[0].kind and p.name != outputs[0].name for p in spec.parameters
                        if outputs[0].kind and p.name in self.chain.calls[index].arguments)
            self.said[variables] = noun
            self.nouns[noun] += (noun not in self.given.get(index, ()) or other) and not same

    def _fallback_description(self, index: int, output: Output) -> str:
        """For a tool without a description of this output: its documented meaning and inputs."""
        meaning = re.sub(r"\s*\([^)]*\)", "", output.description).strip().rstrip(".") or output.name.replace("_", " ")
        args = self.chain.calls[index].arguments
        stated = [f"{name.replace('_', ' ')} {self._slot(index, name)}" for name in args]
        return meaning if not stated else f"{meaning} for {' and '.join(stated)}"

    # --- asks ---------------------------------------------------------------------------

    def ask(self, index: int) -> str:
        """The request for call `index` in one of its seed's phrasings."""
        call = self.chain.calls[index]
        self._mention(index)
        self.spoken = []
        entry = self.entries.get(call.tool)
        text = self._choose(index, tuple(map(sentence_start, entry.asks))) if entry else None
        if text is None:
            text = self._fallback_ask(index)
        spec = self.specs[call.tool]
        for var, output in zip(call.outputs, spec.returns, strict=False):  # what an asked call returns is "that booking" from now on
            self._name((var,), [output], spec, index)
            if _names_days(output):
                self.last_day = ("call", index)  # the day it answers is the last one spoken of
        # A thing named again at the start of a sentence within the ask: "... on June 3. That
        # library branch ..."
        text = re.sub(r"([.?!] )(that|those|this|these|the same) ", lambda m: f"{m.group(1)}{m.group(2).capitalize()} ", text)
        self.asks_worded += 1
        return tidy(pronouns(text, set(self.said.values()) | set(self.literals.values())))

    def _fallback_ask(self, index: int) -> str:
        spec = self.specs[self.chain.calls[index].tool]
        summary = spec.description.rstrip(".")
        summary = summary[0].lower() + summary[1:]
        stated = [f"{name.replace('_', ' ')} {self._slot(index, name)}" for name in self.chain.calls[index].arguments]
        return summary + (f" for {' and '.join(stated)}" if stated else "")


def asked_calls(chain: Chain, entries: dict[str, ToolEntry]) -> list[int]:
    """Calls the request asks for: what nothing later consumes, every action (a change to the
    world is asked for even when a later call reads its result), and every pick from a list
    whose order already says it (tag `picks`: an agent could take the first of the flights
    itself, so the request asks what only the call knows); fix-ups are not asked."""
    sinks = set(chain.sinks())
    actions = {i for i, c in enumerate(chain.calls)
               if c.fixes is None and {"state_change", "picks"} & set(entries[c.tool].tags if c.tool in entries else ())}
    return sorted(sinks | actions)


def spoken_order(chain: Chain, asked: set[int]) -> list[int]:
    """The task calls in the order a request asking for `asked` in chain order speaks of them:
    each ask after the values it describes, those in the order of its arguments."""
    producers = chain.producers()
    spoken: list[int] = []

    def speak(index: int) -> None:
        for arg in chain.calls[index].arguments.values():
            source = producers.get(arg.ref) if isinstance(arg, Ref) else None
            if source is not None and source not in spoken:
                speak(source)
        if index not in spoken:
            spoken.append(index)

    for index in sorted(asked):
        speak(index)
    return [i for i in spoken if chain.calls[i].fixes is None]


def _canonicalised_later(chain: Chain, entries: dict[str, ToolEntry]) -> Chain | None:
    """The chain with the canonicalising call the request would speak of out of composed order
    moved to just before the first call taking its value, where that keeps the nesting shape
    (two calls feeding a third, in either order); None when there is no such call. Asked for
    itself instead, it would ask what the person's own words mean ("What date is 'tonight'?")."""
    tasks = [i for i, call in enumerate(chain.calls) if call.fixes is None]
    first = next((t for s, t in zip(spoken_order(chain, set(asked_calls(chain, entries))), tasks, strict=False)
                  if s != t), None)
    entry = entries.get(chain.calls[first].tool) if first is not None else None
    if first is None or entry is None or "canonicalise" not in entry.tags or \
            any(isinstance(a, Ref) for a in chain.calls[first].arguments.values()):
        return None
    produced = set(chain.calls[first].outputs)
    consumer = next((j for j, c in enumerate(chain.calls)
                     if any(isinstance(a, Ref) and a.ref in produced for a in c.arguments.values())), None)
    if consumer is None:
        return None
    order = [i for i in range(len(chain.calls)) if i != first]
    order.insert(order.index(consumer), first)
    moved = chain.reordered(order)
    return moved if moved.shape() == chain.shape() and order != sorted(order) else None


def _looked_up_first(chain: Chain, entries: dict[str, ToolEntry]) -> Chain | None:
    """The chain with an action moved after a later lookup of the same thing that neither feeds
    nor follows from it, where that keeps the nesting shape: a person looks a flight up before
    booking it, not "Book me on NW8701 ... and look up where that flight goes" (reading 56 #27).
    None when no action comes before such a lookup."""
    import networkx as nx  # here: chain.graph() loads it anyway

    graph = chain.graph()

    def acts(call: Call) -> bool:
        entry = entries.get(call.tool)
        return entry is not None and "state_change" in entry.tags

    def things(call: Call) -> set[str]:
        return {a.value for a in call.arguments.values() if isinstance(a, Value) and isinstance(a.value, str)}

    for i, action in enumerate(chain.calls):
        if action.fixes is not None or action.after or not acts(action) or any(i in c.after for c in chain.calls):
            continue
        for j in range(i + 1, len(chain.calls)):
            lookup = chain.calls[j]
            if (lookup.fixes is not None or lookup.after or acts(lookup) or not things(action) & things(lookup)
                    or nx.has_path(graph, i, j) or nx.has_path(graph, j, i)):
                continue
            order = [k for k in range(len(chain.calls)) if k != i]
            order.insert(order.index(j) + 1, i)
            moved = chain.reordered(order)
            if moved.shape() == chain.shape():
                return moved
    return None


def mark_asked(chain: Chain, entries: dict[str, ToolEntry], specs: dict[str, ToolSpec] | None = None,
               joint_kinds: list[tuple[str, ...]] | None = None) -> Chain:
    """The chain with its asked calls marked (`Call.asked`), so that the answer, the milestones
    and the checks read them from the chain, whatever order its calls later take.

    Besides the sinks and the actions, a call whose value would otherwise be spoken of only
    after a later part of the request is asked for itself ("What sold best in Rioja on June 8?
    Separately, ... And how much of that wine did Spain export?"), so that the request speaks
    of its parts in the order they were composed: the gold calls follow the request, and the
    composed nesting shape (as NesTools numbers it) survives that order. Given the tools'
    `specs`, so is a call whose description would hold two others or be given again in full
    for another of its values (`factory.queries.readable.to_ask`): "What sold best in the region
    that is home to Muga on June 8? How many bottles of that wine ...", one short sentence each."""
    while (moved := _canonicalised_later(chain, entries)) is not None:
        chain = moved
    while (moved := _looked_up_first(chain, entries)) is not None:
        chain = moved
    asked = set(asked_calls(chain, entries))
    tasks = [i for i, call in enumerate(chain.calls) if call.fixes is None]
    while True:
        spoken = spoken_order(chain, asked)
        if spoken != tasks:
            asked.add(next(t for s, t in zip(spoken, tasks, strict=False) if s != t))
        elif specs is not None and (more := to_ask(chain, asked, specs, entries, joint_kinds or [])) is not None:
            asked.add(more)
        else:
            break
    return Chain(calls=[call.model_copy(update={"asked": i in asked}) for i, call in enumerate(chain.calls)])

