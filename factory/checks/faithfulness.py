"""Query faithfulness: every literal argument is recoverable from the query (after normalising
case, number formatting, date and time forms, or as a person writes it: see
factory.checks.written_forms), no value a nested call must find is given away
in it and it names no city or country the chain is not about, no tool name, or a near-miss of
one, appears in it as an identifier (plain words that happen to describe a tool are fine), and
nothing reads as a template leftover (a step number, a doubled word or phrase, an empty slot).

Rules (reasons read "rule: detail"): `unstated`, `given_away`, `elsewhere` (a place the chain
is not about), `glitch`, `tool_name`, `example` (a literal an agent could copy from a tool's
documented example instead of reading the request), `repeated` (a name, address or id stated
in full more than once in one request, where "that library" would do).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

import Levenshtein

from factory.checks.context import CheckContext
from factory.checks.written_forms import stated_as_written
from factory.queries.values import MONTH
from factory.records import Chain, CheckResult, Instance, Ref, ToolSpec, Trace, Value
from factory.seeds.specs import documented_examples, shows_example
from factory.toolbox.gazetteer import CITIES, COUNTRIES
from factory.toolbox.sense import is_named

RULES = ("unstated", "given_away", "elsewhere", "joined", "glitch", "tool_name", "example", "repeated")

_QUOTES = str.maketrans({c: " " for c in "\"'`‘’“”"})
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\()?")
PLACE_NAMES = tuple(sorted({c.name for c in CITIES} | {c.name for c in COUNTRIES}, key=lambda n: (-len(n), n)))


def normalise(text: str) -> str:
    text = text.lower().translate(_QUOTES).replace(",", " ")
    text = re.sub(r"(\d{4}-\d{2}-\d{2})t(\d{2}:\d{2})", r"\1 \2", text)  # ISO date-times: date, then time
    return " ".join(text.split())


def _date_forms(d: date) -> list[str]:
    month = d.strftime("%B").lower()
    short = month[:3]
    day = d.day
    suffix = "th" if 11 <= day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    forms = [d.isoformat(), d.strftime("%Y/%m/%d"), f"{d.month}/{day}/{d.year}", f"{d.month:02d}/{day:02d}/{d.year}"]
    for m in (month, short):
        forms += [f"{m} {day} {d.year}", f"{m} {day}{suffix} {d.year}", f"{day} {m} {d.year}", f"{day}{suffix} {m} {d.year}"]
    return forms


def _time_forms(t: datetime) -> list[str]:
    hour12 = t.hour % 12 or 12
    ampm = "am" if t.hour < 12 else "pm"
    forms = [t.strftime("%H:%M"), f"{hour12}:{t.minute:02d} {ampm}", f"{hour12}:{t.minute:02d}{ampm}"]
    if t.minute == 0:
        forms += [f"{hour12} {ampm}", f"{hour12}{ampm}", f"{hour12} o'clock"]
    if (t.hour, t.minute) == (12, 0):
        forms.append("noon")
    if (t.hour, t.minute) == (0, 0):
        forms.append("midnight")
    return forms


def _number_forms(value: float) -> list[str]:
    forms = {repr(value), str(value), f"{value:.2f}"}
    if float(value).is_integer():
        forms.add(str(int(value)))
    return sorted(forms)


def value_groups(value: Any) -> list[list[str]]:
    """Alternatives that must each be found: e.g. a datetime needs a date form and a time form."""
    if isinstance(value, bool):
        return [["on", "true", "yes", "enable", "enabled", "turn on"] if value else ["off", "false", "no", "disable", "disabled", "turn off"]]
    if isinstance(value, (int, float)):
        return [_number_forms(value)]
    if isinstance(value, list):
        return [alt for item in value for alt in value_groups(item)]
    if isinstance(value, dict):
        return [alt for item in value.values() for alt in value_groups(item)]
    text = str(value).strip()
    if _DATE.fullmatch(text):
        return [_date_forms(date.fromisoformat(text))]
    if _DATETIME.fullmatch(text):
        moment = datetime.fromisoformat(text)
        return [_date_forms(moment.date()), _time_forms(moment)]
    if MONTH.fullmatch(text):
        first = date.fromisoformat(text + "-01")
        return [[text, f"{first:%B} {first.year}".lower(), f"{first:%b} {first.year}".lower()]]
    return [[normalise(text)]]


def found(form: str, query: str) -> bool:
    return re.search(rf"(?<![0-9a-z]){re.escape(form)}(?![0-9a-z])", query) is not None


def states(text: str, value: Any) -> bool:
    """Whether a text states a value in one of its written forms."""
    text = normalise(text)
    return all(any(found(normalise(form), text) for form in group) for group in value_groups(value))


def unstated_arguments(chain: Chain, query: str, free: set[tuple[int, str]] | None = None) -> list[tuple[int, str, Any]]:
    """(call index, argument, value) of the literal arguments the query does not state. A
    fix-up call's arguments count too, unless they are `free` (call index, argument): any
    valid value restores the condition."""
    text = normalise(query)
    missing = []
    for index, call in enumerate(chain.calls):
        for name, arg in call.arguments.items():
            if not isinstance(arg, Value) or (call.fixes is not None and (index, name) in (free or set())):
                continue
            exact = all(any(found(normalise(form), text) for form in group) for group in value_groups(arg.value))
            if not exact and not stated_as_written(arg.value, query):
                missing.append((index, name, arg.value))
    return missing


def missing_values(chain: Chain, query: str, free: set[tuple[int, str]] | None = None) -> list[str]:
    """Literal arguments the query does not state, as "call N tool.argument=value"."""
    return [f"call {index + 1} {chain.calls[index].tool}.{name}={value!r}"
            for index, name, value in unstated_arguments(chain, query, free)]


def _without_literals(chain: Chain, query: str) -> str:
    """The normalised query with every stated literal blanked out."""
    rest = normalise(query)
    for call in chain.calls:
        for arg in call.arguments.values():
            if isinstance(arg, Value):
                for form in (f for group in value_groups(arg.value) for f in group):
                    rest = re.sub(rf"(?<![0-9a-z]){re.escape(normalise(form))}(?![0-9a-z])", " | ", rest)
    return rest


def given_away(chain: Chain, trace: Trace, query: str, specs: Mapping[str, ToolSpec]) -> list[str]:
    """Text values that a call finds and a later call consumes, stated in the query apart from
    its literals ("the weather in Edinburgh" where the chain must first find the city under the
    worst alert): an agent could skip the calls that find them, and the nesting is for show. A
    value consumed only by parameters with a closed set of options ("available" or "on loan")
    may be named as an option."""
    rest = _without_literals(chain, query)

    def closed(tool: str, name: str) -> bool:
        param = specs[tool].param(name) if tool in specs else None
        return bool(param and param.enum)

    open_refs = {a.ref for call in chain.calls for name, a in call.arguments.items()
                 if isinstance(a, Ref) and not closed(call.tool, name)}
    stated: list[str] = []
    for step in trace.steps:
        for var, value in step.outputs.items():
            if var in open_refs and isinstance(value, str) and len(value.strip()) >= 3 and value not in stated and all(
                    any(found(normalise(form), rest) for form in group) for group in value_groups(value)):
                stated.append(value)
    return stated


def places_not_in_chain(chain: Chain, trace: Trace, query: str) -> list[str]:
    """Cities and countries the query names that no call takes or returns ("the weather in
    London" when the chain is about Edinburgh): a request about something else."""
    used = normalise(" | ".join(repr(v) for step in trace.steps for v in (*step.arguments.values(), *step.outputs.values())))
    rest = _without_literals(chain, query)
    return [name for name in PLACE_NAMES if found(normalise(name), rest) and not found(normalise(name), used)]


_WORD = re.compile(r"[a-z]+")
_PLAIN = frozenset("""a an the of to in on at for from with by and or is are be it its this that these those
their my your our get find look up list give show return returns one two any some all each new now
user""".split())


def joined_values(chain: Chain, query: str, specs: Mapping[str, ToolSpec]) -> list[str]:
    """Two values that two steps of different tools each take for a parameter of one name,
    written as one pair: "measure the temperature and salinity of Biscay and the North Sea"
    reads as both measures of both seas, while the gold measured the one sea's temperature and
    the other's salinity (a real 1.5B model's request, reading 83 #1). A pair a third step takes
    whole is that step's ("how dangerous is it to mix tramadol and clopidogrel"), unless the
    words before it speak of both steps."""
    literals = [(i, name, arg.value) for i, call in enumerate(chain.calls) for name, arg in call.arguments.items()
                if isinstance(arg, Value) and isinstance(arg.value, str) and len(arg.value) > 1]
    taken = [{str(a.value).casefold() for a in call.arguments.values() if isinstance(a, Value)} for call in chain.calls]
    words = _call_words(chain, specs)
    found = []
    for i, name, first in literals:
        for j, other, second in literals:
            if i >= j or name != other or first.casefold() == second.casefold() or chain.calls[i].tool == chain.calls[j].tool:
                continue
            pair = next((m for a, b in ((first, second), (second, first)) if (m := re.search(
                rf"(?<!\w){re.escape(a)},? (?:and|or|&) (?:the )?{re.escape(b)}(?!\w)", query, re.I))), None)
            if pair is None:
                continue
            before = stems(re.split(r"[.?!;,]", query[:pair.start()])[-1])
            whole = any({first.casefold(), second.casefold()} <= both for both in taken)
            if not whole or (_meets(words[i], before) and _meets(words[j], before)):
                found.append(f"names {first!r} and {second!r} together, while call {i + 1} takes {first!r} alone "
                             f"and call {j + 1} {second!r} alone: a reader takes each step to be about both")
    return found


def _stem(word: str) -> str:
    """A crude stem, enough to meet a word in another form: pairs, paired, pairing → pair."""
    if word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower().replace("_", " ")) if len(w) > 2 and w not in _PLAIN}


