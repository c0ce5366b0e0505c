"""The local stack as a developer runs it: starts, serves /api/health and the SPA on one
port, runs a match run through the real state machine, keeps data across a restart, stops
within 5 s of one SIGTERM, and loses no acknowledged write to `kill -9`."""

from __future__ import annotations

import json
import re
import signal
import time
from pathlib import Path

import pytest
import requests

from tests.local.stack import StackProcesses

STOP_WITHIN_SECONDS = 5.0
KILL9_WRITES = 30


def _demo_headers(stack) -> tuple[dict[str, str], int]:
    token = stack.sign_in("demo@tandem.local")
    brands = requests.get(f"{stack.url}/api/brands", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert brands.status_code == 200, brands.text
    brand = min(b["id"] for b in brands.json()["brands"])
    return {"Authorization": f"Bearer {token}", "X-Brand-Id": str(brand)}, brand


def test_local_stack_serves_runs_workflows_and_keeps_data_across_restart(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root)
    assert requests.get(f"{stack.url}/api/health", timeout=30).json()["status"] == "ok"
    page = requests.get(f"{stack.url}/matches/saved", timeout=30)  # a client-side route
    assert page.status_code == 200 and "<title>Tandem</title>" in page.text
    assert requests.get(f"{stack.url}/missing.js", timeout=30).status_code == 404

    headers, brand = _demo_headers(stack)
    started = requests.post(f"{stack.url}/api/matching/run/{brand}", headers=headers, timeout=60)
    assert started.status_code == 202, started.text
    check_path = f"/api/matching/run-check/{started.json()['runId']}/{brand}"
    deadline = time.monotonic() + 120
    while (
        status := requests.get(stack.url + check_path, headers=headers, timeout=60).json()["status"]
    ) != "done":
        assert status in ("queued", "running") and time.monotonic() < deadline, status
        time.sleep(0.5)
    code, seconds = stack.stop(signal.SIGINT)  # Ctrl-C
    assert code == 0, stack.output
    assert seconds < STOP_WITHIN_SECONDS, f"stopping took {seconds:.1f} s"

    again = stacks.start(data_dir, web_root)
    after = requests.get(again.url + check_path, headers=headers, timeout=60)
    assert after.status_code == 200, after.text
    assert after.json()["status"] == "done"
    assert after.json()["dashboard"]["menuCounts"]["matches"] > 0


def test_one_sigterm_stops_the_stack_within_five_seconds_and_keeps_the_data(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root)
    headers, _ = _demo_headers(stack)
    other = _population_brands(data_dir)[0]
    saved = requests.put(f"{stack.url}/api/matches/{other}/saved", headers=headers, timeout=60)
    assert saved.status_code == 200, saved.text

    code, seconds = stack.stop(signal.SIGTERM)
    assert code == 0, stack.output
    assert seconds < STOP_WITHIN_SECONDS, f"stopping took {seconds:.1f} s:\n{stack.output}"
    assert "Tandem stopped; data saved." in stack.output
    assert (data_dir / "dynamodb.journal").read_bytes() == b""  # folded into the snapshot

    again = stacks.start(data_dir, web_root)
    listed = requests.get(f"{again.url}/api/matches?list=saved", headers=headers, timeout=60)
    assert listed.status_code == 200, listed.text
    assert other in {card["id"] for card in listed.json()["matches"]}


def test_a_burst_of_signals_at_the_ready_line_stops_the_stack_once_and_saves(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    """Signals land wherever the main thread is, over and over: the stop must neither hang
    (a handler waiting on a lock its own thread holds) nor be cut short by the second one."""
    stack = stacks.start(data_dir, web_root)
    for _ in range(200):
        stack.process.send_signal(signal.SIGTERM if _ % 2 else signal.SIGINT)
    code = stack.process.wait(timeout=60)
    assert code == 0, stack.output
    assert stack.output.count("Tandem stopped; data saved.") == 1, stack.output


def _population_brands(data_dir: Path) -> list[int]:
    items = json.loads((data_dir / "dynamodb.json").read_text())
    return sorted(
        int(i["brand_id"]["N"])
        for i in items
        if i["sk"]["S"] == "PROFILE" and i.get("account_id", {}).get("S", "").startswith("demo-population-")
    )


@pytest.mark.long
def test_acknowledged_writes_survive_kill_9(stacks: StackProcesses, data_dir: Path, web_root: Path):
    stack = stacks.start(data_dir, web_root)
    headers, _ = _demo_headers(stack)
    others = _population_brands(data_dir)[:KILL9_WRITES]
    for other in others:
        answer = requests.put(f"{stack.url}/api/matches/{other}/saved", headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text
    stack.kill()  # at once: no shutdown, no snapshot

    again = stacks.start(data_dir, web_root)
    replayed = re.search(r"\((\d+) journalled writes\)", again.output)
    assert replayed and int(replayed.group(1)) >= KILL9_WRITES, again.output
    listed = requests.get(f"{again.url}/api/matches?list=saved", headers=headers, timeout=60)
    assert listed.status_code == 200, listed.text
    saved = {card["id"] for card in listed.json()["matches"]}
    assert set(others) <= saved, f"lost {len(set(others) - saved)} of {len(others)} acknowledged writes"


@pytest.mark.long
def test_a_data_folder_from_an_older_version_is_backfilled_once_not_at_every_start(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    """A folder saved before the stack recorded its backfills (no backfills.json), holding a
    pending request from before the expiry schedule: the next start gives it its schedule and
    says so; the start after runs no backfill at all (each cost every restart 2.5 s)."""
    (data_dir / "backfills.json").unlink()
    snapshot = data_dir / "dynamodb.json"
    items = json.loads(snapshot.read_text())
    pending = next(i for i in items if "due_step" in i)
    schedule = {name: pending.pop(name) for name in ("due_step", "gsi3pk", "gsi3sk")}
    snapshot.write_text(json.dumps(items))

    stack = stacks.start(data_dir, web_root)
    assert (
        "Backfilled data saved by an older version: claim-legacy-emails, index-users, index-pending-requests."
        in stack.output
    )
    assert stack.stop()[0] == 0, stack.output
    after = next(
        i for i in json.loads(snapshot.read_text()) if i["pk"] == pending["pk"] and i["sk"] == pending["sk"]
    )
    assert {name: after.get(name) for name in schedule} == schedule  # the schedule it had

    again = stacks.start(data_dir, web_root)
    assert "Backfilled" not in again.output
    assert json.loads((data_dir / "backfills.json").read_text()) == sorted(
        ["claim-legacy-emails", "index-users", "index-pending-requests"]
    )
