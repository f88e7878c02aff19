"""Request frames: the asks of one chain as a question, a request, a terse command, a polite
request, or several of those in a row; plus the variant without conjunctions.

An ask is a verb phrase ("check the forecast for Paris"), a question ("what's the forecast
for Paris?") or a statement ending in a full stop. Verb phrases take wrappers ("Could you
...?"); questions and statements stand as they are.
"""

from __future__ import annotations

import random
import re

# (Not "Let's {vp}": "Let's tell me the forecast"; not "Before I forget," opening a request
# that has said nothing yet; not "Kindly {vp}", which cold readers found stilted; nor, among
# follow-ups, "Don't forget to {vp}", which speaks of a new part as if it had been asked
# before, nor "Quick question:" after questions already asked.)
SINGLE = ("{Vp}.", "Please {vp}.", "Could you {vp}?", "Can you {vp}?", "I need you to {vp}.", "I'd like you to {vp}.",
          "Would you {vp}, please?", "{Vp}, please.", "I want you to {vp}.", "Go ahead and {vp}.",
          "Could you please {vp}?", "Do me a favour and {vp}.", "When you get a chance, {vp}.",
          "I was hoping you could {vp}.", "Is it possible to {vp}?", "I'd appreciate it if you could {vp}.",
          "Quick one: {vp}.", "Help me out and {vp}.", "Any chance you could {vp}?", "If you don't mind, {vp}.",
          "Can I ask you to {vp}?", "Would you be able to {vp}?", "If you have a minute, {vp}.",
          "Please could you {vp}?", "I'd be grateful if you could {vp}.", "Think you could {vp}?",
          "Could I get you to {vp}?", "Can you please {vp}?",
          "Need you to {vp}, please.", "Could you quickly {vp}?", "See if you can {vp}.", "Please go ahead and {vp}.",
          "It'd help a lot if you could {vp}.", "Would you kindly {vp}?", "I'm counting on you to {vp}.")
JOINED = ("Could you {vps}?", "Please {vps}.", "I need you to {vps}.", "Can you {vps}?", "{Vps}.",
          "I'd like you to {vps}.", "Would you {vps}?", "I was hoping you could {vps}.",
          "When you have a moment, {vps}.", "Is it possible to {vps}?", "Any chance you could {vps}?",
          "If you don't mind, {vps}.", "Would you be able to {vps}?", "Can I ask you to {vps}?",
          "Please could you {vps}?", "If you have a minute, {vps}.")
FOLLOW_VP = ("Also, {vp}.", "And please {vp}.", "Also {vp}, please.", "On top of that, {vp}.", "Then {vp}.",
             "Could you also {vp}?", "I also need you to {vp}.", "While you're at it, {vp}.", "Oh, and {vp}.",
             "Besides that, {vp}.", "Please {vp} as well.", "I'd also like you to {vp}.", "Can you {vp} too?",
             "Additionally, {vp}.", "And {vp}.", "Separately, {vp}.", "One other thing: {vp}.",
             "And if you could, {vp}.", "Would you also {vp}?",
             "I'd also appreciate it if you could {vp}.", "Also, do me a favour and {vp}.", "And can you {vp}?",
             "In addition, {vp}.", "On a separate note, {vp}.", "And while we're at it, {vp}.", "Could you {vp} as well?",
             "Please also {vp}.", "Another thing: {vp}.", "I'd also be glad if you could {vp}.",
             "Would it be possible to also {vp}?")
FOLLOW_STATEMENT = ("Also, {q}", "And {q}", "{Q}", "One more thing: {q}", "Oh, and {q}", "Besides that, {q}",
                    "By the way, {q}", "While you're at it, {q}", "Plus, {q}", "Separately, {q}", "On another note, {q}",
                    "Something else: {q}", "In addition, {q}", "On a separate note, {q}", "Another thing: {q}",
                    "And one more: {q}")
