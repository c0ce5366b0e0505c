"""docs/cost.md: the monthly AWS cost of one stage at 1,000, 10,000 and 100,000 members, computed
from our own benchmark figures (BENCH lines) and the template, with the activity assumptions and
prices stated in the document.

    python -m infra.cost                       # runs the benches it needs, writes docs/cost.md
    python -m infra.cost --figures bench.txt   # from BENCH lines saved earlier

Figures: tests/bench/day_replay.py (a day of members replayed on the local stack: API calls,
DynamoDB read and write units, requests sent, match runs and checkouts per member-day, the API
handler's mean time; a month is 30 such days), tests/bench/cost_figures.py (state transitions
and Lambda calls per match run and per Stripe event, emails per request) and, shown beside them,
tests/bench/screens.py and connection_requests.py (DynamoDB calls per screen and per request).
Memory sizes and the alarm and metric counts come from template.yaml and
tandem.observability.METRICS. The day replay takes about 40 minutes here: `--figures` with its BENCH
lines saved from `make bench` is quicker.
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHES = (
    "tests/bench/screens.py",
    "tests/bench/connection_requests.py",
    "tests/bench/cost_figures.py",
    "tests/bench/day_replay.py",
)
DAYS_A_MONTH = 30  # of the replayed (busy weekday) kind: an upper bound, weekends are quieter
SIZES = (1_000, 10_000, 100_000)

# eu-west-2 (London) list prices, USD, as of 2026-11 (aws.amazon.com pricing pages); free tiers ignored.
PRICE = {
    "lambda_gb_s": 0.0000166667,
    "lambda_request": 0.20 / 1e6,
    "apigw_request": 3.70 / 1e6,  # REST API, first 333 M
    "ddb_read": 0.1485 / 1e6,  # on-demand read request unit
    "ddb_write": 0.7425 / 1e6,  # on-demand write request unit
    "ddb_storage_gb": 0.2975,
    "sfn_transition": 0.025 / 1000,  # Standard workflows
    "ses_email": 0.10 / 1000,
    "sqs_request": 0.40 / 1e6,
    "cw_alarm_metric": 0.10,  # per metric an alarm watches (metric math: each metric)
    "cw_custom_metric": 0.30,  # per metric and dimension set, first 10,000
    "cw_dashboard": 3.00,
    "logs_ingest_gb": 0.5985,
    "xray_trace": 5.00 / 1e6,
    "cloudfront_gb": 0.085,
    "cloudfront_request": 0.0120 / 10_000,
    "secret": 0.40,
    "firehose_gb": 0.031,
}


@dataclass(frozen=True)
class Activity:
    """What one member does in a month beyond what the day replay measures (stated in
    docs/cost.md); API calls, DynamoDB units, requests sent and match runs come from the replay."""

    stripe_events: float = 1.5  # a paying member: invoice.paid and a subscription update, about
    digests_and_tips: int = 6  # new-matches digests and weekly tips mailed
    log_kb_per_api_call: float = 1.5
    web_mb_per_session: float = 0.4  # the SPA's assets, mostly cached after the first visit
    stored_kb: int = 60  # profile, matches, requests, ledger


def read_figures(text: str) -> dict[str, float]:
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^BENCH (\S+) ([0-9.]+)$", text, re.M)}


def run_benches() -> str:
    out = []
    for script in BENCHES:
        done = subprocess.run(  # noqa: S603 (our own scripts)
            [sys.executable, str(ROOT / script)], capture_output=True, text=True, check=True, cwd=ROOT
        )
        out.append(done.stdout)
    return "\n".join(out)


def _template_counts() -> dict[str, float]:
    from infra.local.template import load_template
    from tandem.observability import METRICS

    resources = load_template()["Resources"]
    alarms = [r["Properties"] for r in resources.values() if r["Type"] == "AWS::CloudWatch::Alarm"]
    watched = sum(len([m for m in a.get("Metrics", []) if "MetricStat" in m]) or 1 for a in alarms)
    api = resources["ApiFunction"]["Properties"].get("MemorySize") or 512
    return {
        "alarm_metrics": watched,
        "alarms": len(alarms),
        "custom_metrics": len([m for m in METRICS if not m.dimension]),
        "api_memory_mb": api,
        "secrets": sum(1 for r in resources.values() if r["Type"] == "AWS::SecretsManager::Secret"),
    }


def monthly(members: int, f: dict[str, float], t: dict[str, float], a: Activity) -> dict[str, float]:
    month = members * DAYS_A_MONTH  # member-days
    api_calls = month * f["day_api_calls_per_member"]
    requests = month * f["day_requests_sent_per_member"]
    # on-demand read and write request units are priced per unit of the same sizes as RCU/WCU
    ddb_reads = month * f["day_ddb_rcu_per_member"]
    ddb_writes = month * f["day_ddb_wcu_per_member"]
    gb_s = t["api_memory_mb"] / 1024
    api_ms = max(f["day_api_wall_ms_mean"], 1.0)
    on_demand = month * f["day_match_runs_per_member"]
    runs = on_demand + members * DAYS_A_MONTH  # on demand, and every brand nightly
    match_gb_s = (f["match_run_lambda_ms"] / 1000) * 1.0  # the scoring steps have 1 GB
    stripe = members * a.stripe_events + month * f["day_checkouts_per_member"]
    # emails_per_request is measured for a request sent and accepted: counted for every request
    # (an upper bound)
    emails = requests * f["emails_per_request"] + members * a.digests_and_tips
    notifications = emails  # one queue message each
    log_gb = api_calls * a.log_kb_per_api_call / 1e6
    nightly_runs = runs - on_demand
    return {
        "API Gateway": api_calls * PRICE["apigw_request"],
        "Lambda (API)": api_calls * (PRICE["lambda_request"] + gb_s * api_ms / 1000 * PRICE["lambda_gb_s"]),
        "Lambda (match runs)": runs * (f["lambda_invocations_per_match_run"] * PRICE["lambda_request"])
        + on_demand * match_gb_s * PRICE["lambda_gb_s"]
        + nightly_runs * match_gb_s / 20 * PRICE["lambda_gb_s"],  # nightly: scored 20 brands per batch
        "Step Functions": (on_demand * f["sfn_transitions_per_match_run"]) * PRICE["sfn_transition"]
        + 30 * math.ceil(members / 500) * 3 * PRICE["sfn_transition"]  # nightly: ~3 per 500-brand batch
        + stripe * f["sfn_transitions_per_stripe_event"] * PRICE["sfn_transition"],
        "DynamoDB": ddb_reads * PRICE["ddb_read"]
        + ddb_writes * PRICE["ddb_write"]
        + members * a.stored_kb / 1e6 * PRICE["ddb_storage_gb"] * 2,  # PITR doubles the storage bill
        "SES": emails * PRICE["ses_email"],
        "SQS": notifications * 3 * PRICE["sqs_request"],  # send, receive, delete
        "CloudWatch (alarms, metrics, dashboard)": t["alarm_metrics"] * PRICE["cw_alarm_metric"]
        + (t["custom_metrics"] + 8 + 14)
        * PRICE["cw_custom_metric"]  # + heartbeats per job, cold starts per fn
        + PRICE["cw_dashboard"],
        "CloudWatch Logs": log_gb * PRICE["logs_ingest_gb"],
        "X-Ray": api_calls * 0.05 * PRICE["xray_trace"],  # the default sampling: 1/s then 5%
        "CloudFront": month
        * f["day_sessions_per_member"]
        * (a.web_mb_per_session / 1024 * PRICE["cloudfront_gb"])
        + api_calls * PRICE["cloudfront_request"],
        "Secrets Manager": t["secrets"] * PRICE["secret"],
    }


def replay_table(text: str) -> list[str]:
    """The day replay's own table (its `# ` lines, from its summary to its first BENCH line)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("# ") and " a day in " in line), None)
    if start is None:
        return []
    out = []
    for line in lines[start:]:
        if line.startswith("BENCH "):
            break
        if line.startswith("# "):
            out.append(line[2:])
    return out