_ACTION = re.compile(r"(add|create|book|cancel|delete|update|set|send|remove|schedule|transfer|buy|order|reserve|"
                     r"register|submit|place|pay|move|rename|enable|disable|apply|assign|approve|record|log|mark)_")


def unspoken_calls(chain: Chain, query: str, draft: str, specs: Mapping[str, ToolSpec]) -> list[str]:
    """Calls the request no longer speaks of, though the draft it was written from did. A call's
    own words are those of its tool's name that no other tool's name of the chain has, and
    those of its name and documentation that no other tool's use; the draft has one of them
    and the request none ("the calories in a serving of that grape", where the draft asked for
    the calories of the food to pair with it; "how much do 2 bottles sell for", where it asked
    to add them to the cellar). The draft's words are the measure, so a call it too leaves
    implicit asks for nothing; a draft word in another form still names the call ("who produces
    the wine" names the producer). The one question of a request with one may be asked in other
    words, but not without the one value its call finds ("one portion of its food" for "the
    calories in a serving"); where it asks several, each must be there ("the winery and its
    latest score" leaves out the producer's region the draft also asked for). A change the draft
    asks for is asked in words that ask it ("put 2 bottles in my cellar", not "two bottles are
    in the cellar", nor "I will not add 2 bottles")."""
    names, vocabulary = {}, {}
    for call in chain.calls:
        spec = specs.get(call.tool)
        names[call.tool] = stems(call.tool)
        texts = [spec.description, *(o.description for o in spec.returns)] if spec else []
        vocabulary[call.tool] = names[call.tool] | stems(" ".join(texts))
    said, drafted = stems(query), stems(draft)
    asking = set().union(*(stems(c) for c in _CLAUSE.split(query) if not _NEGATED.search(c)))  # not "I will not add"
    sinks = set(chain.sinks())
    problems = []
    for index, call in enumerate(chain.calls):
        spec = specs.get(call.tool)
        if sinks == {index} and not _ACTION.match(call.tool):
            # the one question asked: "how will June 16 look" asks for a forecast in other words,
            # but a call that finds one value is asked for by it: not for calories once the
            # draft's "calories" is gone ("one portion of its food")
            one = spec is not None and len(spec.returns) == 1
            found = stems(f"{spec.returns[0].name} {spec.returns[0].description}") & drafted if one else set()
            if found and not found & said:
                where = next((c.strip() for c in _CLAUSE.split(draft) if found & stems(c)), "")
                problems.append(f"does not ask for what call {index + 1} ({call.tool}) finds, which the draft asks for "
                                f"in '{where}' (as '{', '.join(sorted(found))}'): ask for what the draft asks for")
            continue
        others = [tool for tool in names if tool != call.tool]
        own = ((names[call.tool] - set().union(*(names[t] for t in others)))
               | (vocabulary[call.tool] - set().union(*(vocabulary[t] for t in others))))
        spoken = {w for w in own if _meets({w}, drafted)}  # "who produces the wine": the producer
        forms = {d for d in drafted if _meets(own, {d})}  # the draft's own forms of them ("produces")
        if spoken and not (own | forms) & said:  # kept in the draft's form too: "who produces it?"
            where = next((c.strip() for c in _CLAUSE.split(draft) if _meets(own, stems(c))), "")  # in the draft's words
            problems.append(f"does not speak of call {index + 1} ({call.tool}), which the draft asks for in "
                            f"'{where}' (as '{', '.join(sorted(spoken))}'): keep every step the draft asks for")
            continue
        verb = call.tool.split("_")[0]
        doing = _DOING.get(verb, {_stem(verb)})
        if _ACTION.match(call.tool) and doing & drafted and not doing & asking:
            where = next((c.strip() for c in _CLAUSE.split(draft) if doing & stems(c)), "")
            problems.append(f"does not ask to {verb} (call {index + 1}, {call.tool}) as the draft does in '{where}': "
                            f"a change the request does not ask for is one the user does not want")
    return problems


