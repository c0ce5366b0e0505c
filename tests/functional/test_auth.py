"""Accounts and sessions through the HTTP API: sign-up, links, sign-in, refresh, sign-out."""

from __future__ import annotations

import re

import pytest

from tests.factories import auth_headers, member
from tests.functional.helpers import Api

PASSWORD = "Tandem-Oats-2026"


@pytest.fixture
def api(aws):
    return Api(aws)


def sent_links(path_prefix: str) -> list[str]:
    from moto.backends import get_backend

    sent = get_backend("ses")["123456789012"]["eu-west-2"].sent_messages
    return [
        m for msg in sent for m in re.findall(rf"https?://[^\s]+({re.escape(path_prefix)}[^\s]+)", msg.body)
    ]


def sign_up(api, email="new@example.com", password=PASSWORD):
    return api.call(
        "POST",
        "/api/users/create-account",
        body={"name": "Nina New", "email": email, "password": password, "brandName": "Nina's Teas"},
    )


def login(api, email="new@example.com", password=PASSWORD):
    return api.call("POST", "/api/users/login", body={"email": email, "password": password})


def test_sign_up_confirm_and_sign_in(api):
    status, body = sign_up(api)
    assert status == 201
    assert body == {"message": "Thanks! Check your email for a link to confirm your address."}

    status, session = login(api)
    assert status == 200
    assert set(session) == {
        "access_token", "refresh_token", "uid", "account", "initials", "name", "firstName",
        "sessionInfo", "redirect", "globalMessage",
    }  # fmt: skip
    assert (session["initials"], session["firstName"], session["sessionInfo"]) == (
        "NN",
        "Nina",
        {"access": "member"},
    )
    assert session["globalMessage"] == "Please confirm your email address."

    (link,) = sent_links("/confirm-email/")
    code = link.removeprefix("/confirm-email/")
    assert api.call("POST", "/api/users/confirm-email", body={"code": code}) == (
        200,
        {"message": "Thanks, your email address is confirmed."},
    )
    status, again = api.call("POST", "/api/users/confirm-email", body={"code": code})
    assert status == 400 and "expired or was already used" in again["error"]

    status, check = api.call("GET", "/api/users", auth_headers(session["access_token"]))
    assert status == 200
    assert check["email"] == "new@example.com"
    assert check["company_name"] == "Nina's Teas"
    assert check["emailConfirmed"] is True and check["showWelcome"] is True


def test_sign_up_validates_every_field_with_spec_messages(api):
    status, body = api.call(
        "POST", "/api/users/create-account", body={"name": "", "email": "nope", "password": "Passw0rd"}
    )
    assert status == 400
    assert body["errors"] == {
        "name": "This field is required",
        "brandName": "This field is required",
        "email": "Invalid email",
        "password": "Your password must be harder",
    }
    sign_up(api)
    status, body = sign_up(api)
    assert (status, body) == (409, {"error": "An account with this email already exists"})


def test_wrong_password_and_unknown_email_get_the_same_answer(api):
    sign_up(api)
    assert login(api, password="Wrong-Pass-123") == (401, {"error": "Wrong email or password"})
    assert login(api, email="ghost@example.com") == (401, {"error": "Wrong email or password"})


@pytest.mark.parametrize(
    "body",
    [{}, {"email": "x@example.com"}, {"email": "not-an-email", "password": "x"}, {"password": "x"}],
)
def test_malformed_login_is_a_400(api, body):
    status, reply = api.call("POST", "/api/users/login", body=body)
    assert status == 400 and reply["error"] in ("This field is required", "Invalid email")


def test_non_json_body_is_a_400(api):
    status, reply = api.call("POST", "/api/users/login", {"content-type": "application/json"}, b"{not json")
    assert (status, reply) == (400, {"error": "The request body must be valid JSON"})


def test_login_attempts_are_rate_limited_per_account(api):
    sign_up(api)
    for _ in range(10):
        assert login(api, password="Wrong-Pass-123")[0] == 401
    status, body = login(api)  # even the right password waits now
    assert (status, body["error"]) == (
        429,
        "Too many sign-in attempts. Please wait 15 minutes and try again.",
    )


def test_user_without_password_gets_400_and_can_create_one_by_email(api):
    member("nopass@example.com")  # created without a password
    status, body = login(api, email="nopass@example.com")
    assert status == 400 and "doesn't have a password yet" in body["error"]

    status, _ = api.call("POST", "/api/users/setup-password", body={"email": "nopass@example.com"})
    assert status == 200
    (link,) = sent_links("/create-password/")
    code = link.removeprefix("/create-password/")
    assert api.call("POST", "/api/users/create-password", body={"code": code, "password": "short"}) == (
        400,
        {
            "error": "Your password be at least 8 characters",
            "errors": {"password": "Your password be at least 8 characters"},
        },
    )
    status, _ = api.call("POST", "/api/users/create-password", body={"code": code, "password": PASSWORD})
    assert status == 200
    assert login(api, email="nopass@example.com")[0] == 200
    assert api.call("POST", "/api/users/create-password", body={"code": code, "password": PASSWORD})[0] == 400


def test_reset_password_link_works_once(api):
    sign_up(api)
    status, body = api.call("POST", "/api/users/forgot-password", body={"email": "new@example.com"})
    unknown = api.call("POST", "/api/users/forgot-password", body={"email": "ghost@example.com"})
    assert status == 200 and unknown == (200, body)  # no hint whether the email exists
    (link,) = sent_links("/reset-password/")
    code = link.removeprefix("/reset-password/")
    new_password = "Fresh-Oats-2027"
    assert (
        api.call("POST", "/api/users/reset-password", body={"code": code, "password": new_password})[0] == 200
    )
    assert (
        api.call("POST", "/api/users/reset-password", body={"code": code, "password": new_password})[0] == 400
    )
    assert login(api, password=PASSWORD)[0] == 401
    assert login(api, password=new_password)[0] == 200


