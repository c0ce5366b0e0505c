"""The local stack under load, idle, stopped and killed (loopback only, bounded).

First, how long a developer, Playwright's webServer or a test waits for a stack:
- `BENCH local_stack_first_start_s`: seconds from starting `python -m infra.local.stack` on an
  empty data dir (it seeds the demo data) until GET /api/health answers 200, median of
  START_ROUNDS, each on a new empty dir; `local_stack_first_start_cpu_s`: the CPU seconds the
  stack's process had used by then (median; steadier than the wall clock on a shared machine);
- `BENCH local_stack_restart_s` / `_restart_cpu_s`: the same for a start on the data of a
  cleanly stopped first start (median of START_ROUNDS).
`python tests/bench/local_stack.py start` prints only these.

Then it starts a stack on a fresh data dir (a first start seeds the demo data) and prints:
- `BENCH local_stack_idle_cpu_pct`: CPU of the stack's process over IDLE_SECONDS with no
  request, in % of one core (after the seed's match runs have finished);
- `BENCH local_stack_health_answered` / `_health_median_ms`: 200 parallel GET /api/health,
  each on its own connection;
- `BENCH local_stack_login_answered` / `_login_median_ms`: 50 parallel sign-ins of the demo
  member (plus `local_stack_login_statuses`, e.g. 429s from the sign-in throttle);
- `BENCH local_stack_kill9_lost_writes`: KILL_ROUNDS rounds of WRITES_PER_ROUND acknowledged
  writes (saving a match), `kill -9` right after the last answer, restart on the same data;
  the number of acknowledged writes missing afterwards;
- `BENCH local_stack_stop_s`: seconds from one SIGTERM until the process is gone.

BENCH_STACK_ROOT runs another checkout's stack (to measure before/after); BENCH_PORT picks the
port (default: a free one).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

ROOT = Path(os.environ.get("BENCH_STACK_ROOT") or Path(__file__).resolve().parents[2])
IDLE_SECONDS = 10.0
HEALTH_CALLS = 200
LOGINS = 50
KILL_ROUNDS = 4
START_ROUNDS = 3
WRITES_PER_ROUND = 8
DEMO = ("demo@tandem.local", "Oat-Honey-Bristol-26")  # infra/local/seed.py DEMO_LOGINS


def _port() -> int:
    if os.environ.get("BENCH_PORT"):
        return int(os.environ["BENCH_PORT"])
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Stack:
    def __init__(
        self, data_dir: Path, web_root: Path, port: int, extra_env: dict[str, str] | None = None
    ) -> None:
        self.url = f"http://127.0.0.1:{port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "MOTO_"))}
        env.update({"PORT": str(port), "DATA_DIR": str(data_dir), "WEB_ROOT": str(web_root)})
        env["POWERTOOLS_LOG_LEVEL"] = "WARNING"
        env.update(extra_env or {})  # the day replay: LOCAL_METER=1 and a MOTO_PORT of its own
        self.log = open(data_dir.parent / f"stack-{time.time_ns()}.log", "w")
        started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "infra.local.stack"], cwd=ROOT, env=env, stdout=self.log, stderr=self.log
        )
        deadline = started + 240
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the stack exited: see {self.log.name}")
            try:
                if requests.get(f"{self.url}/api/health", timeout=1).ok:
                    self.ready_s = time.monotonic() - started  # what Playwright's webServer waits
                    self.ready_cpu_s = self.cpu_seconds()
                    return
            except requests.RequestException:
                time.sleep(0.05)
        self.process.kill()
        raise SystemExit("the stack did not start within 240 s")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)

    def stop(self) -> float:
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=300)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        return time.monotonic() - started


def _timed(call):
    started = time.perf_counter()
    try:
        response = call()
        return response.status_code, (time.perf_counter() - started) * 1000, response
    except requests.RequestException as exc:
        return type(exc).__name__, (time.perf_counter() - started) * 1000, None


def _burst(calls: list) -> tuple[Counter, float, list]:
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        results = list(pool.map(_timed, calls))
    statuses = Counter(status for status, _, _ in results)
    answers = [response for _, _, response in results if response is not None]
    return statuses, statistics.median(ms for _, ms, _ in results), answers


def _wait_for_quiet(stack: Stack, limit: float = 180) -> None:
    """Until the seed's match runs are done: CPU below 5% of a core over 2 s."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = stack.cpu_seconds()
        time.sleep(2)
        if stack.cpu_seconds() - before < 0.1:
            return


