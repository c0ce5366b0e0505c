"""DynamoDB calls of every screen's load, through the API as API Gateway calls it.

Runs the Chalice app through the local gateway against moto (tables provisioned from
template.yaml, as the tests do), with a member whose brand has just had a match run, received
and sent requests, connections and declines, each with new items. Every DynamoDB call of a
request is counted by a `before-call` hook on the process's one botocore session
(tandem.integrations.aws), whichever client makes it.

Prints `BENCH <screen>_ddb_calls <n>` for each screen (dashboard, users, matches,
requests received and sent, connections, declines out and in), then
`BENCH dashboard_ddb_calls` (target: at most 3), `BENCH matches_page_ddb_calls` (the first
GET /api/matches after a match run; target: at most 3) and `BENCH screen_ddb_calls_max`, the
worst of all (target: at most 3). Then each GET screen's warm time in process (median of
BENCH_WARM_REPEATS loads after one more, admin Users and Members included):
`BENCH <screen>_warm_ms` and `BENCH screen_warm_ms_max` (target: at most 50), the slowest named;
the same in this process's CPU time (`_warm_cpu_ms`, `screen_warm_cpu_ms_max`), which a loaded
machine inflates far less than wall time. BENCH_PROFILE=<screen> prints a cProfile of five warm
loads of that screen to stderr. Nothing here asserts a number.
"""

from __future__ import annotations

import os
import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR", POWERTOOLS_METRICS_DISABLED="true")

CALLS: list[str] = []
WARM_REPEATS = int(os.environ.get("BENCH_WARM_REPEATS", "7"))


def _count(model, **_) -> None:
    CALLS.append(model.name)


def _install_counter() -> None:
    from tandem.integrations import aws

    aws.register("before-call.dynamodb", _count, unique_id="bench-screens")


class Client:
    def __init__(self, plan) -> None:
        from infra.local.gateway import LocalApiGateway

        self.gateway = LocalApiGateway(plan)

    def call(
        self, method: str, path: str, token: str, brand: int | str, body: bytes = b""
    ) -> tuple[int, dict]:
        import json

        headers = {"authorization": f"Bearer {token}", "x-brand-id": str(brand)}
        if body:
            headers["content-type"] = "application/json"
        response = self.gateway.handle(method, path, headers, body, "127.0.0.1")
        return response.status, json.loads(response.body or b"null")

    def counted(self, label: str, path: str, token: str, brand: int | str) -> int:
        CALLS.clear()
        status, body = self.call("GET", path, token, brand)
        assert status == 200, (path, status, body)
        print(f"# {label}: {len(CALLS)} {', '.join(CALLS)}", file=sys.stderr)
        return len(CALLS)

    def warm_ms(
        self, path: str, token: str, brand: int | str, repeats: int = WARM_REPEATS
    ) -> tuple[float, float]:
        """Median wall and CPU milliseconds of `repeats` loads after one more (in process, the
        app warm). CPU time is this process's, which a loaded machine moves far less."""
        import statistics

        wall, cpu = [], []
        for _ in range(repeats + 1):
            started, started_cpu = time.perf_counter(), time.process_time()
            status, body = self.call("GET", path, token, brand)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            assert status == 200, (path, status, body)
        return statistics.median(wall[1:]), statistics.median(cpu[1:])


