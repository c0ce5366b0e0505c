"""The Pitch Area through the HTTP API (local gateway, moto): features, their approval and
lifecycle, pitches as requests to the owner, and every refusal changing nothing."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.factories import auth_headers, member
from tests.functional.helpers import DAY, Brand, available, grant, mail_to, run_job
from tests.functional.test_billing import Shop, fake  # noqa: F401 (the fake Stripe fixture)

OPPORTUNITY = {
    "title": "Winter gift box partners",
    "offer": "A spot in our winter gift box, sent to 5,000 subscribers.",
    "lookingFor": "Independent food and home brands with a giftable product.",
    "collabKinds": ["bundles", "giveaways"],
    "audience": "UK, 25-44, gift buyers",
    "closingDate": None,
    "months": 3,
    "acceptTerms": True,
}


@pytest.fixture
def admin_headers(aws) -> dict[str, str]:
    from tandem.services import accounts, tokens

    _, admin = accounts.create_account_with_user(
        email="boss@example.com", name="Ada Admin", password=None, access="admin"
    )
    return {"Authorization": f"Bearer {tokens.issue_access_token(admin.user_id, admin.account_id, 'admin')}"}


def feature(api, owner: Brand, **changes):
    return api.call("POST", "/api/pitch", owner.headers, {**OPPORTUNITY, **changes})


def live_feature(api, owner: Brand, admin_headers) -> str:
    status, body = feature(api, owner)
    assert status == 201, body
    fid = body["feature"]["id"]
    status, body = api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers)
    assert status == 200, body
    return fid


@pytest.fixture
def shop(aws, fake) -> Shop:  # noqa: F811 (fake: the fixture imported above)
    return Shop(aws, fake)


def features() -> list:
    from tandem.store.pitch import Feature

    return list(Feature.scan(Feature.pk.startswith("FEATURE#")))


def snapshot(*accounts: str) -> dict:
    """Everything a refusal must leave as it was."""
    from tandem.store.requests import ConnectionRequest

    return {
        "credits": [available(a) for a in accounts],
        "features": sorted((f.feature_id, f.status) for f in features()),
        "requests": sorted(
            (r.request_id, r.status)
            for r in ConnectionRequest.scan(ConnectionRequest.pk.startswith("REQUEST#"))
        ),
    }


# ---------------------------------------------------------------- creating


def test_featuring_costs_three_credits_waits_for_approval_and_shows_in_featuredone(api, admin_headers):
    from tandem.services import credits

    oat = Brand("a@example.com", "Oat & Co", credits=6, category="food & drink")
    status, body = feature(api, oat)
    assert status == 201, body
    created = body["feature"]
    assert created["status"] == "pending" and created["own"] is True and created["paid"] is True
    assert created["paymentView"] == "pending approval"
    assert created["collabKinds"] == ["giveaways", "bundles"]  # in the catalogue's order
    assert body["credits"]["available"] == 3
    assert available(oat.account) == 3 and credits.verify(oat.account) == {}

    status, dash = api.call("GET", "/api/dashboard", oat.headers)
    done = dash["credits"]["featureDone"]
    assert done == {
        "_id": created["id"],
        "approved": False,
        "current": False,
        "pending": True,
        "paid": True,
        "expires": None,
        "hasHadLive": False,
    }
    # not in the list until approved
    assert api.call("GET", "/api/pitch", oat.headers)[1]["features"] == []
    status, pending = api.call("GET", "/api/admin/features?status=pending", admin_headers)
    assert status == 200 and [f["id"] for f in pending["features"]] == [created["id"]]
    assert pending["features"][0]["brand"]["name"] == "Oat & Co"


def test_a_feature_or_pitch_that_names_a_hidden_brand_tells_its_owner_it_is_masked(api, admin_headers):
    """Issue 40: a brand that hides its name is told, when its feature or its pitch's message
    names it, that members will read it with the name removed; and they do."""
    zed = Brand("zed@example.com", "Zyxquor Hidden Studio", credits=6, hide_name=True, category="outdoors")
    status, body = feature(api, zed, offer="Zyxquor  Hidden  Studio tents for your followers")
    assert (status, body["notice"]) == (
        201,
        "Your feature names your brand; it will be shown with the name removed.",
    )
    api.call("POST", f"/api/admin/features/{body['feature']['id']}/approve", admin_headers)
    ria = Brand("ria@example.com", "Ria Rugs", credits=6)
    (listed,) = api.call("GET", "/api/pitch", ria.headers)[1]["features"]
    assert "Zyxquor" not in json.dumps(listed) and "This brand tents" in listed["offer"]

    oat = Brand("oat@example.com", "Oat & Co", credits=6, category="food & drink")
    assert feature(api, oat, offer="Oat & Co bundles")[1]["notice"] is None  # shows its name
    fid = live_feature(api, Brand("fen@example.com", "Fern Candles", credits=6), admin_headers)
    status, sent = api.call("POST", f"/api/pitch/{fid}/pitch", zed.headers, {"message": "zyxquor here"})
    assert (status, sent["notice"]) == (
        201,
        "Your message names your brand; it will be shown with the name removed.",
    )


def test_two_parallel_features_with_four_credits_make_exactly_one(api):
    from tandem.services import credits

    user, (one, two), token = member("a@example.com", ("Oat & Co", "Oat Kids"))
    grant(user.account_id, 4)

    def create(brand):
        return api.call("POST", "/api/pitch", auth_headers(token, int(brand.brand_id)), OPPORTUNITY)

    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(create, (one, two)))
    assert sorted(s for s, _ in answers) == [201, 402]
    refused = next(b for s, b in answers if s == 402)
    assert refused == {"error": "You're out of credits. Buy more to continue.", "code": "out_of_credits"}
    assert available(user.account_id) == 1
    assert credits.verify(user.account_id) == {}
    assert len(features()) == 1


def test_one_open_feature_per_brand(api):
    oat = Brand("a@example.com", "Oat & Co", credits=12)
    assert feature(api, oat)[0] == 201
    before = snapshot(oat.account)
    assert feature(api, oat) == (
        409,
        {"error": "This brand already has a feature in the Pitch Area. End it before creating a new one."},
    )
    assert snapshot(oat.account) == before


@pytest.mark.parametrize(
    ("changes", "field", "error"),
    [
        ({"acceptTerms": False}, "acceptTerms", "Please accept the feature terms to continue"),
        ({"acceptTerms": None}, "acceptTerms", "Please accept the feature terms to continue"),
        ({"offer": "  "}, "offer", "This field is required"),
        ({"lookingFor": 3}, "lookingFor", "This must be text"),
        ({"title": "x" * 101}, "title", "This can be at most 100 characters"),
        ({"collabKinds": []}, "collabKinds", "Choose at least one kind of collaboration"),
        ({"collabKinds": ["raves"]}, "collabKinds", None),
        ({"months": 4}, "months", "Choose a term of 3 or 6 months"),
        ({"months": True}, "months", "Choose a term of 3 or 6 months"),
        ({"closingDate": "2001-01-01"}, "closingDate", "The closing date must be in the future"),
        ({"closingDate": "next week"}, "closingDate", "Enter the closing date as YYYY-MM-DD"),
    ],
)
def test_bad_features_are_refused_and_change_nothing(api, changes, field, error):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    before = snapshot(oat.account)
    status, body = feature(api, oat, **changes)
    assert status == 400, body
    assert field in body["errors"]
    if error:
        assert body["errors"][field] == error
    assert snapshot(oat.account) == before


def test_without_credits_featuring_is_a_402(api):
    oat = Brand("a@example.com", "Oat & Co", credits=2)
    assert feature(api, oat)[0] == 402
    assert available(oat.account) == 2


# ---------------------------------------------------------------- approval


@pytest.mark.delivery
def test_approval_makes_it_live_emails_the_owner_and_lists_it_newest_first(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6, category="food & drink", hide_name=True)
    fern = Brand("b@example.com", "Fern Candles", credits=6, category="home")
    first = live_feature(api, oat, admin_headers)
    second = live_feature(api, fern, admin_headers)

    (mail,) = [m for m in mail_to("a@example.com") if "live in the Pitch Area" in m.subject]
    assert mail.subject == "Oat & Co is live in the Pitch Area"
    assert f"/pitch/jump/{first}" in mail.body

    status, page = api.call("GET", "/api/pitch", fern.headers)
    assert status == 200
    assert [f["id"] for f in page["features"]] == [second, first]
    theirs, own = page["features"][1], page["features"][0]
    assert own["own"] is True and theirs["own"] is False
    assert theirs["brand"]["name"] == "A food & drink brand"  # Oat hides its name
    assert theirs["status"] == "live" and theirs["expiresAt"].endswith("Z")

    # filters
    assert [f["id"] for f in api.call("GET", "/api/pitch?category=home", fern.headers)[1]["features"]] == [
        second
    ]
    got = api.call("GET", "/api/pitch?kind=events", fern.headers)[1]["features"]
    assert got == []
    assert api.call("GET", "/api/pitch?kind=raves", fern.headers) == (
        400,
        {"error": "Unknown collaboration kind: raves"},
    )

    status, dash = api.call("GET", "/api/dashboard", oat.headers)
    done = dash["credits"]["featureDone"]
    assert done["approved"] and done["current"] and not done["pending"] and done["hasHadLive"]


def test_only_admins_approve_and_refuse(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fid = feature(api, oat)[1]["feature"]["id"]
    for path in (f"/api/admin/features/{fid}/approve", f"/api/admin/features/{fid}/refuse"):
        assert api.call("POST", path, oat.headers, {"reason": "x"}) == (
            403,
            {"error": "Only Tandem admins can do that"},
        )
    assert api.call("GET", "/api/admin/features", oat.headers)[0] == 403
    assert api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers)[0] == 200
    assert api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers) == (
        409,
        {"error": "Only a feature awaiting approval can be approved or refused"},
    )


@pytest.mark.delivery
def test_a_refused_feature_returns_its_three_credits_and_a_new_one_can_be_made(api, admin_headers):
    from tandem.services import credits

    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fid = feature(api, oat)[1]["feature"]["id"]
    assert available(oat.account) == 3
    assert api.call("POST", f"/api/admin/features/{fid}/refuse", admin_headers, {"reason": " "})[0] == 400
    status, body = api.call(
        "POST", f"/api/admin/features/{fid}/refuse", admin_headers, {"reason": "Please describe the offer."}
    )
    assert status == 200, body
    assert body["creditsReturned"] == 3
    assert available(oat.account) == 6 and credits.verify(oat.account) == {}
    mine = api.call("GET", "/api/pitch/mine", oat.headers)[1]
    assert mine["features"][0]["status"] == "refused"
    assert mine["features"][0]["refusedReason"] == "Please describe the offer."
    # refusing again gives nothing back twice
    assert api.call("POST", f"/api/admin/features/{fid}/refuse", admin_headers, {"reason": "x"})[0] == 409
    assert available(oat.account) == 6
    assert feature(api, oat)[0] == 201

    # the owner is told why, what came back, and where to try again (one email, not two)
    (mail,) = [m for m in mail_to("a@example.com") if "not approved" in m.subject]
    assert mail.subject == "Your feature for Oat & Co was not approved"
    assert "Why: Please describe the offer." in mail.body
    assert "The 3 credits it cost are back in your account." in mail.body
    assert "refund" not in mail.body  # nothing was paid with money
    assert "/pitch/new" in mail.body


def test_approving_and_refusing_features_are_in_the_admin_audit_log(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    approved = live_feature(api, oat, admin_headers)
    refused = feature(api, fern)[1]["feature"]["id"]
    assert (
        api.call("POST", f"/api/admin/features/{refused}/refuse", admin_headers, {"reason": "Too vague"})[0]
        == 200
    )
    # a refusal that changes nothing is not logged
    assert api.call("POST", f"/api/admin/features/{refused}/refuse", admin_headers, {"reason": "x"})[0] == 409

    status, log = api.call("GET", "/api/admin/audit", admin_headers)
    assert status == 200, log
    entries = [e for e in log["entries"] if e["action"].startswith("feature.")]
    assert [(e["action"], e["target"], e["actor"]["email"]) for e in entries] == [
        ("feature.refuse", refused, "boss@example.com"),
        ("feature.approve", approved, "boss@example.com"),
    ]
    refusal, approval = entries
    assert refusal["details"]["reason"] == "Too vague" and refusal["details"]["creditsReturned"] == 3
    assert refusal["details"]["brand"] == "Fern Candles" and refusal["details"]["brandId"] == fern.id
    assert approval["details"]["brand"] == "Oat & Co" and approval["details"]["months"] == 3
    assert api.call("GET", "/api/admin/audit", oat.headers)[0] == 403


# ---------------------------------------------------------------- ending and expiry


@pytest.mark.delivery
def test_the_owner_ends_it_early_and_others_cannot(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    fid = live_feature(api, oat, admin_headers)

    before = snapshot(oat.account, fern.account)
    assert api.call("DELETE", f"/api/pitch/{fid}", fern.headers) == (
        403,
        {"error": "Only the brand that created this feature can end it"},
    )
    assert api.call("DELETE", "/api/pitch/0000000000000000", oat.headers) == (
        404,
        {"error": "Feature not found"},
    )
    assert api.call("DELETE", "/api/pitch/not-an-id", oat.headers) == (404, {"error": "Feature not found"})
    assert snapshot(oat.account, fern.account) == before

    status, body = api.call("DELETE", f"/api/pitch/{fid}", oat.headers)
    assert status == 200, body
    assert body["message"] == "Your feature has ended" and body["feature"]["status"] == "ended"
    assert available(oat.account) == 3  # no refund, as the terms say
    assert api.call("GET", "/api/pitch", fern.headers)[1]["features"] == []
    assert api.call("DELETE", f"/api/pitch/{fid}", oat.headers) == (
        409,
        {"error": "This feature has already ended"},
    )
    assert any("has ended" in m.subject for m in mail_to("a@example.com"))
    assert feature(api, oat)[0] == 201  # a new one can be made


def test_a_paid_feature_awaiting_approval_cannot_be_ended_and_keeps_its_credits(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    status, body = feature(api, oat)
    assert status == 201, body
    fid = body["feature"]["id"]
    # the owner's answer says what DELETE pitch/{id} allows: paid with credits, not yet live
    assert (body["feature"]["canEnd"], body["feature"]["canWithdraw"]) == (False, False)

    before = snapshot(oat.account)
    assert api.call("DELETE", f"/api/pitch/{fid}", oat.headers) == (
        409,
        {"error": "This feature is awaiting approval. You can end it early once it's live."},
    )
    assert snapshot(oat.account) == before and available(oat.account) == 3
    assert api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers)[0] == 200
    mine = api.call("GET", f"/api/pitch/{fid}", oat.headers)[1]["feature"]
    assert (mine["canEnd"], mine["canWithdraw"]) == (True, False)
    assert api.call("DELETE", f"/api/pitch/{fid}", oat.headers)[0] == 200  # live: ends early


@pytest.mark.delivery
def test_the_scheduler_expires_a_feature_at_its_terms_end(api, admin_headers, aws):
    from tandem.store.pitch import Feature, FeatureSlot

    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    fid = live_feature(api, oat, admin_headers)
    assert run_job(aws, "expire-features") == {"expired": 0}  # not due yet

    end = int(time.time()) - 1  # its term is over
    Feature.at(fid).update(actions=[Feature.expires_at.set(end)])
    FeatureSlot.at(oat.id).update(actions=[FeatureSlot.expires_at.set(end)])
    assert api.call("GET", "/api/pitch", fern.headers)[1]["features"] == []  # hidden at once

    assert run_job(aws, "expire-features") == {"expired": 1}
    assert Feature.find(fid).status == "expired"
    assert run_job(aws, "expire-features") == {"expired": 0}
    mail = [m for m in mail_to("a@example.com") if "has ended" in m.subject]
    assert mail and "reached the end of its term" in mail[0].body
    done = api.call("GET", "/api/dashboard", oat.headers)[1]["credits"]["featureDone"]
    assert done["current"] is False and done["hasHadLive"] is True
    assert api.call("POST", f"/api/pitch/{fid}/pitch", fern.headers, {"message": "Hi"}) == (
        409,
        {"error": "This feature has expired"},
    )


# ---------------------------------------------------------------- pitching


@pytest.mark.delivery
def test_a_pitch_costs_one_credit_reaches_the_owner_and_accepting_connects_them(api, admin_headers):
    from tandem.services import credits

    oat = Brand("a@example.com", "Oat & Co", credits=6, contact={"name": "Olly", "email": "olly@oat.test"})
    fern = Brand(
        "b@example.com", "Fern Candles", credits=6, contact={"name": "Fen", "email": "fen@fern.test"}
    )
    fid = live_feature(api, oat, admin_headers)

    status, body = api.call(
        "POST", f"/api/pitch/{fid}/pitch", fern.headers, {"message": "Candles in your box?"}
    )
    assert status == 201, body
    request = body["request"]
    assert request["pitch"] == {"featureId": fid, "title": OPPORTUNITY["title"]}
    assert body["credits"]["available"] == 5
    assert available(fern.account) == 5 and credits.verify(fern.account) == {}
    (mail,) = [m for m in mail_to("a@example.com") if "pitched" in m.subject]
    assert "Candles in your box?" in mail.body and f"/requests/received/{oat.id}/{request['id']}" in mail.body

    detail = api.call("GET", f"/api/pitch/{fid}", fern.headers)[1]["feature"]
    assert detail["pitch"]["id"] == request["id"] and detail["canPitch"] is False

    received = api.call("GET", "/api/requests?box=received", oat.headers)[1]
    (item,) = [r for r in received["items"] if r["id"] == request["id"]]
    assert item["pitch"]["featureId"] == fid

    status, accepted = api.call("POST", f"/api/requests/{request['id']}/accept", oat.headers)
    assert status == 200, accepted
    assert accepted["request"]["contact"]["email"] == "fen@fern.test"
    assert available(oat.account) == 3  # accepting is free
    assert available(fern.account) == 5  # the pitch's credit stays spent
    assert credits.verify(fern.account) == {}


def test_a_declined_pitch_keeps_its_credit_spent(api, admin_headers):
    from tandem.services import credits

    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    fid = live_feature(api, oat, admin_headers)
    rid = api.call("POST", f"/api/pitch/{fid}/pitch", fern.headers, {"message": "Hi"})[1]["request"]["id"]
    assert api.call("POST", f"/api/requests/{rid}/decline", oat.headers, {})[0] == 200
    assert available(fern.account) == 5 and credits.verify(fern.account) == {}


def test_pitch_refusals_are_clear_and_change_nothing(api, admin_headers):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    poor = Brand("c@example.com", "Pine Soap", credits=0)
    unsubscribed = Brand("d@example.com", "Dune Tea", credits=0, status="none")
    fid = live_feature(api, oat, admin_headers)
    assert api.call("POST", f"/api/pitch/{fid}/pitch", fern.headers, {"message": "First"})[0] == 201

    pending = Brand("e@example.com", "Elm Bakes", credits=6)
    pending_id = feature(api, pending)[1]["feature"]["id"]

    before = snapshot(oat.account, fern.account, poor.account, unsubscribed.account, pending.account)
    cases = [
        (oat, fid, {"message": "Me"}, 400, "You can't pitch to your own feature"),
        (fern, fid, {"message": "Again"}, 409, "You have already pitched to this feature"),
        (poor, fid, {"message": "Hi"}, 402, "You're out of credits. Buy more to continue."),
        (unsubscribed, fid, {"message": "Hi"}, 402, "You need to buy a subscription to continue."),
        (fern, pending_id, {"message": "Hi"}, 404, "Feature not found"),
        (poor, fid, {"message": "  "}, 400, "This field is required"),
        (poor, fid, {"message": "x" * 1001}, 400, "Your message can be at most 1000 characters"),
        (fern, "0000000000000000", {"message": "Hi"}, 404, "Feature not found"),
    ]
    for who, target, body, status, error in cases:
        got_status, got = api.call("POST", f"/api/pitch/{target}/pitch", who.headers, body)
        assert (got_status, got["error"]) == (status, error), (who.email, body)
    assert snapshot(oat.account, fern.account, poor.account, unsubscribed.account, pending.account) == before

    api.call("DELETE", f"/api/pitch/{fid}", oat.headers)
    status, got = api.call("POST", f"/api/pitch/{fid}/pitch", unsubscribed.headers, {"message": "Hi"})
    assert (status, got["error"]) == (409, "This feature has ended")


def test_a_pending_feature_is_only_visible_to_its_owner(api):
    oat = Brand("a@example.com", "Oat & Co", credits=6)
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    fid = feature(api, oat)[1]["feature"]["id"]
    assert api.call("GET", f"/api/pitch/{fid}", fern.headers) == (404, {"error": "Feature not found"})
    status, body = api.call("GET", f"/api/pitch/{fid}", oat.headers)
    assert status == 200 and body["feature"]["own"] is True and body["feature"]["canPitch"] is False


# ---------------------------------------------------------------- feature-only accounts


@pytest.mark.delivery
def test_a_feature_only_account_pays_the_feature_product_and_is_approved_once_billing_synced(
    shop: Shop, admin_headers
):
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="feature@example.com", name="Fay Feature", password=None, access="feature"
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fay's Florals", category="home")
    headers = auth_headers(
        tokens.issue_access_token(user.user_id, account.account_id, "feature"), int(brand.brand_id)
    )
    api = shop.api

    status, body = api.call("POST", "/api/pitch", headers, {**OPPORTUNITY, "months": 6})
    assert status == 201, body
    fid = body["feature"]["id"]
    assert body["feature"]["payWith"] == "product" and body["feature"]["paid"] is False
    assert body["feature"]["paymentView"] == "pending approval"

    # not paid: the admin cannot approve it yet
    assert api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers) == (
        409,
        {"error": "This feature is not paid yet"},
    )
    status, out = api.call("POST", f"/api/pitch/{fid}/checkout", headers, {})
    assert status == 200, out
    session = shop.pay(out["url"])
    assert session.startswith("cs_")
    shop.deliver_all(shop.new_events())  # billing's sync records the payment

    mine = api.call("GET", "/api/pitch/mine", headers)[1]
    assert mine["features"][0]["paid"] is True and mine["features"][0]["paymentView"] == "paid"
    assert mine["featureDone"]["paid"] is True and mine["featureDone"]["pending"] is True
    assert api.call("POST", f"/api/pitch/{fid}/checkout", headers, {}) == (
        409,
        {"error": "This feature is already paid"},
    )
    assert api.call("DELETE", f"/api/pitch/{fid}", headers) == (  # paid: it waits for the admin
        409,
        {"error": "This feature is awaiting approval. You can end it early once it's live."},
    )

    status, approved = api.call("POST", f"/api/admin/features/{fid}/approve", admin_headers)
    assert status == 200, approved
    expires = approved["feature"]["expiresAt"]
    assert expires.endswith("Z")
    done = api.call("GET", "/api/dashboard", headers)[1]["credits"]["featureDone"]
    assert done["current"] is True and done["hasHadLive"] is True and done["expires"] == expires
    assert time.time() + 179 * DAY < time.mktime(time.strptime(expires, "%Y-%m-%dT%H:%M:%SZ")) - time.timezone


def test_a_feature_only_account_withdraws_an_unpaid_feature_and_can_feature_again(shop: Shop):
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="feature@example.com", name="Fay Feature", password=None, access="feature"
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fay's Florals", category="home")
    headers = auth_headers(
        tokens.issue_access_token(user.user_id, account.account_id, "feature"), int(brand.brand_id)
    )
    api = shop.api
    created = api.call("POST", "/api/pitch", headers, OPPORTUNITY)[1]["feature"]
    fid = created["id"]
    assert (created["canEnd"], created["canWithdraw"]) == (False, True)  # unpaid: it may be withdrawn
    assert api.call("POST", "/api/pitch", headers, OPPORTUNITY)[0] == 409  # one open feature at a time

    status, body = api.call("DELETE", f"/api/pitch/{fid}", headers)
    assert status == 200, body
    assert body["feature"]["status"] == "ended" and body["feature"]["approvedAt"] is None
    assert api.call("POST", f"/api/pitch/{fid}/checkout", headers, {})[0] == 409  # nothing left to pay
    assert api.call("POST", "/api/pitch", headers, OPPORTUNITY)[0] == 201


def test_a_withdrawn_feature_that_never_went_live_is_only_visible_to_its_owner(shop: Shop, admin_headers):
    """Withdrawn before approval, a feature was never in the Pitch Area: another member gets the
    same 404 as for one that never existed (not its title and offer); one that was live and
    then ended stays readable, as it was public."""
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="feature@example.com", name="Fay Feature", password=None, access="feature"
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fay's Florals", category="home")
    owner = auth_headers(
        tokens.issue_access_token(user.user_id, account.account_id, "feature"), int(brand.brand_id)
    )
    api = shop.api
    fern = Brand("b@example.com", "Fern Candles", credits=6)
    fid = api.call("POST", "/api/pitch", owner, OPPORTUNITY)[1]["feature"]["id"]
    assert api.call("DELETE", f"/api/pitch/{fid}", owner)[1]["feature"]["status"] == "ended"

    assert api.call("GET", f"/api/pitch/{fid}", fern.headers) == (404, {"error": "Feature not found"})
    status, body = api.call("GET", f"/api/pitch/{fid}", owner)
    assert (status, body["feature"]["title"], body["feature"]["own"]) == (200, OPPORTUNITY["title"], True)

    oat = Brand("a@example.com", "Oat & Co", credits=6)
    was_live = live_feature(api, oat, admin_headers)
    assert api.call("DELETE", f"/api/pitch/{was_live}", oat.headers)[0] == 200
    status, body = api.call("GET", f"/api/pitch/{was_live}", fern.headers)
    assert (status, body["feature"]["status"], body["feature"]["canPitch"]) == (200, "ended", False)


@pytest.mark.delivery
def test_a_refused_paid_feature_product_is_refunded_and_the_owner_is_told(shop: Shop, admin_headers):
    from tandem.services import accounts, brands, tokens
    from tandem.store.models import Account

    account, user = accounts.create_account_with_user(
        email="feature@example.com", name="Fay Feature", password=None, access="feature"
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fay's Florals", category="home")
    headers = auth_headers(
        tokens.issue_access_token(user.user_id, account.account_id, "feature"), int(brand.brand_id)
    )
    api = shop.api
    fid = api.call("POST", "/api/pitch", headers, OPPORTUNITY)[1]["feature"]["id"]
    shop.pay(api.call("POST", f"/api/pitch/{fid}/checkout", headers, {})[1]["url"])
    shop.deliver_all(shop.new_events())
    assert api.call("GET", "/api/pitch/mine", headers)[1]["features"][0]["paid"] is True

    status, body = api.call(
        "POST",
        f"/api/admin/features/{fid}/refuse",
        admin_headers,
        {"reason": "We could not verify the brand."},
    )
    assert status == 200, body
    assert body["creditsReturned"] == 0
    assert body["payment"] == {"amount": 14900, "currency": "gbp", "refunded": True}
    (purchase,) = Account.find(account.account_id).billing["features"]
    assert purchase["feature"] == fid and purchase["refunded"] is True

    (mail,) = [m for m in mail_to("feature@example.com") if "not approved" in m.subject]
    assert mail.subject == "Your feature for Fay's Florals was not approved"
    assert "Why: We could not verify the brand." in mail.body
    assert "We've refunded your payment of £149 for the feature to the card you paid with." in mail.body
    assert "credits" not in mail.body
    assert "/pitch/new" in mail.body
    (entry,) = [
        e for e in api.call("GET", "/api/admin/audit", admin_headers)[1]["entries"] if e["target"] == fid
    ]
    assert entry["details"]["payment"]["refunded"] is True