# A clause that says a thing is not to be done: "I will not add 2 bottles to my cellar at this
# time" (a real 1.5B model's rewrite of "put 2 bottles in my cellar") asks for no change.
_NEGATED = re.compile(r"\b(?:not|never|no need|don't|do not|won't|shouldn't|without)\b|n't\b", re.IGNORECASE)

# The words a request may use for an action a tool's name opens with ("put 2 bottles in my
# cellar" asks to add them; "two bottles are in the cellar" does not).
_DOING = {verb: {_stem(w) for w in words.split()} for verb, words in {
    "add": "add put log record stock include", "book": "book reserve", "reserve": "reserve book hold",
    "create": "create make set add", "update": "update change set edit", "set": "set change turn switch make",
    "send": "send text message email", "remove": "remove delete drop", "delete": "delete remove drop",
    "schedule": "schedule book plan set", "buy": "buy order purchase", "order": "order buy purchase",
    "pay": "pay settle", "move": "move reschedule shift bump", "register": "register sign enrol enroll",
    "transfer": "transfer send move", "cancel": "cancel", "submit": "submit send file",
}.items()}


# Words that pick one thing among others by a criterion: a request that adds one its draft does
# not have asks for a choice no call makes ("the best-selling pairing" for the classic one).
_CRITERIA = re.compile(r"\b(best(?:[- ]selling|[- ]rated|[- ]reviewed)?|worst|most|least|top|cheapest|dearest|highest|"
                       r"lowest|latest|newest|oldest|earliest|nearest|closest|farthest|furthest|biggest|largest|"
                       r"smallest|hottest|coldest|fastest|slowest|longest|shortest|popular|favou?rite|recommended)\b",
                       re.IGNORECASE)


