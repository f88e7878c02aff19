"""NesTools' static metrics for one instance: the tallies its scorer sums over a test set.

Tools are identified by `api_id`. Gold calls are in NesTools form (`api_name`, `api_id`,
`parameters`, `responses` as a list of `API_call_N`); predicted calls as the model wrote
them (`responses` an object of output name → `API_call_N`).

- Selection: a predicted call is correct when an unmatched gold call has its `api_id`; it
  is then matched to the candidate whose arguments score highest (the first one on ties
  or when none scores), and that gold call is used up.
- Order: consecutive `api_id` pairs, counted as multisets (a one-call prediction has none).
- Parameter: predicted arguments; the correct tally adds each argument's value score on
  the matched gold call. A nested gold argument scores 1 only when the predicted
  placeholder names the same output position of a predicted call already matched to the
  gold producer.
- NestedParam: arguments whose value mentions `API_call`, correct as above.
- Tree: every tally equals its gold and predicted counterpart.
Error taxonomy, over matched calls: parameter omission (missing or "UNK"), redundancy
(not a gold parameter), type (same text, different type), extraction (the gold value is in
the query), transformation (otherwise); nested omission, identification (a literal where an
output belongs), confusion (the wrong output), hallucination (an output where a literal
belongs).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from factory.evaluate.static.pairing import Matching, is_nested
from factory.evaluate.static.taxonomy import count_errors
from factory.evaluate.static.values import safe_value_score

PARAM_ERRORS = ("param_omission", "param_redundancy", "param_type", "param_extraction", "param_transformation")
NEST_ERRORS = ("nest_omission", "nest_identification", "nest_confusion", "nest_hallucination")
TALLIES = ("format", "api_correct", "api_predicted", "api_gold", "order_correct", "order_predicted", "order_gold",
           "param_correct", "param_predicted", "param_gold", "nest_correct", "nest_predicted", "nest_gold", "tree")


@dataclass
class Tally:
    """One instance's counts; `errors` holds the taxonomy counts."""

    format: int = 0
    api_correct: int = 0
    api_predicted: int = 0
    api_gold: int = 0
    order_correct: int = 0
    order_predicted: int = 0
    order_gold: int = 0
    param_correct: float = 0.0
    param_predicted: int = 0
    param_gold: int = 0
    nest_correct: int = 0
    nest_predicted: int = 0
    nest_gold: int = 0
    tree: int = 0
    errors: Counter = field(default_factory=Counter)

    def as_scores(self) -> dict[str, float]:
        scores = {name: float(getattr(self, name)) for name in TALLIES}
        scores.update({name: float(self.errors.get(name, 0)) for name in PARAM_ERRORS + NEST_ERRORS})
        return scores


def _hashable(value: Any) -> Any:
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


def _outputs(call: dict[str, Any]) -> list[Any]:
    """A predicted call's output placeholders, in order (non-text entries kept as -1)."""
    responses = call.get("responses")
    if not isinstance(responses, dict):
        return []
    return [r if isinstance(r, str) else -1 for r in responses.values()]


def gold_sources(gold: list[dict[str, Any]]) -> dict[str, tuple[int, int] | None]:
    """Text of each nested gold value → (producer call, output position); None when it is not
    exactly one output (e.g. a list of placeholders)."""
    sources: dict[str, tuple[int, int] | None] = {}
    for j, call in enumerate(gold):
        for value in call["parameters"].values():
            if not is_nested(value):
                continue
            where = None
            for i, outputs in enumerate(gold[: j + 1]):
                position = next((k for k, out in enumerate(outputs["responses"]) if out == str(value)), None)
                if position is not None:
                    where = (i, position)
            sources[str(value)] = where
    return sources


def _locate(outputs: list[list[Any]], value: Any) -> tuple[int, int]:
    """Where a predicted placeholder is produced: the last call listing it, its first position."""
    found = (-1, -1)
    for i, outs in enumerate(outputs):
        position = next((k for k, out in enumerate(outs) if out == value), None)
        if position is not None:
            found = (i, position)
    return found


def _order(tally: Tally, gold: GoldSide, predicted: list[dict[str, Any]] | None) -> None:
    tally.order_gold = gold.calls - 1
    if predicted is None or len(predicted) <= 1:
        return
    tally.order_predicted = len(predicted) - 1
    unused = dict(gold.pairs)  # the multiset intersection of the pairs, counted without building Counters
    for a, b in zip(predicted, predicted[1:]):
        pair = (_hashable(a["api_id"]), _hashable(b["api_id"]))
        if unused.get(pair, 0) > 0:
            unused[pair] -= 1
            tally.order_correct += 1


