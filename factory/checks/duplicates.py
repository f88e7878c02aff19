"""Near-duplicate removal across a run: the same chain with the same literal values; the same
skeleton (tools and wiring) with only literals changed and nearly the same wording
(Levenshtein ratio); or the same gold tools with nearly the same query meaning (embeddings)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import Levenshtein
import numpy as np

from factory.checks.context import CheckContext
from factory.records import Chain, CheckResult, Instance, Ref, content_hash


def chain_signature(instance: Instance) -> str:
    body = {
        "chain": instance.chain.model_dump(mode="json"),
        "world": instance.world.model_dump(mode="json") if instance.world else None,
        "withheld": sorted(t.name for t in instance.withheld_tools),
    }
    return content_hash(body)


def skeleton(instance: Instance) -> str:
    """The chain without its literal values: which tools, and which output feeds which parameter."""
    return chain_skeleton(instance.chain, [t.name for t in instance.withheld_tools])


def chain_skeleton(chain: Chain, withheld: Sequence[str] = ()) -> str:
    """`skeleton` of a bare chain (a reference read from another benchmark has no withheld tools)."""
    calls = [(c.tool, sorted((k, a.ref if isinstance(a, Ref) else None) for k, a in c.arguments.items()), c.outputs)
             for c in chain.calls]
    return content_hash([calls, sorted(withheld)])


class DuplicateIndex:
    """The instances kept so far; `check` an instance against them before `add`ing it."""

    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self.threshold = ctx.policy.checks["duplicates"].get("query_similarity")
        self.ratio = ctx.policy.checks["duplicates"].get("skeleton_query_ratio")
        self.skeletons: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.blocking = ctx.policy.checks["duplicates"].blocking
        self.enabled = ctx.policy.checks["duplicates"].enabled
        self.signatures: dict[str, str] = {}
        # Queries by gold tools, as text: a query is embedded only once another instance with
        # the same gold tools needs the comparison (most never meet one). Each is embedded
        # alone, as before, so its vector does not depend on when that happens.
        self.queries: dict[tuple[str, ...], list[tuple[str, str]]] = defaultdict(list)

    def check(self, instance: Instance) -> CheckResult:
        reason = ""
        same = self.signatures.get(chain_signature(instance))
        if not self.enabled:
            pass
        elif same:
            reason = f"same chain and values as instance {same}"
        elif worded := self._same_wording(instance):
            reason = worded
        elif earlier := self.queries[tuple(instance.gold_tools)]:
            vector = self._vector(instance.query)
            for other, other_query in earlier:
                similarity = float(vector @ self._vector(other_query))
                if similarity >= self.threshold:
                    reason = f"query is a near-duplicate of instance {other} (cosine {similarity:.3f})"
                    break
        return CheckResult(name="duplicates", passed=not reason, blocking=self.blocking, reason=reason)

    def _same_wording(self, instance: Instance) -> str:
        for other, query in self.skeletons[skeleton(instance)]:
            ratio = Levenshtein.ratio(instance.query, query)
            if ratio >= self.ratio:
                return f"same skeleton as instance {other} with nearly the same wording (Levenshtein ratio {ratio:.2f})"
        return ""

    def _vector(self, query: str) -> np.ndarray:
        return self.ctx.embeddings.vectors([query])[0]

    def add(self, instance: Instance) -> None:
        self.signatures[chain_signature(instance)] = instance.id
        self.skeletons[skeleton(instance)].append((instance.id, instance.query))
        self.queries[tuple(instance.gold_tools)].append((instance.id, instance.query))