def added_criteria(query: str, draft: str) -> list[str]:
    """Words of choice the request has where its draft has none: "the calories of the best-selling
    pairing" written from "the classic pairing" (a real 1.5B model's) asks for a pick by sales
    that no call makes, and the gold answers for the classic dish. A draft that picks by one
    criterion may have it in other words ("the worst warning" for "the most severe alert")."""
    if _CRITERIA.search(draft):
        return []  # "the worst warning" for "the most severe alert" picks alike
    return list(dict.fromkeys(m.lower().replace(" ", "-") for m in _CRITERIA.findall(query)))


# What makes a sentence ask for something: a question, a polite form, a verb that opens a
# clause as a command ("Find ...", "If you have a minute, find ...", "and tell me ..."), or a
# terse list of what it wants ("Coverage check on a visit ...: percent covered and copay").
_ASKING = re.compile(
    r"\?|\w: \w|\b(please|could you|can you|would you|will you|you could|i'd like|i would like|i want|i need|i'm looking|"
    r"i am looking|i wonder|help me|let me know|let me have|i'm counting on you|i'd be glad|do me a favou?r|"
    r"any chance)\b|"
    r"(?:^|[,.;:!]\s*|\b(?:and|also|then|now|just|kindly|too)\s+)(find|tell|get|give|show|look|check|list|book|add|put|"
    r"send|cancel|compare|convert|work|calculate|compute|estimate|search|pull|fetch|grab|name|identify|locate|see|"
    r"make|set|move|bump|reserve|order|buy|pay|schedule|create|remove|delete|update|email|text|call|quote|rate|"
    r"count|predict|study|measure|analy[sz]e|determine|map|plan|turn|switch|enrol|enroll|register|sign|share|use|"
    r"report|say|summari[sz]e|organi[sz]e|arrange|translate|track|monitor|retrieve|provide|confirm|verify|recommend|suggest)\b",
    re.IGNORECASE)


