"""Security review of brands, matches and requests: each test is an attack that must fail.

Masked brands must not be identifiable through any field (a logo identifies a brand as surely
as its name), and list cursors must only move within the list they came from.
"""

from __future__ import annotations

import base64
import json
import re

import pytest

from tests.functional.helpers import Brand, available, send

LINK = re.compile(r"https?://[^/\s]+(/quick-action/(accept|decline)/\d+/\d+/\S+)")


def with_logo(brand: Brand) -> str:
    """Give the brand a stored logo (as a completed upload would) and return its address."""
    from tandem.store.models import Brand as BrandModel

    key = f"logos/{brand.id}/{'a' * 32}.png"
    brand.brand.update(actions=[BrandModel.logo_key.set(key)])
    return f"/assets/{key}"


def logos_in(payload) -> list[str]:
    return re.findall(r"/assets/logos/[^\"' ]+", json.dumps(payload))


@pytest.mark.delivery
def test_a_hidden_senders_logo_is_not_shown_to_the_recipient(api):
    """A brand that hides its name shows 'A <category> brand' to the recipient until the two
    are connected; its logo would give the name away, so it is not shown either."""
    from tests.functional.helpers import mail_to

    hidden = Brand("hidden@example.com", "Secret Oats", credits=6, category="food & drink", hide_name=True)
    logo = with_logo(hidden)
    other = Brand("other@example.com", "Fern Candles", category="home")

    status, body = send(api, hidden, other)
    assert status == 201, body
    assert body["request"]["fromBrand"]["logoUrl"] == logo  # the sender sees its own logo
    request_id = body["request"]["id"]

    status, received = api.call("GET", "/api/requests?box=received", other.headers)
    assert status == 200
    (item,) = received["items"]
    assert item["fromBrand"]["name"] == "A food & drink brand"
    assert item["fromBrand"]["logoUrl"] is None
    status, viewed = api.call("GET", f"/api/requests/{request_id}", other.headers)
    assert status == 200 and viewed["request"]["fromBrand"]["logoUrl"] is None

    # The email's decline link answers with the request's brands: still masked.
    (mail,) = [m for m in mail_to("other@example.com") if "would like to collaborate" in m.subject]
    decline = dict((action, path) for path, action in LINK.findall(mail.body))["decline"]
    status, answer = api.call("POST", f"/api{decline}")
    assert status == 200, answer
    assert answer["request"]["fromBrand"]["name"] == "A food & drink brand"
    assert logo not in logos_in(answer)

    status, declines = api.call("GET", "/api/declines?dir=in", other.headers)
    assert status == 200
    assert logo not in logos_in(declines)


def test_a_hidden_recipients_logo_is_not_shown_to_the_sender(api):
    sender = Brand("sender@example.com", "Oat & Co", credits=6, category="food & drink")
    hidden = Brand("hidden@example.com", "Secret Candles", category="home", hide_name=True)
    logo = with_logo(hidden)

    status, body = send(api, sender, hidden)
    assert status == 201, body
    assert body["request"]["toBrand"]["name"] == "A home brand"
    assert body["request"]["toBrand"]["logoUrl"] is None
    request_id = body["request"]["id"]
    status, listed = api.call("GET", "/api/requests?box=sent", sender.headers)
    assert status == 200 and logo not in logos_in(listed)

    status, _ = api.call("POST", f"/api/requests/{request_id}/decline", hidden.headers, {})
    assert status == 200
    status, declines = api.call("GET", "/api/declines?dir=out", sender.headers)
    assert status == 200 and declines["items"][0]["toBrand"]["name"] == "A home brand"
    assert logo not in logos_in(declines)


def test_a_connected_hidden_brand_shows_its_logo(api):
    """Once connected, names and logos are shown (the fix must not over-mask)."""
    sender = Brand("sender@example.com", "Oat & Co", credits=6, category="food & drink")
    hidden = Brand("hidden@example.com", "Secret Candles", category="home", hide_name=True)
    logo = with_logo(hidden)
    request_id = send(api, sender, hidden)[1]["request"]["id"]
    status, body = api.call("POST", f"/api/requests/{request_id}/accept", hidden.headers)
    assert status == 200, body
    status, viewed = api.call("GET", f"/api/requests/{request_id}", sender.headers)
    assert viewed["request"]["toBrand"] == {
        "id": hidden.id,
        "name": "Secret Candles",
        "logoUrl": logo,
        "category": "home",
    }


def _cursor(key: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "path, gsi, box",
    [
        ("/api/requests?box=received", "gsi1", "PENDING"),
        ("/api/requests?box=sent", "gsi2", "PENDING"),
        ("/api/declines?dir=out", "gsi2", "DECLINED"),
    ],
)
def test_a_cursor_pointing_outside_its_list_is_refused(api, path, gsi, box):
    """A hand-made cursor naming this brand's partition but another box (or a made-up item)
    is refused as out of date, not passed on to DynamoDB (which answers it with an error)."""
    me = Brand("me@example.com", "Oat & Co", credits=6)
    from tandem.store import keys

    partition = keys.requests_in_gsi(me.id) if gsi == "gsi1" else keys.requests_out_gsi(me.id)
    for sort_key, pk in (
        ("CONNECTED#1700000000000#abc", "REQUEST#abc"),  # another box of the same partition
        (f"{box}#1700000000000#abc", f"BRAND#{me.id}"),  # not a request item
        (f"{box}#1700000000000#abc", "REQUEST#other"),  # a key that no item can have
    ):
        cursor = _cursor(
            {"pk": {"S": pk}, "sk": {"S": "META"}, f"{gsi}pk": {"S": partition}, f"{gsi}sk": {"S": sort_key}}
        )
        status, body = api.call("GET", f"{path}&cursor={cursor}", me.headers)
        assert status == 400, (sort_key, pk, status, body)
        assert body == {"error": "This list link is out of date. Please reload the list."}


