"""DynamoDB calls and warm time of the collaboration screens, through the API as API Gateway
calls it (the screens bench's client and counter: tests/bench/screens.py).

The world: two connected brands with 20 collaborations between them, one planned from a collab
idea (its checklist copied in) and run through: agreed, items ticked, 40 messages, results
recorded by both after the end. Loads, each counted and then timed warm (median of
BENCH_WARM_REPEATS after one more):
- collab_list: GET /api/collaborations (the performance page)
- collab_detail: GET /api/collaborations/{id}
- collab_export: GET /api/collaborations/export (the CSV)
and the writes: a message (`collab_message_ddb_calls`), a tick (`collab_tick_ddb_calls`), each
the door's one call and its one transaction (TransactWriteItems) plus the answer's re-read.

Prints `BENCH <screen>_ddb_calls`, `BENCH <screen>_warm_ms`, `BENCH collab_screen_ddb_calls_max`
(target: at most 3) and `BENCH collab_screen_warm_ms_max` (target: under 50). Nothing here
asserts a number.
"""

from __future__ import annotations

import json
import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR", POWERTOOLS_METRICS_DISABLED="true")

from tests.bench.screens import CALLS, Client, _install_counter  # noqa: E402 (after the environment)

DAY = 86400


def main() -> None:
    with _setup.moto_world() as plan:
        _install_counter()
        from datetime import UTC, datetime, timedelta

        from infra.local.provision import inline_queue_consumers
        from tandem.services import accounts, brands, collaborations, credits, tokens
        from tandem.store.models import Account

        inline_queue_consumers(False)
        api = Client(plan)
        start = time.time()
        clock = {"now": start}
        collaborations.now_s = lambda: clock["now"]  # the bench moves the rules' clock only

        def member(email: str, name: str) -> tuple[int, str]:
            account, user = accounts.create_account_with_user(email=email, name="Mia Member", password=None)
            Account.at(account.account_id).update(actions=[Account.subscription_status.set("active")])
            credits.grant(
                account.account_id, kind="main", amount=6, valid_from=int(start) - 60,
                valid_to=int(start) + 40 * DAY, op_id="b",
            )  # fmt: skip
            brand = brands.create_brand(account_id=account.account_id, name=name, category="food")
            token = tokens.issue_access_token(user.user_id, account.account_id, user.access)
            return int(brand.brand_id), token

        a, a_token = member("a@bench.example", "Oat & Co")
        b, b_token = member("b@bench.example", "Fern Candles")

        def post(method: str, path: str, token: str, brand: int, body: dict) -> dict:
            status, answer = api.call(method, path, token, brand, json.dumps(body).encode())
            assert status in (200, 201), (path, status, answer)
            return answer

        ask = {"toBrandId": b, "message": "Shall we plan something?"}
        sent = post("POST", "/api/requests", a_token, a, ask)
        post("POST", f"/api/requests/{sent['request']['id']}/accept", b_token, b, {})

        def day(n: int) -> str:
            return (datetime.fromtimestamp(clock["now"], UTC) + timedelta(days=n)).date().isoformat()

        def plan(**extra: object) -> dict:
            return {
                "otherBrandId": b, "format": "events", "title": "Supper club", "bringsMine": "Oat drinks",
                "bringsTheirs": "Candles", "goal": "reach", "start": day(5), "end": day(10), **extra,
            }  # fmt: skip

        made = post("POST", "/api/collaborations", a_token, a, plan(idea="joint-event"))["collaboration"]
        cid = made["id"]
        for n in range(19):
            post("POST", "/api/collaborations", a_token, a, plan(title=f"Plan {n}"))
        post("POST", f"/api/collaborations/{cid}/accept", b_token, b, {"version": made["version"]})
        for item in made["checklist"][:4]:
            post("PUT", f"/api/collaborations/{cid}/checklist/{item['id']}", a_token, a, {"done": True})
        for n in range(40):
            who, token = (a, a_token) if n % 2 else (b, b_token)
            text = {"text": f"Message {n} " + "x" * 200}
            post("POST", f"/api/collaborations/{cid}/messages", token, who, text)

        CALLS.clear()
        post("POST", f"/api/collaborations/{cid}/messages", a_token, a, {"text": "One more"})
        message_calls = list(CALLS)
        CALLS.clear()
        sixth = made["checklist"][5]["id"]
        post("PUT", f"/api/collaborations/{cid}/checklist/{sixth}", b_token, b, {"done": True})
        tick_calls = list(CALLS)

        clock["now"] += 11 * DAY
        results = {"reach": 1200, "again": True, "rating": 5, "revenue": "100", "currency": "GBP"}
        post("PUT", f"/api/collaborations/{cid}/results", a_token, a, results)
        post("PUT", f"/api/collaborations/{cid}/results", b_token, b, results)

        screens = {
            "collab_list": "/api/collaborations",
            "collab_detail": f"/api/collaborations/{cid}",
            "collab_export": "/api/collaborations/export",
        }
        counts, warm = {}, {}
        for name, path in screens.items():
            if name == "collab_export":
                CALLS.clear()
                headers = {"authorization": f"Bearer {a_token}", "x-brand-id": str(a)}
                response = api.gateway.handle("GET", path, headers, b"", "127.0.0.1")
                assert response.status == 200
                counts[name] = len(CALLS)
                times = []
                for _ in range(8):
                    started = time.perf_counter()
                    api.gateway.handle("GET", path, headers, b"", "127.0.0.1")
                    times.append((time.perf_counter() - started) * 1000)
                warm[name] = sorted(times[1:])[len(times[1:]) // 2]
                continue
            counts[name] = api.counted(name, path, a_token, a)
            warm[name], _ = api.warm_ms(path, a_token, a)
        print(f"# message: {len(message_calls)} {', '.join(message_calls)}", file=sys.stderr)
        print(f"# tick: {len(tick_calls)} {', '.join(tick_calls)}", file=sys.stderr)
        for name in screens:
            print(f"BENCH {name}_ddb_calls {counts[name]}")
            print(f"BENCH {name}_warm_ms {warm[name]:.1f}")
        print(f"BENCH collab_message_ddb_calls {len(message_calls)}")
        print(f"BENCH collab_message_transactions {message_calls.count('TransactWriteItems')}")
        print(f"BENCH collab_tick_ddb_calls {len(tick_calls)}")
        print(f"BENCH collab_tick_transactions {tick_calls.count('TransactWriteItems')}")
        print(f"BENCH collab_screen_ddb_calls_max {max(counts.values())}")
        slowest = max(warm, key=warm.__getitem__)
        print(f"# slowest warm screen: {slowest}", file=sys.stderr)
        print(f"BENCH collab_screen_warm_ms_max {warm[slowest]:.1f}")


if __name__ == "__main__":
    main()
