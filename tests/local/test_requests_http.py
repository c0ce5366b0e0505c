"""Concurrency over HTTP against the real local stack (`python -m infra.local.stack`, loopback
only, bounded): 50 simultaneous sends from an account with 6 credits, two simultaneous accepts
of one request, and an accept racing a cancel. The ledger must balance afterwards."""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jwt
import requests

from infra.local.seed import DEMO_REQUESTS
from tests.functional.test_local_stack import Stack

SENDS = 50
WORKERS = 16
TIMEOUT = 60


def _items(data_dir: Path) -> list[dict]:
    """The stack's table snapshot (written every few seconds and on shutdown)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        path = data_dir / "dynamodb.json"
        if path.exists():
            items = json.loads(path.read_text())
            if any(i.get("email", {}).get("S") == "feature@tandem.local" for i in items) and any(
                i.get("sk", {}).get("S", "").startswith("LEDGER#") for i in items
            ):
                return items
        time.sleep(0.5)
    raise AssertionError("the local stack never wrote its seeded data")


def _token(data_dir: Path, items: list[dict], email: str) -> tuple[str, str]:
    secret = json.loads((data_dir / "secrets.json").read_text())["tandem/local/jwt"]
    user = next(i for i in items if i.get("email", {}).get("S") == email and i["sk"]["S"] == "META")
    now = int(time.time())
    claims = {
        "sub": user["user_id"]["S"],
        "acc": user["account_id"]["S"],
        "access": user["access"]["S"],
        "typ": "access",
        "iss": "tandem",
        "iat": now,
        "exp": now + 900,
    }
    return jwt.encode(claims, secret, algorithm="HS256"), user["account_id"]["S"]


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


def test_fifty_simultaneous_sends_and_racing_answers_over_http(tmp_path):
    web_root = tmp_path / "web"
    web_root.mkdir()
    (web_root / "index.html").write_text("<!doctype html><title>Tandem</title>")
    data_dir = tmp_path / "data"
    stack = Stack(data_dir, web_root)
    try:
        items = _items(data_dir)
        demo, demo_account = _token(data_dir, items, "demo@tandem.local")
        feature, feature_account = _token(data_dir, items, "feature@tandem.local")
        admin, _ = _token(data_dir, items, "admin@tandem.local")
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
            requests.get(f"{api}/dashboard", headers=as_oat, timeout=TIMEOUT).json()["credits"]["available"]
            == 6
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
        received = requests.get(f"{api}/requests?box=received", headers=as_oat, timeout=TIMEOUT).json()[
            "items"
        ]
        assert len(received) == len(DEMO_REQUESTS)
        first = received[0]["id"]
        with ThreadPoolExecutor(max_workers=2) as pool:
            twice = list(
                pool.map(
                    lambda _: requests.post(
                        f"{api}/requests/{first}/accept", headers=as_oat, timeout=TIMEOUT
                    ),
                    range(2),
                )
            )
        assert sorted(r.status_code for r in twice) == [200, 409]
        assert next(r for r in twice if r.status_code == 409).json() == {
            "error": "This request was already accepted."
        }
        final = requests.get(f"{api}/dashboard", headers=as_oat, timeout=TIMEOUT).json()["credits"]
        assert final["available"] == (0 if accepted_won else 1)
    finally:
        stack.stop()

    items = json.loads((data_dir / "dynamodb.json").read_text())
    assert _ledger_mismatches(items, demo_account) == {}
    holds = Counter(
        i["status"]["S"]
        for i in items
        if i["pk"]["S"] == f"ACCOUNT#{demo_account}" and i["sk"]["S"].startswith("HOLD#")
    )
    assert holds == ({"held": 6, "spent": 1} if accepted_won else {"held": 6, "released": 1})
