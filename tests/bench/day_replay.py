"""A day of members replayed on the local stack with Locust (issue 42), then the nightly jobs.

The stack runs what we deploy: `sam build` of every function and the layer first (into a temp
dir, as tests/bench/cold_start_artifact.py builds; BENCH_BUILD_DIR: an existing build), then the
stack on it (LOCAL_BUILD_DIR, infra/local/artifact.py: the layer's python dir and each function's
own folder, nothing from the source tree's functions/ or layers/; the stack checks it at start,
and this bench asks it again through GET /__local/modules before and after the day, failing
loudly on any module of ours from elsewhere). It is started as tests/bench/local_stack.py starts
it (`python -m infra.local.stack` in its own process on a fresh data dir, loopback only, a port
of BENCH_PORT or a free one) with LOCAL_METER=1, so it measures itself (infra/local/meter.py):
every API request's thread CPU time inside the in-process handler, its wall time, its DynamoDB
calls and capacity units (tandem.store.capacity), every partition key's writes per second, and
every other Lambda invocation's. Then:

1. MEMBERS members are seeded in bulk through the product's services (POST /__local/seed-members,
   infra/local/seed.py seed_members) and last night's match run is run for every brand (the
   nightly job), so Matches has cards in the morning.
2. The day: each member's sessions (ACTIVITY, per member-day) start on a weekday's hourly curve
   (HOURLY) compressed from 24 h into REPLAY_S seconds; a session is the SPA's calls (web/src/api):
   the sign-in check and dashboard, then screens (Matches, Search, a brand page, Requests,
   Connections, billing, notification settings) a think time apart (real seconds / compression),
   with saves, sends, answers, match runs on demand (polled as the SPA polls), purchases of extra
   credits through the fake Stripe's hosted checkout (then the payment-status poll) and settings
   saved. At most USERS Locust users (greenlets) run sessions at once, in start order.
3. The night: every scheduled job of template.yaml run once (POST /__local/jobs/<job>), each
   metered on its own; the nightly match run timed from its start until its execution ends.

Prints the per-route table (requests, errors, CPU p50/p95/p99 ms, DynamoDB calls and units per
request), the hottest partition keys, load average beside the figures, and
    BENCH day_ddb_rcu_per_member        read units per member-day (the day, and each job times its runs a day)
    BENCH day_ddb_wcu_per_member        write units per member-day
    BENCH day_ddb_calls_per_member      DynamoDB calls per member-day
    BENCH day_api_calls_per_member      API requests per member-day
    BENCH day_p99_cpu_ms_max            the worst route's p99 handler CPU ms (goal: under 100)
    BENCH day_errors                    answers of 400 or more, and sessions that failed (goal: 0)
    BENCH day_hot_partition_wcu_per_s_100k  the hottest shared key's busiest second, at 100,000 members
    BENCH day_peak_concurrency_100k     API requests in flight at the peak minute, at 100,000 members
    BENCH day_nightly_match_run_s       wall time of the nightly match run for every brand
with the figures docs/cost.md takes (infra/cost.py). Scaling to 100,000 members and a real day is
in tests/bench/day_report.py. Beside them `day_stack_cpu_ms_per_member`,
`day_stack_cores_for_10k_in_600s` (the stack's CPU over the day, per member, and what that makes
for 10,000 members in 600 s) and `day_locust_cpu_ms_per_request`: why BENCH_DAY_MEMBERS defaults
to 1,000, not issue 42's 10,000 (docs/decisions.md, "The day replay at 10,000 members": about 3
cores of CPU on a 2-core shared machine, the stack one process, so one core by the GIL).
BENCH_DAY_SECONDS (600), BENCH_DAY_USERS (40), BENCH_DAY_SEED. It fails
loudly when its setup is wrong (the meter missing or unable to cost a call, a seeded member
refused, no cards after the nightly run, sessions not all run, the replay over its time bound).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()  # before anything imports ssl or sockets (Locust would do it on import)

import _setup  # noqa: E402, F401, I001 (sets sys.path: the repo root and the layer; see tests/bench/_setup.py)
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import requests  # noqa: E402
from gevent.queue import Empty, Queue  # noqa: E402
from locust import HttpUser, constant, events, task  # noqa: E402
from locust.env import Environment  # noqa: E402
from locust.exception import StopUser  # noqa: E402

from tests.bench import day_report as report  # noqa: E402
from tests.bench.local_stack import Stack, _port  # noqa: E402

MEMBERS = int(os.environ.get("BENCH_DAY_MEMBERS", "1000"))
REPLAY_S = float(os.environ.get("BENCH_DAY_SECONDS", "600"))
USERS = int(os.environ.get("BENCH_DAY_USERS", "40"))
SEED = int(os.environ.get("BENCH_DAY_SEED", "42"))
OVERRUN = 1.5  # the day may take this much longer than REPLAY_S (sessions queued), no more
PEAK_WINDOW_S = 5.0  # replay seconds (a real 12 min at 600 s): the hourly curve is flat within an hour


@dataclass(frozen=True)
class Activity:
    """What a member does on a busy weekday (per member-day; docs/cost.md's month is 30 of them)."""

    sessions: float = 0.45  # sessions a member-day (Poisson): some members twice, most not at all
    screens: tuple[int, int] = (3, 8)  # screens a session, uniform
    weights: dict[str, float] = field(
        default_factory=lambda: {
            "matches": 0.30,
            "brand": 0.15,
            "search": 0.10,
            "requests": 0.15,
            "connections": 0.08,
            "billing": 0.05,
            "notifications": 0.05,
            "dashboard": 0.12,
        }
    )
    save: float = 0.25  # a Matches visit saves a card
    send: float = 0.12  # a brand page visit sends a request (credits allowing)
    answer: float = 0.6  # a Requests visit with one pending answers it (half accept, half decline)
    match_run: float = 0.08  # a session starts a match run on demand
    purchase: float = 0.012  # a session buys extra credits
    settings_saved: float = 0.15  # a notifications visit saves the settings
    think_s: tuple[float, float] = (10.0, 40.0)  # real seconds between screens


ACTIVITY = Activity()
# A weekday's sessions by UTC hour (UK members: morning and afternoon peaks, a quiet night).
HOURLY = [0.1, 0.05, 0.05, 0.05, 0.05, 0.1, 0.3, 0.7, 1.3, 1.8, 1.9, 1.7]
HOURLY += [1.4, 1.5, 1.7, 1.6, 1.4, 1.1, 0.9, 1.0, 1.1, 0.9, 0.6, 0.3]


@dataclass
class Session:
    member: dict
    start: float  # replay seconds from the day's start
    screens: list[str]
    match_run: bool
    purchase: bool


def day_plan(members: list[dict], rng: random.Random, replay_s: float) -> list[Session]:
    """Every session of the day, in start order."""
    scale = replay_s / report.DAY_S
    names, weights = zip(*ACTIVITY.weights.items(), strict=True)
    sessions = []
    for member in members:
        count = _poisson(rng, ACTIVITY.sessions)
        for _ in range(count):
            hour = rng.choices(range(24), weights=HOURLY)[0]
            start = (hour * 3600 + rng.uniform(0, 3600)) * scale
            screens = rng.choices(names, weights=weights, k=rng.randint(*ACTIVITY.screens))
            sessions.append(
                Session(
                    member,
                    start,
                    list(screens),
                    rng.random() < ACTIVITY.match_run,
                    rng.random() < ACTIVITY.purchase,
                )
            )
    sessions.sort(key=lambda s: s.start)
    return sessions


def _poisson(rng: random.Random, mean: float) -> int:
    limit, k, p = pow(2.718281828459045, -mean), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


class Day:
    """The shared state of one replayed day: the queue of sessions, what went wrong."""

    def __init__(self, sessions: list[Session], compression: float) -> None:
        self.queue: Queue = Queue()
        for session in sessions:
            self.queue.put(session)
        self.total = len(sessions)
        self.done = 0
        self.failed: list[str] = []
        self.lag: list[float] = []  # seconds a session started after its time
        self.compression = compression
        self.started = 0.0
        self.credits: dict[int, int] = {}  # brand -> credits left (6 seeded)
        self.rng = random.Random(SEED + 7)
        self.stripe_paid = 0
        self.locust_cpu_s = 0.0  # this process's CPU over the day (Locust's users and its client)


DAY: Day | None = None


class Member(HttpUser):
    """One Locust user runs sessions one after another, taken from the day's queue."""

    wait_time = constant(0)

    @task
    def next_session(self) -> None:
        assert DAY is not None
        try:
            session = DAY.queue.get_nowait()
        except Empty:
            raise StopUser() from None
        wait = DAY.started + session.start - time.time()
        if wait > 0:
            gevent.sleep(wait)
        DAY.lag.append(max(0.0, -wait))
        try:
            self.play(session)
        except Exception as exc:  # counted: the replay's goal is none
            DAY.failed.append(f"{type(exc).__name__}: {exc}")
        DAY.done += 1

    # ---- the SPA's calls
    def _call(self, method: str, path: str, name: str, brand: int, token: str, body=None):
        headers = {"Authorization": f"Bearer {token}", "X-Brand-Id": str(brand)}
        with self.client.request(
            method, f"/api/{path}", name=name, headers=headers, json=body, catch_response=True
        ) as answer:
            if answer.status_code >= 400:
                answer.failure(f"{answer.status_code}: {answer.text[:200]}")
                raise RuntimeError(f"{method} {name} answered {answer.status_code}: {answer.text[:200]}")
            answer.success()
            return answer.json() if answer.content else None

    def _think(self) -> None:
        assert DAY is not None
        gevent.sleep(DAY.rng.uniform(*ACTIVITY.think_s) / DAY.compression)

    def play(self, session: Session) -> None:
        assert DAY is not None
        rng = DAY.rng
        brand, token = session.member["brandId"], session.member["token"]

        def get(path: str, name: str):
            return self._call("GET", path, name, brand, token)

        get(f"users/check-brand/{brand}", "users/check-brand/{brandId}")
        get(f"dashboard/{brand}", "dashboard/{brandId}")
        cards: list[int] = []
        if session.match_run:
            started = self._call("POST", f"matching/run/{brand}", "matching/run/{brandId}", brand, token)
            for _ in range(120):  # the SPA polls every 2 s (here 2 s / compression, at least 50 ms)
                gevent.sleep(max(0.05, 2.0 / DAY.compression))
                check = get(
                    f"matching/run-check/{started['runId']}/{brand}", "matching/run-check/{runId}/{brandId}"
                )
                if check["status"] in ("done", "failed"):
                    break
            else:
                raise RuntimeError("a match run on demand never ended")
            if check["status"] == "failed":
                raise RuntimeError(f"a match run on demand failed: {check}")
        for screen in session.screens:
            self._think()
            if screen == "dashboard":
                get(f"dashboard/{brand}", "dashboard/{brandId}")
            elif screen == "matches":
                listed = get("matches?list=potentials", "matches?list=potentials")
                cards = [int(c["id"]) for c in listed["matches"]]
                if cards and rng.random() < ACTIVITY.save:
                    other = rng.choice(cards)
                    self._call("PUT", f"matches/{other}/saved", "matches/{otherBrandId}/saved", brand, token)
            elif screen == "search":
                word = rng.choice(["Fern", "Oak", "Honey", "Studio", "Bloom", "Field", "Salt", "Copper"])
                found = get(f"brands/search?q={word}", "brands/search?q=")
                if found.get("view"):  # the screen hands back the page it showed (web/src/.../search.ts)
                    self._call(
                        "POST",
                        "brands/search/views",
                        "brands/search/views",
                        brand,
                        token,
                        {"view": found["view"]},
                    )
                cards = cards or [int(b["id"]) for b in found["matches"]]
            elif screen == "brand":
                if not cards:
                    listed = get("matches?list=potentials", "matches?list=potentials")
                    cards = [int(c["id"]) for c in listed["matches"]]
                if not cards:
                    continue
                other = rng.choice(cards)
                get(f"brand/{other}", "brand/{otherBrandId}")
                left = DAY.credits.get(brand, 6)
                if left > 1 and rng.random() < ACTIVITY.send:
                    DAY.credits[brand] = left - 1
                    message = "Hello! Would you like to plan a joint giveaway with us next month?"
                    try:
                        self._call(
                            "POST",
                            "requests",
                            "requests",
                            brand,
                            token,
                            {"toBrandId": other, "message": message},
                        )
                    except RuntimeError as exc:
                        if "409" not in str(exc):  # already asked, or already connected: the SPA says so
                            raise
            elif screen == "requests":
                received = get("requests?box=received", "requests?box=received")
                pending = [i for i in received.get("items", []) if i.get("status") == "pending"]
                if pending and rng.random() < ACTIVITY.answer:
                    action = "accept" if rng.random() < 0.5 else "decline"
                    one = pending[0]["id"]
                    self._call(
                        "POST", f"requests/{one}/{action}", "requests/{requestId}/" + action, brand, token, {}
                    )
                if rng.random() < 0.5:
                    get("requests?box=sent", "requests?box=sent")
            elif screen == "connections":
                get("connections", "connections")
            elif screen == "billing":
                get("products", "products")
                get("users/webhooks-in-progress", "users/webhooks-in-progress")
            elif screen == "notifications":
                settings = get("notifications/user", "notifications/user")
                get("notifications/options", "notifications/options")
                if rng.random() < ACTIVITY.settings_saved:
                    self._call("PUT", "notifications/user", "notifications/user", brand, token, settings)
        if session.purchase:
            self._think()
            self.purchase(brand, token, get)

    def purchase(self, brand: int, token: str, get) -> None:
        """Extra credits bought as the SPA buys them: products, checkout, the fake Stripe's hosted
        checkout paid with card 4242, then the payment-status poll until it is processed."""
        from urllib.parse import urlsplit

        from infra.local.fake_stripe.browser import pay_hosted_checkout

        assert DAY is not None
        products = get("products", "products")
        extra = [
            price["id"]
            for product in products.get("products", [])
            if product.get("type") == "extra"
            for prices in (product.get("prices") or {}).values()
            for price in prices
        ]
        if not extra:
            raise RuntimeError("no extra credits on sale: the fake Stripe's catalogue is missing")
        session = self._call("POST", "checkout", "checkout", brand, token, {"priceId": extra[0]})
        paid = pay_hosted_checkout(session["url"])
        if paid.status_code != 303:
            raise RuntimeError(f"the hosted checkout answered {paid.status_code}")
        session_id = urlsplit(paid.headers["Location"]).path.rstrip("/").rsplit("/", 1)[-1]
        for _ in range(120):
            status = get(f"stripe/payment-status/{session_id}", "stripe/payment-status/{checkoutSessionId}")
            if status.get("processed"):
                DAY.stripe_paid += 1
                return
            gevent.sleep(max(0.05, 2.0 / DAY.compression))
        raise RuntimeError(f"a paid checkout was never processed: {status}")


# ---------------------------------------------------------------- the run


def _json(method: str, url: str, **kwargs) -> dict:
    answer = requests.request(method, url, timeout=kwargs.pop("timeout", 900), **kwargs)
    if answer.status_code != 200:
        raise SystemExit(f"{method} {url} answered {answer.status_code}: {answer.text[:500]}")
    return answer.json()


def _quiet(stack: Stack, limit: float = 600) -> None:
    """Until nothing runs in the stack: its process under 5% of a core over 2 s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = stack.cpu_seconds()
        gevent.sleep(2)
        if stack.cpu_seconds() - before < 0.1:
            return
    raise SystemExit("the stack never went quiet")


def _nightly(stack: Stack, moto_port: int) -> tuple[float, dict]:
    """Start the nightly match run now and wait for its execution to end: (wall s, result)."""
    import boto3

    started = time.monotonic()
    result = _json("POST", f"{stack.url}/__local/jobs/nightly-match-run")
    name = result["result"]["result"]["execution"]  # the server{job, result} of the handler{job, result}
    sfn = boto3.client(
        "stepfunctions",
        endpoint_url=f"http://127.0.0.1:{moto_port}",
        region_name="eu-west-2",
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    from infra.local.template import build_plan

    machine = build_plan().state_machines["NightlyMatchRunStateMachine"].arn
    arn = machine.replace(":stateMachine:", ":execution:") + f":{name}"
    while True:
        status = sfn.describe_execution(executionArn=arn)["status"]
        if status != "RUNNING":
            break
        gevent.sleep(0.5)
    wall = time.monotonic() - started
    if status != "SUCCEEDED":
        raise SystemExit(f"the nightly match run ended {status}")
    return wall, result


def run_day(stack: Stack, members: list[dict]) -> tuple[Day, float]:
    global DAY
    sessions = day_plan(members, random.Random(SEED), REPLAY_S)
    DAY = Day(sessions, report.compression(REPLAY_S))
    env = Environment(user_classes=[Member], host=stack.url, events=events)
    runner = env.create_local_runner()
    DAY.started = time.time() + 1.0
    cpu = time.process_time()
    runner.start(USERS, spawn_rate=USERS)
    deadline = time.monotonic() + REPLAY_S * OVERRUN + 60
    while DAY.done < DAY.total and time.monotonic() < deadline:
        gevent.sleep(1)
    elapsed = time.time() - DAY.started
    DAY.locust_cpu_s = time.process_time() - cpu
    runner.quit()
    if DAY.done < DAY.total:
        raise SystemExit(f"the day overran: {DAY.done} of {DAY.total} sessions in {elapsed:.0f} s")
    stats = env.stats.total
    print(
        f"# Locust: {stats.num_requests} requests, {stats.num_failures} failures, "
        f"median {stats.median_response_time:.0f} ms wall at the client",
        file=sys.stderr,
    )
    return DAY, elapsed


def main() -> None:
    import shutil

    from tests.bench.cold_start_artifact import build

    port = _port()
    moto_port = int(os.environ.get("BENCH_MOTO_PORT") or 0) or _free_port()
    load_before = os.getloadavg()
    built = build()  # every function and the layer, as make deploy builds them (or BENCH_BUILD_DIR)
    print(f"# the stack runs the sam build at {built}", file=sys.stderr, flush=True)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data_dir, web_root = Path(tmp) / "data", Path(tmp) / "web"
            web_root.mkdir()
            (web_root / "index.html").write_text(
                "<!doctype html><title>Tandem</title>"
            )  # the replay calls the API only
            env = {
                "LOCAL_METER": "1",
                "MOTO_PORT": str(moto_port),
                "POWERTOOLS_METRICS_DISABLED": "false",
                "LOCAL_BUILD_DIR": str(built),  # infra/local/artifact.py: what we deploy, not the source
            }
            stack = Stack(data_dir, web_root, port, extra_env=env)
            try:
                _from_build(stack, built)
                _measure(stack, moto_port, load_before)
                _from_build(stack, built)  # every function has run by now: still all from the build
            finally:
                if stack.process.poll() is None:
                    stack.stop()
    finally:
        if not os.environ.get("BENCH_BUILD_DIR"):
            shutil.rmtree(built, ignore_errors=True)


def _from_build(stack: Stack, built: Path) -> None:
    """Fail loudly unless the stack runs the build: its modules of ours all from it (the stack
    checks it at start too, infra/local/artifact.py; this asks the running process)."""
    where = _json("GET", f"{stack.url}/__local/modules")
    if where.get("buildDir") != str(built.resolve()):
        raise SystemExit(f"the stack does not run the sam build {built}: {where}")
    if where["strays"] or not where["modules"]:
        raise SystemExit(f"modules imported from outside the build: {where['strays']}")
    print(f"# {where['modules']} modules of ours loaded, all from {built}", file=sys.stderr, flush=True)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _measure(stack: Stack, moto_port: int, load_before: tuple[float, float, float]) -> None:
    _quiet(stack)
    if not _json("GET", f"{stack.url}/__local/meter").get("installed"):
        raise SystemExit("the stack's meter is not installed (LOCAL_METER=1 did not reach it)")
    t0 = time.monotonic()
    seeded = _json("POST", f"{stack.url}/__local/seed-members", json={"count": MEMBERS, "seed": SEED})
    members, brands = seeded["members"], int(seeded["brands"])
    seeded_s = time.monotonic() - t0
    if len(members) != MEMBERS:
        raise SystemExit(f"seeded {len(members)} members, not {MEMBERS}")
    print(
        f"# {len(members)} members seeded in {seeded_s:.0f} s; last night's run ...",
        file=sys.stderr,
        flush=True,
    )
    setup_nightly_s, _ = _nightly(stack, moto_port)
    _quiet(stack)
    probe = members[len(members) // 2]
    headers = {"Authorization": f"Bearer {probe['token']}", "X-Brand-Id": str(probe["brandId"])}
    cards = requests.get(f"{stack.url}/api/matches?list=potentials", headers=headers, timeout=60)
    if cards.status_code != 200 or not cards.json()["matches"]:
        raise SystemExit(
            f"a seeded member has no cards after the nightly run: {cards.status_code} {cards.text[:300]}"
        )
    print(
        f"# setup: {MEMBERS} members seeded in {seeded_s:.0f} s, last night's run {setup_nightly_s:.0f} s",
        file=sys.stderr,
    )

    _json("POST", f"{stack.url}/__local/meter/reset")
    cpu_before = stack.cpu_seconds()
    print(f"# the day: {REPLAY_S:.0f} s ...", file=sys.stderr, flush=True)
    day, elapsed = run_day(stack, members)
    print(f"# the day took {elapsed:.0f} s; the jobs ...", file=sys.stderr, flush=True)
    _quiet(stack)  # the day's queue consumers, workflows and webhooks finish
    load_day = os.getloadavg()
    stack_cpu = stack.cpu_seconds() - cpu_before
    # the day's partitions without the scheduled jobs' writes (they ran at their own pace, not
    # the compressed day's: the jobs are measured one by one below)
    measured = _json("GET", f"{stack.url}/__local/meter?leave_out=SchedulerFunction")
    if measured["unmetered"]:
        raise SystemExit(f"the meter could not cost {measured['unmetered']} DynamoDB calls")
    day_rows = measured["requests"]
    if not day_rows:
        raise SystemExit("the meter recorded no API request")

    jobs_status = _json("GET", f"{stack.url}/__local/jobs")["jobs"]
    order = ["train-matching", "verify-credit-ledgers", "nightly-match-run"]
    names = order + sorted(j["job"] for j in jobs_status if j["job"] not in order)
    schedules = {j["job"]: j["schedule"] for j in jobs_status}
    jobs: dict[str, tuple[dict, float]] = {}
    nightly_s = 0.0
    nightly_cpu = 0.0
    for name in names:
        _json("POST", f"{stack.url}/__local/meter/reset")
        if name == "nightly-match-run":
            nightly_s, _ = _nightly(stack, moto_port)
        else:
            answer = requests.post(f"{stack.url}/__local/jobs/{name}", timeout=900)
            if answer.status_code != 200:
                raise SystemExit(f"job {name} failed: {answer.text[:300]}")
        _quiet(stack)
        ran = _json("GET", f"{stack.url}/__local/meter")
        if ran["unmetered"]:
            raise SystemExit(f"the meter could not cost {ran['unmetered']} calls of {name}")
        if name == "nightly-match-run":
            nightly_cpu = sum(v["cpu_ms"] for v in ran["invocations"].values()) / 1000
            nightly_hot = ran["hottest"][:5]
        jobs[name] = (report.summed(ran["totals"]), report.runs_per_day(schedules[name]))

    args = [
        elapsed,
        measured,
        jobs,
        brands,
        nightly_s,
        nightly_cpu,
        nightly_hot,
        stack_cpu,
        load_before,
        load_day,
    ]
    kept_fields = ("total", "failed", "lag", "stripe_paid", "started", "locust_cpu_s")
    kept = {"day": {k: getattr(day, k) for k in kept_fields}}
    default = Path(tempfile.gettempdir()) / f"day-replay-{int(time.time())}.json"
    dump = Path(os.environ.get("BENCH_DAY_DUMP") or default)
    dump.write_text(json.dumps({**kept, "args": args, "members": MEMBERS, "replay_s": REPLAY_S}))
    print(f"# what was measured: {dump} (python tests/bench/day_replay.py --from {dump})", file=sys.stderr)
    _print(day, *args)


def reprint(path: Path) -> None:
    """The figures again from a run's saved measurements (BENCH_DAY_DUMP)."""
    global MEMBERS, REPLAY_S
    from types import SimpleNamespace

    saved = json.loads(path.read_text())
    MEMBERS, REPLAY_S = saved["members"], saved["replay_s"]
    elapsed, measured, jobs, *rest = saved["args"]
    jobs = {name: (units, runs) for name, (units, runs) in jobs.items()}
    _print(SimpleNamespace(**saved["day"]), elapsed, measured, jobs, *rest)


def _print(
    day,
    elapsed,
    measured,
    jobs,
    brands,
    nightly_s,
    nightly_cpu,
    nightly_hot,
    stack_cpu,
    load_before,
    load_day,
) -> None:
    rows = measured["requests"]
    figures = report.routes(rows)
    day_totals = {k: v for k, v in measured["totals"].items() if "SchedulerFunction" not in k}
    per_member = report.per_member_day(report.summed(day_totals), jobs, MEMBERS, brands)
    errors = sum(f.errors for f in figures) + len(day.failed)
    print(
        f"# {MEMBERS} members, a day in {elapsed:.0f} s (compression {report.compression(REPLAY_S):.0f}x), "
        f"{len(rows)} API requests, {day.total} sessions, {day.stripe_paid} purchases paid; "
        f"stack CPU {stack_cpu:.0f} s; "
        f"load average {load_before[0]:.2f} before, {load_day[0]:.2f} after the day"
    )
    lag = f"p50 {report.percentile(day.lag, 50):.2f} s, max {max(day.lag, default=0):.2f} s"
    print(f"# session start lag: {lag}")
    for failure in day.failed[:10]:
        print(f"# session failed: {failure}")
    print("# route | requests | errors | CPU ms p50 / p95 / p99 | DynamoDB calls / RCU / WCU per request")
    for f in figures:
        print(
            f"# {f.route} | {f.count} | {f.errors} | {f.p50:.1f} / {f.p95:.1f} / {f.p99:.1f} | "
            f"{f.ddb_calls:.2f} / {f.rcu:.2f} / {f.wcu:.2f}"
        )
    print("# other invocations of the day: function | count | CPU ms mean | DynamoDB calls / RCU / WCU")
    for name, row in sorted(measured["invocations"].items()):
        units = measured["totals"].get(name, {})
        print(
            f"# {name} | {row['count']} | {row['cpu_ms'] / max(1, row['count']):.1f} | "
            f"{units.get('calls', 0):.0f} / {units.get('rcu', 0):.1f} / {units.get('wcu', 0):.1f}"
        )
    print("# jobs (one run each): job | runs a day | DynamoDB calls / RCU / WCU")
    for name, (units, runs) in jobs.items():
        print(f"# {name} | {runs:g} | {units['calls']:.0f} / {units['rcu']:.1f} / {units['wcu']:.1f}")
    print("# hottest partition keys of the day at 100,000 members: key | busiest second here | scaled | kind")
    scaled_keys = []
    for key, (peak, _, _) in measured["peaks"].items():
        shared = report.is_shared_key(key)
        scaled_keys.append((report.to_target(peak, MEMBERS, REPLAY_S, shared=shared), key, peak, shared))
    scaled_keys.sort(reverse=True)
    hottest = [(scaled, key, shared) for scaled, key, _, shared in scaled_keys]
    for scaled, key, peak, shared in scaled_keys[:10]:
        kind = "shared: times the members" if shared else "one brand's: not times the members"
        print(f"# {key} | {peak:.0f} WCU/s | {scaled:.2f} WCU/s | {kind}")
    print(
        "# hottest keys of the nightly run (as it ran here): "
        + ", ".join(f"{h['key']} {h['peak_wcu_per_s']:.0f} WCU/s" for h in nightly_hot)
    )
    in_flight, _ = report.peak_in_flight(rows, PEAK_WINDOW_S, day.started, day.started + elapsed)
    concurrency = report.to_target(in_flight, MEMBERS, REPLAY_S)
    # the same with each request lasting only its CPU time: what a machine with no queueing for
    # the GIL and no other load would see (a lower bound; DynamoDB's own latency left out too)
    cpu_rows = [[*r[:4], r[report.START] + r[report.CPU_MS] / 1000, *r[5:]] for r in rows]
    cpu_in_flight, _ = report.peak_in_flight(cpu_rows, PEAK_WINDOW_S, day.started, day.started + elapsed)
    print(
        f"# API concurrency at 100,000 members: {concurrency:.1f} from handler wall times, "
        f"{report.to_target(cpu_in_flight, MEMBERS, REPLAY_S):.1f} from CPU times alone"
    )
    cpu_max_route = max(figures, key=lambda f: f.p99)
    hot_shared = max((s for s, _, shared in hottest if shared), default=0.0)
    api_per_member = len(rows) / MEMBERS
    wall_ms = sum((r[report.END] - r[report.START]) * 1000 for r in rows) / len(rows)
    cpu_ms = sum(r[report.CPU_MS] for r in rows) / len(rows)
    real_min = PEAK_WINDOW_S * report.compression(REPLAY_S) / 60
    print(
        f"# busiest {PEAK_WINDOW_S:g} s of the replay (a real {real_min:.0f} min): "
        f"{in_flight:.2f} requests in flight; slowest p99 CPU: {cpu_max_route.route}"
    )
    print(f"BENCH day_ddb_rcu_per_member {per_member['rcu']:.2f}")
    print(f"BENCH day_ddb_wcu_per_member {per_member['wcu']:.2f}")
    print(f"BENCH day_ddb_calls_per_member {per_member['calls']:.2f}")
    print(f"BENCH day_api_calls_per_member {api_per_member:.2f}")
    print(f"BENCH day_api_cpu_ms_mean {cpu_ms:.1f}")
    print(f"BENCH day_api_wall_ms_mean {wall_ms:.1f}")
    print(f"BENCH day_p99_cpu_ms_max {cpu_max_route.p99:.1f}")
    print(f"BENCH day_errors {errors}")
    print(f"BENCH day_hot_partition_wcu_per_s_100k {hot_shared:.2f}")
    print(f"BENCH day_peak_concurrency_100k {concurrency:.1f}")
    print(f"# the nightly match run scored {brands} brands (the replay's and the demo data's)")
    print(f"BENCH day_nightly_match_run_s {nightly_s:.1f}")
    print(f"BENCH day_nightly_match_run_cpu_s {nightly_cpu:.1f}")
    counts = {f.route: f.count for f in figures}
    for name, route in (
        ("requests_sent", "POST /api/requests"),
        ("match_runs", "POST /api/matching/run/{brand}"),
        ("checkouts", "POST /api/checkout"),
    ):
        print(f"BENCH day_{name}_per_member {counts.get(route, 0) / MEMBERS:.4f}")
    answers = sum(c for r, c in counts.items() if r.startswith("POST /api/requests/{requestId}/"))
    print(f"BENCH day_answers_per_member {answers / MEMBERS:.4f}")
    print(f"BENCH day_sessions_per_member {day.total / MEMBERS:.4f}")
    print(f"BENCH day_members {MEMBERS}")
    # What limits the member count on this machine (docs/decisions.md, "The day replay at 10,000
    # members"): the stack's CPU over the day per member, and the cores that makes for 10,000
    # members in a 600-second day; the load generator's own CPU per request beside it.
    print(f"BENCH day_stack_cpu_ms_per_member {stack_cpu / MEMBERS * 1000:.0f}")
    print(f"BENCH day_stack_cores_for_10k_in_600s {stack_cpu / MEMBERS * 10_000 / 600:.2f}")
    if getattr(day, "locust_cpu_s", None):
        print(f"BENCH day_locust_cpu_ms_per_request {day.locust_cpu_s / len(rows) * 1000:.1f}")
    print(f"BENCH day_load_average {load_day[0]:.2f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--from"]:
        reprint(Path(sys.argv[2]))
    else:
        main()
