"""Judge calibration: how far each model judge's veto can be trusted, measured on cases whose
answer is known.

The cases come from a run's instances, which every deterministic check passed: each is a sound
case as it stands, and defects are planted in copies of them, one kind per copy.
- two errands (implausible, still faithful): the request and calls of an instance of another
  domain appended, as if one person asked both at once;
- another request (unfaithful): the request of another instance beside these calls;
- a value changed (unfaithful): a literal the request states replaced by another of its kind;
- a part dropped (unfaithful): the request's last sentence removed, so the calls do more.

A judge's precision is the share of its vetoes that fall on a planted defect of its kind; its
recall the share of those defects it vetoes. `factory calibrate` writes them; a run given them
(`generate --judge-calibration`) lets a judge block only where the precision reaches the
policy's `min_precision` (factory.checks.judges).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from factory.checks.judges import describe_calls
from factory.records import Instance, Value

JUDGES = ("judge_plausibility", "judge_semantics")
Verdicts = Callable[[str, str, str], tuple[bool | None, bool | None, str]]  # Judge.ask


@dataclass(frozen=True)
class Case:
    request: str
    calls: str
    answer: str
    plausible: bool  # what a careful reader would say
    faithful: bool
    defect: str = ""  # the planted defect; "" for a sound case


@dataclass(frozen=True)
class Score:
    cases: int
    defects: int  # cases with a defect of this judge's kind
    vetoes: int  # cases the judge said no to
    caught: int  # vetoes that fall on such a defect
    unread: int  # cases with no readable verdict

    @property
    def precision(self) -> float | None:
        return self.caught / self.vetoes if self.vetoes else None

    @property
    def recall(self) -> float | None:
        return self.caught / self.defects if self.defects else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {"cases": self.cases, "defects": self.defects, "vetoes": self.vetoes, "caught": self.caught,
                "unread": self.unread, "precision": self.precision, "recall": self.recall}


def _answer(instance: Instance) -> str:
    return json.dumps(instance.trace.answer, ensure_ascii=False)


def _sound(instance: Instance) -> Case:
    return Case(instance.query, describe_calls(instance), _answer(instance), True, True)


def _stated(instance: Instance) -> list[tuple[str | None, str]]:
    """(kind, text) of the literals the request states as they are written in it."""
    found = []
    for call in instance.chain.calls:
        spec = instance.tool(call.tool)
        for name, arg in call.arguments.items():
            param = spec.param(name) if spec else None
            text = str(arg.value) if isinstance(arg, Value) and isinstance(arg.value, (str, int, float)) else ""
            if len(text) >= 2 and text in instance.query and not isinstance(arg.value, bool):
                found.append((param.kind if param else None, text))
    return found


def _value_changed(instance: Instance, stated: dict[str, list[tuple[str | None, str]]],
                   rng: random.Random) -> Case | None:
    """`stated`: instance id → its stated literals (`_stated`), read once for the whole pool."""
    own = stated[instance.id]
    if not own:
        return None
    kind, text = rng.choice(own)
    others = sorted({t for other_id, literals in stated.items() if other_id != instance.id for k, t in literals
                     if k == kind and t != text and t not in instance.query})
    if not others:
        return None
    changed = instance.query.replace(text, rng.choice(others), 1)
    return Case(changed, describe_calls(instance), _answer(instance), True, False, "a value changed")


def _part_dropped(instance: Instance) -> Case | None:
    sentences = re.split(r"(?<=[.?!])\s+", instance.query.strip())
    if len(sentences) < 2 or len(instance.chain.asked()) < 2:
        return None
    return Case(" ".join(sentences[:-1]), describe_calls(instance), _answer(instance), True, False, "a part dropped")


def planted(instances: list[Instance], n: int, seed: int = 0) -> list[Case]:
    """`n` sound cases from the run's instances and, for each, the defects that can be planted
    in a copy of it (each kind where the instance allows it)."""
    rng = random.Random(seed)
    chosen = rng.sample(instances, min(n, len(instances)))
    stated = {i.id: _stated(i) for i in instances}
    cases: list[Case] = []
    for instance in chosen:
        cases.append(_sound(instance))
        strangers = [other for other in instances if other.domain != instance.domain]
        if strangers:
            other = rng.choice(strangers)
            cases.append(Case(f"{instance.query} {other.query}", f"{describe_calls(instance)}\n{describe_calls(other)}",
                              json.dumps({**instance.trace.answer, **{f"other_{k}": v for k, v in other.trace.answer.items()}},
                                         ensure_ascii=False), False, True, "two errands"))
            cases.append(Case(other.query, describe_calls(instance), _answer(instance), True, False, "another request"))
        for case in (_value_changed(instance, stated, rng), _part_dropped(instance)):
            if case is not None:
                cases.append(case)
    return cases


def measure(ask: Verdicts, cases: list[Case], on_case: Callable[[int], None] | None = None) -> dict[str, Score]:
    """Each judge's score on the cases; `ask` gives (plausible, faithful, reason) as Judge.ask does."""
    verdicts = []
    for k, case in enumerate(cases):
        verdicts.append(ask(case.request, case.calls, case.answer))
        if on_case:
            on_case(k + 1)
    scores = {}
    for which, name in enumerate(JUDGES):
        expected = [case.plausible if which == 0 else case.faithful for case in cases]
        said = [v[which] for v in verdicts]
        scores[name] = Score(cases=len(cases), defects=expected.count(False),
                             vetoes=sum(s is False for s in said),
                             caught=sum(s is False and not e for s, e in zip(said, expected, strict=True)),
                             unread=sum(s is None for s in said))
    return scores


def calibration_record(model: str, prompt_digest: str, scores: dict[str, Score], cases: list[Case]) -> dict:
    """What `factory calibrate` writes, and `generate --judge-calibration` reads."""
    planted_kinds = sorted({c.defect for c in cases if c.defect})
    return {"model": model, "judge_prompt": prompt_digest, "cases": len(cases), "defects": planted_kinds,
            "judges": {name: score.as_dict() for name, score in scores.items()}}


def precisions(record: dict) -> dict[str, float]:
    """Judge check → the measured precision of its vetoes, for the judges that vetoed anything."""
    return {name: row["precision"] for name, row in record.get("judges", {}).items()
            if name in JUDGES and row.get("precision") is not None}
