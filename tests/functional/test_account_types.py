"""Feature-only accounts through the API (issue 13): the areas their account type does not
include are refused with one clear 403, nothing is read for them or written, and members and
the feature-only account's own areas are unaffected."""

from __future__ import annotations

import re

import pytest

from tandem.domain import account_types
from tests.factories import auth_headers
from tests.functional.helpers import Brand, available, relation_state, send

# Every route that names an area, with the area's refusal (the walk below checks the list is whole).
REFUSED = [
    ("GET", "/api/matches", "Matches are not included in a feature-only account."),
    ("GET", "/api/matches?list=saved", "Matches are not included in a feature-only account."),
    ("PUT", "/api/matches/{other}/saved", "Matches are not included in a feature-only account."),
    ("DELETE", "/api/matches/{other}/saved", "Matches are not included in a feature-only account."),
    ("PUT", "/api/matches/{other}/dismissed", "Matches are not included in a feature-only account."),
    ("DELETE", "/api/matches/{other}/dismissed", "Matches are not included in a feature-only account."),
    ("POST", "/api/matching/run/{mine}", "Matches are not included in a feature-only account."),
    ("GET", "/api/matching/run-check/{run}/{mine}", "Matches are not included in a feature-only account."),
    ("GET", "/api/brands/search", "Matches are not included in a feature-only account."),
    ("POST", "/api/brands/search/views", "Matches are not included in a feature-only account."),
    ("POST", "/api/requests", "Sending connection requests is not included in a feature-only account."),
    (
        "POST",
        "/api/requests/{request}/cancel",
        "Sending connection requests is not included in a feature-only account.",
    ),
    (
        "POST",
        "/api/pitch/{feature}/pitch",
        "Pitching to a feature is not included in a feature-only account.",
    ),
    ("GET", "/api/connections", "Connections are not included in a feature-only account."),
    ("GET", "/api/connections/{other}", "Connections are not included in a feature-only account."),
    ("GET", "/api/declines", "Declines are not included in a feature-only account."),
    ("GET", "/api/declines?dir=in", "Declines are not included in a feature-only account."),
    ("GET", "/api/collab", "Collab Ideas are not included in a feature-only account."),
    ("GET", "/api/videos", "Video Guides are not included in a feature-only account."),
    ("PUT", "/api/users/video-view/{slug}", "Video Guides are not included in a feature-only account."),
    ("GET", "/api/collab/calendar", "Collab Ideas are not included in a feature-only account."),
    ("GET", "/api/collab/examples", "Collab Ideas are not included in a feature-only account."),
    ("GET", "/api/connections/{other}/share", "Connections are not included in a feature-only account."),
    ("POST", "/api/connections/{other}/share", "Connections are not included in a feature-only account."),
    (
        "POST",
        "/api/connections/{other}/share/agree",
        "Connections are not included in a feature-only account.",
    ),
    ("DELETE", "/api/connections/{other}/share", "Connections are not included in a feature-only account."),
    *(
        (method, f"/api/collaborations{tail}", "Collaborations are not included in a feature-only account.")
        for method, tail in (
            ("GET", ""),
            ("POST", ""),
            ("GET", "/export"),
            ("GET", "/calendar-feed"),
            ("POST", "/calendar-feed"),
            ("DELETE", "/calendar-feed"),
            ("GET", "/{collab}"),
            ("POST", "/{collab}/accept"),
            ("POST", "/{collab}/changes"),
            ("POST", "/{collab}/decline"),
            ("POST", "/{collab}/cancel"),
            ("POST", "/{collab}/checklist"),
            ("PUT", "/{collab}/checklist/{item}"),
            ("POST", "/{collab}/messages"),
            ("PUT", "/{collab}/results"),
        )
    ),
]


class FeatureOnly(Brand):
    """A feature-only member (user access 'feature') with one brand."""

    def __init__(self, email: str, name: str) -> None:
        from tandem.services import accounts, brands, tokens

        account, self.user = accounts.create_account_with_user(
            email=email, name="Fin Feature", password=None, access="feature", confirmed=True
        )
        self.brand = brands.create_brand(account_id=account.account_id, name=name)
        self.token = tokens.issue_access_token(self.user.user_id, account.account_id, "feature")
        self.id = int(self.brand.brand_id)
        self.account = account.account_id
        self.email = email


@pytest.fixture
def scene(api):
    member = Brand("member@example.com", "Oat & Co", credits=6)
    feature = FeatureOnly("feature@example.com", "Northwind Trail")
    other = Brand("other@example.com", "Fern Candles")
    status, body = send(api, member, feature, "We'd love to pitch a bundle")
    assert status == 201, body
    return member, feature, other, body["request"]["id"]


