"""Do the public auth endpoints answer a known address as fast as an unknown one? (issue 11,
defect 7; issue 23: setup-password)

Times, for each of `POST /api/users/login` (a wrong password), `/api/users/forgot-password` and
`/api/users/setup-password`, addresses with an account (and a password, as members have) and
addresses without one, interleaved (known, unknown, known, ...) so drift hits both alike, after
a warm-up. Each endpoint gets its own addresses, each asked once, as an attacker probing
addresses would (a second link request for one address within a minute sends no email, for
known and unknown alike), and every call comes from its own client address (one client may
ask 20 times an hour).

    python tests/bench/auth_timing.py                              # in-process app on moto
    python tests/bench/auth_timing.py --url http://127.0.0.1:18400 # a running local stack

In-process, calls go through the local API gateway built from template.yaml, exactly as the
functional tests call it (the queue's notifier runs within the call, as in the local stack,
so what it does for an address counts too). Against a local stack, each call is a new HTTP
connection from its own loopback source address (127.0.x.y); the known addresses are signed up
first through the API (from their own source addresses too: sign-ups are limited per client).

Prints, for NAME in login, forgot_password, setup_password: `BENCH NAME_median_ms_known <ms>`,
`BENCH NAME_median_ms_unknown <ms>` and `BENCH NAME_median_diff_ms <ms>` (target: under 5).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import _setup  # sets sys.path first; see tests/bench/_setup.py

SAMPLES = 30
WARM_UP = 5
PASSWORD = "Oat-Honey-Bristol-26"
ENDPOINTS = {  # name: (path, body for an address)
    "login": ("/api/users/login", lambda email: {"email": email, "password": "Not-The-Password-1"}),
    "forgot_password": ("/api/users/forgot-password", lambda email: {"email": email}),
    "setup_password": ("/api/users/setup-password", lambda email: {"email": email}),
}
EXPECTED = {"login": 401, "forgot_password": 200, "setup_password": 200}

Call = Callable[[str, dict, str], int]  # (path, body, client address) -> status


def _client_ip(endpoint: int, n: int) -> str:
    return f"127.{10 + endpoint}.{1 + n // 250}.{1 + n % 250}"


def _known(name: str, n: int, run: str) -> str:
    return f"member-{name.replace('_', '-')}-{run}-{n}@bench.example"


def _measure(call: Call, name: str, index: int, run: str) -> tuple[list[float], list[float]]:
    path, body = ENDPOINTS[name]
    timings: dict[bool, list[float]] = {True: [], False: []}
    for n in range(2 * (WARM_UP + SAMPLES)):
        is_known = n % 2 == 0
        email = _known(name, n // 2, run) if is_known else f"nobody-{name}-{run}-{n}@bench.example"
        started = time.perf_counter()
        status = call(path, body(email), _client_ip(index, n))
        elapsed = (time.perf_counter() - started) * 1000
        if status != EXPECTED[name]:
            raise SystemExit(f"{path} answered {status} for call {n}")
        if n >= 2 * WARM_UP:
            timings[is_known].append(elapsed)
    return timings[True], timings[False]


def in_process(names: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    _setup.moto_environment("WARNING", functions=False)  # the functions' INFO lines would bury the BENCH ones

    with _setup.moto_world() as plan:
        from infra.local.gateway import LocalApiGateway
        from tandem.services import accounts

        for name in names:
            for n in range(WARM_UP + SAMPLES):
                accounts.create_account_with_user(
                    email=_known(name, n, "p"), name="Kim Known", password=PASSWORD, brand_name=f"Known {n}"
                )
        gateway = LocalApiGateway(plan)

        def call(path: str, body: dict, client_ip: str) -> int:
            headers = {"content-type": "application/json"}
            return gateway.handle("POST", path, headers, json.dumps(body).encode(), client_ip).status

        return {name: _measure(call, name, i, "p") for i, name in enumerate(names)}


def over_http(url: str, names: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    run = str(int(time.time()))

    def post(path: str, body: dict, client_ip: str) -> int:
        connection = http.client.HTTPConnection(host, port, timeout=60, source_address=(client_ip, 0))
        try:
            raw = json.dumps(body)
            connection.request("POST", path, body=raw, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    for i, name in enumerate(names):
        for n in range(WARM_UP + SAMPLES):
            body = {"name": "Kim Known", "email": _known(name, n, run), "password": PASSWORD}
            status = post(
                "/api/users/create-account", {**body, "brandName": f"Known {n}"}, f"127.1.{i}.{1 + n}"
            )
            if status != 201:
                raise SystemExit(f"sign-up {name} {n} answered {status}")
    return {name: _measure(post, name, i, run) for i, name in enumerate(names)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running local stack, e.g. http://127.0.0.1:8080")
    parser.add_argument("--only", nargs="+", choices=list(ENDPOINTS), help="time these endpoints only")
    args = parser.parse_args()
    names = args.only or list(ENDPOINTS)
    results = over_http(args.url, names) if args.url else in_process(names)
    where = args.url or "in-process"
    print(f"# {where}: {SAMPLES} calls each after {WARM_UP} warm-up calls each", file=sys.stderr)
    for name, (known, unknown) in results.items():
        median_known, median_unknown = statistics.median(known), statistics.median(unknown)
        print(f"BENCH {name}_median_ms_known {median_known:.1f}")
        print(f"BENCH {name}_median_ms_unknown {median_unknown:.1f}")
        print(f"BENCH {name}_median_diff_ms {abs(median_known - median_unknown):.1f}")


if __name__ == "__main__":
    main()
