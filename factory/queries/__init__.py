"""Queries: a chain worded as the request a person would make. The offline writer
(`template_query`) words it from the seeds' phrasings; intermediate values are described by
what they are, and a variant without conjunctions is kept for robustness runs."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from factory.queries.frames import frame, greet, without_conjunctions
from factory.queries.values import render_value
from factory.queries.wording import Wording, asked_calls, tidy
from factory.records import Chain, ToolSpec
from factory.toolbox import ToolEntry

__all__ = ["Worded", "render_value", "template_query"]


def _order(asked: list[int], chain: Chain, entries: dict[str, ToolEntry], rng: random.Random) -> list[int]:
    """Asks in chain order, except that runs of look-ups between actions are shuffled: an
    action stays where it is, so nothing asked after it moves before it."""
    ordered, run = [], []
    for index in asked:
        entry = entries.get(chain.calls[index].tool)
        if entry and "state_change" in entry.tags:
            rng.shuffle(run)
            ordered += run + [index]
            run = []
        else:
            run.append(index)
    rng.shuffle(run)
    return ordered + run


@dataclass(frozen=True)
class Worded:
    """A chain worded as a request: its variants ("template", "no_conjunctions") and the
    (tool, phrasing) pairs it used."""

    variants: dict[str, str]
    phrasings: list[tuple[str, str]]


def template_query(chain: Chain, specs: dict[str, ToolSpec], entries: dict[str, ToolEntry],
                   joint_kinds: list[tuple[str, ...]] | None = None, rng: random.Random | None = None,
                   context: list[str] | None = None, written: dict[str, dict[str, str]] | None = None,
                   used: Counter | None = None) -> Worded:
    """The request and its variant without conjunctions. `context` sentences (a condition the
    user states, a value a fix-up needs) open the request; `written` says per toolbox how
    literals of a kind are written (`Toolbox.written_as`); `used` counts the phrasings a run
    has used so far, and each ask or description then takes one used least."""
    rng = rng or random.Random(0)
    wording = Wording(chain, specs, entries, joint_kinds or [], rng, written or {}, used=used, stated=" ".join(context or []))
    asks = [wording.ask(i) for i in _order(asked_calls(chain, entries), chain, entries, rng)]
    opening = " ".join(context or [])
    request = tidy(greet(f"{opening} {frame(asks, rng)}".strip(), rng))
    plain = tidy(f"{opening} {without_conjunctions(asks)}")
    return Worded({"template": request, "no_conjunctions": plain}, wording.chosen)