FOLLOW_QUESTION = (*FOLLOW_STATEMENT, "Another question: {q}", "I'm also wondering: {q}",
                   "Also curious: {q}", "I'd also like to know: {q}", "Next question: {q}")
_LEAD_IN = re.compile(r"[^.?!:,]{1,30}: ")  # an ask that opens with its own lead-in and a colon
GREETINGS = ("Hi! ", "Hey, ", "Hello, ", "Hi there, ", "Good morning! ", "Hey there! ")
GREETING_RATE = 0.08


_QUESTION_WORDS = frozenset("what what's which who whose when where why how is are was were do does did can could will "
                            "would should has have".split())


def kind_of(ask: str) -> str:
    """"question" (a question and nothing else: "what's the UV index ...?"), "statement" (a
    sentence, or a sentence then a question: "I'm sending a parcel. Which city ...?") or "vp"."""
    if ask.endswith("?") and ask.split(" ", 1)[0].lower() in _QUESTION_WORDS and not re.search(r"[.:;] ", ask):
        return "question"
    return "statement" if ask.endswith((".", "?")) else "vp"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fill(frame: str, ask: str) -> str:
    return frame.format(vp=ask, Vp=_cap(ask), vps=ask, Vps=_cap(ask), q=ask, Q=_cap(ask))


_POLITE = re.compile(r"\b(?:please|kindly|favour)\b", re.IGNORECASE)
_TRAILING = re.compile(r"\{vps?\}(?: too\?| as well[.?])$")
_SHORT = 12  # words an ask may run to and still end in "too" ("... into GBP the way payroll would too": reading 45 #2)
_CLAUSED = re.compile(r"[,;:]| and | or | (?:how|what|which|when|where|whether|if|who) ")


def suited(frames: tuple[str, ...], ask: str) -> tuple[str, ...]:
    """The frames that read well around this ask: none says "please" to an ask that says it
    already ("do me a favour and please sign me up"), and none ends in "too" or "as well" after
    an ask with a clause or a list of its own, or a long one, where it attaches to the last of
    them ("the next public holiday in Canada, counting from August 12, 2025 too?", "find the
    closest landmark and tell me how far it is too?"), and none whose lead-in says the ask's
    first word ("Could I get you to get the patient number", reading 49 #9). All of them when
    none does."""
    first = ask.split(" ", 1)[0].lower()
    fit = tuple(f for f in frames if not (_POLITE.search(ask) and _POLITE.search(f))
                and not (first == "please" and re.search(r"\bto \{", f))  # "counting on you to please sign me up"
                and first not in re.findall(r"[a-z']+", f.split("{", 1)[0].lower())
                and not ((_CLAUSED.search(ask) or len(ask.split()) > _SHORT) and _TRAILING.search(f)))
    return fit or frames


def _alone(ask: str, rng: random.Random) -> str:
    if kind_of(ask) == "vp":
        return _fill(rng.choice(suited(SINGLE, ask)), ask)
    return _cap(ask)


def _listed(vps: list[str]) -> str:
    return vps[0] if len(vps) == 1 else ", ".join(vps[:-1]) + " and " + vps[-1]


def greet(text: str, rng: random.Random) -> str:
    """Now and then a greeting opens the request (before "Hello, IATA code ...", no lower case),
    but not one that opens on a quotation: 'Hello, "narita": which hotels ...' (reading 54 #9)."""
    greeting = rng.choice(GREETINGS) if rng.random() < GREETING_RATE else ""
    if text[:1] in "\"'“‘":
        greeting = ""
    first = text.split(" ", 1)[0]
    if greeting.endswith(", ") and first not in ("I", "I'm", "I'd", "I've", "I'll") and not any(c.isupper() for c in first[1:]):
        text = text[:1].lower() + text[1:]
    return greeting + text


