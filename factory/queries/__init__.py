"""Queries: a chain worded as the request a person would make. The offline writer
(`template_query`) words it from the seeds' phrasings; intermediate values are described by
what they are, and a variant without conjunctions is kept for robustness runs."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from factory.queries.frames import frame, greet, without_conjunctions
from factory.queries.values import DateStyle, render_value
from factory.queries.wording import Wording, asked_calls, tidy
from factory.records import Chain, ToolSpec
from factory.toolbox import Goal, ToolEntry

__all__ = ["Worded", "render_value", "template_query"]


@dataclass(frozen=True)
class Worded:
    """A chain worded as a request: its variants ("template", "no_conjunctions"), the
    (tool, phrasing) pairs it used, and the calls in the order its text first speaks of them
    (a context sentence, an ask, or a description of a call's value), from which the gold
    calls take their order (`factory.queries.order`)."""

    variants: dict[str, str]
    phrasings: list[tuple[str, str]]
    mentions: list[int]
    asks: list[tuple[int, str]] = ()  # (call, ask) in the order the request makes them


def template_query(chain: Chain, specs: dict[str, ToolSpec], entries: dict[str, ToolEntry],
                   joint_kinds: list[tuple[str, ...]] | None = None, rng: random.Random | None = None,
                   context: list[str] | None = None, written: dict[str, dict[str, str]] | None = None,
                   used: Counter | None = None, speaks_of: list[int] | None = None, goal: Goal | None = None,
                   style: DateStyle | None = None, held: dict[tuple[int, str], str] | None = None) -> Worded:
    """The request and its variant without conjunctions. `context` sentences (a condition the
    user states, a value a fix-up needs) open the request, `speaks_of` naming the fix-up call
    each is about; `written` says per toolbox how literals of a kind are written
    (`Toolbox.written_as`); `used` counts the phrasings a run has used so far, and each ask or
    description then takes one used least; `goal` is what the person wants, in which role (a
    situation the request says must fit it); `style` how it writes days and times, as its
    opening sentences do; `held` the words a literal argument (call, name) goes by when the
    person does not say it yet ("the travel date I have in mind")."""
    rng = rng or random.Random(0)
    wording = Wording(chain, specs, entries, joint_kinds or [], rng, written or {}, used=used,
                      stated=" ".join(context or []), goal=goal, style=style, held=dict(held or {}))
    # Asks in chain order: the gold calls follow the request, so a shuffle here would relabel the
    # composed nesting shape (two independent parts asked the other way round are another
    # NesTools shape) and pull the run's shapes away from the drawn mix.
    marked = [i for i, call in enumerate(chain.calls) if call.asked]
    order = marked or asked_calls(chain, entries)
    asks = [wording.ask(i) for i in order]
    opening = " ".join(context or [])
    request = tidy(greet(f"{opening} {frame(asks, rng)}".strip(), rng))
    plain = tidy(f"{opening} {without_conjunctions(asks)}")
    mentions = list(dict.fromkeys([*(speaks_of or []), *wording.mentioned]))
    return Worded({"template": request, "no_conjunctions": plain}, wording.chosen, mentions,
                  list(zip(order, asks, strict=True)))
