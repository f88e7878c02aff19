"""What checks may consult besides the instance: seeds, the policy, an embedding cache."""

from __future__ import annotations

from dataclasses import dataclass, field

from factory.checks.policy import Policy
from factory.embeddings import EmbeddingCache
from factory.seeds import Seed


@dataclass
class CheckContext:
    seeds: dict[str, Seed]
    policy: Policy
    embeddings: EmbeddingCache = field(default_factory=EmbeddingCache)