def main() -> None:
    import json

    with _setup.moto_world() as plan:  # at the bootstrap's log level (ERROR)
        _install_counter()
        from infra.local.provision import inline_queue_consumers
        from tandem.services import accounts, brands, credits, match_runs
        from tandem.store.models import Account
        from tests.conftest import wait_for_execution
        from tests.factories import population

        inline_queue_consumers(False)  # the notifier's job, another Lambda: messages wait on its queue
        api = Client(plan)
        now = int(time.time())

        def member(email: str, name: str):
            from tandem.services import tokens

            account, user = accounts.create_account_with_user(email=email, name="Mia Member", password=None)
            Account.at(account.account_id).update(actions=[Account.subscription_status.set("active")])
            credits.grant(
                account.account_id,
                kind="main",
                amount=30,
                valid_from=now - 60,
                valid_to=now + 86400,
                op_id="b",
            )
            brand = brands.create_brand(
                account_id=account.account_id,
                name=name,
                category="food",
                collab_kinds=["giveaways", "events"],
                values=["vegan", "local"],
                countries=["GB"],
                age_bands=["25-34"],
            )
            token = tokens.issue_access_token(user.user_id, account.account_id, user.access)
            return int(brand.brand_id), token

        me, token = member("me@bench.example", "Bench Brand")
        brands.create_brand(
            account_id=accounts.find_user_by_email("me@bench.example").account_id, name="Second"
        )
        population_ids = population(60)
        from tandem.services import match_index

        match_index.rebuild()
        run = match_runs.start_run(me)
        execution = f"{plan.state_machines['MatchRunStateMachine'].arn}:match-{me}-{run.run_id}".replace(
            ":stateMachine:", ":execution:"
        )
        assert wait_for_execution(execution, timeout=120)["status"] == "SUCCEEDED"

        senders = [member(f"s{i}@bench.example", f"Sender {i}") for i in range(6)]
        for brand_id, sender_token in senders:  # received: 6 pending, new
            status, body = api.call(
                "POST",
                "/api/requests",
                sender_token,
                brand_id,
                json.dumps({"toBrandId": me, "message": "Hi"}).encode(),
            )
            assert status == 201, body
        targets = [member(f"t{i}@bench.example", f"Target {i}") for i in range(6)]
        sent_ids = []
        for brand_id, _ in targets:  # sent: 6; then 2 accepted (new connections), 2 declined (new declines)
            status, body = api.call(
                "POST",
                "/api/requests",
                token,
                me,
                json.dumps({"toBrandId": brand_id, "message": "Hello"}).encode(),
            )
            assert status == 201, body
            sent_ids.append(body["request"]["id"])
        for (brand_id, target_token), request_id, action in zip(
            targets, sent_ids, ("accept", "accept", "decline", "decline"), strict=False
        ):
            status, body = api.call(
                "POST", f"/api/requests/{request_id}/{action}", target_token, brand_id, b"{}"
            )
            assert status == 200, body
        # and one this brand declined itself (declines, in)
        status, body = api.call("GET", "/api/requests?box=received", token, me)
        status, _ = api.call("POST", f"/api/requests/{body['items'][-1]['id']}/decline", token, me, b"{}")
        assert status == 200
        late_brand, late_token = member("late@bench.example", "Late Sender")  # new again after that view
        status, body = api.call(
            "POST",
            "/api/requests",
            late_token,
            late_brand,
            json.dumps({"toBrandId": me, "message": "Hi"}).encode(),
        )
        assert status == 201, body

        counts = {
            "dashboard": api.counted("dashboard", "/api/dashboard", token, me),
            "dashboard_default_brand": api.counted(
                "dashboard (default brand)", "/api/dashboard", token, "default"
            ),
            "users": api.counted("users", "/api/users", token, me),
            "matches": api.counted(
                "matches (first after the run)", "/api/matches?list=potentials", token, me
            ),
            "matches_again": api.counted("matches again", "/api/matches?list=potentials", token, me),
            "matches_saved": api.counted("matches saved", "/api/matches?list=saved", token, me),
            "requests_received": api.counted("requests received", "/api/requests?box=received", token, me),
            "requests_sent": api.counted("requests sent", "/api/requests?box=sent", token, me),
            "connections": api.counted("connections", "/api/connections", token, me),
            "declines_out": api.counted("declines out", "/api/declines?dir=out", token, me),
            "declines_in": api.counted("declines in", "/api/declines?dir=in", token, me),
        }
        from tandem.services import accounts as account_service
        from tandem.services import tokens

        admin, admin_user = account_service.create_account_with_user(
            email="boss@bench.example", name="Ada Admin", password=None, access="admin"
        )
        admin_token = tokens.issue_access_token(admin_user.user_id, admin.account_id, admin_user.access)
        screens = {  # every GET a screen loads with, warm in process
            "dashboard": ("/api/dashboard", token, me),
            "users": ("/api/users", token, me),
            "matches": ("/api/matches?list=potentials", token, me),
            "matches_saved": ("/api/matches?list=saved", token, me),
            "requests_received": ("/api/requests?box=received", token, me),
            "requests_sent": ("/api/requests?box=sent", token, me),
            "connections": ("/api/connections", token, me),
            "declines_out": ("/api/declines?dir=out", token, me),
            "declines_in": ("/api/declines?dir=in", token, me),
            "admin_users": ("/api/admin/users", admin_token, "default"),
            "admin_members": ("/api/admin/members", admin_token, "default"),
        }
        profiled = os.environ.get("BENCH_PROFILE")
        if profiled:
            import cProfile
            import pstats

            path, who, brand = screens[profiled]
            api.call("GET", path, who, brand)
            with cProfile.Profile() as prof:
                for _ in range(5):
                    api.call("GET", path, who, brand)
            order = os.environ.get("BENCH_PROFILE_SORT", "cumulative")  # or tottime
            pstats.Stats(prof, stream=sys.stderr).sort_stats(order).print_stats(60)
        timed = {name: api.warm_ms(path, who, brand) for name, (path, who, brand) in screens.items()}
        warm = {name: wall for name, (wall, _) in timed.items()}
        warm_cpu = {name: cpu for name, (_, cpu) in timed.items()}
        for name, value in counts.items():
            print(f"BENCH {name}_ddb_calls {value}")
        for name, value in warm.items():
            print(f"BENCH {name}_warm_ms {value:.1f}")
            print(f"BENCH {name}_warm_cpu_ms {warm_cpu[name]:.1f}")
        slowest = max(warm, key=warm.__getitem__)
        slowest_cpu = max(warm_cpu, key=warm_cpu.__getitem__)
        load = os.getloadavg()[0]
        print(f"# slowest screen warm: {slowest} ({len(population_ids)} population brands, load {load:.2f})")
        print(f"BENCH screen_warm_ms_max {warm[slowest]:.1f}")
        print(f"# slowest screen warm in CPU time: {slowest_cpu}")
        print(f"BENCH screen_warm_cpu_ms_max {warm_cpu[slowest_cpu]:.1f}")
        print(f"BENCH matches_page_ddb_calls {counts['matches']}")
        print(f"BENCH screen_ddb_calls_max {max(counts.values())}")


if __name__ == "__main__":
    main()