def _scale_note(figures: dict[str, float]) -> list[str]:
    """Why the replay ran fewer members than issue 42's 10,000, from its own CPU figure."""
    cores = figures.get("day_stack_cores_for_10k_in_600s")
    if cores is None or figures["day_members"] >= 10_000:
        return []
    return [
        "",
        f"Not 10,000 members in 10 minutes: the local stack used {cores:.1f} cores' worth of CPU per",
        "10,000 members a 600-second day (its CPU over the day, scaled by members), and this machine",
        "has 2 cores, shared; the stack is one process, so one core by the GIL (docs/decisions.md,",
        '"The day replay at 10,000 members"). Every figure here is per member-day, so it does not',
        "depend on the count; rates (hot partitions, concurrency) are scaled to 100,000 members.",
    ]


def render(figures: dict[str, float], text: str = "") -> str:
    t = _template_counts()
    a = Activity()
    lines = [
        "# What a stage costs on AWS each month",
        "",
        "Written by `python -m infra.cost` from our own benchmark figures; do not edit by hand. Prices:",
        "eu-west-2 list prices (USD, 2026-11), free tiers left out, so small sizes are overstated.",
        "",
        "## Activity per member per month",
        "",
        f"Measured by the day replay (`tests/bench/day_replay.py`, {figures['day_members']:,.0f} members",
        "on the local stack running the `sam build` output, a busy weekday's sessions per its ACTIVITY:",
        f"the day is assumed, what it costs is measured), times {DAYS_A_MONTH} days (an upper bound:",
        "weekends are quieter).",
        *_scale_note(figures),
        "",
        f"- {figures['day_sessions_per_member'] * DAYS_A_MONTH:.1f} sessions, "
        f"{figures['day_api_calls_per_member'] * DAYS_A_MONTH:.0f} API calls "
        f"(handler {figures['day_api_wall_ms_mean']:.0f} ms wall on average, in-process)",
        f"- {figures['day_ddb_rcu_per_member'] * DAYS_A_MONTH:,.0f} DynamoDB read units and "
        f"{figures['day_ddb_wcu_per_member'] * DAYS_A_MONTH:,.0f} write units, from item sizes by "
        "DynamoDB's rules (the API, its workflows and queues, and every scheduled job's runs)",
        f"- {figures['day_requests_sent_per_member'] * DAYS_A_MONTH:.1f} requests sent, "
        f"{figures['day_match_runs_per_member'] * DAYS_A_MONTH:.1f} match runs on demand, "
        f"{figures['day_checkouts_per_member'] * DAYS_A_MONTH:.2f} checkouts, "
        "and the nightly run over every brand",
        "",
        "Assumed beside it:",
        "",
        f"- {a.stripe_events} Stripe billing events (a paying member), "
        f"{a.digests_and_tips} digests and tips mailed",
        f"- {a.log_kb_per_api_call} KB of logs per API call, "
        f"{a.web_mb_per_session} MB of web assets per session, "
        f"{a.stored_kb} KB stored",
        "",
        "## Figures used (BENCH lines of tests/bench)",
        "",
        "| figure | value |",
        "| --- | --- |",
    ]
    used = (
        "day_api_calls_per_member",
        "day_ddb_rcu_per_member",
        "day_ddb_wcu_per_member",
        "day_ddb_calls_per_member",
        "day_api_wall_ms_mean",
        "day_p99_cpu_ms_max",
        "day_peak_concurrency_100k",
        "day_hot_partition_wcu_per_s_100k",
        "day_nightly_match_run_s",
        "day_load_average",
        "day_stack_cores_for_10k_in_600s",
        "screen_ddb_calls_max",
        "request_send_ddb_calls",
        "request_accept_ddb_calls",
        "sfn_transitions_per_match_run",
        "lambda_invocations_per_match_run",
        "match_run_lambda_ms",
        "sfn_transitions_per_stripe_event",
        "emails_per_request",
    )
    lines += [f"| `{name}` | {figures[name]:g} |" for name in used]
    lines += [
        f"| alarms (metrics they watch) | {t['alarms']:.0f} ({t['alarm_metrics']:.0f}) |",
        f"| API function memory | {t['api_memory_mb']:.0f} MB |",
        "",
        "Handler times are measured in-process on moto (this shared machine, at the load average",
        "shown), then billed at the API function's memory; real Lambda times include network",
        "latency to DynamoDB, this machine's load inflates them: the Lambda lines are an estimate.",
    ]
    table = replay_table(text)
    if table:
        lines += [
            "",
            "## The day replayed (tests/bench/day_replay.py, as printed)",
            "",
            "```",
            *table,
            "```",
        ]
    lines += ["", "## Monthly cost", "", "| members | total | biggest three |", "| --- | --- | --- |"]
    tables = []
    for members in SIZES:
        costs = monthly(members, figures, t, a)
        total = sum(costs.values())
        top = sorted(costs.items(), key=lambda kv: kv[1], reverse=True)[:3]
        biggest = "; ".join(f"{name} ${value:,.2f}" for name, value in top)
        lines.append(f"| {members:,} | ${total:,.2f} | {biggest} |")
        tables.append((members, costs))
    for members, costs in tables:
        lines += ["", f"### {members:,} members", "", "| service | USD / month |", "| --- | --- |"]
        lines += [
            f"| {name} | {value:,.2f} |" for name, value in sorted(costs.items(), key=lambda kv: -kv[1])
        ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--figures", help="a file of BENCH lines (else the benches are run)")
    args = parser.parse_args(argv)
    text = Path(args.figures).read_text() if args.figures else run_benches()
    (ROOT / "docs/cost.md").write_text(render(read_figures(text), text))
    print("docs/cost.md written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
