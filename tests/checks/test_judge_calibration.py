"""Judge calibration: planted defects whose answer is known, the precision and recall of each
judge's vetoes, and a veto that blocks only where that precision earns it."""

import dataclasses
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.checks.judge_calibration import JUDGES, measure, planted, precisions
from factory.checks.judges import check_judge_plausibility, check_judge_semantics
from factory.cli import app
from factory.dataset.export import load_instances

SAMPLE = Path(__file__).resolve().parents[2] / "generated" / "sample"


@pytest.fixture(scope="module")
def sample():
    return [i for i in load_instances(SAMPLE / "dataset") if i.trace.ok and i.trace.answer]


def test_planted_cases_carry_the_defect_they_were_given(sample):
    cases = planted(sample, 8, seed=3)
    sound = [c for c in cases if not c.defect]
    assert len(sound) == 8 and all(c.plausible and c.faithful for c in sound)
    kinds = {c.defect for c in cases if c.defect}
    assert kinds == {"two errands", "another request", "a value changed", "a part dropped"}
    for case in cases:
        if case.defect == "two errands":
            assert not case.plausible and case.faithful and case.calls.count("\n") >= 1
        elif case.defect:
            assert case.plausible and not case.faithful
    originals = {c.calls: c.request for c in sound}
    for case in (c for c in cases if c.defect == "a value changed" and c.calls in originals):
        before, after = originals[case.calls].split(), case.request.split()
        assert case.request != originals[case.calls] and abs(len(before) - len(after)) <= 3
    assert planted(sample, 8, seed=3) == cases  # the same seed draws the same cases


def test_precision_and_recall_of_a_judge_s_vetoes(sample):
    cases = planted(sample, 6, seed=1)
    truth = {(c.request, c.calls): c for c in cases}
    perfect = measure(lambda r, k, a: (truth[r, k].plausible, truth[r, k].faithful, "knows"), cases)
    assert all(perfect[name].precision == 1.0 and perfect[name].recall == 1.0 for name in JUDGES)
    naysayer = measure(lambda r, k, a: (False, False, "no"), cases)
    plausibility = naysayer["judge_plausibility"]
    assert plausibility.vetoes == len(cases) and plausibility.recall == 1.0
    assert plausibility.precision == pytest.approx(plausibility.defects / len(cases)) and plausibility.precision < 0.5
    silent = measure(lambda r, k, a: (None, None, "unreadable"), cases)
    assert silent["judge_semantics"].precision is None and silent["judge_semantics"].unread == len(cases)


class _Judge:
    def __init__(self, precision):
        self.precision = precision

    def __call__(self, instance):
        return False, False, "nobody asks this"


def test_a_veto_blocks_only_where_its_measured_precision_earns_it(sample):
    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.config import resource_dir

    ctx = CheckContext({}, load_policy(Path(resource_dir("validators"))))
    instance = sample[0]
    uncalibrated = check_judge_plausibility(instance, dataclasses.replace(ctx, judge=lambda i: (False, False, "no")))
    assert not uncalibrated.passed and not uncalibrated.blocking and "advisory, not calibrated" in uncalibrated.reason
    earned = dataclasses.replace(ctx, judge=_Judge({"judge_plausibility": 0.9, "judge_semantics": 0.5}))
    assert check_judge_plausibility(instance, earned).blocking
    weak = check_judge_semantics(instance, earned)
    assert not weak.blocking and "precision 0.50 < 0.8" in weak.reason
    assert precisions({"judges": {"judge_plausibility": {"precision": 0.75}, "judge_semantics": {"precision": None}}}) \
        == {"judge_plausibility": 0.75}


def _long_requests_are_absurd(body):
    """A judge that balks at long requests and at nothing else: right about two errands in
    one request, wrong about long sound ones."""
    prompt = body["messages"][-1]["content"]
    request = re.search(r"\[\[ ## request ## \]\]\n(.*?)\n\n\[\[ ##", prompt, re.S).group(1)
    plausible = len(request) < 260
    return {"content": f"[[ ## plausible ## ]]\n{plausible}\n\n[[ ## faithful ## ]]\nTrue\n\n"
                       "[[ ## reason ## ]]\nA verdict.\n\n[[ ## completed ## ]]"}


def test_calibrate_writes_what_generate_reads(fake_server, tmp_path):
    server = fake_server(_long_requests_are_absurd)
    out = tmp_path / "calibration.json"
    result = CliRunner().invoke(app, ["calibrate", str(SAMPLE), "--model", "openai/judge", "--api-base", server.api_base,
                                      "--cases", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["model"] == "openai/judge" and record["cases"] > 5
    plausibility = record["judges"]["judge_plausibility"]
    assert plausibility["vetoes"] > 0 and 0 < plausibility["precision"] <= 1
    assert record["judges"]["judge_semantics"]["vetoes"] == 0 and record["judges"]["judge_semantics"]["precision"] is None
    other = CliRunner().invoke(app, ["generate", "--domain", "Weather", "-n", "1", "--model", "openai/other",
                                     "--api-base", server.api_base, "--judge-calibration", str(out),
                                     "--out", str(tmp_path / "run")])
    assert other.exit_code != 0 and "was measured for 'openai/judge', not for 'openai/other'" in " ".join(other.output.split())


def test_stats_say_what_the_judges_said_of_the_kept_instances(sample):
    from factory.dataset.stats import distribution, markdown
    from factory.records import CheckResult

    assert "judges" not in distribution(sample)  # offline: no judge ran, and the card keeps its bytes
    said = [i.model_copy(update={"checks": [CheckResult(name="judge_plausibility", passed=k % 3 != 0, blocking=False,
                                                        reason="" if k % 3 else "odd (advisory, not calibrated)")]})
            for k, i in enumerate(sample[:9])]
    report = distribution(said)["judges"]["judge_plausibility"]
    assert report == {"judged": 9, "said_no": 3, "blocking": False}
    assert "judge_plausibility: said no to 3 of the 9 kept instances it judged (advisory" in markdown(distribution(said))
