"""Every limit holds under a burst (issue 40): 50 calls at once, threads against the in-process
app on moto, get exactly as many through as one at a time would. A limit counts with one atomic
write before the work it guards (tandem.services.rate_limit.take / hit / reserve / once_per),
never a read and then a write.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from tandem.services import rate_limit
from tests import clock
from tests.factories import auth_headers, member
from tests.functional.helpers import Brand
from tests.functional.test_auth import call_from, login, sign_up

BURST = 50
MINUTE_EDGE = clock.start() // 3600 * 3600 + 3600  # an hour's edge: every window's buckets turn


@pytest.fixture(autouse=True)
def mid_minute(monkeypatch):
    """The limits' clock stands still half a minute before MINUTE_EDGE while a burst runs: a
    burst here tests parallel calls within one bucket (the edge has its own tests below)."""
    monkeypatch.setattr(rate_limit, "now", lambda: MINUTE_EDGE - 30.5)


def _edge_during_burst(monkeypatch, before: int) -> None:
    """The limits' clock turns the edge during the burst: its first `before` readings fall just
    before it, every later one just after (as time does, whichever thread reads it)."""
    readings = itertools.count()
    lock = threading.Lock()

    def now() -> float:
        with lock:
            return MINUTE_EDGE - 0.5 if next(readings) < before else MINUTE_EDGE + 0.5

    monkeypatch.setattr(rate_limit, "now", now)


def _at_once(call, n: int = BURST) -> Counter:
    barrier = threading.Barrier(n)

    def one(i: int) -> int:
        barrier.wait()
        return call(i)[0]

    with ThreadPoolExecutor(max_workers=n) as pool:
        return Counter(pool.map(one, range(n)))


def test_fifty_reports_at_once_file_ten(api):
    reporter = Brand("reporter@example.com", "Busy Bee")
    others = [Brand(f"b{i}@example.com", f"Brand {i}") for i in range(BURST + 1)]
    body = {"reason": "spam", "text": "Sent me the same thing ten times"}

    answers = _at_once(
        lambda i: api.call("POST", f"/api/brands/{others[i].id}/report", reporter.headers, body)
    )

    assert answers == {201: 10, 429: 40}
    status, answer = api.call("POST", f"/api/brands/{others[BURST].id}/report", reporter.headers, body)
    assert (status, answer["error"]) == (
        429,
        "You can report up to 10 brands a day. Please try again tomorrow.",
    )


def test_fifty_reports_of_one_brand_at_once_file_one_and_use_one_of_the_ten(api):
    reporter = Brand("reporter@example.com", "Busy Bee")
    others = [Brand(f"b{i}@example.com", f"Brand {i}") for i in range(10)]
    body = {"reason": "spam", "text": "Sent me the same thing ten times"}

    answers = _at_once(
        lambda i: api.call("POST", f"/api/brands/{others[0].id}/report", reporter.headers, body)
    )

    assert answers[201] == 1 and answers[201] + answers[409] + answers[429] == BURST
    # the repeats were given back: nine more brands can still be reported today
    assert [
        api.call("POST", f"/api/brands/{o.id}/report", reporter.headers, body)[0] for o in others[1:]
    ] == [201] * 9


def test_fifty_sign_ups_at_once_from_one_network_make_twenty_accounts(api):
    answers = _at_once(lambda i: sign_up(api, email=f"n{i}@example.com", client_ip="203.0.113.7"))
    assert answers == {201: 20, 429: 30}


def test_fifty_password_link_requests_at_once_from_one_network_send_twenty(api):
    path = "/api/users/forgot-password"
    answers = _at_once(lambda i: call_from(api, "203.0.113.8", "POST", path, {"email": f"n{i}@example.com"}))
    assert answers == {200: 20, 429: 30}


def test_fifty_confirmation_resends_at_once_send_five(api):
    _, _, token = member("unconfirmed@example.com")
    headers = auth_headers(token)
    answers = _at_once(lambda _: api.call("GET", "/api/users/confirm-email/resend", headers))
    assert answers == {200: 5, 429: 45}


def test_fifty_wrong_passwords_at_once_try_five(api):
    sign_up(api)
    answers = _at_once(lambda _: login(api, password="Wrong-Pass-123", client_ip="198.51.100.9"))
    assert answers == {401: 5, 429: 45}


# ---------------------------------------------------------------- a burst across a bucket's edge


@pytest.mark.parametrize("before", [10, 25, 40])
def test_fifty_sign_ups_across_a_minute_edge_make_no_more_than_twenty_accounts(api, monkeypatch, before):
    _edge_during_burst(monkeypatch, before)
    answers = _at_once(lambda i: sign_up(api, email=f"n{i}@example.com", client_ip="203.0.113.7"))
    assert set(answers) <= {201, 429} and 1 <= answers[201] <= 20


@pytest.mark.parametrize("before", [10, 25, 40])
def test_fifty_reports_across_an_hour_edge_file_no_more_than_ten(api, monkeypatch, before):
    reporter = Brand("reporter@example.com", "Busy Bee")
    others = [Brand(f"b{i}@example.com", f"Brand {i}") for i in range(BURST)]
    body = {"reason": "spam", "text": "Sent me the same thing ten times"}
    _edge_during_burst(monkeypatch, before)

    answers = _at_once(
        lambda i: api.call("POST", f"/api/brands/{others[i].id}/report", reporter.headers, body)
    )

    assert set(answers) <= {201, 429} and 1 <= answers[201] <= 10


@pytest.mark.parametrize("before", [10, 25, 40])
def test_fifty_wrong_passwords_across_a_minute_edge_try_no_more_than_five(api, monkeypatch, before):
    sign_up(api)
    _edge_during_burst(monkeypatch, before)
    answers = _at_once(lambda _: login(api, password="Wrong-Pass-123", client_ip="198.51.100.9"))
    assert set(answers) <= {401, 429} and 1 <= answers[401] <= 5
