"""Instant sign-in from email (issue 22): the emails that bring a member back carry a one-click
sign-in link, single use, 72 hours, bound to the user and the address it went to, landing on the
page the email is about; refused after use, expiry, a password reset, an address change, or once
the member turned the links off in Notifications (the answer then names the address, so the
sign-in form can be filled in). Everything through the HTTP API, emails from moto's SES."""

from __future__ import annotations

import re
import time

import pytest

from tests.factories import auth_headers
from tests.functional.helpers import Brand, mail_to, send

pytestmark = pytest.mark.delivery  # every test here looks at what the notifier delivers

LINK = re.compile(r"https?://[^/\s\"]+/login/([A-Za-z0-9_-]+)/([0-9a-f]+)/([a-z-]+)")
REFUSED = "This sign-in link has expired or was already used. Sign in with your password instead."
TURNED_OFF = "Sign-in links are turned off for your account. Sign in with your password instead."


def sign_in_link(email: str, subject_part: str) -> tuple[str, str, str]:
    (mail,) = [m for m in mail_to(email) if subject_part in m.subject]
    found = LINK.findall(mail.body)
    assert found, f"no sign-in link in {mail.subject!r}"
    assert len(set(found)) == 1  # one link, in the text and the HTML parts
    return found[0]


def use(api, code: str, user_id: str, status: str | None = "request-received"):
    body = {"code": code, "id": user_id, **({"status": status} if status else {})}
    return api.call("POST", "/api/users/instant-login", body=body)


def received_request(api) -> tuple[Brand, Brand, str]:
    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    status, sent = send(api, a, b)
    assert status == 201, sent
    return a, b, sent["request"]["id"]


def test_a_request_email_signs_the_member_in_once_on_the_request(api):
    from tandem.store.models import OneTimeCode

    _, b, request_id = received_request(api)
    code, user_id, status = sign_in_link("b@example.com", "would like to collaborate")
    assert (user_id, status) == (b.user.user_id, "request-received")
    (mail,) = [m for m in mail_to("b@example.com") if "would like to collaborate" in m.subject]
    assert "it works once, for 72 hours" in " ".join(mail.body.split())

    answer_status, session = use(api, code, user_id)
    assert answer_status == 200, session
    assert session["uid"] == b.user.user_id
    assert session["redirect"] == f"/requests/received/{b.id}/{request_id}"
    # A sign-in like any other: the session works and refreshes.
    assert api.call("GET", "/api/users", auth_headers(session["access_token"]))[0] == 200
    refreshed = api.call("POST", "/api/users/refresh-token", body={"refreshToken": session["refresh_token"]})
    assert refreshed[0] == 200

    # Single use; the refusal names the address it was sent to (for the sign-in form).
    assert use(api, code, user_id) == (
        400,
        {"error": REFUSED, "code": "sign_in_link_refused", "email": "b@example.com"},
    )
    # Stored by hash only: no item holds the code itself.
    assert all(code not in str(item.attribute_values) for item in OneTimeCode.scan())


def test_accepted_and_new_matches_emails_carry_links_to_their_pages(api):
    from tandem.services import match_news

    a, b, request_id = received_request(api)
    assert api.call("POST", f"/api/requests/{request_id}/accept", b.headers)[0] == 200
    code, user_id, status = sign_in_link("a@example.com", "accepted your request")
    assert (user_id, status) == (a.user.user_id, "request-accepted")
    assert use(api, code, user_id, status)[1]["redirect"] == f"/connections/{a.id}/{b.id}"

    each_run = {"new_matches": {"subOptions": {"each_run": {"email": True}}}}
    assert api.call("PUT", "/api/notifications/user", b.headers, each_run)[0] == 200
    match_news.found(b.id, [a.id])
    code, user_id, status = sign_in_link("b@example.com", "new match")
    assert status == "new-matches"
    assert use(api, code, user_id, status)[1]["redirect"] == f"/matches/{b.id}"


def test_a_link_is_refused_after_72_hours_for_another_user_or_another_email(api):
    from tandem.services import codes
    from tandem.store.models import OneTimeCode

    a, b, _ = received_request(api)
    code, user_id, _ = sign_in_link("b@example.com", "would like to collaborate")
    assert codes.LIFETIMES["instant-login"] == 72 * 3600
    # Someone else's id with the code: refused, and nothing said about whose it was.
    assert use(api, code, a.user.user_id) == (400, {"error": REFUSED, "code": "sign_in_link_refused"})

    code, user_id, _ = sign_in_link("b@example.com", "would like to collaborate")  # the same link
    item = OneTimeCode.find(codes._hash(code), consistent=True)
    item.update(actions=[OneTimeCode.expires_at.set(int(time.time()) - 1)])
    assert use(api, code, user_id)[1] == {
        "error": REFUSED,
        "code": "sign_in_link_refused",
        "email": "b@example.com",
    }


def test_a_link_is_refused_in_another_emails_status_and_once_the_address_changed(api):
    from tandem.services import sign_in_links
    from tandem.store.models import User

    _, b, _ = received_request(api)
    code, user_id, _ = sign_in_link("b@example.com", "would like to collaborate")
    assert use(api, code, user_id, "new-matches")[0] == 400

    link = sign_in_links.link(b.user, "/matches", "new-matches")
    code, user_id, status = LINK.search(link).groups()
    b.user.update(actions=[User.email.set("b.new@example.com")])
    assert use(api, code, user_id, status)[1] == {"error": REFUSED, "code": "sign_in_link_refused"}


def test_a_password_reset_and_signing_out_everywhere_end_links_already_sent(api):
    from tandem.services import password_links, sign_in_links

    _, b, _ = received_request(api)
    first = LINK.search(sign_in_links.link(b.user, "/matches", "new-matches")).groups()
    reset = password_links.issue("reset-password", b.user.user_id)
    new_password = {"code": reset, "password": "Fresh-Oats-2027"}
    assert api.call("POST", "/api/users/reset-password", body=new_password)[0] == 200
    assert use(api, *first)[1]["error"] == REFUSED

    b.user.refresh()
    second = LINK.search(sign_in_links.link(b.user, "/matches", "new-matches")).groups()
    credentials = {"email": "b@example.com", "password": "Fresh-Oats-2027"}
    _, session = api.call("POST", "/api/users/login", body=credentials)
    assert api.call("POST", "/api/users/logout-everywhere", auth_headers(session["access_token"]))[0] == 200
    assert use(api, *second)[1]["error"] == REFUSED


def test_a_member_turns_sign_in_links_off_in_notifications(api):
    from tandem.services import sign_in_links

    a = Brand("a@example.com", "Oat & Co", credits=6)
    b = Brand("b@example.com", "Fern Candles")
    assert api.call("GET", "/api/notifications/sign-in-links", b.headers) == (200, {"enabled": True})
    sent_before = LINK.search(sign_in_links.link(b.user, "/matches", "new-matches")).groups()

    assert api.call("PUT", "/api/notifications/sign-in-links", b.headers, {"enabled": "no"})[0] == 400
    assert api.call("PUT", "/api/notifications/sign-in-links", b.headers, {"enabled": False}) == (
        200,
        {"enabled": False},
    )
    assert api.call("GET", "/api/notifications/sign-in-links", b.headers) == (200, {"enabled": False})
    assert send(api, a, b)[0] == 201
    (mail,) = [m for m in mail_to("b@example.com") if "would like to collaborate" in m.subject]
    assert "/login/" not in mail.body and "/requests/received/" in mail.body
    assert use(api, *sent_before)[1] == {
        "error": TURNED_OFF,
        "code": "sign_in_link_refused",
        "email": "b@example.com",
    }
