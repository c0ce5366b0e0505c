"""Concurrency over HTTP against the real local stack (`python -m infra.local.stack`, loopback
only, bounded), signed in through the product's own sign-in route: 50 simultaneous sends from
an account with 6 credits, two simultaneous accepts of one request, and an accept racing a
cancel. The ledger must balance afterwards."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from infra.local.seed import DEMO_REQUESTS
from tests.local.stack import LocalStack, StackProcesses, demo_password

SENDS = 50
WORKERS = 16
TIMEOUT = 60


def _sign_in(stack: LocalStack, email: str, password: str) -> tuple[str, str]:
    """An access token from the product's sign-in route, and the member's account id."""
    answer = requests.post(
        f"{stack.url}/api/users/login", json={"email": email, "password": password}, timeout=TIMEOUT
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["access_token"], answer.json()["account"]


def _brand_ids(items: list[dict], account_id: str) -> list[int]:
    return sorted(
        int(i["brand_id"]["N"])
        for i in items
        if i.get("account_id", {}).get("S") == account_id and i["sk"]["S"] == "PROFILE"
    )


def _ledger_mismatches(items: list[dict], account_id: str) -> dict:
    pk = f"ACCOUNT#{account_id}"
    sums: dict[str, int] = defaultdict(int)
    for item in items:
        if item["pk"]["S"] == pk and item["sk"]["S"].startswith("LEDGER#"):
            sums[item["bucket_id"]["S"]] += int(item["delta"]["N"])
    return {
        item["bucket_id"]["S"]: (int(item["available"]["N"]), sums[item["bucket_id"]["S"]])
        for item in items
        if item["pk"]["S"] == pk
        and item["sk"]["S"].startswith("BUCKET#")
        and int(item["available"]["N"]) != sums[item["bucket_id"]["S"]]
    }


def test_fifty_simultaneous_sends_and_racing_answers_over_http(
    stacks: StackProcesses, data_dir: Path, web_root: Path
):
    items = json.loads((data_dir / "dynamodb.json").read_text())  # the seeded data, to pick brands
    stack = stacks.start(data_dir, web_root)
    demo, demo_account = _sign_in(stack, "demo@tandem.local", demo_password("demo@tandem.local"))
    feature, feature_account = _sign_in(stack, "feature@tandem.local", demo_password("feature@tandem.local"))
    admin, _ = _sign_in(stack, "admin@tandem.local", demo_password("admin@tandem.local"))
    oat = _brand_ids(items, demo_account)[0]
    (northwind,) = _brand_ids(items, feature_account)
    asked_us = {f"demo-population-{index}" for index, _ in DEMO_REQUESTS}
    targets = sorted(
        int(i["brand_id"]["N"])
        for i in items
        if i["sk"]["S"] == "PROFILE"
        and i.get("account_id", {}).get("S", "").startswith("demo-population-")
        and i["account_id"]["S"] not in asked_us
    )[:SENDS]
    assert len(targets) == SENDS
    as_oat = {"Authorization": f"Bearer {demo}", "X-Brand-Id": str(oat)}
    as_northwind = {"Authorization": f"Bearer {feature}", "X-Brand-Id": str(northwind)}
    api = f"{stack.url}/api"
    assert (
        requests.get(f"{api}/dashboard", headers=as_oat, timeout=TIMEOUT).json()["credits"]["available"] == 6
    )

    def send(target: int) -> requests.Response:
        return requests.post(
            f"{api}/requests",
            headers=as_oat,
            json={"toBrandId": target, "message": "Shall we collaborate?"},
            timeout=TIMEOUT,
        )

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        answers = list(pool.map(send, targets))
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {201: 6, 402: SENDS - 6}, statuses
    refused = [a.json() for a in answers if a.status_code == 402]
    assert all(
        body == {"error": "You're out of credits. Buy more to continue.", "code": "out_of_credits"}
        for body in refused
    )
    after = requests.get(f"{api}/dashboard", headers=as_oat, timeout=TIMEOUT).json()["credits"]
    assert (after["available"], after["total"]) == (0, 6)
    sent = requests.get(f"{api}/requests?box=sent", headers=as_oat, timeout=TIMEOUT).json()["items"]
    assert len(sent) == 6

    # One more credit (an admin gift), then an accept racing a cancel of one request.
    granted = requests.post(
        f"{api}/admin/credits/grant",
        headers={"Authorization": f"Bearer {admin}"},
        json={"email": "demo@tandem.local", "amount": 1, "kind": "gifted", "days": 30},
        timeout=TIMEOUT,
    )
    assert granted.status_code == 200 and granted.json()["credits"]["available"] == 1
    made = send(northwind)
    assert made.status_code == 201, made.text
    request_id = made.json()["request"]["id"]
    calls = [
        (f"{api}/requests/{request_id}/accept", as_northwind),
        (f"{api}/requests/{request_id}/cancel", as_oat),
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        raced = list(pool.map(lambda c: requests.post(c[0], headers=c[1], timeout=TIMEOUT), calls))
    assert sorted(r.status_code for r in raced) == [200, 409], [r.text for r in raced]
    loser = next(r for r in raced if r.status_code == 409).json()["error"]
    assert loser in (
        "This request was already accepted. It can no longer be cancelled.",
        "This request was cancelled by the brand that sent it.",
    )
    accepted_won = raced[0].status_code == 200

    # Two simultaneous accepts of one request Oat & Honey received.
    received = requests.get(f"{api}/requests?box=received", headers=as_oat, timeout=TIMEOUT).json()["items"]
    assert len(received) == len(DEMO_REQUESTS)
    first = received[0]["id"]
    with ThreadPoolExecutor(max_workers=2) as pool:
        twice = list(
            pool.map(
                lambda _: requests.post(f"{api}/requests/{first}/accept", headers=as_oat, timeout=TIMEOUT),
                range(2),
            )
        )
    assert sorted(r.status_code for r in twice) == [200, 409]
    assert next(r for r in twice if r.status_code == 409).json() == {
        "error": "This request was already accepted."
    }
    final = requests.get(f"{api}/dashboard", headers=as_oat, timeout=TIMEOUT).json()["credits"]
    assert final["available"] == (0 if accepted_won else 1)
    code, _ = stack.stop()
    assert code == 0, stack.output

    items = json.loads((data_dir / "dynamodb.json").read_text())
    assert _ledger_mismatches(items, demo_account) == {}
    holds = Counter(
        i["status"]["S"]
        for i in items
        if i["pk"]["S"] == f"ACCOUNT#{demo_account}" and i["sk"]["S"].startswith("HOLD#")
    )
    assert holds == ({"held": 6, "spent": 1} if accepted_won else {"held": 6, "released": 1})
