"""NesTools' error taxonomy for one instance, over the gold ↔ predicted call pairs of the matching.

Nested arguments (gold value names an earlier output whose producer is matched to an earlier
predicted call): omission (missing or "UNK"), identification (a literal instead of an
output), confusion (a different output than the matched producer's). Non-nested gold
arguments given an output: hallucination. Every gold argument of a matched call that does
not score 1: omission (missing or "UNK"), type (same text, other type), extraction (the
gold value appears in the query), transformation (otherwise); predicted arguments the gold
call does not have: redundancy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from factory.evaluate.static.pairing import UNKNOWN, Matching, is_nested
from factory.evaluate.static.values import safe_value_score


def _producer(gold: list[dict[str, Any]], value: Any, placed: dict[int, int], before: int) -> tuple[int, int] | None:
    """(predicted producer, output position) for a nested gold value, when its gold producer is
    matched to a predicted call placed before `before`; the last such producer wins."""
    location = None
    for i, call in enumerate(gold):
        for k, out in enumerate(call["responses"]):
            if out == value and i in placed and placed[i] < before:
                location = (placed[i], k)
    return location


def _nested_errors(errors: Counter, gold_call: dict[str, Any], arguments: dict[Any, Any], gold: list[dict[str, Any]],
                   placed: dict[int, int], r: int, outputs: list[list[Any]]) -> None:
    for name, value in gold_call["parameters"].items():
        if not is_nested(value):
            if name in arguments and is_nested(arguments[name]):
                errors["nest_hallucination"] += 1
            continue
        location = _producer(gold, value, placed, r)
        if location is None:
            continue
        if name not in arguments or arguments[name] == UNKNOWN:
            errors["nest_omission"] += 1
        elif not is_nested(arguments[name]):
            errors["nest_identification"] += 1
        else:
            producer, position = location
            outs = outputs[producer]
            if position >= len(outs) or outs[position] != arguments[name]:
                errors["nest_confusion"] += 1


def _param_errors(errors: Counter, gold_call: dict[str, Any], arguments: dict[Any, Any], task: str) -> None:
    errors["param_redundancy"] += sum(1 for name in arguments if name not in gold_call["parameters"])
    for name, value in gold_call["parameters"].items():
        if name not in arguments or arguments[name] == UNKNOWN:
            errors["param_omission"] += 1
            continue
        predicted = arguments[name]
        if safe_value_score(value, predicted) == 1:
            continue
        if str(value) == str(predicted):
            errors["param_type"] += 1
        elif str(value).lower() in task.lower():
            errors["param_extraction"] += 1
        else:
            errors["param_transformation"] += 1


def count_errors(gold: list[dict[str, Any]], predicted: list[dict[str, Any]], matching: Matching, task: str) -> Counter:
    errors: Counter = Counter()
    placed: dict[int, int] = {}
    for g, r in sorted(matching.pairs):
        placed[g] = r
        arguments = predicted[r]["parameters"]
        _nested_errors(errors, gold[g], arguments, gold, placed, r, matching.outputs)
        _param_errors(errors, gold[g], arguments, task)
    return +errors
