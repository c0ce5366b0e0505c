"""From a payment to the credits on the member's dashboard, on the real local stack.

Starts `python -m infra.local.stack` on a fresh data dir (its own fake Stripe delivers signed
webhooks to the stack's `/api/stripe/webhook`, the billing state machine runs in-process).
Each run signs up a fresh member (create-account, the confirmation link from the local
outbox, sign-in), asks for a monthly checkout (POST /api/checkout) and pays it on the fake's
hosted page as a browser posts the form. The clock starts when the hosted page answers the
payment (its 303 to the payment-processing address: checkout confirmed in Stripe) and stops
when `GET /api/dashboard` first shows the 6 credits (polled every POLL_S; the browser's own
payment-status call, which would sync at once, is deliberately not made: this is the webhook
path).

Prints `BENCH payment_to_credits_s <median>` (target: at most 3) and
`BENCH payment_to_credits_max_s <max>` over RUNS runs (default 5, at most 20), each bounded by
RUN_LIMIT_S. BENCH_PORT picks the stack's port (default 9310).
"""

from __future__ import annotations

import os
import re
import statistics
import tempfile
import time
from html import unescape
from pathlib import Path

import _setup  # sets sys.path first; see tests/bench/_setup.py
import requests

ROOT = _setup.ROOT
from tests.bench.local_stack import Stack  # noqa: E402

RUNS = max(1, min(20, int(os.environ.get("RUNS", "5"))))
RUN_LIMIT_S = 60.0
POLL_S = 0.05
TIMEOUT = 30
PASSWORD = "Bench-Paper-Leeds-42"
CARD = "4242 4242 4242 4242"


def _confirm_link(stack: Stack, email: str) -> str:
    """The confirmation code from the local outbox's email to `email`."""
    deadline = time.monotonic() + RUN_LIMIT_S
    while time.monotonic() < deadline:
        page = unescape(requests.get(f"{stack.url}/__local/outbox", timeout=TIMEOUT).text)
        for article in re.findall(r"<article\b.*?</article>", page, flags=re.S):
            if email in article:
                found = re.search(r"/confirm-email/([A-Za-z0-9_-]+)", article)
                if found:
                    return found.group(1)
        time.sleep(0.2)
    raise SystemExit(f"no confirmation email for {email}")


def _member(stack: Stack, n: int) -> dict[str, str]:
    email = f"pay{n}.{time.time_ns()}@bench.example"
    created = requests.post(
        f"{stack.url}/api/users/create-account",
        json={"name": f"Pay Bench {n}", "email": email, "password": PASSWORD, "brandName": f"Pay Bench {n}"},
        timeout=TIMEOUT,
    )
    assert created.status_code == 201, created.text
    code = _confirm_link(stack, email)
    confirmed = requests.post(f"{stack.url}/api/users/confirm-email", json={"code": code}, timeout=TIMEOUT)
    assert confirmed.status_code == 200, confirmed.text
    login = requests.post(
        f"{stack.url}/api/users/login", json={"email": email, "password": PASSWORD}, timeout=TIMEOUT
    )
    assert login.status_code == 200, login.text
    return {"Authorization": f"Bearer {login.json()['access_token']}"}


def _credits(stack: Stack, headers: dict[str, str]) -> dict:
    answer = requests.get(f"{stack.url}/api/dashboard", headers=headers, timeout=TIMEOUT)
    assert answer.status_code == 200, answer.text
    return answer.json()["credits"]


def one_run(stack: Stack, n: int) -> float:
    headers = _member(stack, n)
    assert _credits(stack, headers)["available"] == 0
    made = requests.post(
        f"{stack.url}/api/checkout", json={"priceId": "tandem_main_monthly"}, headers=headers, timeout=TIMEOUT
    )
    assert made.status_code == 200, made.text
    url = made.json()["url"]
    assert requests.get(url, timeout=TIMEOUT).status_code == 200
    form = {"email": "", "name": f"Pay Bench {n}", "card_number": CARD, "pay": "1"}
    paid = requests.post(url, data=form, allow_redirects=False, timeout=TIMEOUT)
    confirmed = time.perf_counter()
    assert paid.status_code == 303 and "/payment-processing/cs_" in paid.headers["Location"], paid.text
    while time.perf_counter() - confirmed < RUN_LIMIT_S:
        if _credits(stack, headers)["available"] == 6:
            return time.perf_counter() - confirmed
        time.sleep(POLL_S)
    raise SystemExit(f"run {n}: no credits on the dashboard {RUN_LIMIT_S:.0f} s after paying")


def main() -> None:
    port = int(os.environ.get("BENCH_PORT", "9310"))
    with tempfile.TemporaryDirectory() as tmp:
        data_dir, web_root = Path(tmp) / "data", Path(tmp) / "web"
        web_root.mkdir()
        (web_root / "index.html").write_text("<!doctype html><title>Tandem</title>")
        stack = Stack(data_dir, web_root, port)
        try:
            seconds = []
            for n in range(RUNS):
                seconds.append(one_run(stack, n))
                print(f"# run {n}: {seconds[-1]:.2f} s", flush=True)
            print(f"BENCH payment_to_credits_s {statistics.median(seconds):.2f}")
            print(f"BENCH payment_to_credits_max_s {max(seconds):.2f}")
            print(f"BENCH payment_to_credits_runs {len(seconds)}")
        finally:
            stack.stop()


if __name__ == "__main__":
    main()
