"""Member collabs through the API: a connection is shown under GET collab/examples only once
both of its brands agreed; a brand that is not a party can neither see nor change its share;
either brand can withdraw it. Also the calendar (GET collab/calendar)."""

from __future__ import annotations

import pytest

from tests.factories import auth_headers, member
from tests.functional.helpers import Brand, send

SUMMARY = "A winter bundle: our oat drink with their candles, sold on both shops in December."


@pytest.fixture
def pair(api):
    a = Brand("oat@example.com", "Oat & Co", credits=6, category="food & drink")
    b = Brand("fern@example.com", "Fern Candles", category="home")
    status, body = send(api, a, b)
    assert status == 201, body
    status, body = api.call("POST", f"/api/requests/{body['request']['id']}/accept", b.headers)
    assert status == 200, body
    return a, b


def share(api, who: Brand, other: Brand, method: str = "GET", body=None, tail: str = ""):
    return api.call(method, f"/api/connections/{other.id}/share{tail}", who.headers, body)


def examples(api, who: Brand) -> list[dict]:
    status, body = api.call("GET", "/api/collab/examples", who.headers)
    assert status == 200, body
    return body["items"]


def test_a_connection_is_shown_only_after_both_brands_agree(api, pair):
    a, b = pair
    assert share(api, a, b)[1] == {"share": {"state": "none"}}

    status, body = share(api, a, b, "POST", {"summary": f"  {SUMMARY} ", "idea": "product-bundle"})
    assert status == 200, body
    proposal = body["share"]
    assert proposal["state"] == "waiting-for-them" and proposal["proposedByYou"] is True
    assert proposal["summary"] == SUMMARY
    assert proposal["idea"] == {"slug": "product-bundle", "title": proposal["idea"]["title"]}
    assert examples(api, a) == [] and examples(api, b) == []  # one side is not enough

    _, seen = share(api, b, a)
    assert seen["share"]["state"] == "waiting-for-you" and seen["share"]["proposedByYou"] is False
    assert seen["share"]["summary"] == SUMMARY

    status, body = share(api, b, a, "POST", {"proposedAt": seen["share"]["proposedAt"]}, "/agree")
    assert status == 200, body
    assert body["share"]["state"] == "shared" and body["share"]["sharedAt"].endswith("Z")
    assert share(api, a, b)[1]["share"]["state"] == "shared"

    other = Brand("reader@example.com", "Kiln Studio")
    (item,) = examples(api, other)
    assert item["_id"] and item["name"] == "Oat & Co × Fern Candles"
    assert item["active"] is True and item["shared"] is True and item["yours"] is False
    assert [brand["name"] for brand in item["brands"]] == ["Oat & Co", "Fern Candles"]
    assert item["summary"] == SUMMARY and item["idea"]["slug"] == "product-bundle"
    assert examples(api, a)[0]["yours"] is True


def test_a_brand_that_hides_its_name_stays_hidden_in_member_collabs_but_to_its_partner(api):
    """Issue 40: sharing a collab does not give away a hidden name: other members read the
    brand masked and the summary without its name; its partner and its own account see it."""
    zed = Brand("zed@example.com", "Zyxquor Hidden Studio", credits=6, hide_name=True, category="outdoors")
    ria = Brand("ria@example.com", "Ria Rugs", category="home")
    status, body = send(api, zed, ria)
    api.call("POST", f"/api/requests/{body['request']['id']}/accept", ria.headers)
    summary = "Zyxquor  Hidden  Studio tents with Ria Rugs blankets, on zyxquor-hidden-studio.example."
    _, body = share(api, zed, ria, "POST", {"summary": summary})
    assert share(api, ria, zed, "POST", {"proposedAt": body["share"]["proposedAt"]}, "/agree")[0] == 200

    (item,) = examples(api, Brand("reader@example.com", "Kiln Studio"))
    assert [b["name"] for b in item["brands"]] == ["An outdoors brand", "Ria Rugs"]
    assert item["name"] == "An outdoors brand × Ria Rugs" and item["brands"][0]["logoUrl"] is None
    assert item["summary"] == "This brand tents with Ria Rugs blankets, on this brand's website."
    for party in (zed, ria):
        (own,) = examples(api, party)
        assert own["name"] == "Zyxquor Hidden Studio × Ria Rugs" and own["summary"] == " ".join(
            summary.split()
        )


def test_agreeing_needs_the_proposal_as_it_is_now(api, pair):
    a, b = pair
    share(api, a, b, "POST", {"summary": SUMMARY})
    _, second = share(api, a, b, "POST", {"summary": SUMMARY + " Edited."})
    assert share(api, b, a)[1]["share"]["summary"] == SUMMARY + " Edited."
    stale = second["share"]["proposedAt"] - 1  # b read an earlier proposal
    status, body = share(api, b, a, "POST", {"proposedAt": stale}, "/agree")
    assert (status, body["error"]) == (
        409,
        "The proposal changed while you were reading it: read the new summary and agree again.",
    )
    status, body = share(api, a, b, "POST", {"proposedAt": second["share"]["proposedAt"]}, "/agree")
    assert (status, body["error"]) == (409, "Your brand has already agreed to share this collab.")
    status, body = share(api, b, a, "POST", {}, "/agree")
    assert (status, body["error"]) == (400, "Say which proposal you agree to (proposedAt).")
    assert examples(api, a) == []