def _call_score(gold_call: dict[str, Any], arguments: dict[Any, Any], sources: dict[str, tuple[int, int] | None],
                matching: Matching) -> tuple[float, int]:
    """(parameter credit, nested credit) of a predicted call's arguments against one gold call."""
    score, nested = 0.0, 0
    for name, predicted in arguments.items():
        if name not in gold_call["parameters"]:
            continue
        gold = gold_call["parameters"][name]
        if str(gold) not in sources:
            score += safe_value_score(gold, predicted)
            continue
        source = sources[str(gold)]
        if source is None:
            hit = gold == predicted
        else:
            producer, position = _locate(matching.outputs, predicted) if isinstance(predicted, str) else (-1, -1)
            hit = (isinstance(predicted, str) and position == source[1] and (source[0], producer) in matching.pairs
                   and is_nested(predicted))
        if hit:
            score += 1
            nested += 1
    return score, nested


def _unmatched(unmatched: dict[Any, list[int]], api_id: Any) -> list[int]:
    """The unmatched gold calls with this api_id, in gold order (an id that cannot be a key, such
    as a list, equals no gold id)."""
    try:
        return list(unmatched.get(api_id, ()))
    except TypeError:
        return []


def _match(tally: Tally, gold: list[dict[str, Any]], sources: dict[str, tuple[int, int] | None],
           predicted: list[dict[str, Any]]) -> Matching:
    unmatched: dict[Any, list[int]] = {}
    for g, call in enumerate(gold):
        unmatched.setdefault(call["api_id"], []).append(g)
    matching = Matching()
    for r, call in enumerate(predicted):
        arguments = call["parameters"]
        tally.api_predicted += 1
        tally.param_predicted += len(arguments)
        tally.nest_predicted += sum(1 for v in arguments.values() if is_nested(v))
        matching.outputs.append(_outputs(call))
        candidates = _unmatched(unmatched, call["api_id"])
        if not candidates:
            continue
        tally.api_correct += 1
        best, best_score, best_nested = candidates[0], 0.0, 0
        for g in candidates:
            score, nested = _call_score(gold[g], arguments, sources, matching)
            if score > best_score:
                best, best_score, best_nested = g, score, nested
        tally.param_correct += best_score
        tally.nest_correct += best_nested
        matching.pairs.append((best, r))
        unmatched[gold[best]["api_id"]].remove(best)
    return matching


@dataclass(frozen=True)
class GoldSide:
    """What the tallies read of an instance's gold calls alone: computed once per task, however
    many answers (prediction files, trials) are scored against it."""

    calls: int
    params: int
    nested: int
    pairs: Counter  # consecutive api_id pairs
    sources: dict[str, tuple[int, int] | None]  # see gold_sources


def gold_side(gold: list[dict[str, Any]]) -> GoldSide:
    return GoldSide(
        calls=len(gold),
        params=sum(len(call["parameters"]) for call in gold),
        nested=sum(1 for call in gold for v in call["parameters"].values() if is_nested(v)),
        pairs=Counter((_hashable(a["api_id"]), _hashable(b["api_id"])) for a, b in zip(gold, gold[1:])),
        sources=gold_sources(gold),
    )


def score_calls(gold: list[dict[str, Any]], predicted: list[dict[str, Any]] | None, task: str,
                side: GoldSide | None = None) -> Tally:
    """NesTools' tallies for one instance; `predicted` None is a format failure (`side`: the
    gold's gold_side, when the caller keeps it)."""
    side = side or gold_side(gold)
    tally = Tally(api_gold=side.calls, param_gold=side.params, nest_gold=side.nested)
    _order(tally, side, predicted)
    if predicted is not None:
        tally.format = 1
        matching = _match(tally, gold, side.sources, predicted)
        tally.errors = count_errors(gold, predicted, matching, task)
    tally.tree = int(
        tally.api_correct == tally.api_gold == tally.api_predicted
        and tally.order_correct == tally.order_predicted == tally.order_gold
        and tally.param_correct == tally.param_predicted == tally.param_gold
        and tally.nest_gold == tally.nest_predicted == tally.nest_correct
    )
    return tally
