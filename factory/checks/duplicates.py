"""Near-duplicate removal across a run: the same chain with the same literal values, or the
same gold tools in the same order with nearly the same query wording."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from factory.checks.context import CheckContext
from factory.records import CheckResult, Instance, content_hash


def chain_signature(instance: Instance) -> str:
    body = {
        "chain": instance.chain.model_dump(mode="json"),
        "world": instance.world.model_dump(mode="json") if instance.world else None,
        "withheld": sorted(t.name for t in instance.withheld_tools),
    }
    return content_hash(body)


class DuplicateIndex:
    """The instances kept so far; `check` an instance against them before `add`ing it."""

    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self.threshold = ctx.policy.checks["duplicates"].get("query_similarity")
        self.blocking = ctx.policy.checks["duplicates"].blocking
        self.enabled = ctx.policy.checks["duplicates"].enabled
        self.signatures: dict[str, str] = {}
        self.queries: dict[tuple[str, ...], list[tuple[str, np.ndarray]]] = defaultdict(list)

    def check(self, instance: Instance) -> CheckResult:
        reason = ""
        same = self.signatures.get(chain_signature(instance))
        if not self.enabled:
            pass
        elif same:
            reason = f"same chain and values as instance {same}"
        else:
            vector = self.ctx.embeddings.vectors([instance.query])[0]
            for other, other_vector in self.queries[tuple(instance.gold_tools)]:
                similarity = float(vector @ other_vector)
                if similarity >= self.threshold:
                    reason = f"query is a near-duplicate of instance {other} (cosine {similarity:.3f})"
                    break
        return CheckResult(name="duplicates", passed=not reason, blocking=self.blocking, reason=reason)

    def add(self, instance: Instance) -> None:
        self.signatures[chain_signature(instance)] = instance.id
        vector = self.ctx.embeddings.vectors([instance.query])[0]
        self.queries[tuple(instance.gold_tools)].append((instance.id, vector))
