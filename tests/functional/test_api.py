"""The HTTP API through the template's routes, with moto and in-process handlers."""

from __future__ import annotations

import json
import re

import pytest

from tests.factories import auth_headers, member, population
from tests.functional.helpers import wait_for_run


def test_health_answers_ok_with_version(api):
    status, body = api.call("GET", "/api/health")
    assert status == 200
    assert body == {"status": "ok", "version": "0.1.0", "stage": "local"}


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/nope"), ("DELETE", "/api/health"), ("GET", "/api"), ("POST", "/api/dashboard")],
)
def test_unknown_routes_and_methods_are_json_404(api, method, path):
    status, body = api.call(method, path)
    assert status == 404
    assert body == {"error": "Not found"}


def test_private_routes_need_a_valid_token(api, aws):
    member()
    for headers in ({}, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic abc"}):
        status, body = api.call("GET", "/api/dashboard", headers)
        assert status == 401
        assert isinstance(body["error"], str) and body["error"]


def test_dashboard_lists_the_members_brands(api):
    _, owned, token = member(brand_names=("Oat & Co", "Fern Candles"))
    status, body = api.call("GET", "/api/dashboard", auth_headers(token))
    assert status == 200
    assert body["userBrands"] == [{"id": int(b.brand_id), "name": b.name} for b in owned]
    assert body["dashboard"]["brandId"] == int(owned[0].brand_id)  # first brand by default
    assert set(body["menuCounts"]) == {"dashboard", "matches", "requests", "connections", "declines"}


@pytest.mark.parametrize("header", ["abc", "-1", "0", "1.5", "9" * 20])
def test_malformed_brand_header_is_a_400(api, header):
    _, _, token = member()
    status, body = api.call("GET", "/api/dashboard", auth_headers(token, header))
    assert status == 400
    assert body == {"error": "Brand id must be a positive number"}


def _fill(path: str, brand: int) -> str:
    path = path.replace("{brand}", str(brand)).replace("{brandId}", str(brand))
    path = path.replace("{email}", "me@example.com")
    path = path.replace("{otherBrandId}", str(brand))  # another brand (a match, a public view)
    return re.sub(r"\{runId\}", "0" * 32, path)


# Routes whose path brand is ANOTHER brand the selected one acts on (block, report): API
# Gateway allows one variable name under /brands, so they say {brandId}; the header is checked.
OTHER_BRAND_IN_PATH = {"/api/brands/{brandId}/block", "/api/brands/{brandId}/report"}


def test_every_private_route_refuses_another_members_brand(api, aws):
    """Walks the app's route table, so new routes are covered automatically."""
    from infra.local.lambda_inprocess import load_handler_module

    app = load_handler_module(aws.functions["ApiFunction"]).load_every_area()
    from chalicelib.http import PUBLIC_ROUTES

    _, (mine,), token = member("me@example.com")
    _, (theirs,), _ = member("them@example.com")
    checked = 0
    for path, methods in app.routes.items():
        for method in methods:
            if (path.removeprefix("/api"), method) in PUBLIC_ROUTES:
                continue
            # Their brand in the header...
            status, body = api.call(
                method, _fill(path, int(mine.brand_id)), auth_headers(token, int(theirs.brand_id))
            )
            assert status == 403, (method, path, status, body)
            # ...and in the path, where the route has one.
            if ("{brand}" in path or "{brandId}" in path) and path not in OTHER_BRAND_IN_PATH:
                status, body = api.call(method, _fill(path, int(theirs.brand_id)), auth_headers(token))
                assert status == 403, (method, path, status, body)
            checked += 1
    assert checked >= 10


def test_match_run_started_through_the_api_reaches_done(api, aws):
    _, (brand,), token = member(collab_kinds=["giveaways"], values=["vegan"], countries=["GB"])
    population(12)
    brand_id = int(brand.brand_id)

    status, started = api.call("POST", f"/api/matching/run/{brand_id}", auth_headers(token, brand_id))
    assert status == 202
    assert started["status"] == "queued"

    running: list[dict] = []
    check = wait_for_run(api, token, brand_id, started["runId"], seen=running)
    assert all(c["dashboard"]["matchRunOutstanding"] is True for c in running)
    assert check["status"] == "done"
    assert check["message"].startswith("Your matches are up to date")
    assert check["dashboard"]["matchRunOutstanding"] is False
    assert check["dashboard"]["menuCounts"]["matches"] > 0


@pytest.mark.parametrize("run_id", ["0" * 32, "not-a-run", "%2E%2E"])
def test_run_check_for_unknown_run_is_404(api, run_id):
    _, (brand,), token = member()
    status, body = api.call(
        "GET", f"/api/matching/run-check/{run_id}/{int(brand.brand_id)}", auth_headers(token)
    )
    assert status == 404
    assert body == {"error": "Match run not found"}


def test_every_answer_is_json_and_never_cached(api):
    """Issue 10: answers built from a dict had no Content-Type and no Cache-Control, tokens
    (users/refresh-token) and the dashboard among them; 415 answers had no Content-Type."""
    from tandem.services import auth

    user, (brand,), token = member("walk@example.com")
    headers = auth_headers(token, int(brand.brand_id))
    signed_in = auth.login_response(user)
    refresh = {"refreshToken": signed_in["refresh_token"], "uid": signed_in["uid"]}
    calls = [
        ("GET", "/api/health", {}, None, 200),
        ("GET", "/api/dashboard", headers, None, 200),
        ("GET", f"/api/dashboard/{int(brand.brand_id)}", headers, None, 200),
        ("GET", "/api/users", headers, None, 200),
        ("GET", "/api/brands", headers, None, 200),
        ("GET", "/api/requests?box=received", headers, None, 200),
        ("GET", "/api/matches", headers, None, 200),
        ("POST", "/api/users/refresh-token", {}, refresh, 200),
        ("POST", "/api/users/logout", {}, {"refreshToken": "x"}, 200),
        ("GET", "/api/dashboard", {}, None, 401),
        ("GET", "/api/requests/nope", headers, None, 404),
        ("POST", "/api/requests", headers, {"toBrandId": "x"}, 400),
    ]
    for method, path, sent_headers, body, expected in calls:
        lowered = {k.lower(): v for k, v in sent_headers.items()}
        raw = json.dumps(body).encode() if body is not None else b""
        if raw:
            lowered["content-type"] = "application/json"
        response = api.gateway.handle(method, path, lowered, raw, "127.0.0.1")
        assert response.status == expected, (method, path, response.status, response.body)
        got = {k.lower(): v for k, v in response.headers}
        assert got.get("content-type") == "application/json", (method, path, got)
        assert got.get("cache-control") == "no-store", (method, path, got)
        json.loads(response.body)
        if path == "/api/users/refresh-token":
            assert set(json.loads(response.body)) == {"access_token", "refresh_token"}

    unsupported = api.gateway.handle(
        "POST", "/api/users/login", {"content-type": "text/plain"}, b"email=a", "127.0.0.1"
    )
    assert unsupported.status == 415
    got = {k.lower(): v for k, v in unsupported.headers}
    assert got.get("content-type") == "application/json" and got.get("cache-control") == "no-store"
    assert "error" in json.loads(unsupported.body)