# Follow-up frames that run on into a clause ("Oh, and it rains?"): a part that opens as a note
# ("sunrise and sunset in Oslo on June 3?", "photo shoot at noon: will it rain?") or as a
# command ("pull up EVT-1: who is invited?") takes a frame that stands before anything ("One more
# thing: ..."), never "In addition, current local time in Paris?".
_RUN_ON = ("Also, {q}", "And {q}", "Oh, and {q}", "Besides that, {q}", "By the way, {q}", "While you're at it, {q}",
           "Plus, {q}", "In addition, {q}", "Separately, {q}", "On another note, {q}", "On a separate note, {q}")
_CLAUSE_OPENERS = _QUESTION_WORDS | frozenset(
    "i i'm i've i'd i'll my we we're we've our you you're your it it's its there there's a an the someone somebody "
    "this that these those he she they they're his her their".split())


def opens_a_clause(ask: str) -> bool:
    """Whether a statement opens with a subject or a question word, so that "Also, ..." fits."""
    first = ask.split(" ", 1)[0].lower().strip(",:;")
    return first in _CLAUSE_OPENERS


# Follow-up frames that say the part stands apart, and the words by which a part leans on an
# earlier one: such a part takes another frame.
_APART = ("Separately", "On another note", "On a separate note", "Something else", "By the way", "Another thing",
          "Besides that")  # "By the way, I'd like to see that listing" (reading 60 #4; reading 58)
_BACK = re.compile(r"\b(?:that|those|the same|this|these|it|its|there|them|they|their)\b", re.IGNORECASE)


def _connector(follow: str) -> str:
    """The kind of connector a follow-up frame opens with: one for "Another thing", "One more
    thing", "And one more"; one for every "also"; one for "while we're at it" and "while you're
    at it" (reading 51 #29); else its own words."""
    lead = follow.split("{", 1)[0].strip().lower()
    if re.search(r"\b(?:thing|one more|another|one other)\b", lead):
        return "one more"
    if "at it" in lead:
        return "at it"
    if re.search(r"\balso\b", follow.lower()):
        return "also"
    return lead


def frame(asks: list[str], rng: random.Random) -> str:
    """The asks as one request, in a frame drawn from `rng`. Verb phrases are joined into one
    list only when none has a list of its own ("check A and tell me B"), which would run on."""
    if len(asks) == 1:
        text = _alone(asks[0], rng)
    elif all(kind_of(a) == "vp" and not re.search(r",| and ", a) for a in asks) and rng.random() < 0.5:
        text = _fill(rng.choice(suited(JOINED, _listed(asks))), _listed(asks))
    else:
        parts = [_alone(asks[0], rng)]
        said: set[str] = set()  # the kinds of connector the request has used
        for ask in asks[1:]:
            follow = suited({"vp": FOLLOW_VP, "question": FOLLOW_QUESTION, "statement": FOLLOW_STATEMENT}[kind_of(ask)], ask)
            if _BACK.search(ask):  # "Separately, book a viewing of that listing" denies what it leans on
                follow = tuple(f for f in follow if not f.startswith(_APART))
            if kind_of(ask) == "statement" and not opens_a_clause(ask):
                follow = tuple(f for f in follow if f not in _RUN_ON)
            if _LEAD_IN.match(ask):  # "quick check: is it open ...": no "And one more: quick check: ..."
                follow = tuple(f for f in follow if ":" not in f) or follow
            # "Another thing: ... Another thing: ...", "And one more: ... One more thing: ...": a
            # request says each kind of connector once
            follow = tuple(f for f in follow if not _connector(f) or _connector(f) not in said) or follow
            chosen = rng.choice(follow)
            said.add(_connector(chosen))  # ("" for a bare question, which may follow any number of times)
            parts.append(_fill(chosen, ask))
        text = " ".join(parts)
    return text


def without_conjunctions(asks: list[str]) -> str:
    """One plain sentence per ask, no connectives: the robustness variant."""
    return " ".join(_cap(a) if kind_of(a) != "vp" else _cap(a) + "." for a in asks)
