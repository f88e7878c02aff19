"""Situations: the part of a phrasing that says who the person is or what they are up to ("I'm
writing a climate piece.", "For the relocation file, ...", "HR needs ..."), beside the request
itself. A request is one person on one occasion: it carries at most one situation, and none
that puts the person in a line of work their goal does not (a wine lover "recommending it to a
client", someone curious about the climate "writing a piece for the paper").

A situation is recognised in a phrasing or in a request's sentences alike: a statement about
the person or someone they act for that precedes the question ("I'm planning around {date}.
What's ...?"), an opening clause of purpose or occasion ("For my notes on {symbol}, ..."), or
another party's need voiced for them ("our site safety officer needs ...").
"""

from __future__ import annotations

import re

from factory.queries.frames import FOLLOW_QUESTION, FOLLOW_VP, GREETINGS, JOINED, SINGLE
from factory.toolbox import Goal

# A statement about the person, someone they act with or for, or something they hold or do,
# before the question: "I'm planning around {date}.", "the pharmacist is asking ...",
# "Cycling across {city} on {date}: ...". Not a request put as a statement ("I'd like ...").
_PERSON = r"i\b|i'|we\b|we'|our\b|my\b|someone\b|something\b|there's\b|[a-z-]+ing (?!and\b)[a-z]|[a-z-]+ (?:pilot|here)\b"
_SUBJECT = re.compile(rf"^(?:{_PERSON}|the\b|a\b|an\b|every\b|these\b|security\b|hr\b|\{{)", re.IGNORECASE)
# In a request's text, only a statement about the person or their own is a situation for sure
# ("The index and the risk level, please." is a request).
_PERSONAL = re.compile(rf"^(?:{_PERSON})", re.IGNORECASE)
_REQUEST = re.compile(r"^(?:i'd like|i would like|i want(?! to\b)|i need(?! to\b)|i'll (?:need|want)(?! to\b)"
                      r"|i'd rather|i'd also|i also (?:need|want)"
                      r"|i (?:need|want|would like|'d like) to (?:know|find out|see|check|get)\b)", re.IGNORECASE)
_LEAD_SENTENCE = re.compile(r"^([^?!]*?[.:])(?:\s+\S|\s*$)")
# ... or a clause before what follows from it: "my salary is paid in {to_currency}, so convert ...".
_LEAD_CLAUSE = re.compile(r"^([^?!.]*?), (?:so|and so) ")
# An opening clause of purpose or occasion, about the person's own affairs: "For my notes on
# {symbol}, ...", "for the bonus committee I have to ...".
_OWN = r"(?:my|our|the|a|an|this|her|his|their)"
_OPENING = re.compile(rf"^(?:(?:for|before|ahead of|since|while|because|after|with) (?:{_OWN}|i|we)|to \w+ {_OWN})\b"
                      r"(?! (?:week|day|month|year|weekend)\b)[^,?.]*", re.IGNORECASE)
# Another party's need, voiced for them: "our site safety officer needs", "HR needs".
_VOICED = re.compile(r"^(?:(?:my|our) [a-z' -]{2,40}|hr|it|payroll|security|the \w+ office)"
                     r" (?:needs|wants|asked|requires|is asking|is shipping|flagged)\b", re.IGNORECASE)
# What opens a sentence of a request before the ask itself: a greeting, a frame ("Could you ",
# "One more thing: ", "I was hoping you could "). It says no situation.
_FRAME_STARTS = sorted({re.escape(f.split("{")[0].strip()) for f in (*SINGLE, *JOINED, *FOLLOW_VP, *FOLLOW_QUESTION)
                        if f.split("{")[0].strip()} | {re.escape(g.strip()) for g in GREETINGS}, key=len, reverse=True)
_LEAD = re.compile(r"^(?:(?:" + "|".join(_FRAME_STARTS) + r")\s*)*", re.IGNORECASE)

# Words that put a person in a line of work, or acting for an organisation ...
WORK_WORDS = frozenset("""
    client clients customer customers team staff crew crews colleague colleagues employee employees office
    hr payroll file log piece article paper readers newsletter officer distributor supplier suppliers
    manager boss invoice audit shift firm relocation referral referring
""".split())
# ... and roles that are one: a goal of such a role takes a situation at work.
PROFESSIONS = frozenset("""
    analyst adviser agent administrator receptionist recruiter nurse merchant delegate partner
""".split())
# A report someone writes, not the weather report a search turns up.
_REPORT = re.compile(r"\b(?:my|our|expense|quarterly|annual|monthly|trade|board|for a|for the) reports?\b")


def situation(text: str, personal: bool = False) -> str | None:
    """The situation a phrasing (or the text of a request from one of its sentences on) opens
    with, or None for a plain request; `personal`: only a statement about the person or their
    own counts (how a request's sentences are read)."""
    text = _LEAD.sub("", text.strip())
    match = _OPENING.match(text) or _VOICED.match(text)
    if match and personal and re.match(r"\w+ (?:the|this|that)\b", match.group(0), re.IGNORECASE):
        # "For the home nearest to 200 Station Road, what's ...", "For this listing, ...": no
        # situation, unless it is one at work ("For the events log, ...")
        match = match if work_words(match.group(0)) else None
    if match:
        return match.group(0).rstrip()
    lead = _LEAD_SENTENCE.match(text) or _LEAD_CLAUSE.match(text)
    if lead and (_PERSONAL if personal else _SUBJECT).match(text) and not _REQUEST.match(text):
        return lead.group(1)
    return None


def work_words(text: str) -> set[str]:
    """The words of a text that put someone at work (what is quoted is someone else's words)."""
    text = re.sub(r'"[^"]*"', " ", text.lower())
    found = {w for w in re.findall(r"[a-z][a-z-]*", text) if w in WORK_WORDS}
    return found | {"report"} if _REPORT.search(text) else found


def fits_goal(text: str, goal: Goal | None) -> bool:
    """Whether a situation fits the person of the goal: one at work (a client, the office, a
    report) only a goal at work (its role a profession, or work in its role or wants)."""
    if goal is None or not work_words(text):
        return True
    words = set(re.findall(r"[a-z]+", goal.role.lower()))
    return bool(words & PROFESSIONS or work_words(f"{goal.role} {goal.wants}"))


def situations_in(request: str) -> list[str]:
    """The situations a request says, one per sentence that opens with one (after its frame)."""
    parts = re.split(r"(?<=[.?!])\s+(?=[A-Z\"'])", request.strip())
    found = [situation(" ".join(parts[k:]), personal=True) for k in range(len(parts))]
    return list(dict.fromkeys(s for s in found if s))  # (a greeting is a sentence of its own: the same one twice)