def test_a_connections_cursor_pointing_outside_its_list_is_refused(api):
    from tandem.store import keys

    me = Brand("me@example.com", "Oat & Co", credits=6)
    inner = _cursor(
        {
            "pk": {"S": "REQUEST#abc"},
            "sk": {"S": "META"},
            "gsi1pk": {"S": keys.requests_in_gsi(me.id)},
            "gsi1sk": {"S": "PENDING#1700000000000#abc"},
        }
    )
    status, body = api.call(
        "GET", f"/api/connections?cursor={_cursor({'in': inner, 'out': 'end'})}", me.headers
    )
    assert status == 400, body
    assert body == {"error": "This list link is out of date. Please reload the list."}


# Python's str.isdigit() accepts characters int() refuses ('²', '³', '①'): ids checked with it
# answered such input with a 500 (and an error log) instead of a 400.
SUPERSCRIPT_TWO = "%C2%B2"


def test_ids_with_non_ascii_digits_are_a_bad_request_not_a_server_error(api):
    me = Brand("me@example.com", "Oat & Co", credits=6)
    assert api.call("GET", f"/api/brand/{SUPERSCRIPT_TWO}", me.headers) == (
        400,
        {"error": "Brand id must be a positive number"},
    )
    assert api.call("PUT", f"/api/matches/{SUPERSCRIPT_TWO}/saved", me.headers)[0] == 400
    # API Gateway decodes path parameters; the brand header reaches the same check undecoded.
    status, body = api.call("GET", "/api/matches", {**me.headers, "X-Brand-Id": "²"})
    assert (status, body) == (400, {"error": "Brand id must be a positive number"})
    status, body = api.call("GET", f"/api/matches?brandIds={SUPERSCRIPT_TWO}", me.headers)
    assert status == 400, body
    status, body = api.call("POST", "/api/requests", me.headers, {"toBrandId": "²", "message": "Hi"})
    assert status == 400, body
    assert body["errors"] == {"toBrandId": "This field is required"}
    status, body = api.call("POST", f"/api/quick-action/accept/{SUPERSCRIPT_TWO}/1/abc-1-xyz")
    assert status == 400, body
    status, body = api.call("POST", f"/api/quick-action/accept/1/2/abc-{SUPERSCRIPT_TWO}-xyz")
    assert status == 400, body
    assert body == {"error": "This link is not valid. Please sign in to answer the request."}


ADMIN_ROUTES = {
    ("/api/admin/users", "GET"),
    ("/api/admin/members", "GET"),
    ("/api/admin/accounts/{account_id}/require-approval", "POST"),
    ("/api/admin/approvals", "GET"),
    ("/api/admin/approvals/{account_id}/approve", "POST"),
    ("/api/admin/approvals/{account_id}/refuse", "POST"),
    ("/api/admin/accounts/{account_id}/refund", "GET"),
    ("/api/admin/accounts/{account_id}/refund", "POST"),
    ("/api/admin/credits/grant", "POST"),
    ("/api/admin/issue-reports", "GET"),
    ("/api/admin/settings", "GET"),
    ("/api/admin/settings", "PUT"),
    ("/api/admin/audit", "GET"),
    ("/api/admin/collaborations", "GET"),
    ("/api/admin/reports", "GET"),
    ("/api/admin/reports/{brandId}", "GET"),
    ("/api/admin/reports/{brandId}/action", "POST"),
}


def test_every_admin_route_refuses_a_member_and_records_nothing(api, aws):
    """Walks the app's route table: every /admin/ route (the Pitch Area's feature approval
    too) answers a member 403, acting on the member's own account, and writes no audit entry."""
    from infra.local.lambda_inprocess import load_handler_module
    from tandem.store.admin import AuditEntry, SiteSettings
    from tandem.store.models import Account

    app = load_handler_module(aws.functions["ApiFunction"]).load_every_area()
    mia = Brand("mia@example.com", "Oat & Co", credits=6, status="none")
    admin_routes = {
        (p, m) for p, methods in app.routes.items() for m in methods if p.startswith("/api/admin/")
    }
    assert ADMIN_ROUTES <= admin_routes
    body = {
        "reason": "x",
        "globalMessage": "hacked",
        "approveNewMembers": True,
        "email": mia.email,
        "amount": 5,
    }
    body |= {"kind": "gifted", "days": 30}
    for path, method in sorted(admin_routes):
        filled = re.sub(r"\{[^}]+\}", mia.account, path)
        status, answer = api.call(method, filled, mia.headers, body if method in ("POST", "PUT") else None)
        assert (status, answer) == (403, {"error": "Only Tandem admins can do that"}), (method, path)
    assert AuditEntry.newest(10, None)[0] == []
    assert SiteSettings.find() is None
    assert Account.find(mia.account).billing_approval is None
    assert available(mia.account) == 6
