"""The dashboard and the code agree on the metrics: every metric the code emits is on the list
(tandem.observability.METRICS) and on the stage's dashboard in template.yaml, and every metric on the
list is emitted somewhere. A metric renamed in the code and not on the dashboard fails here."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from infra.local.template import ROOT, load_template
from tandem.observability import METRICS

EMITTERS = {"count_event", "record_metric", "emit_now"}
SOURCES = [*(ROOT / "functions").rglob("*.py"), *(ROOT / "layers/core/python/tandem").rglob("*.py")]


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def emitted_in_code() -> dict[str, list[str]]:
    """Metric name -> where the code emits it: the string literals of every count_event / record_metric /
    emit_now call's first argument, and of the module-level constant it indexes (EVENTS[action])."""
    found: dict[str, list[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        constants = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name not in EMITTERS or path.name == "observability.py":
                continue
            names = _strings(node.args[0])
            for ref in ast.walk(node.args[0]):
                if isinstance(ref, ast.Name) and ref.id in constants:
                    value = constants[ref.id]
                    names |= {v.value for v in getattr(value, "values", []) if isinstance(v, ast.Constant)}
            assert names, f"{path}:{node.lineno}: a metric name the test cannot read"
            for metric in names:
                found.setdefault(metric, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _dashboard() -> str:
    return load_template()["Resources"]["Dashboard"]["Properties"]["DashboardBody"]["Fn::Sub"]


def test_every_metric_the_code_emits_is_on_the_list_and_every_listed_metric_is_emitted():
    emitted = emitted_in_code()
    listed = {m.name for m in METRICS}
    assert not set(emitted) - listed, {m: emitted[m] for m in set(emitted) - listed}
    assert not listed - set(emitted) - {"ColdStart"}, "listed but never emitted"  # ColdStart: lambda_handler


def test_every_metric_on_the_list_is_on_the_dashboard_with_the_stage_dimension():
    body = json.loads(_dashboard())
    shown: set[str] = set()
    for widget in body["widgets"]:
        for row in widget["properties"]["metrics"]:
            if isinstance(row[0], dict):  # a SEARCH expression
                shown |= set(re.findall(r'MetricName="(\w+)" stage="\$\{Stage\}"', row[0]["expression"]))
            elif row[0] == "Tandem":
                assert row[2:6] == ["service", "tandem", "stage", "${Stage}"], row
                shown.add(row[1])
    assert shown == {m.name for m in METRICS}


def test_the_dashboard_shows_the_api_the_workflows_and_the_dead_letter_queues():
    titles = [w["properties"]["title"] for w in json.loads(_dashboard())["widgets"]]
    for title in (
        "API requests",
        "API 4XX and 5XX",
        "API latency p50 / p99 (ms)",
        "Requests",
        "Match runs",
        "Match run duration",
        "Stripe events",
        "Billing",
        "Notifications",
        "Cold starts",
        "Scheduled jobs",
        "Dead-letter queues (messages)",
    ):
        assert title in titles


def test_a_renamed_metric_is_caught(tmp_path: Path, monkeypatch):
    """The check above is not vacuous: a source that emits a name off the list is reported."""
    source = tmp_path / "renamed.py"
    source.write_text('from tandem.observability import count_event\ncount_event("RequestsSent")\n')
    monkeypatch.setattr(f"{__name__}.SOURCES", [source])
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert set(emitted_in_code()) == {"RequestsSent"}
    assert "RequestsSent" not in {m.name for m in METRICS}