def test_a_brand_that_is_not_a_party_can_neither_see_nor_agree_nor_withdraw(api, pair):
    a, b = pair
    _, body = share(api, a, b, "POST", {"summary": SUMMARY})
    stranger = Brand("stranger@example.com", "Kiln Studio")
    for method, tail, payload in [
        ("GET", "", None),
        ("POST", "", {"summary": SUMMARY}),
        ("POST", "/agree", {"proposedAt": body["share"]["proposedAt"]}),
        ("DELETE", "", None),
    ]:
        status, answer = share(api, stranger, a, method, payload, tail)
        assert (status, answer["error"]) == (404, "You are not connected with this brand"), (method, tail)
    # Acting as a brand of another account is refused before anything is read.
    headers = auth_headers(stranger.token, b.id)
    status, _ = api.call("POST", f"/api/connections/{a.id}/share/agree", headers, {"proposedAt": 1})
    assert status == 403
    assert share(api, b, a)[1]["share"]["state"] == "waiting-for-you"
    assert examples(api, stranger) == []


def test_either_brand_can_withdraw_and_it_leaves_member_collabs(api, pair):
    a, b = pair
    _, body = share(api, b, a, "POST", {"summary": SUMMARY})
    share(api, a, b, "POST", {"proposedAt": body["share"]["proposedAt"]}, "/agree")
    assert len(examples(api, a)) == 1

    status, body = share(api, b, a, "DELETE")  # the brand that proposed
    assert (status, body) == (200, {"share": {"state": "none"}})
    assert examples(api, a) == [] and share(api, a, b)[1]["share"]["state"] == "none"

    _, body = share(api, b, a, "POST", {"summary": SUMMARY})
    share(api, a, b, "POST", {"proposedAt": body["share"]["proposedAt"]}, "/agree")
    status, _ = share(api, a, b, "DELETE")  # the brand that agreed
    assert status == 200 and examples(api, b) == []
    status, body = share(api, a, b, "DELETE")
    assert (status, body["error"]) == (404, "There is no proposal to share this collab.")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (None, "Write a short summary of what you did together."),
        ({"summary": "   "}, "Write a short summary of what you did together."),
        ({"summary": "Too short"}, "The summary must be 20 to 500 characters (it has 9)."),
        ({"summary": "x" * 501}, "The summary must be 20 to 500 characters (it has 501)."),
        ({"summary": SUMMARY, "idea": "no-such-idea"}, "Choose the Collab Idea from the list, or none."),
        ({"summary": SUMMARY, "idea": 7}, "Choose the Collab Idea from the list, or none."),
    ],
)
def test_a_bad_proposal_is_a_clear_400_and_saves_nothing(api, pair, payload, message):
    a, b = pair
    status, body = share(api, a, b, "POST", payload)
    assert (status, body["error"]) == (400, message)
    assert share(api, a, b)[1]["share"]["state"] == "none"


def test_a_request_not_yet_accepted_cannot_be_shared(api):
    a = Brand("oat@example.com", "Oat & Co", credits=6)
    b = Brand("fern@example.com", "Fern Candles")
    send(api, a, b)
    status, body = share(api, a, b, "POST", {"summary": SUMMARY})
    assert (status, body["error"]) == (404, "You are not connected with this brand")
    status, body = api.call("GET", "/api/connections/abc/share", a.headers)
    assert (status, body["error"]) == (400, "Brand id must be a positive number")


def test_the_calendar_lists_moments_by_month_and_what_is_coming_up(api):
    _, (brand,), token = member("reader@example.com")
    headers = auth_headers(token, int(brand.brand_id))
    status, body = api.call("GET", "/api/collab/calendar?country=gb", headers)
    assert status == 200, body
    assert body["country"] == "GB" and len(body["months"]) == 12
    names = [m["name"] for month in body["months"] for m in month["moments"]]
    assert "Mother's Day (UK)" in names and "Mother's Day (US)" not in names
    assert all("GB" in m["countries"] for month in body["months"] for m in month["moments"])
    starts = [m["date"] for m in body["upcoming"]]
    assert starts == sorted(starts) and all(m["end"] >= body["today"] for m in body["upcoming"])
    moment = body["upcoming"][0]
    assert moment["lead"] == f"Plan {moment['leadWeeks']} weeks ahead"
    assert all(slug in body["ideas"] for slug in moment["ideas"])

    _, both = api.call("GET", "/api/collab/calendar", headers)
    both_names = {m["name"] for month in both["months"] for m in month["moments"]}
    assert {"Mother's Day (UK)", "Mother's Day (US)", "Black Friday"} <= both_names

    status, body = api.call("GET", "/api/collab/calendar?country=FR", headers)
    assert (status, body["error"]) == (400, "Unknown country 'FR': use one of GB, US.")
    status, body = api.call("GET", "/api/collab/calendar?year=1999", headers)
    assert status == 400 and body["error"].startswith("Year must be one of")


def test_the_demo_seed_connects_maker_and_partner_with_nothing_shared(api):
    from infra.local.seed import seed
    from tandem.services import accounts, auth

    seed(population=60)
    heads = {}
    for email in ("maker@tandem.local", "partner@tandem.local"):
        user = accounts.find_user_by_email(email)
        heads[email] = {"Authorization": f"Bearer {auth.login_response(user)['access_token']}"}
    (connection,) = api.call("GET", "/api/connections", heads["maker@tandem.local"])[1]["items"]
    assert connection["brand"]["name"] == "Sea Salt Soap Co"
    (back,) = api.call("GET", "/api/connections", heads["partner@tandem.local"])[1]["items"]
    assert back["brand"]["name"] == "Kiln & Clay Studio"
    status, body = api.call(
        "GET", f"/api/connections/{connection['brand']['id']}/share", heads["maker@tandem.local"]
    )
    assert (status, body) == (200, {"share": {"state": "none"}})
    assert api.call("GET", "/api/collab/examples", heads["maker@tandem.local"])[1]["items"] == []
