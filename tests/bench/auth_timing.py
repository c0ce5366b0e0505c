"""Does forgot-password answer a known address as fast as an unknown one? (issue 11, defect 7)

Times `POST /api/users/forgot-password` for addresses with an account and addresses without
one, interleaved (known, unknown, known, ...) so drift hits both alike, after a warm-up. Each
address is asked once, as an attacker probing addresses would (a second request for one
address within a minute sends no email, for known and unknown alike), and every call comes
from its own client address (one client may ask 20 times an hour).

    python tests/bench/auth_timing.py                              # in-process app on moto
    python tests/bench/auth_timing.py --url http://127.0.0.1:18400 # a running local stack

In-process, calls go through the local API gateway built from template.yaml, exactly as the
functional tests call it. Against a local stack, each call is a new HTTP connection from its
own loopback source address (127.0.x.y); the known addresses are signed up first through
the API (from their own source addresses too: sign-ups are limited per client).

Prints `BENCH forgot_password_median_ms_known <ms>`, `BENCH forgot_password_median_ms_unknown
<ms>` and `BENCH forgot_password_median_diff_ms <ms>` (target: under 5).
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

import _setup  # noqa: I001 (sets sys.path first; see tests/bench/_setup.py)

SAMPLES = 30
WARM_UP = 5
PATH = "/api/users/forgot-password"


def _client_ip(n: int) -> str:
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def _known(n: int, run: str) -> str:
    return f"member-{run}-{n}@bench.example"


def _measure(call: Callable[[str, str], int], run: str) -> tuple[list[float], list[float]]:
    timings: dict[bool, list[float]] = {True: [], False: []}
    for n in range(2 * (WARM_UP + SAMPLES)):
        is_known = n % 2 == 0
        email = _known(n // 2, run) if is_known else f"nobody-{run}-{n}@bench.example"
        started = time.perf_counter()
        status = call(email, _client_ip(n))
        elapsed = (time.perf_counter() - started) * 1000
        if status != 200:
            raise SystemExit(f"forgot-password answered {status} for call {n}")
        if n >= 2 * WARM_UP:
            timings[is_known].append(elapsed)
    return timings[True], timings[False]


def in_process() -> tuple[list[float], list[float]]:
    _setup.moto_environment("WARNING", functions=False)
    from moto import mock_aws

    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        from infra.local.gateway import LocalApiGateway
        from infra.local.provision import provision
        from infra.local.runtime import apply_environment

        plan = provision()
        apply_environment(plan)
        from tandem.services import accounts

        for n in range(WARM_UP + SAMPLES):
            accounts.create_account_with_user(
                email=_known(n, "p"), name="Kim Known", password=None, brand_name=f"Known {n}"
            )
        gateway = LocalApiGateway(plan)

        def call(email: str, client_ip: str) -> int:
            body = json.dumps({"email": email}).encode()
            headers = {"content-type": "application/json"}
            return gateway.handle("POST", PATH, headers, body, client_ip).status

        return _measure(call, "p")


def over_http(url: str) -> tuple[list[float], list[float]]:
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

    for n in range(WARM_UP + SAMPLES):
        body = {"name": "Kim Known", "email": _known(n, run), "password": "Oat-Honey-Bristol-26"}
        status = post("/api/users/create-account", {**body, "brandName": f"Known {n}"}, f"127.1.0.{1 + n}")
        if status != 201:
            raise SystemExit(f"sign-up {n} answered {status}")
    return _measure(lambda email, client_ip: post(PATH, {"email": email}, client_ip), run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running local stack, e.g. http://127.0.0.1:8080")
    args = parser.parse_args()
    known, unknown = over_http(args.url) if args.url else in_process()
    median_known, median_unknown = statistics.median(known), statistics.median(unknown)
    where = args.url or "in-process"
    print(f"# {where}: {SAMPLES} calls each after {WARM_UP} warm-up calls each", file=sys.stderr)
    print(f"BENCH forgot_password_median_ms_known {median_known:.1f}")
    print(f"BENCH forgot_password_median_ms_unknown {median_unknown:.1f}")
    print(f"BENCH forgot_password_median_diff_ms {abs(median_known - median_unknown):.1f}")


if __name__ == "__main__":
    main()
