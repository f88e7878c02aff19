"""Contamination: how much of an instance a reference set (NesTools, an earlier run, a published
dataset) already holds. Per instance: the longest run of words its request shares with any
reference request, the share of its 13-grams found there (lm-evaluation-harness' unit), the
embedding cosine of its request to the nearest reference request, and the reference instances
with the same skeleton (tools and wiring), with the same chain and literal values, and with
the same set of tools.

An instance crosses the thresholds (`[checks.contamination]` in validators/default.toml, or a
command's flags) when its longest shared n-gram is longer than `max_ngram`, its cosine is
above `max_cosine`, or a reference holds its very chain (same tools, wiring and values): then
a model may have seen it. Shared skeletons and tool sets alone are reported, not counted: two
fresh instances may rightly take the same tools in the same way. As a check it compares each
candidate with the references of `factory generate --exclude-from`, like the near-duplicate
check compares it with the run's own instances.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from factory.checks.context import CheckContext
from factory.checks.duplicates import chain_skeleton
from factory.lm.embeddings import EmbeddingCache
from factory.records import Chain, CheckResult, Instance, Record, content_hash

GRAM = 13  # lm-evaluation-harness decontaminates on 13-grams
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def tokens(text: str) -> list[str]:
    """Lower-cased words and numbers, punctuation dropped (as n-gram decontamination reads text)."""
    return _TOKEN.findall(text.lower())


def literal_chain(chain: Chain) -> str:
    """The chain with its literal values: which tools, which output feeds which parameter, and
    every stated value."""
    calls = [(c.tool, sorted((k, a.model_dump(mode="json")) for k, a in c.arguments.items())) for c in chain.calls]
    return content_hash(calls)


@dataclass(frozen=True)
class Entry:
    """One reference instance as contamination compares it; a reference read as text alone
    (a dataset of requests) has no chain."""

    id: str
    query: str
    tools: frozenset[str] = frozenset()
    skeleton: str | None = None
    literals: str | None = None


def chain_entry(id_: str, query: str, chain: Chain) -> Entry:
    return Entry(id=id_, query=query, tools=frozenset(c.tool for c in chain.calls), skeleton=chain_skeleton(chain),
                 literals=literal_chain(chain))


def entry_of(instance: Instance) -> Entry:
    return chain_entry(instance.id, instance.query, instance.chain)


class NgramIndex:
    """The word sequences of the reference requests in a suffix automaton: the longest run of
    words a request shares with any of them is found in one pass over the request, and which
    reference it is in. Each reference ends in a separator of its own, so no match spans two."""

    def __init__(self, texts: list[list[str]]):
        self.next: list[dict[int, int]] = [{}]
        self.link, self.length, self.end = [-1], [0], [-1]
        self.owner: list[int] = []  # reference of each position of the concatenation
        self.vocabulary: dict[str, int] = {}
        last = 0
        for number, words in enumerate(texts):
            for word in words:
                last = self._extend(last, self.vocabulary.setdefault(word, len(self.vocabulary)), number)
            last = self._extend(last, -1 - number, number)
        self.grams = {tuple(words[i:i + GRAM]) for words in texts for i in range(len(words) - GRAM + 1)}

    def _extend(self, last: int, symbol: int, number: int) -> int:
        self.owner.append(number)
        current = len(self.length)
        self.next.append({})
        self.length.append(self.length[last] + 1)
        self.link.append(-1)
        self.end.append(len(self.owner) - 1)
        p = last
        while p != -1 and symbol not in self.next[p]:
            self.next[p][symbol] = current
            p = self.link[p]
        if p == -1:
            self.link[current] = 0
            return current
        q = self.next[p][symbol]
        if self.length[p] + 1 == self.length[q]:
            self.link[current] = q
            return current
        clone = len(self.length)
        self.next.append(dict(self.next[q]))
        self.length.append(self.length[p] + 1)
        self.link.append(self.link[q])
        self.end.append(self.end[q])
        while p != -1 and self.next[p].get(symbol) == q:
            self.next[p][symbol] = clone
            p = self.link[p]
        self.link[q] = self.link[current] = clone
        return current

    def longest(self, words: list[str]) -> tuple[int, int | None]:
        """(the most words in a row `words` shares with a reference, which reference: the
        first one holding that run)."""
        state, run, best, where = 0, 0, 0, None
        for word in words:
            symbol = self.vocabulary.get(word)
            while state and (symbol is None or symbol not in self.next[state]):
                state = self.link[state]
                run = self.length[state]
            if symbol is not None and symbol in self.next[state]:
                state = self.next[state][symbol]
                run += 1
            if run > best:
                best, where = run, self.owner[self.end[state]]
        return best, where

    def overlap(self, words: list[str]) -> float:
        """The share of the request's 13-grams that some reference request holds."""
        grams = [tuple(words[i:i + GRAM]) for i in range(len(words) - GRAM + 1)]
        return sum(g in self.grams for g in grams) / len(grams) if grams else 0.0