def _population(data_dir: Path, count: int) -> list[int]:
    items = json.loads((data_dir / "dynamodb.json").read_text())
    ids = sorted(
        int(i["brand_id"]["N"])
        for i in items
        if i["sk"]["S"] == "PROFILE" and i.get("account_id", {}).get("S", "").startswith("demo-population-")
    )
    return ids[:count]


def start_times(port: int) -> None:
    """First starts on empty data dirs, then restarts on the data one of them left."""
    first: list[tuple[float, float]] = []
    again: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        web_root = Path(tmp) / "web"
        web_root.mkdir()
        (web_root / "index.html").write_text("<!doctype html><title>Tandem</title>")
        for round_ in range(START_ROUNDS):
            data_dir = Path(tmp) / f"data-{round_}"
            stack = Stack(data_dir, web_root, port)
            first.append((stack.ready_s, stack.ready_cpu_s))
            stack.stop()
        for _ in range(START_ROUNDS):
            stack = Stack(data_dir, web_root, port)
            again.append((stack.ready_s, stack.ready_cpu_s))
            stack.stop()
    for name, times in (("first_start", first), ("restart", again)):
        wall = statistics.median(t for t, _ in times)
        cpu = statistics.median(c for _, c in times)
        every = ", ".join(f"{t:.1f}" for t, _ in times)
        print(f"BENCH local_stack_{name}_s {wall:.1f}  (each: {every})", flush=True)
        print(f"BENCH local_stack_{name}_cpu_s {cpu:.1f}", flush=True)


def main() -> None:
    port = _port()
    start_times(port)
    if sys.argv[1:] == ["start"]:
        return
    with tempfile.TemporaryDirectory() as tmp:
        data_dir, web_root = Path(tmp) / "data", Path(tmp) / "web"
        web_root.mkdir()
        (web_root / "index.html").write_text("<!doctype html><title>Tandem</title>")
        stack = Stack(data_dir, web_root, port)
        try:
            _wait_for_quiet(stack)
            before = stack.cpu_seconds()
            time.sleep(IDLE_SECONDS)
            idle = (stack.cpu_seconds() - before) / IDLE_SECONDS * 100
            print(f"BENCH local_stack_idle_cpu_pct {idle:.1f}", flush=True)

            health, health_ms, _ = _burst(
                [lambda: requests.get(f"{stack.url}/api/health", timeout=60)] * HEALTH_CALLS
            )
            answered = sum(v for k, v in health.items() if isinstance(k, int))
            print(f"BENCH local_stack_health_answered {answered}")
            print(f"BENCH local_stack_health_median_ms {health_ms:.0f}", flush=True)

            login = {"email": DEMO[0], "password": DEMO[1]}
            logins, login_ms, answers = _burst(
                [lambda: requests.post(f"{stack.url}/api/users/login", json=login, timeout=300)] * LOGINS
            )
            answered = sum(v for k, v in logins.items() if isinstance(k, int))
            print(f"BENCH local_stack_login_answered {answered}")
            print(f"BENCH local_stack_login_median_ms {login_ms:.0f}")
            print(f"BENCH local_stack_login_statuses {dict(sorted(logins.items(), key=str))}", flush=True)

            # A token from the burst: one more sign-in would pass the per-client sign-in limit.
            token = next(a.json()["access_token"] for a in answers if a.status_code == 200)
            auth = {"Authorization": f"Bearer {token}"}
            brands = requests.get(f"{stack.url}/api/brands", headers=auth, timeout=60).json()["brands"]
            headers = {**auth, "X-Brand-Id": str(min(b["id"] for b in brands))}
            others = _population(data_dir, KILL_ROUNDS * WRITES_PER_ROUND)
            lost = 0
            for round_ in range(KILL_ROUNDS):
                mine = others[round_ * WRITES_PER_ROUND : (round_ + 1) * WRITES_PER_ROUND]
                for other in mine:
                    saved = requests.put(
                        f"{stack.url}/api/matches/{other}/saved", headers=headers, timeout=60
                    )
                    assert saved.status_code == 200, saved.text
                stack.kill()
                stack = Stack(data_dir, web_root, port)
                listed = requests.get(f"{stack.url}/api/matches?list=saved", headers=headers, timeout=60)
                present = {card["id"] for card in listed.json()["matches"]}
                lost += len(set(mine) - present)
            print(f"BENCH local_stack_kill9_lost_writes {lost}", flush=True)
            print(f"BENCH local_stack_kill9_acknowledged_writes {KILL_ROUNDS * WRITES_PER_ROUND}")
            print(f"BENCH local_stack_stop_s {stack.stop():.1f}", flush=True)
        finally:
            if stack.process.poll() is None:
                stack.kill()


if __name__ == "__main__":
    main()
