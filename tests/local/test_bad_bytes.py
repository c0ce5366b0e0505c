"""Bad bytes get a 4xx JSON answer, never silence, a 500 or a half-done write: a body that is
not UTF-8, a lone surrogate ("\\ud800") anywhere in the JSON, JSON nested 100,000 deep, a
malformed Content-Length, an oversized body, a percent-encoded surrogate in a path or query.
Each case goes through the local site over HTTP (waitress + the local API Gateway + the
Chalice app), or through the gateway for the walks over every route of template.yaml."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
from pathlib import Path

import pytest
import requests

from tests.factories import auth_headers, member
from tests.functional.helpers import Api
from tests.functional.test_billing import fake  # noqa: F401 (the fake Stripe fixture)

SURROGATE_MESSAGE = "The request body contains text that is not valid Unicode"
DEEP_MESSAGE = "The request body is nested too deeply"
JSON_MESSAGE = "The request body must be valid JSON"
LONE_SURROGATE = b'"\\ud800"'  # the JSON text "\ud800": valid JSON, not encodable as UTF-8
DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.fixture
def site(aws, tmp_path: Path):
    from infra.local.gateway import LocalApiGateway
    from infra.local.server import LocalSite

    (tmp_path / "index.html").write_text("<!doctype html><title>Tandem</title>")
    server = LocalSite(("127.0.0.1", 0), LocalApiGateway(aws), tmp_path)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _raw(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes exactly as given (no client library fixing them up); parse the answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


def _post_json(url: str, path: str, body: bytes, headers: dict[str, str] | None = None) -> requests.Response:
    return requests.post(
        url + path, data=body, headers={"Content-Type": "application/json", **(headers or {})}, timeout=30
    )


def _users(email: str) -> int:
    from tandem.services import accounts

    return 0 if accounts.find_user_by_email(email) is None else 1


# ---------------------------------------------------------------- bodies


def test_a_body_that_is_not_utf8_gets_a_400_json_answer(site):
    answer = _post_json(site, "/api/users/login", b'{"email": "\xff\xfe@example.com", "password": "x"}')
    assert answer.status_code == 400
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.json() == {"error": JSON_MESSAGE}


def test_a_lone_surrogate_in_a_sign_up_is_a_400_and_creates_nothing(site):
    body = (
        b'{"name": "Nina \\ud800", "email": "nina@example.com", "password": "Tandem-Test-9",'
        b' "brandName": "Nina\'s Teas"}'
    )
    answer = _post_json(site, "/api/users/create-account", body)
    assert (answer.status_code, answer.json()) == (400, {"error": SURROGATE_MESSAGE})
    assert _users("nina@example.com") == 0


def test_a_lone_surrogate_in_a_request_message_is_a_400_not_out_of_credits(site):
    from tandem.services import credits
    from tests.functional.helpers import grant, subscribe

    _, (oat,), token = member("oat@example.com", ("Oat & Co",))
    _, (tea,), _ = member("tea@example.com", ("Tea & Co",))
    subscribe(oat.account_id)
    grant(oat.account_id)
    before = [(b.bucket_id, b.available) for b in credits.buckets(oat.account_id)]
    body = b'{"toBrandId": %d, "message": "Shall we \\udc00 collaborate?"}' % int(tea.brand_id)
    answer = _post_json(site, "/api/requests", body, auth_headers(token, oat.brand_id))
    assert (answer.status_code, answer.json()) == (400, {"error": SURROGATE_MESSAGE})
    after = [(b.bucket_id, b.available) for b in credits.buckets(oat.account_id)]
    assert after == before  # no credit held, nothing half-written


def test_a_lone_surrogate_in_a_key_or_deep_in_a_list_is_a_400(site):
    for body in (b'{"\\ud800": 1}', b'{"email": "a@b.com", "password": ["x", {"y": ["\\udfff"]}]}'):
        answer = _post_json(site, "/api/users/login", body)
        assert (answer.status_code, answer.json()) == (400, {"error": SURROGATE_MESSAGE}), body


def test_a_surrogate_pair_is_text_not_an_error(site):
    answer = _post_json(site, "/api/users/login", b'{"email": "\\ud83d\\ude00@example.com", "password": "x"}')
    # read as text: an address nobody has, so the usual wrong-credentials answer
    assert answer.status_code == 401 and answer.json()["error"] != SURROGATE_MESSAGE


def test_json_nested_100000_deep_is_a_400(site):
    answer = _post_json(site, "/api/users/login", b'{"email": ' + DEEP + b"}")
    assert (answer.status_code, answer.json()) == (400, {"error": DEEP_MESSAGE})


def test_json_nested_deeper_than_the_limit_but_parseable_is_a_400(site):
    answer = _post_json(site, "/api/users/login", b'{"email": ' + b"[" * 40 + b"]" * 40 + b"}")
    assert (answer.status_code, answer.json()) == (400, {"error": DEEP_MESSAGE})


def test_a_malformed_content_length_is_a_400_json_answer(site):
    for value in (b"abc", b"-1", b"12, 12", b"1e3"):
        status, headers, body = _raw(
            site,
            b"POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + value + b"\r\n\r\n{}",
        )
        assert status == 400, value
        assert headers["content-type"] == "application/json"
        assert json.loads(body)["error"].startswith("Bad Request"), body


def test_a_body_over_the_api_limit_is_a_413_json_answer(site):
    answer = _post_json(site, "/api/users/login", b'{"email": "' + b"a" * (7 * 1024 * 1024) + b'"}')
    assert (answer.status_code, answer.json()) == (413, {"error": "Request too large"})


def test_a_body_over_the_server_limit_is_a_413_json_answer_without_reading_it(site):
    status, headers, body = _raw(
        site,
        b"POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 999999999\r\n\r\n{}",
    )
    assert (status, json.loads(body)) == (413, {"error": "Request too large"})
    assert headers["content-type"] == "application/json"


# ---------------------------------------------------------------- every route


def _routes(plan) -> list[tuple[str, str]]:
    """Every route of template.yaml, whatever its method (a client may send a body with any)."""
    return sorted({(r.method, r.path) for r in plan.routes})


def _concrete(path: str, brand_id: int) -> str:
    return re.sub(r"\{[^}]+\}", str(brand_id), path)


NOT_UTF8 = b'{"name": "\xff\xfe", "email": "a@example.com", "message": "\xed\xa0\x80"}'
JSON_ARRAY = b'[{"name": "Oat & Co", "email": "a@example.com"}, 1, null]'
DEEP_OBJECT = b'{"a": ' * 50_000 + b"1" + b"}" * 50_000
WALK_BODIES = {
    "a lone surrogate": LONE_SURROGATE,
    "surrogates in fields": b'{"name": "\\ud800", "message": "\\udbff"}',
    "arrays 100,000 deep": DEEP,
    "objects 50,000 deep": DEEP_OBJECT,
    "not UTF-8": NOT_UTF8,
    "a JSON array": JSON_ARRAY,
    "a JSON string": b'"just text"',
    "an empty JSON array": b"[]",
}


@pytest.mark.parametrize("body", list(WALK_BODIES.values()), ids=list(WALK_BODIES))
def test_no_route_answers_a_bad_body_with_a_5xx(aws, fake, body):  # noqa: F811 (the fake Stripe fixture)
    """Every route of template.yaml, as a member and as a stranger (no token), with the fake
    Stripe behind the billing routes: never a 5xx, and a refusal is the JSON {"error"} shape."""
    api = Api(aws)
    _, (brand,), token = member("walker@example.com", ("Walker & Co",))
    callers = {
        "member": {**auth_headers(token, brand.brand_id), "content-type": "application/json"},
        "stranger": {"content-type": "application/json"},
    }
    failures = {}
    for who, headers in callers.items():
        for method, path in _routes(aws):
            status, reply = api.call(method, _concrete(path, int(brand.brand_id)), headers, body)
            refused_badly = status >= 400 and not (isinstance(reply, dict) and "error" in reply)
            if status >= 500 or refused_badly:
                failures[f"{who}: {method} {path}"] = (status, str(reply)[:200])
    assert failures == {}


# ---------------------------------------------------------------- paths and queries


def test_a_percent_encoded_surrogate_in_any_path_parameter_is_never_a_5xx(aws):
    api = Api(aws)
    _, (brand,), token = member("paths@example.com", ("Paths & Co",))
    headers = auth_headers(token, brand.brand_id)
    failures = {}
    for route in aws.routes:
        if "{" not in route.path:
            continue
        path = re.sub(r"\{[^}]+\}", "%ED%A0%80", route.path)
        status, reply = api.call(route.method, path, headers, b"{}" if route.method != "GET" else None)
        if status >= 500:
            failures[f"{route.method} {route.path}"] = (status, reply)
    assert failures == {}


def test_stop_welcome_emails_takes_the_address_percent_encoded_as_browsers_send_it(site):
    user, _, token = member("mia+news@example.com")
    answer = requests.get(
        f"{site}/api/users/stop-welcome-emails/mia%2Bnews%40example.com",
        headers=auth_headers(token),
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    user.refresh()
    assert user.welcome_emails is False


def test_stop_welcome_emails_with_a_percent_encoded_surrogate_is_a_400(site):
    _, _, token = member("mia@example.com")
    answer = requests.get(
        f"{site}/api/users/stop-welcome-emails/mia%ED%A0%80%40example.com",
        headers=auth_headers(token),
        timeout=30,
    )
    assert (answer.status_code, answer.json()) == (
        400,
        {"error": "The address contains text that is not valid Unicode"},
    )


def test_a_quick_action_link_with_a_surrogate_is_a_4xx(site):
    for method in ("GET", "POST"):
        answer = requests.request(method, f"{site}/api/quick-action/accept/%ED%A0%80/1/%ED%A0%80", timeout=30)
        assert 400 <= answer.status_code < 500, (method, answer.status_code, answer.text)
        assert "error" in answer.json()


def test_a_surrogate_in_a_query_string_is_never_a_5xx(site):
    _, (brand,), token = member("query@example.com", ("Query & Co",))
    for path in (
        "/api/requests?box=%ED%A0%80&cursor=%ED%A0%80",
        "/api/matches?list=%ED%A0%80&brandIds=%ED%A0%80",
    ):
        answer = requests.get(site + path, headers=auth_headers(token, brand.brand_id), timeout=30)
        assert answer.status_code < 500, (path, answer.text)


def test_raw_bytes_that_are_not_utf8_in_the_request_line_are_a_400_json_answer(site):
    status, headers, body = _raw(
        site, b"GET /api/users/stop-welcome-emails/\xed\xa0\x80 HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    assert status == 400 and headers["content-type"] == "application/json"
    assert json.loads(body) == {"error": "Bad Request: Bad URI"}  # waitress refuses it itself


def test_the_site_still_answers_after_the_bad_requests(site):
    _raw(site, b"POST /api/users/login HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n")
    _post_json(site, "/api/users/login", DEEP)
    assert requests.get(f"{site}/api/health", timeout=30).json()["status"] == "ok"