def _fill(path: str, mine: int, other: int, request_id: str) -> str:
    return (
        path.replace("{mine}", str(mine))
        .replace("{other}", str(other))
        .replace("{run}", "0" * 32)
        .replace("{feature}", "0" * 16)
        .replace("{request}", request_id)
        .replace("{slug}", "getting-started")
        .replace("{collab}", "0" * 16)
        .replace("{item}", "0" * 8)
    )


def _body(method: str, path: str, other: int):
    if path == "/api/requests" and method == "POST":
        return {"toBrandId": other, "message": "Shall we run a giveaway together?"}
    return None


@pytest.mark.parametrize(("method", "path", "message"), REFUSED)
def test_a_feature_only_account_is_refused_what_its_type_does_not_include(api, scene, method, path, message):
    member, feature, other, request_id = scene
    url = _fill(path, feature.id, other.id, request_id)
    status, body = api.call(method, url, feature.headers, _body(method, path, other.id))
    assert status == 403, body
    assert body == {"error": message, "code": "not_in_account"}


def test_the_refusals_change_nothing(api, scene):
    member, feature, other, request_id = scene
    before = available(feature.account)
    for method, path, _ in REFUSED:
        api.call(
            method,
            _fill(path, feature.id, other.id, request_id),
            feature.headers,
            _body(method, path, other.id),
        )
    # no request was sent to `other`, the received request is still pending, no credit moved
    assert relation_state(feature.id, other.id) == ""
    assert relation_state(other.id, feature.id) == ""
    _, received = api.call("GET", "/api/requests?box=received", feature.headers)
    assert [(r["id"], r["status"]) for r in received["items"]] == [(request_id, "pending")]
    assert available(feature.account) == before


@pytest.mark.parametrize(("method", "path", "message"), REFUSED)
def test_members_are_not_refused_those_areas(api, scene, method, path, message):
    member, feature, other, request_id = scene
    url = _fill(path, member.id, other.id, request_id)
    status, body = api.call(method, url, member.headers, _body(method, path, other.id))
    assert status != 403 and (not isinstance(body, dict) or body.get("code") != "not_in_account"), (
        status,
        body,
    )


def test_a_members_lists_answer_as_before(api, scene):
    member, *_ = scene
    for path in ("/api/matches", "/api/connections", "/api/declines", "/api/collab", "/api/videos"):
        status, body = api.call("GET", path, member.headers)
        assert status == 200, (path, body)


def test_a_feature_only_account_keeps_its_own_areas(api, scene):
    """Dashboard, login check, pitches received (accept one), brand profile, notifications."""
    member, feature, _, request_id = scene
    for path in ("/api/dashboard", "/api/users", "/api/requests?box=received", "/api/brands"):
        status, body = api.call("GET", path, feature.headers)
        assert status == 200, (path, body)
    status, body = api.call("GET", f"/api/requests/{request_id}", feature.headers)
    assert status == 200, body
    status, body = api.call("POST", f"/api/requests/{request_id}/accept", feature.headers)
    assert status == 200, body
    assert body["request"]["status"] == "accepted"
    assert relation_state(feature.id, member.id) == "connected"


def test_an_admin_acting_as_a_feature_only_user_sees_what_they_see(api, scene, monkeypatch):
    from tandem.config import settings
    from tandem.services import accounts, tokens

    _, feature, _, _ = scene
    if not settings().allows_impersonation:
        pytest.skip("this stage does not allow impersonation")
    _, admin = accounts.create_account_with_user(
        email="admin@example.com", name="Ada Admin", password=None, access="admin"
    )
    token = tokens.issue_access_token(admin.user_id, admin.account_id, "admin")
    headers = {**auth_headers(token, feature.id), "X-Impersonate-User": feature.email}
    status, body = api.call("GET", "/api/matches", headers)
    assert (status, body.get("code")) == (403, "not_in_account")


def test_every_route_with_an_area_is_in_the_list_above(api, aws):
    from infra.local.lambda_inprocess import load_handler_module

    load_handler_module(aws.functions["ApiFunction"]).load_every_area()  # every route declared
    from chalicelib.http import ROUTE_AREAS

    listed = {(m, re.sub(r"\?.*", "", p).removeprefix("/api")) for m, p, _ in REFUSED}
    normalised = {(m, re.sub(r"\{[^}]+\}", "{}", p)) for m, p in listed}
    declared = {(m, re.sub(r"\{[^}]+\}", "{}", p)) for (p, m) in ROUTE_AREAS}
    assert declared == normalised
    assert set(ROUTE_AREAS.values()) == set(account_types.EXCLUDED["feature"])


def test_account_types_name_only_known_areas():
    assert account_types.includes("member", account_types.MATCHES)
    assert account_types.includes("admin", account_types.MATCHES)
    assert not account_types.includes("feature", account_types.MATCHES)
    assert account_types.includes("feature", None)
    with pytest.raises(ValueError, match="Unknown area"):
        account_types.includes("feature", "pitches")