def asks_nothing(query: str) -> bool:
    """Whether a request only states things: "The grape of Poggio Alto is the variety that should
    be looked up, and the calories ... can be found by pairing it with another food" (a real
    1.5B model's) describes a plan, and asks for nothing a user wants."""
    return not _ASKING.search(query)


# Words a returned value's documentation uses of any value, which ask for none in particular.
_VAGUE = frozenset(_stem(w) for w in "current list value number name data information result detail given based".split())
_TOKEN = re.compile(r"[A-Za-z][\w'-]*|[.?!]")
# A clause of a request: a sentence, or a part of one after a comma, "and" or "then".
_CLAUSE = re.compile(r"[.?!;:]+\s*|,\s*(?:and\s+|then\s+)*|\s+and\s+(?:then\s+)?|\s+then\s+")
# What a question word asks for: "where is it" asks for a city or an address.
_ASKS_FOR = {_stem(w): {_stem(k) for k in kinds.split()} for w, kinds in {
    "where": "city location address place venue country position coordinates latitude longitude station region",
    "when": "start date time day departure arrival hour deadline",
    "who": "attendees organizer organiser owner contact person author host manager member",
    "much": "price cost amount total fee fare rate balance",
    "expensive": "price cost fare fee",
    "cost": "price amount total fee fare rate",
    "long": "duration days hours minutes time distance",
    "far": "distance",
    "fast": "speed rate velocity",
    "many": "count number units quantity total",
}.items()}


def _unnamed(text: str) -> str:
    """The text without names of things: its capitalised words but each sentence's first."""
    kept, opening = [], True
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ".?!":
            opening = True
            continue
        if opening or not token[0].isupper():
            kept.append(token)
        opening = False
    return " ".join(kept)


def _meets(words: set[str], said: set[str]) -> bool:
    """Whether a word of `words` is said, or one of five letters or more that begins the other
    ("interact" and "interaction")."""
    return any(w == s or (min(len(w), len(s)) >= 5 and (w.startswith(s) or s.startswith(w))) for w in words for s in said)


def _call_words(chain: Chain, specs: Mapping[str, ToolSpec]) -> list[set[str]]:
    """Each call's words: of its tool's name, and of the names and descriptions of what it returns."""
    words = []
    for call in chain.calls:
        spec = specs.get(call.tool)
        returns = " ".join(f"{o.name} {o.description}" for o in spec.returns) if spec else ""
        words.append(stems(f"{call.tool} {returns}") - _VAGUE)
    return words