def test_instant_login_code_works_once_and_only_for_its_user(api, aws):
    from tandem.services import accounts, auth

    sign_up(api)
    user = accounts.find_user_by_email("new@example.com")
    path = auth.instant_login_link(user).split("/login/", 1)[1]
    code, user_id = path.split("/")
    assert api.call("POST", "/api/users/instant-login", body={"code": code, "id": "someone-else"})[0] == 400
    path = auth.instant_login_link(user).split("/login/", 1)[1]
    code, user_id = path.split("/")
    status, session = api.call("POST", "/api/users/instant-login", body={"code": code, "id": user_id})
    assert status == 200 and session["uid"] == user.user_id
    assert api.call("POST", "/api/users/instant-login", body={"code": code, "id": user_id})[0] == 400


def test_refresh_rotates_and_reuse_revokes_the_whole_sign_in(api):
    sign_up(api)
    _, session = login(api)
    first = session["refresh_token"]
    status, rotated = api.call(
        "POST", "/api/users/refresh-token", body={"refreshToken": first, "uid": session["uid"]}
    )
    assert status == 200 and rotated["refresh_token"] != first
    status, _ = api.call("GET", "/api/users", auth_headers(rotated["access_token"]))
    assert status == 200

    # The old token shows up again: someone copied it. Both it and its successor stop working.
    assert api.call("POST", "/api/users/refresh-token", body={"refreshToken": first})[0] == 401
    assert (
        api.call("POST", "/api/users/refresh-token", body={"refreshToken": rotated["refresh_token"]})[0]
        == 401
    )

    # Another sign-in of the same user is not affected.
    _, other = login(api)
    assert (
        api.call("POST", "/api/users/refresh-token", body={"refreshToken": other["refresh_token"]})[0] == 200
    )


def test_logout_revokes_the_refresh_token(api):
    sign_up(api)
    _, session = login(api)
    assert api.call("POST", "/api/users/logout", body={"refreshToken": session["refresh_token"]}) == (
        200,
        {"ok": True},
    )
    assert (
        api.call("POST", "/api/users/refresh-token", body={"refreshToken": session["refresh_token"]})[0]
        == 401
    )
    assert api.call("POST", "/api/users/logout", body={"refreshToken": "garbage"}) == (200, {"ok": True})


def test_admin_can_act_as_a_member_only_with_the_admin_role(api):
    from tandem.services import accounts, tokens

    _, (brand,), member_token = member("mia@example.com")
    _, admin = accounts.create_account_with_user(
        email="boss@example.com", name="Ada Admin", password=None, access="admin"
    )
    admin_token = tokens.issue_access_token(admin.user_id, admin.account_id, "admin")

    status, check = api.call(
        "GET", "/api/users", {**auth_headers(admin_token), "X-Impersonate-User": "mia@example.com"}
    )
    assert status == 200 and check["email"] == "mia@example.com" and check["brandId"] == int(brand.brand_id)

    status, body = api.call(
        "GET", "/api/users", {**auth_headers(member_token), "X-Impersonate-User": "boss@example.com"}
    )
    assert (status, body) == (403, {"error": "You can't act as another user"})

    assert api.call("GET", "/api/admin/users", auth_headers(admin_token))[0] == 200
    assert api.call("GET", "/api/admin/users", auth_headers(member_token)) == (
        403,
        {"error": "Only Tandem admins can do that"},
    )


def test_impersonation_is_refused_where_the_stage_does_not_allow_it(api, monkeypatch):
    from tandem.config import reset_settings
    from tandem.services import accounts, tokens

    member("mia@example.com")
    _, admin = accounts.create_account_with_user(
        email="boss@example.com", name="Ada Admin", password=None, access="admin"
    )
    admin_token = tokens.issue_access_token(admin.user_id, admin.account_id, "admin")
    monkeypatch.setenv("STAGE", "prod")
    reset_settings()
    status, body = api.call(
        "GET", "/api/users", {**auth_headers(admin_token), "X-Impersonate-User": "mia@example.com"}
    )
    assert (status, body) == (403, {"error": "You can't act as another user"})


def test_stop_welcome_emails_only_for_your_own_address(api):
    from tandem.services import accounts

    user, _, token = member("mia@example.com")
    assert api.call("GET", "/api/users/stop-welcome-emails/bob@example.com", auth_headers(token)) == (
        400,
        {"error": "You can only change your own email settings"},
    )
    status, body = api.call("GET", "/api/users/stop-welcome-emails/mia@example.com", auth_headers(token))
    assert (status, body) == (200, {"message": "You won't get any more welcome emails."})
    assert accounts.get_user(user.user_id).welcome_emails is False


def test_issue_box_stores_a_report_and_requires_a_description(api):
    from tandem.store.models import IssueReport

    _, _, token = member("mia@example.com")
    assert api.call("POST", "/api/issues/report", auth_headers(token), {"description": "  "}) == (
        400,
        {"error": "Please enter a description"},
    )
    status, body = api.call(
        "POST",
        "/api/issues/report",
        auth_headers(token),
        {"description": "Menu overlaps", "path": "/matches"},
    )
    assert (status, body) == (201, {"message": "Issue sent"})
    (stored,) = list(IssueReport.scan(IssueReport.pk.startswith("ISSUE#")))
    assert (stored.description, stored.path) == ("Menu overlaps", "/matches")
