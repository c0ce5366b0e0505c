"""The admin console (issue 12) on moto with the fake Stripe: pending approval (held requests
go out on approval; a refusal cancels them, returns their credits and refunds the plan), the
30-day money-back refund, gifted credits, issue reports, the global message, the member search,
and the audit log of every action. What a member or an admin sees is asserted through the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import auth_headers
from tests.functional.helpers import Api, Brand, available, mail_to, relation_state, send
from tests.functional.test_billing import Shop, fake, shop  # noqa: F401 - fixtures (F811 where used)


@pytest.fixture
def boss(aws) -> dict[str, Any]:
    from tandem.services import accounts, tokens

    _, user = accounts.create_account_with_user(
        email="boss@tandem.local", name="Ada Admin", password=None, access="admin"
    )
    token = tokens.issue_access_token(user.user_id, user.account_id, "admin")
    return {"user": user, "headers": auth_headers(token)}


def actions(api: Api, boss: dict[str, Any]) -> list[tuple[str, str, str]]:
    status, body = api.call("GET", "/api/admin/audit", boss["headers"])
    assert status == 200, body
    return [(e["action"], e["target"], e["actor"]["email"]) for e in body["entries"]]


def pending_member(shop: Shop, boss: dict[str, Any], email: str = "mia@tandem.local") -> Brand:  # noqa: F811
    """A member whose first plan waits for approval: marked by an admin, then paid."""
    mia = Brand(email, "Oat & Co", status="none")
    path = f"/api/admin/accounts/{mia.account}/require-approval"
    status, body = shop.api.call("POST", path, boss["headers"])
    assert status == 200 and body["plan"]["approval"] == "required", body
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    credits = shop.credits(mia)
    assert credits["pendingApproval"] is True and credits["available"] == 6
    return mia


@pytest.mark.delivery
def test_approval_delivers_the_requests_held_while_it_waited(shop: Shop, boss) -> None:  # noqa: F811
    api = shop.api
    mia = pending_member(shop, boss)
    fern = Brand("fern@tandem.local", "Fern Candles")

    status, queue = api.call("GET", "/api/admin/approvals", boss["headers"])
    assert status == 200
    assert [(a["accountId"], a["email"], a["plan"]["status"]) for a in queue["accounts"]] == [
        (mia.account, "mia@tandem.local", "pending_approval")
    ]

    status, sent = send(api, mia, fern)
    assert status == 201 and sent["request"]["status"] == "awaiting_approval"
    assert api.call("GET", "/api/requests?box=received", fern.headers)[1]["items"] == []
    assert mail_to("fern@tandem.local") == []

    status, body = api.call("POST", f"/api/admin/approvals/{mia.account}/approve", boss["headers"])
    assert status == 200, body
    assert body["released"] == 1 and body["plan"]["status"] == "active"
    entry = api.call("GET", "/api/admin/audit", boss["headers"])[1]["entries"][0]
    assert entry["action"] == "approval.approve"
    assert "1 held request sent to its brand" in entry["facts"]  # issue 39: not "1 requests sent on"
    received = api.call("GET", "/api/requests?box=received", fern.headers)[1]["items"]
    assert [(i["id"], i["status"]) for i in received] == [(sent["request"]["id"], "pending")]
    assert any("would like to collaborate" in m.subject for m in mail_to("fern@tandem.local"))
    approved = [m for m in mail_to("mia@tandem.local") if m.subject == "Your Tandem subscription is approved"]
    assert len(approved) == 1 and "now on their way" in approved[0].body
    credits = shop.credits(mia)
    assert credits["pendingApproval"] is False and credits["active"] is True and credits["available"] == 5

    assert api.call("GET", "/api/admin/approvals", boss["headers"])[1]["accounts"] == []
    assert api.call("POST", f"/api/admin/approvals/{mia.account}/approve", boss["headers"]) == (
        409,
        {"error": "This member's subscription is not waiting for approval."},
    )
    assert actions(api, boss)[:2] == [
        ("approval.approve", mia.account, "boss@tandem.local"),
        ("approval.required", mia.account, "boss@tandem.local"),
    ]


@pytest.mark.delivery
def test_a_refusal_cancels_held_requests_returns_their_credits_and_refunds(shop: Shop, boss) -> None:  # noqa: F811
    from tandem.services import credits
    from tandem.store.models import CreditHold

    api = shop.api
    mia = pending_member(shop, boss)
    credits.grant(mia.account, kind="gifted", amount=3, valid_from=0, valid_to=2_000_000_000, op_id="gift:t")
    fern = Brand("fern@tandem.local", "Fern Candles")
    request_id = send(api, mia, fern)[1]["request"]["id"]
    assert available(mia.account) == 8

    path = f"/api/admin/approvals/{mia.account}/refuse"
    assert api.call("POST", path, boss["headers"], {"reason": "  "}) == (
        400,
        {"error": "Please give a reason"},
    )
    status, body = api.call("POST", path, boss["headers"], {"reason": "We could not verify your brand."})
    assert status == 200, body
    assert body["cancelledRequests"] == 1 and body["refund"]["amount"] == 4900
    shop.deliver_all(shop.new_events())

    sent = api.call("GET", "/api/requests?box=sent", mia.headers)[1]["items"]
    assert [(i["id"], i["status"]) for i in sent] == [(request_id, "cancelled")]
    assert CreditHold.find(mia.account, request_id, consistent=True).status == "released"
    assert api.call("GET", "/api/requests?box=received", fern.headers)[1]["items"] == []
    assert relation_state(fern.id, mia.id) == ""
    # The held credit came back; the refunded plan's unspent credits went: the gift is left.
    info = shop.credits(mia)
    assert info["available"] == 3 and info["pendingApproval"] is False and info["hasSubscription"] is False
    assert credits.verify(mia.account) == {}
    (refused,) = [m for m in mail_to("mia@tandem.local") if m.subject == "About your Tandem subscription"]
    assert "We could not verify your brand." in refused.body
    from tandem.integrations import stripe_client as sc

    subs = sc.client().v1.subscriptions.list({"customer": brand_customer(mia), "status": "all"}).data
    assert [s.status for s in subs] == ["canceled"]
    assert actions(api, boss)[0] == ("approval.refuse", mia.account, "boss@tandem.local")
    assert api.call("POST", path, boss["headers"], {"reason": "again"})[0] == 409


def brand_customer(member: Brand) -> str:
    from tandem.services import billing
    from tandem.store.models import Account

    return billing.customers_of(Account.find(member.account))[0]


@pytest.mark.delivery
def test_a_refund_within_30_days_ends_the_plan_and_takes_back_the_unspent_credits(shop: Shop, boss) -> None:  # noqa: F811
    api = shop.api
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    fern = Brand("fern@tandem.local", "Fern Candles")
    assert send(api, mia, fern)[0] == 201
    assert shop.credits(mia)["available"] == 5

    path = f"/api/admin/accounts/{mia.account}/refund"
    status, preview = api.call("GET", path, boss["headers"])
    assert status == 200 and preview["message"] is None
    assert (preview["payment"]["amount"], preview["payment"]["withinGuarantee"]) == (4900, True)

    status, body = api.call("POST", path, boss["headers"])
    assert status == 200, body
    assert body["refund"]["amount"] == 4900 and body["plan"]["status"] == "none"
    shop.deliver_all(shop.new_events())
    info = shop.credits(mia)
    assert info["active"] is False and info["available"] == 0 and available(mia.account) == 0
    (mail,) = [m for m in mail_to("mia@tandem.local") if m.subject.startswith("Refund issued")]
    assert "£49" in mail.subject
    assert actions(api, boss)[0][:2] == ("refund.issue", mia.account)
    # The log names the member and the amount, with the admin page that shows them; no raw ids.
    entry = api.call("GET", "/api/admin/audit", boss["headers"])[1]["entries"][0]
    assert entry["subject"] == {
        "label": "Mia Member (mia@tandem.local)",
        "href": "/admin/users?q=mia%40tandem.local",
    }
    assert entry["facts"][0] == "£49 refunded"
    assert not any(fact.startswith(("in_", "re_", "ch_")) or " in_" in fact for fact in entry["facts"])
    assert api.call("POST", path, boss["headers"]) == (
        409,
        {"error": "There is no payment from the last 30 days to refund: the money-back guarantee has ended."},
    )


@pytest.mark.delivery
def test_a_refund_after_30_days_is_refused_with_a_clear_message(shop: Shop, boss) -> None:  # noqa: F811
    from tandem.services import admin

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia, "tandem_main_yearly"))
    shop.deliver_all(shop.new_events())
    later = shop.fake.advance_clock(days=31)
    preview = admin.refund_preview(mia.account, now=later)
    assert preview["payment"]["withinGuarantee"] is False
    assert preview["message"].startswith("The latest payment was made more than 30 days ago")
    from tandem.errors import Conflict

    with pytest.raises(Conflict, match="the money-back guarantee has ended"):
        admin.refund(boss["user"], mia.account, now=later)
    assert shop.credits(mia)["active"] is True
    assert [a for a, _, _ in actions(shop.api, boss)] == []


def test_require_approval_is_refused_while_a_plan_runs(api, boss) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co")  # active
    status, body = api.call("POST", f"/api/admin/accounts/{mia.account}/require-approval", boss["headers"])
    assert (status, body) == (
        409,
        {"error": "This member already has a plan; approval applies to a new plan."},
    )
    assert api.call("POST", "/api/admin/accounts/nope-1/require-approval", boss["headers"])[0] == 404


def test_the_console_offers_require_approval_where_the_server_allows_it(api, boss) -> None:
    """canRequireApproval is the rule POST require-approval applies: a member without a plan,
    once; never a member with a plan."""
    zed = Brand("zed@tandem.local", "Zed Goods", status="none")
    Brand("kim@tandem.local", "Kim Kites")  # active: a plan in force

    def offered(who: str) -> bool:
        status, body = api.call("GET", f"/api/admin/members?q={who}@", boss["headers"])
        assert status == 200, body
        return body["users"][0]["canRequireApproval"]

    assert (offered("zed"), offered("kim")) == (True, False)
    path = f"/api/admin/accounts/{zed.account}/require-approval"
    assert api.call("POST", path, boss["headers"])[0] == 200
    assert offered("zed") is False
    status, body = api.call("POST", path, boss["headers"])
    assert status == 409, body


def test_the_console_offers_the_free_trial_where_the_server_grants_it(api, boss) -> None:
    """canGrantTrial is the rule POST grant {kind: trial} applies: a member without a plan who
    never had the trial; never a member with a plan, a feature-only account, or a second time."""
    from tests.functional.test_account_types import FeatureOnly

    zed = Brand("zed@tandem.local", "Zed Goods", status="none")
    Brand("kim@tandem.local", "Kim Kites")  # active: a plan in force
    fin = FeatureOnly("fin@tandem.local", "Northwind Trail")

    def offered(who: str) -> bool:
        status, body = api.call("GET", f"/api/admin/members?q={who}@", boss["headers"])
        assert status == 200, body
        return body["users"][0]["canGrantTrial"]

    def grant(who: Brand) -> tuple[int, Any]:
        path = f"/api/admin/accounts/{who.account}/grant"
        return api.call("POST", path, boss["headers"], {"kind": "trial"})

    assert (offered("zed"), offered("kim"), offered("fin")) == (True, False, False)
    assert grant(fin) == (409, {"error": "A feature-only account buys features; it has no free trial."})
    assert grant(zed)[0] == 200
    assert offered("zed") is False  # trialling: a plan in force
    assert api.call("DELETE", f"/api/admin/accounts/{zed.account}/grant", boss["headers"])[0] == 200
    assert offered("zed") is False  # ended, but had once
    assert grant(zed) == (409, {"error": "This member has already had their free trial."})


def test_sign_ups_need_approval_only_when_the_setting_is_on(api, boss) -> None:
    from tandem.store.models import Account, User

    body = {
        "name": "Nia New",
        "email": "nia@tandem.local",
        "password": "Tandem-Oats-2026",
        "brandName": "Nia Teas",
    }
    assert api.call("POST", "/api/users/create-account", {}, body)[0] == 201
    nia = User.with_email("nia@tandem.local")
    assert Account.find(nia.account_id).billing_approval is None

    status, settings = api.call("PUT", "/api/admin/settings", boss["headers"], {"approveNewMembers": True})
    assert (status, settings["approveNewMembers"]) == (200, True)
    body = {**body, "name": "Ola Other", "email": "ola@tandem.local", "brandName": "Ola Teas"}
    assert api.call("POST", "/api/users/create-account", {}, body)[0] == 201
    ola = User.with_email("ola@tandem.local")
    account = Account.find(ola.account_id)
    assert (account.billing_approval, account.approval_email) == ("required", "ola@tandem.local")
    assert actions(api, boss)[0][:2] == ("settings.approveNewMembers", "site")


def test_the_global_message_reaches_the_sign_in_answer(api, boss) -> None:
    from tandem.services import accounts

    accounts.create_account_with_user(
        email="mia@tandem.local", name="Mia", password="plum-kettle-harbour-91", confirmed=True
    )
    login = {"email": "mia@tandem.local", "password": "plum-kettle-harbour-91"}
    assert api.call("POST", "/api/users/login", {}, login)[1]["globalMessage"] is None
    too_long = {"globalMessage": "x" * 301}
    assert api.call("PUT", "/api/admin/settings", boss["headers"], too_long) == (
        400,
        {"error": "Please keep the message under 300 characters"},
    )
    message = {"globalMessage": "  Tandem will be down   for maintenance at 22:00 UTC. "}
    status, body = api.call("PUT", "/api/admin/settings", boss["headers"], message)
    assert (status, body["globalMessage"]) == (200, "Tandem will be down for maintenance at 22:00 UTC.")
    assert (
        api.call("GET", "/api/admin/settings", boss["headers"])[1]["globalMessage"] == body["globalMessage"]
    )
    answer = api.call("POST", "/api/users/login", {}, login)[1]
    assert answer["globalMessage"] == "Tandem will be down for maintenance at 22:00 UTC."
    assert api.call("PUT", "/api/admin/settings", boss["headers"], {"globalMessage": ""})[0] == 200
    assert api.call("POST", "/api/users/login", {}, login)[1]["globalMessage"] is None
    assert [a for a, _, _ in actions(api, boss)] == ["settings.globalMessage", "settings.globalMessage"]


def test_gifting_credits_and_the_issue_reports(api, boss) -> None:
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    gift = {"email": "MIA@tandem.local", "amount": 3, "kind": "gifted", "days": 30}
    status, body = api.call("POST", "/api/admin/credits/grant", boss["headers"], gift)
    assert status == 200 and body["credits"]["available"] == 3
    assert actions(api, boss) == [("credits.grant", "mia@tandem.local", "boss@tandem.local")]
    entry = api.call("GET", "/api/admin/audit", boss["headers"])[1]["entries"][0]
    assert entry["subject"]["label"] == "Mia Member (mia@tandem.local)"
    assert entry["subject"]["href"] == "/admin/users?q=mia%40tandem.local"
    assert entry["facts"] == ["3 credits (gifted) for 30 days"]
    bad = api.call("POST", "/api/admin/credits/grant", boss["headers"], {**gift, "amount": 0})
    assert bad[0] == 400 and len(actions(api, boss)) == 1  # nothing done, nothing recorded

    for n in range(3):
        report = {"description": f"Problem {n}", "path": "/matches"}
        assert api.call("POST", "/api/issues/report", mia.headers, report)[0] == 201
    status, listed = api.call("GET", "/api/admin/issue-reports", boss["headers"])
    assert status == 200
    assert [(r["description"], r["user"]["email"]) for r in listed["reports"]] == [
        ("Problem 2", "mia@tandem.local"),
        ("Problem 1", "mia@tandem.local"),
        ("Problem 0", "mia@tandem.local"),
    ]
    assert api.call("GET", "/api/admin/issue-reports?cursor=bm9wZQ", boss["headers"]) == (
        400,
        {"error": "This list has changed. Please reload it."},
    )


def test_the_member_search_is_server_side_and_paged(api, boss) -> None:
    from tandem.services import admin

    for n in range(30):
        Brand(f"shop{n:02d}@example.com", f"Shop {n}", status="none")
    Brand("zed@tandem.local", "Zed", status="none")
    status, body = api.call("GET", "/api/admin/members?q=zed", boss["headers"])
    assert status == 200
    assert [(u["email"], u["plan"]["status"]) for u in body["users"]] == [("zed@tandem.local", "none")]
    seen: list[str] = []
    cursor = None
    for _ in range(10):
        page = admin.members({"q": "SHOP", **({"cursor": cursor} if cursor else {})})
        assert len(page["users"]) <= admin.PAGE + 200
        seen += [u["email"] for u in page["users"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert sorted(seen) == [f"shop{n:02d}@example.com" for n in range(30)]
    # The old full list still answers for the impersonation field.
    everyone = api.call("GET", "/api/admin/users", boss["headers"])[1]["users"]
    assert {"zed@tandem.local", "boss@tandem.local"} <= {u["email"] for u in everyone}


def test_users_says_what_a_member_without_a_paid_plan_holds(api, boss) -> None:
    """Admin Users read "No plan" for a member holding only gifted credits (issue 22): the list
    now says what each member holds, from the entitlements rules."""
    Brand("gift@tandem.local", "Gift Shop", status="none")
    granted = Brand("granted@tandem.local", "Granted Goods", status="none")
    Brand("nothing@tandem.local", "Nothing Yet", status="none")
    gift = {"email": "gift@tandem.local", "amount": 3, "kind": "gifted", "days": 30}
    assert api.call("POST", "/api/admin/credits/grant", boss["headers"], gift)[0] == 200
    path = f"/api/admin/accounts/{granted.account}/grant"
    status, body = api.call("POST", path, boss["headers"], {"kind": "plan", "months": 3})
    assert status == 200, body

    plans = {}
    for who in ("gift", "granted", "nothing"):
        status, body = api.call("GET", f"/api/admin/members?q={who}@", boss["headers"])
        assert status == 200, body
        ((user,),) = (body["users"],)
        plans[who] = (user["plan"]["status"], user["plan"]["source"])
    assert plans == {
        "gift": ("gifted", None),  # was "none": No plan
        "granted": ("active", "tandem"),
        "nothing": ("none", None),
    }


def test_credits_held_when_the_plan_is_refunded_stay_taken_when_their_requests_are_cancelled(
    shop: Shop,  # noqa: F811
    boss,
) -> None:
    """Issue 40: pay, hold all 6 credits on requests, refund, cancel the 6: nothing comes back."""
    from tandem.services import credits
    from tandem.store.models import CreditHold

    api = shop.api
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    shop.deliver_all(shop.new_events())
    partners = [Brand(f"p{n}@tandem.local", f"Partner {n}") for n in range(7)]
    sent = [send(api, mia, p)[1]["request"]["id"] for p in partners[:6]]
    assert shop.credits(mia)["available"] == 0

    status, body = api.call("POST", f"/api/admin/accounts/{mia.account}/refund", boss["headers"])
    assert status == 200 and body["plan"]["status"] == "none", body
    shop.deliver_all(shop.new_events())
    for request_id in sent:
        status, body = api.call("POST", f"/api/requests/{request_id}/cancel", mia.headers)
        assert status == 200, body
    info = shop.credits(mia)
    assert (info["available"], info["canSend"]) == (0, False), info
    assert send(api, mia, partners[6])[0] == 402
    assert {CreditHold.find(mia.account, r, consistent=True).status for r in sent} == {"revoked"}
    assert credits.verify(mia.account) == {}


def test_credits_held_when_a_granted_plan_ends_stay_taken_when_their_requests_are_declined(api, boss) -> None:
    from tandem.services import credits

    tia = Brand("tia@tandem.local", "Tia Teas", status="none")
    status, body = api.call(
        "POST", f"/api/admin/accounts/{tia.account}/grant", boss["headers"], {"kind": "plan", "months": 1}
    )
    assert status == 200, body
    partners = [Brand(f"p{n}@tandem.local", f"Partner {n}") for n in range(3)]
    sent = [send(api, tia, p)[1]["request"]["id"] for p in partners]
    assert api.call("DELETE", f"/api/admin/accounts/{tia.account}/grant", boss["headers"])[0] == 200
    for partner, request_id in zip(partners, sent, strict=True):
        status, body = api.call("POST", f"/api/requests/{request_id}/decline", partner.headers, {})
        assert status == 200, body
    assert available(tia.account) == 0
    assert credits.verify(tia.account) == {}