def own_words(chain: Chain, specs: Mapping[str, ToolSpec]) -> list[set[str]]:
    """Each call's words that no call of another tool has: by them a request asks for the call.
    A call with none (measure_salinity between measure_temperature and a salinity difference)
    cannot be told asked or not by its words."""
    words = _call_words(chain, specs)
    return [w - set().union(*(v for v, c in zip(words, chain.calls, strict=True) if c.tool != call.tool))
            for w, call in zip(words, chain.calls, strict=True)]


def asked_in(chain: Chain, text: str, specs: Mapping[str, ToolSpec], anywhere: bool = False) -> list[int]:
    """The task calls a request asks for, by a word of their own: of the tool's name, or of the
    names and descriptions of what it returns, that no call of another tool has. Each clause
    asks for the last call of the chain it speaks of; the earlier ones it speaks of describe
    what that call is given ("the pharmacy in the city where the patient lives" asks for the
    pharmacy, not the patient's profile). "Identify the species of ..., study the environmental
    conditions in its habitat, and predict future changes" asks for all three calls; "What is
    the current speed of the water flow in the Atlantic Ocean?" not for the analysis of ocean
    data beside the speed. A name ("the Atlantic Ocean") or a literal of the request asks for
    nothing, and documentation is not read (an analysis "of water circulation" is not asked for
    by "the water flow"). `anywhere`: every call the request speaks of in any clause, by any of
    its words, a question word asking for a value of its kind ("where is it": the city)."""
    tasks = [i for i, call in enumerate(chain.calls) if call.fixes is None]
    own = _call_words(chain, specs) if anywhere else own_words(chain, specs)

    def said(part: str) -> set[str]:
        found = stems(_without_literals(chain, _unnamed(part)))
        return found | set().union(*(_ASKS_FOR.get(w, set()) for w in found)) if anywhere else found

    if anywhere:
        everything = said(text)
        return [i for i in tasks if _meets(own[i], everything)]
    asked = {max(spoken) for clause in _CLAUSE.split(text)
             if (spoken := [i for i in tasks if _meets(own[i], said(clause))])}
    return sorted(asked)


def free_arguments(instance: Instance, ctx: CheckContext) -> set[tuple[int, str]]:
    """(call, argument) of fix-up calls whose condition accepts any value for the argument."""
    free = set()
    for index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        seed = ctx.seeds.get(spec.toolbox or "") if spec and call.fixes else None
        condition = seed.toolbox.conditions.get(call.fixes) if seed else None
        if call.fixes is not None:
            free |= {(index, name) for name in call.arguments if condition is None or name in condition.free}
    return free


def leaked_names(query: str, tool_names: list[str], max_distance: int) -> list[str]:
    """Identifier-looking tokens of the query that are a tool name or a near-miss of one."""
    leaks = []
    for match in _IDENT.finditer(query):
        token = match.group(0)
        looks_like_code = "_" in token or token.rstrip().endswith("(") or re.search(r"[a-z][A-Z]", token)
        if not looks_like_code:
            continue
        word = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", token.rstrip("( ")).lower()
        for name in tool_names:
            if Levenshtein.distance(word, name.lower()) <= max_distance:
                leaks.append(f"{token.strip()!r} ~ {name}")
    return leaks


_GLITCHES = (
    (re.compile(r"\bsteps? \d+\b", re.IGNORECASE), "names a step number"),
    (re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE), "doubled word"),
    (re.compile(r"\b(\w+ \w+(?: \w+)?) \1\b", re.IGNORECASE), "doubled phrase"),
    (re.compile(r"[{}\[\]]|\(\s*\)|\s[,.?!]|,\s*[,.?]"), "empty slot or stray punctuation"),
    # a question word before a description that opens with its own ("find out who whoever ... is")
    (re.compile(r"\b(who|what|which|where|when) \1ever\b", re.IGNORECASE), "doubled question word"),
)


def text_glitches(query: str) -> list[str]:
    """What reads as a template leftover: step numbers, doubled words or phrases, empty slots."""
    found = []
    for pattern, what in _GLITCHES:
        match = pattern.search(query)
        if match:
            found.append(f"{what}: {match.group(0)!r}")
    return found