class Match(Record):
    """What a reference shares with one instance; `crossed` names the thresholds it crosses."""

    id: str
    longest_ngram: int
    ngram_reference: str | None = None
    ngram13_overlap: float
    cosine: float
    cosine_reference: str | None = None
    same_chain: list[str] = []  # reference instances with the same tools, wiring and literal values
    same_skeleton: list[str] = []  # ... with the same tools and wiring, other values
    same_tools: list[str] = []  # ... with the same set of tools
    crossed: list[str] = []


@dataclass
class Thresholds:
    max_ngram: int
    max_cosine: float

    @classmethod
    def of(cls, ctx: CheckContext) -> Thresholds:
        policy = ctx.policy.checks["contamination"]
        return cls(policy.get("max_ngram"), policy.get("max_cosine"))


@dataclass
class Reference:
    """A named reference set, indexed for comparison: `name` is how the user gave it."""

    name: str
    entries: list[Entry]
    embeddings: EmbeddingCache = field(default_factory=EmbeddingCache)

    def __post_init__(self) -> None:
        self.ngrams = NgramIndex([tokens(e.query) for e in self.entries])
        queries = [e.query for e in self.entries]
        self.embeddings.preload(queries)  # one batch, kept in the store: the next check reads it
        self.vectors = self.embeddings.vectors(queries)
        self.by_literals, self.by_skeleton, self.by_tools = defaultdict(list), defaultdict(list), defaultdict(list)
        for entry in self.entries:
            if entry.skeleton is not None:
                self.by_literals[entry.literals].append(entry.id)
                self.by_skeleton[entry.skeleton].append(entry.id)
                self.by_tools[entry.tools].append(entry.id)

    def match(self, instance: Instance, thresholds: Thresholds) -> Match:
        entry = entry_of(instance)
        words = tokens(entry.query)
        longest, where = self.ngrams.longest(words)
        # A request embedded alone, as the near-duplicate check embeds it: the same vector
        # whether the check runs in `generate` or in `factory contamination`.
        cosines = self.vectors @ self.embeddings.vectors([entry.query])[0] if self.entries else np.zeros(0)
        nearest = int(np.argmax(cosines)) if len(cosines) else None
        match = Match(
            id=instance.id, longest_ngram=longest,
            ngram_reference=self.entries[where].id if where is not None and longest else None,
            ngram13_overlap=round(self.ngrams.overlap(words), 4),
            cosine=round(float(cosines[nearest]), 4) if nearest is not None else 0.0,
            cosine_reference=self.entries[nearest].id if nearest is not None else None,
            same_chain=self.by_literals.get(entry.literals, []), same_skeleton=self.by_skeleton.get(entry.skeleton, []),
            same_tools=self.by_tools.get(entry.tools, []),
        )
        match.crossed = [name for name, crossed in (("ngram", longest > thresholds.max_ngram),
                                                    ("cosine", match.cosine > thresholds.max_cosine),
                                                    ("same_chain", bool(match.same_chain))) if crossed]
        return match


def why(match: Match, reference: str) -> str:
    """The reject reason of a candidate that crosses the thresholds against a reference."""
    said = {
        "ngram": f"shares {match.longest_ngram} words in a row with {match.ngram_reference}",
        "cosine": f"request at cosine {match.cosine:.3f} to {match.cosine_reference}",
        "same_chain": f"same chain and values as {match.same_chain[0] if match.same_chain else ''}",
    }
    return f"{reference}: " + "; ".join(said[name] for name in match.crossed)


class ContaminationIndex:
    """The references of `generate --exclude-from`; `check` a candidate against each of them."""

    def __init__(self, references: list[Reference]):
        self.references = references

    def check(self, instance: Instance, ctx: CheckContext) -> CheckResult:
        policy = ctx.policy.checks["contamination"]
        thresholds = Thresholds.of(ctx)
        reasons = [why(m, r.name) for r in self.references if (m := r.match(instance, thresholds)).crossed]
        return CheckResult(name="contamination", passed=not reasons or not policy.enabled, blocking=policy.blocking,
                           reason="; ".join(reasons))

