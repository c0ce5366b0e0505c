"""The local site under a burst, loopback only and bounded: 200 parallel GET /api/health,
each on its own connection, and 50 parallel sign-ins of the demo member are all answered (the
old http.server had a listen backlog of 5 and reset 20-52% of such connections)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from tests.local.stack import StackProcesses

HEALTH_CALLS = 200
LOGINS = 50


def _all(calls: int, call) -> list[requests.Response]:  # noqa: ANN001
    with ThreadPoolExecutor(max_workers=calls) as pool:
        return list(pool.map(lambda _: call(), range(calls)))


def test_two_hundred_parallel_health_checks_and_fifty_parallel_sign_ins_are_all_answered(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    stack = stacks.start(data_dir, web_root)

    health = _all(HEALTH_CALLS, lambda: requests.get(f"{stack.url}/api/health", timeout=120))
    assert [r.status_code for r in health] == [200] * HEALTH_CALLS
    assert all(r.json()["status"] == "ok" for r in health)

    login = {"email": "demo@tandem.local", "password": "TandemDemo1"}
    signed_in = _all(LOGINS, lambda: requests.post(f"{stack.url}/api/users/login", json=login, timeout=300))
    assert [r.status_code for r in signed_in] == [200] * LOGINS, [r.text for r in signed_in if not r.ok]
    assert all(r.json()["access_token"] for r in signed_in)
