"""/account/profile/ through the API: GET/PUT users/profile, PUT users/profile/email and
POST users/change-password (moto, the local gateway)."""

from __future__ import annotations

import pytest

from tests.functional.helpers import mail_to

PASSWORD = "Northwind-Trail-58"
NEW_PASSWORD = "Copper-Lantern-Brook-71"


def _sign_in(api, email: str, password: str):
    return api.call("POST", "/api/users/login", body={"email": email, "password": password})


def _headers(session: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {session['access_token']}", "X-Brand-Id": "default"}


@pytest.fixture
def people(api):
    from tandem.services import accounts, brands

    for email, name in (("pat@example.com", "Pat Profile"), ("sam@example.com", "Sam Other")):
        account, _ = accounts.create_account_with_user(
            email=email, name=name, password=PASSWORD, confirmed=True
        )
        brands.create_brand(account_id=account.account_id, name=f"{name} Brand")
    status, pat = _sign_in(api, "pat@example.com", PASSWORD)
    assert status == 200, pat
    status, sam = _sign_in(api, "sam@example.com", PASSWORD)
    assert status == 200, sam
    return pat, sam


def _profile(api, session: dict) -> dict:
    status, body = api.call("GET", "/api/users/profile", _headers(session))
    assert status == 200, body
    return body


def test_the_profile_shows_name_email_and_confirmation(api, people):
    pat, _ = people
    assert _profile(api, pat) == {
        "name": "Pat Profile",
        "firstName": "Pat",
        "initials": "PP",
        "email": "pat@example.com",
        "emailConfirmed": True,
        "hasPassword": True,
    }
    assert api.call("GET", "/api/users/profile", {"X-Brand-Id": "default"})[0] == 401


def test_changing_the_name_changes_only_the_callers(api, people):
    pat, sam = people
    status, body = api.call("PUT", "/api/users/profile", _headers(pat), {"name": "  Patricia   Profile "})
    assert status == 200, body
    assert body["message"] == "Your name is saved."
    assert body["profile"]["name"] == "Patricia Profile"
    assert _profile(api, pat)["firstName"] == "Patricia"
    assert _profile(api, sam)["name"] == "Sam Other"
    # ...and the next sign-in greets the new name
    assert _sign_in(api, "pat@example.com", PASSWORD)[1]["name"] == "Patricia Profile"


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("", "This field is required"),
        ("   ", "This field is required"),
        ("x" * 101, "Please use at most 100 characters"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_changes(api, people, name, error):
    pat, _ = people
    status, body = api.call("PUT", "/api/users/profile", _headers(pat), {"name": name})
    assert (status, body["errors"]) == (400, {"name": error})
    assert _profile(api, pat)["name"] == "Pat Profile"


def _change_password(api, session, current, new):
    return api.call(
        "POST",
        "/api/users/change-password",
        _headers(session),
        {"currentPassword": current, "newPassword": new},
    )


def test_a_wrong_current_password_changes_nothing(api, people):
    pat, _ = people
    status, body = _change_password(api, pat, "Not-My-Password-1", NEW_PASSWORD)
    assert (status, body["errors"]) == (400, {"currentPassword": "Your current password is not right"})
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 200
    assert _sign_in(api, "pat@example.com", NEW_PASSWORD)[0] == 401
    assert _profile(api, pat)["email"] == "pat@example.com"  # this session still works


@pytest.mark.parametrize(
    ("new", "error"),
    [
        ("short", "Your password be at least 8 characters"),
        ("Passw0rd", "Your password must be harder"),
        ("sunflower-meadow", "Your password must contain a number, have an uppercase character"),
        ("", "This field is required"),
    ],
)
def test_a_weak_new_password_is_refused_with_the_spec_message(api, people, new, error):
    pat, _ = people
    status, body = _change_password(api, pat, PASSWORD, new)
    assert (status, body["errors"]) == (400, {"newPassword": error})
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 200


def test_the_current_password_is_required(api, people):
    pat, _ = people
    status, body = _change_password(api, pat, "", NEW_PASSWORD)
    assert (status, body["errors"]) == (400, {"currentPassword": "This field is required"})


def test_a_new_password_ends_the_other_sessions_and_keeps_this_one(api, people):
    pat, sam = people
    status, other_tab = _sign_in(api, "pat@example.com", PASSWORD)
    assert status == 200
    status, body = _change_password(api, pat, PASSWORD, NEW_PASSWORD)
    assert status == 200, body
    assert body["message"] == "Your password is changed. You were signed out everywhere else."
    # this browser carries on with the session in the answer
    assert _profile(api, body)["email"] == "pat@example.com"
    # every earlier session ends: access tokens and refresh tokens
    for old in (pat, other_tab):
        assert api.call("GET", "/api/users/profile", _headers(old))[0] == 401
        assert (
            api.call("POST", "/api/users/refresh-token", body={"refreshToken": old["refresh_token"]})[0]
            == 401
        )
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 401
    assert _sign_in(api, "pat@example.com", NEW_PASSWORD)[0] == 200
    # the other member is untouched
    assert _profile(api, sam)["name"] == "Sam Other"
    assert _sign_in(api, "sam@example.com", PASSWORD)[0] == 200


def test_guessing_the_current_password_is_slowed_down(api, people):
    pat, _ = people
    for _ in range(5):
        assert _change_password(api, pat, "Wrong-Guess-123", NEW_PASSWORD)[0] == 400
    status, body = _change_password(api, pat, PASSWORD, NEW_PASSWORD)  # even the right one waits
    assert status == 429
    assert body["error"].startswith("Too many wrong passwords. Please wait")
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 200


def _change_email(api, session, email, current=PASSWORD):
    return api.call(
        "PUT", "/api/users/profile/email", _headers(session), {"email": email, "currentPassword": current}
    )


@pytest.mark.delivery
def test_a_new_email_must_be_confirmed_and_the_old_one_is_told(api, people):
    pat, sam = people
    status, body = _change_email(api, pat, "  Pat.New@Example.com ")
    assert status == 200, body
    assert (
        body["message"]
        == "Your email address is changed. We've sent a link to pat.new@example.com to confirm it."
    )
    assert body["profile"]["email"] == "pat.new@example.com"
    assert body["profile"]["emailConfirmed"] is False
    (confirm,) = [m for m in mail_to("pat.new@example.com") if "Confirm your email" in m.subject]
    assert "/confirm-email/" in confirm.body
    (notice,) = mail_to("pat@example.com")
    assert "changed to pat.new@example.com" in notice.body
    # sign-in moves to the new address; the old one is free
    assert _sign_in(api, "pat.new@example.com", PASSWORD)[0] == 200
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 401
    from tandem.store.models import EmailOwner

    assert EmailOwner.lookup("pat@example.com") is None
    assert _profile(api, sam)["email"] == "sam@example.com"


@pytest.mark.delivery
def test_an_email_change_needs_the_right_password_and_a_free_address(api, people):
    pat, sam = people
    status, body = _change_email(api, pat, "pat.new@example.com", "Wrong-Guess-123")
    assert (status, body["errors"]) == (400, {"currentPassword": "Your current password is not right"})
    status, body = _change_email(api, pat, "SAM@example.com")
    assert (status, body["errors"]) == (400, {"email": "An account with this email already exists"})
    status, body = _change_email(api, pat, "not-an-email")
    assert (status, body["errors"]) == (400, {"email": "Invalid email"})
    status, body = _change_email(api, pat, "pat@example.com")
    assert (status, body["errors"]) == (400, {"email": "That is already your email address"})
    # nothing moved: both still sign in with their own address, nobody got mail
    assert _profile(api, pat)["email"] == "pat@example.com"
    assert _profile(api, sam)["email"] == "sam@example.com"
    assert _sign_in(api, "sam@example.com", PASSWORD)[0] == 200
    assert _sign_in(api, "pat@example.com", PASSWORD)[0] == 200
    assert mail_to("pat@example.com") == [] and mail_to("pat.new@example.com") == []


@pytest.fixture
def fake_stripe(monkeypatch: pytest.MonkeyPatch):
    from infra.local.fake_stripe import FakeStripe
    from tandem.integrations import stripe_client

    fake = FakeStripe(api_key="sk_test_profile")
    fake.start(0)
    monkeypatch.setenv("STRIPE_API_KEY", "sk_test_profile")
    monkeypatch.setenv("STRIPE_API_BASE", fake.base_url)
    stripe_client.reset_client()
    yield fake
    stripe_client.reset_client()
    fake.stop()


def test_a_new_email_reaches_the_members_stripe_customer(api, people, fake_stripe):
    """Receipts and the portal go to the customer's email: the one made with the member's old
    address gets the new one; a customer of the account with another address keeps it."""
    from tandem.integrations import stripe_client
    from tandem.services import billing
    from tandem.store.models import EmailOwner

    pat, _ = people
    account = EmailOwner.lookup("pat@example.com").account_id
    mine = stripe_client.create_customer(account, email="pat@example.com", name="Pat Profile Brand")
    billing.attach_customer(account, mine)
    theirs = stripe_client.make_client("sk_test_profile").v1.customers.create(
        {"email": "billing@example.com", "metadata": {"account": account}}
    )
    billing.attach_customer(account, theirs.id)

    status, body = _change_email(api, pat, "pat.new@example.com")
    assert status == 200, body
    assert fake_stripe.object(mine)["email"] == "pat.new@example.com"
    assert fake_stripe.object(theirs.id)["email"] == "billing@example.com"
