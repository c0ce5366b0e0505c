"""The local site under a burst, loopback only and bounded: 200 parallel GET /api/health,
each on its own connection, and 50 parallel sign-ins of the demo member are all answered (the
old http.server had a listen backlog of 5 and reset 20-52% of such connections)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from tests.local.stack import StackProcesses, demo_password

HEALTH_CALLS = 200
LOGINS = 50


def _all(calls: int, call) -> list[requests.Response]:
    with ThreadPoolExecutor(max_workers=calls) as pool:
        return list(pool.map(lambda _: call(), range(calls)))


def test_two_hundred_parallel_health_checks_and_fifty_parallel_sign_ins_are_all_answered(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root)

    health = _all(HEALTH_CALLS, lambda: requests.get(f"{stack.url}/api/health", timeout=120))
    assert [r.status_code for r in health] == [200] * HEALTH_CALLS
    assert all(r.json()["status"] == "ok" for r in health)

    login = {"email": "demo@tandem.local", "password": demo_password("demo@tandem.local")}
    signed_in = _all(LOGINS, lambda: requests.post(f"{stack.url}/api/users/login", json=login, timeout=300))
    # Every sign-in is answered (none reset). The sign-in throttle counts a burst from one client
    # for one address before the passwords are checked (docs/decisions.md, issue 11), so past its
    # free tries the answer is its 429, in JSON; the others sign in.
    answers = [(r.status_code, r.json()) for r in signed_in]
    assert {status for status, _ in answers} <= {200, 429}, [r.text for r in signed_in]
    assert all(body["access_token"] for status, body in answers if status == 200)
    assert all(
        body["error"].startswith("Too many sign-in attempts") for status, body in answers if status == 429
    )
    assert sum(status == 200 for status, _ in answers) >= 5