def shows_a_literal(tool: ToolSpec, chain: Chain) -> bool:
    """Whether a tool's documentation shows a literal argument of the chain as an example (such
    a tool is not offered as a distractor)."""
    examples = documented_examples(tool)
    return any(isinstance(a, Value) and shows_example(a.value, examples) for c in chain.calls for a in c.arguments.values())


def example_literals(instance: Instance) -> list[str]:
    """Literal arguments equal to an example value a tool's documentation shows (offered or
    withheld tools): an agent that copies the example without reading the request gets them."""
    shown = [(t.name, documented_examples(t)) for t in (*instance.tools, *instance.withheld_tools)]
    problems = []
    for index, call in enumerate(instance.chain.calls):
        for name, arg in call.arguments.items():
            if not isinstance(arg, Value):
                continue
            source = next((tool for tool, examples in shown if shows_example(arg.value, examples)), None)
            if source is not None:
                problems.append(f"call {index + 1} {call.tool}.{name}={arg.value!r} is an example in {source}'s documentation")
    # What a withheld call finds for a later one: an agent that copies the example guesses what
    # an insufficient-information item withholds (reading 60 #16: "WH-BER").
    withheld = {t.name for t in instance.withheld_tools}
    consumed = {a.ref for c in instance.chain.calls for a in c.arguments.values() if isinstance(a, Ref)}
    for step in instance.trace.steps:
        if instance.chain.calls[step.call].tool not in withheld:
            continue
        for var, value in step.outputs.items():
            if var not in consumed or not isinstance(value, str):
                continue
            source = next((tool for tool, examples in shown if shows_example(value, examples)), None)
            if source is not None:
                problems.append(f"call {step.call + 1} {instance.chain.calls[step.call].tool} finds {value!r}, "
                                f"an example in {source}'s documentation")
    return problems


def repeated_names(chain: Chain, query: str, min_words: int = 2) -> list[str]:
    """Names, addresses and ids the query states in full more than once."""
    text = normalise(query)
    seen, problems = set(), []
    for call in chain.calls:
        for arg in call.arguments.values():
            if not isinstance(arg, Value) or not is_named(arg.value, min_words) or normalise(arg.value) in seen:
                continue
            form = normalise(arg.value)
            seen.add(form)
            count = len(re.findall(rf"(?<![0-9a-z]){re.escape(form)}(?![0-9a-z])", text))
            if count > 1:
                problems.append(f"{arg.value!r} is stated in full {count} times")
    return problems


def faithfulness_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """'rule: detail' for every rule the query breaks."""
    policy = ctx.policy.checks["faithfulness"]
    limits = dict(policy.model_extra or {})
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    names = [t.name for t in (*instance.tools, *instance.withheld_tools)]
    found = {
        "unstated": lambda: [f"{m} is not stated" for m in missing_values(instance.chain, instance.query,
                                                                         free_arguments(instance, ctx))],
        "given_away": lambda: [f"the query states {v!r}, which a nested call must find"
                               for v in given_away(instance.chain, instance.trace, instance.query, specs)],
        "elsewhere": lambda: [f"the query names {p!r}, which no call takes or returns"
                              for p in places_not_in_chain(instance.chain, instance.trace, instance.query)],
        "joined": lambda: joined_values(instance.chain, instance.query, specs),
        "glitch": lambda: text_glitches(instance.query),
        "tool_name": lambda: leaked_names(instance.query, names, limits["name_distance"]),
        "example": lambda: example_literals(instance),
        "repeated": lambda: repeated_names(instance.chain, instance.query, limits.get("repeated_name_min_words", 2)),
    }
    skip = set(limits.get("skip", []))
    return [f"{rule}: {problem}" for rule in RULES if rule not in skip for problem in found[rule]()]


def check_faithfulness(instance: Instance, ctx: CheckContext) -> CheckResult:
    problems = faithfulness_problems(instance, ctx)
    return CheckResult(name="faithfulness", passed=not problems, blocking=ctx.policy.checks["faithfulness"].blocking,
                       reason="; ".join(problems[:5]))
