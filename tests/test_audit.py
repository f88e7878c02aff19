"""`factory audit` draws a sheet as the reading rubric asks (deep requests and every scenario),
shows the tools as an agent sees them and the NesTools row, and `factory call` runs any tool
in an instance's own world so a reader can test another reading."""

import json

from typer.testing import CliRunner

from factory.audit import QUOTAS_PER_40, audit_sheet, stratified_sample
from factory.cli import app

runner = CliRunner()


def test_the_sample_meets_the_rubric_quotas_and_spreads_over_domains(mixed_run):
    instances = mixed_run.instances
    sample = stratified_sample(instances, 40, seed=3)
    assert len(sample) == 40 and len({i.id for i in sample}) == 40
    for label, wanted, fits in QUOTAS_PER_40:
        available = sum(1 for i in instances if fits(i))
        assert sum(1 for i in sample if fits(i)) >= min(wanted, available), label
    assert len({i.domain for i in sample}) >= 10
    assert [i.id for i in stratified_sample(instances, 40, seed=3)] == [i.id for i in sample]  # seeded


def test_the_sheet_shows_tools_in_full_and_the_nestools_row(mixed_run):
    sheet = audit_sheet(mixed_run.instances, 6, 1, None, "run")
    first = stratified_sample(mixed_run.instances, 6, 1)[0]
    tool = first.tools[0]
    assert f"`{tool.name}`" in sheet and tool.description in sheet and "Returns:" in sheet
    assert "**NesTools export row**" in sheet and json.dumps(first.query, ensure_ascii=False) in sheet


def test_call_runs_a_tool_in_the_instances_world(mixed_run):
    instance = next(i for i in mixed_run.instances if i.world and i.trace.steps[0].arguments)
    step = instance.trace.steps[0]
    result = runner.invoke(app, ["call", str(mixed_run.path), instance.id, step.tool,
                                 "--args", json.dumps(step.arguments)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == dict(zip((o.name for o in instance.tool(step.tool).returns),
                                                 step.outputs.values(), strict=True))
    refused = runner.invoke(app, ["call", str(mixed_run.path), instance.id, step.tool, "--args", "[1]"])
    assert refused.exit_code == 1 and "must be a JSON object" in refused.output
