"""Blocking and reporting a brand, and the admin console's Reports queue (issue 27).

Blocks work both ways and silently: a blocked brand is left out of every list and answers as
an unknown brand; suspension by the team hides a brand everywhere. Every test asserts what a
member or an admin would see through the API.
"""

from __future__ import annotations

import pytest

from tests.factories import auth_headers, member
from tests.functional.helpers import Brand, available, mail_to, relation_state, send
from tests.functional.test_account_types import FeatureOnly

NOT_FOUND = (404, {"error": "Brand not found"})


def _block(api, who: Brand, other: int, method: str = "POST"):
    return api.call(method, f"/api/brands/{other}/block", who.headers)


def _report(
    api, who: Brand, other: int, reason: str = "spam", text: str = "Sent me the same thing ten times"
):
    return api.call("POST", f"/api/brands/{other}/report", who.headers, {"reason": reason, "text": text})


def _ids(items, key: str = "id") -> set[int]:
    return {int(i[key]) for i in items}


def _with_match(brand: Brand, other: Brand) -> None:
    """A stored match of `other` for `brand`, new to it (what a match run writes)."""
    from datetime import UTC, datetime

    from tandem.store import news
    from tandem.store.matches import Match

    Match(
        *Match.key(brand.id, other.id),
        brand_id=brand.id,
        candidate_id=other.id,
        score=0.8,
        reasons=["Shared audience"],
        run_id="r1",
        created_at=datetime.now(UTC),
        rank=1,
    ).save()
    news.add(brand.id, news.MATCHES, [other.id])


@pytest.fixture
def pair(api):
    amy = Brand("amy@example.com", "Oat & Co", credits=6)
    ben = Brand("ben@example.com", "Fern Candles", credits=6)
    return amy, ben


def test_blocking_cancels_the_pending_request_and_returns_the_senders_credit(api, pair):
    amy, ben = pair
    status, sent = send(api, ben, amy)
    assert status == 201, sent
    assert available(ben.account) == 5
    status, body = _block(api, amy, ben.id)
    assert (status, body) == (200, {"blocked": True})
    assert available(ben.account) == 6  # the held credit went back to its sender
    assert relation_state(ben.id, amy.id) == "cancelled"
    # Neither lists the other: received, sent, and the request cannot be sent again.
    _, received = api.call("GET", "/api/requests?box=received", amy.headers)
    assert received["items"] == []
    _, out = api.call("GET", "/api/requests?box=sent", ben.headers)
    # The sender keeps its record, saying why (issue 39: no silent vanish), and nothing more.
    assert [(i["id"], i["status"], i["cancelReason"]) for i in out["items"]] == [
        (sent["request"]["id"], "cancelled", "unavailable")
    ]
    assert send(api, ben, amy) == NOT_FOUND
    assert send(api, amy, ben) == NOT_FOUND
    # The brand pages answer as for an unknown brand, both ways.
    assert api.call("GET", f"/api/brand/{ben.id}", amy.headers) == NOT_FOUND
    assert api.call("GET", f"/api/brand/{amy.id}", ben.headers) == NOT_FOUND
    # The dashboard's counts give nothing away.
    _, dash = api.call("GET", "/api/dashboard", amy.headers)
    assert dash["menuCounts"]["requests"] == 0


def test_the_blocked_side_gets_the_answer_of_an_unknown_brand(api, pair):
    amy, ben = pair
    _block(api, amy, ben.id)
    unknown = api.call("POST", "/api/requests", ben.headers, {"toBrandId": 999999, "message": "Hello there"})
    assert send(api, ben, amy) == unknown == NOT_FOUND
    assert api.call("GET", f"/api/brand/{amy.id}", ben.headers) == api.call(
        "GET", "/api/brand/999999", ben.headers
    )


def test_unblocking_restores_visibility_and_nothing_else(api, pair):
    amy, ben = pair
    send(api, ben, amy)
    _block(api, amy, ben.id)
    assert _block(api, amy, ben.id, "DELETE") == (200, {"blocked": False})
    status, page = api.call("GET", f"/api/brand/{ben.id}", amy.headers)
    assert status == 200, page
    assert relation_state(ben.id, amy.id) == "cancelled"  # the cancelled request stays cancelled
    _, received = api.call("GET", "/api/requests?box=received", amy.headers)
    assert received["items"] == []
    assert available(ben.account) == 6


def test_the_blocked_list_names_the_blocked_brands(api, pair):
    amy, ben = pair
    _block(api, amy, ben.id)
    status, body = api.call("GET", "/api/users/blocked", amy.headers)
    assert status == 200, body
    assert body["blocked"] == [
        {"id": ben.id, "name": "Fern Candles", "nameVisible": True, "category": "", "logoUrl": None}
    ]
    # The blocked brand's own list does not show who blocked it.
    assert api.call("GET", "/api/users/blocked", ben.headers) == (200, {"blocked": []})


def test_a_connection_is_hidden_from_both_lists_while_blocked(api, pair):
    amy, ben = pair
    _, sent = send(api, ben, amy)
    status, _ = api.call("POST", f"/api/requests/{sent['request']['id']}/accept", amy.headers)
    assert status == 200
    assert len(api.call("GET", "/api/connections", amy.headers)[1]["items"]) == 1
    _block(api, ben, amy.id)
    assert api.call("GET", "/api/connections", amy.headers)[1]["items"] == []
    assert api.call("GET", "/api/connections", ben.headers)[1]["items"] == []
    assert api.call("GET", f"/api/connections/{ben.id}", amy.headers)[0] == 404
    _block(api, ben, amy.id, "DELETE")
    assert len(api.call("GET", "/api/connections", amy.headers)[1]["items"]) == 1


def test_matches_leave_out_a_blocked_brand_both_ways(api, pair):
    amy, ben = pair
    _with_match(amy, ben)
    _with_match(ben, amy)
    assert ben.id in _ids(api.call("GET", "/api/matches", amy.headers)[1]["matches"])
    _block(api, amy, ben.id)
    assert api.call("GET", "/api/matches", amy.headers)[1]["matches"] == []
    assert api.call("GET", "/api/matches", ben.headers)[1]["matches"] == []
    assert api.call("GET", "/api/dashboard", ben.headers)[1]["menuCounts"]["matches"] == 0


def test_own_brands_cannot_be_blocked_or_reported(api):
    _, (first, second), token = member("two@example.com", ("One", "Two"))
    headers = auth_headers(token, int(first.brand_id))
    status, body = api.call("POST", f"/api/brands/{int(second.brand_id)}/block", headers)
    assert (status, body["error"]) == (400, "You can't block one of your own brands")
    status, body = api.call("POST", f"/api/brands/{int(first.brand_id)}/block", headers)
    assert (status, body["error"]) == (400, "You can't block one of your own brands")
    status, body = api.call("POST", f"/api/brands/{int(second.brand_id)}/report", headers, {"reason": "spam"})
    assert (status, body["error"]) == (400, "You can't report one of your own brands")


@pytest.mark.parametrize("path", ["block", "report"])
def test_an_unknown_brand_is_a_404(api, pair, path):
    amy, _ = pair
    assert api.call("POST", f"/api/brands/999999/{path}", amy.headers, {"reason": "spam"}) == NOT_FOUND


def test_another_members_brand_cannot_act(api, pair):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea")
    headers = auth_headers(amy.token, ben.id)  # amy naming ben's brand as hers
    for method, path in (
        ("POST", f"/api/brands/{carl.id}/block"),
        ("DELETE", f"/api/brands/{carl.id}/block"),
        ("POST", f"/api/brands/{carl.id}/report"),
        ("GET", "/api/users/blocked"),
    ):
        status, body = api.call(method, path, headers, {"reason": "spam"} if "report" in path else None)
        assert (status, body) == (403, {"error": "You don't have access to this brand"}), path
    assert api.call("GET", "/api/users/blocked", carl.headers) == (200, {"blocked": []})


def test_a_feature_only_member_can_block_and_report_a_brand_that_pitches_it(api):
    feature = FeatureOnly("fo@example.com", "Northwind Trail")
    sender = Brand("pitcher@example.com", "Loud Co", credits=6)
    status, _ = send(api, sender, feature)
    assert status == 201
    assert _report(api, feature, sender.id) == (201, {"message": "Thanks, our team will look at this"})
    assert _block(api, feature, sender.id) == (200, {"blocked": True})
    assert available(sender.account) == 6


def test_a_report_is_thanked_once_per_brand(api, pair):
    amy, ben = pair
    assert _report(api, amy, ben.id) == (201, {"message": "Thanks, our team will look at this"})
    status, body = _report(api, amy, ben.id, "harassment")
    assert (status, body["error"]) == (409, "You have already reported this brand. Our team will look at it.")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"reason": "spam", "text": "x" * 1001}, "Please keep your report under 1,000 characters"),
        ({"reason": "rude", "text": "x"}, "Please choose a reason"),
        ({"text": "x"}, "Please choose a reason"),
        ({"reason": "spam", "text": 5}, "Please describe what happened in words"),
    ],
)
def test_a_bad_report_is_a_400_with_a_clear_message(api, pair, body, message):
    amy, ben = pair
    status, answer = api.call("POST", f"/api/brands/{ben.id}/report", amy.headers, body)
    assert (status, answer["error"]) == (400, message)


def test_a_report_of_exactly_1000_characters_is_taken(api, pair):
    amy, ben = pair
    assert _report(api, amy, ben.id, "other", "y" * 1000)[0] == 201


def test_at_most_ten_reports_a_day_per_member(api):
    reporter = Brand("reporter@example.com", "Busy Bee")
    others = [Brand(f"b{i}@example.com", f"Brand {i}") for i in range(11)]
    for other in others[:10]:
        assert _report(api, reporter, other.id)[0] == 201
    status, body = _report(api, reporter, others[10].id)
    too_many = "You can report up to 10 brands a day. Please try again tomorrow."
    assert (status, body["error"]) == (429, too_many)


def test_a_blocked_brand_cannot_be_reported_by_the_brand_it_blocked(api, pair):
    amy, ben = pair
    _block(api, amy, ben.id)
    assert _report(api, ben, amy.id) == NOT_FOUND  # ben cannot tell amy from an unknown brand


def _admin():
    from tandem.services import accounts, tokens

    account, user = accounts.create_account_with_user(
        email="admin@example.com", name="Ada Admin", password=None, access="admin", confirmed=True
    )
    return {"Authorization": f"Bearer {tokens.issue_access_token(user.user_id, account.account_id, 'admin')}"}


def test_the_reports_queue_shows_the_brand_its_reports_and_its_recent_requests(api, pair):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea")
    send(api, ben, carl)
    _report(api, amy, ben.id, "spam", "Sent me the same thing ten times")
    admin = _admin()
    status, queue = api.call("GET", "/api/admin/reports", admin)
    assert status == 200, queue
    (case,) = queue["cases"]
    assert case["brand"] == {"id": ben.id, "name": "Fern Candles"}
    assert case["status"] == "open"
    (report,) = case["reports"]
    assert report["reasonLabel"] == "Spam"
    assert report["text"] == "Sent me the same thing ten times"
    assert report["reporter"]["email"] == "amy@example.com"
    status, detail = api.call("GET", f"/api/admin/reports/{ben.id}", admin)
    assert status == 200, detail
    assert [(r["to"], r["status"]) for r in detail["recentRequests"]] == [("Tide Tea", "pending")]
    assert api.call("GET", "/api/admin/reports/999999", admin) == NOT_FOUND


@pytest.mark.delivery
def test_dismissing_emails_the_reporter_and_lets_them_report_again(api, pair):
    amy, ben = pair
    _report(api, amy, ben.id)
    admin = _admin()
    status, done = api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "dismiss"})
    assert status == 200, done
    assert done["audit"]["action"] == "brand.dismiss"
    assert api.call("GET", "/api/admin/reports", admin)[1]["cases"] == []
    assert [m.subject for m in mail_to("amy@example.com")] == ["Your report on Tandem"]
    assert _report(api, amy, ben.id)[0] == 201
    _, log = api.call("GET", "/api/admin/audit", admin)
    assert log["entries"][0]["subject"]["label"] == "Fern Candles"
    assert log["entries"][0]["facts"] == ["Reports dismissed (1 report)"]


@pytest.mark.delivery
def test_a_warning_is_emailed_to_the_owner_with_the_admins_text(api, pair):
    amy, ben = pair
    _report(api, amy, ben.id)
    admin = _admin()
    status, body = api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "warn"})
    assert (status, body["error"]) == (400, "Please write the warning the brand's owner will read")
    text = "Please stop sending the same request to everyone."
    warn = {"action": "warn", "text": text}
    status, _ = api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, warn)
    assert status == 200
    (warning,) = [m for m in mail_to("ben@example.com") if "Tandem team" in m.subject]
    assert text in warning.body


def test_suspension_hides_the_brand_everywhere_until_lifted(api, pair):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea", credits=6)
    send(api, carl, ben)  # carl's request to ben: cancelled, credit back to carl
    send(api, ben, amy)  # ben's request to amy: cancelled, credit back to ben
    _report(api, amy, ben.id)
    admin = _admin()
    status, _ = api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "suspend"})
    assert status == 200
    assert available(carl.account) == 6 and available(ben.account) == 6
    assert api.call("GET", "/api/requests?box=received", amy.headers)[1]["items"] == []
    assert api.call("GET", f"/api/brand/{ben.id}", amy.headers) == NOT_FOUND
    assert send(api, carl, ben) == NOT_FOUND
    status, body = send(api, ben, carl)
    assert status == 403 and "suspended" in body["error"]
    assert "code" not in body  # an ordinary refusal: the app shows it and keeps the member signed in
    _, dash = api.call("GET", "/api/dashboard", ben.headers)
    assert dash["dashboard"]["suspended"] is True
    _, queue = api.call("GET", "/api/admin/reports?status=suspended", admin)
    assert [c["brand"]["id"] for c in queue["cases"]] == [ben.id]
    status, _ = api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "lift"})
    assert status == 200
    assert api.call("GET", f"/api/brand/{ben.id}", amy.headers)[0] == 200
    assert api.call("GET", "/api/dashboard", ben.headers)[1]["dashboard"]["suspended"] is False
    _, log = api.call("GET", "/api/admin/audit", admin)
    assert [e["action"] for e in log["entries"][:2]] == ["brand.lift", "brand.suspend"]


def test_a_suspended_brand_leaves_the_match_index(api, pair):
    from tandem.services import match_index
    from tandem.store.safety import set_suspended

    amy, ben = pair
    set_suspended(ben.id, True)
    shard = match_index.shard_of(ben.id)
    from tandem.store.models import Brand as BrandModel

    match_index.refresh(BrandModel.find(amy.id))
    match_index.refresh(BrandModel.find(ben.id))  # a save of the suspended brand's profile
    assert amy.id in set(match_index.load([shard]).ids.tolist())
    assert ben.id not in set(match_index.load([shard]).ids.tolist())
    match_index.rebuild_shard(shard)  # the nightly rebuild skips it too
    assert ben.id not in set(match_index.load([shard]).ids.tolist())


def test_a_blocked_or_suspended_brands_feature_leaves_the_pitch_area(api, pair):
    from tests.functional.test_pitch import live_feature

    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea", credits=6)
    admin = _admin()
    fid = live_feature(api, amy, admin)
    assert [f["id"] for f in api.call("GET", "/api/pitch", ben.headers)[1]["features"]] == [fid]
    _block(api, ben, amy.id)  # ben blocks amy: neither sees the other's feature or can pitch
    assert api.call("GET", "/api/pitch", ben.headers)[1]["features"] == []
    assert api.call("GET", f"/api/pitch/{fid}", ben.headers)[0] == 404
    status, body = api.call("POST", f"/api/pitch/{fid}/pitch", ben.headers, {"message": "Hello there"})
    # The answer of an unknown feature: nothing reveals the block.
    unknown = api.call("POST", "/api/pitch/nosuchfeature/pitch", ben.headers, {"message": "Hello there"})
    assert (status, body) == unknown == (404, {"error": "Feature not found"})
    assert available(ben.account) == 6
    # Suspended: the feature leaves the Pitch Area for everyone.
    assert [f["id"] for f in api.call("GET", "/api/pitch", carl.headers)[1]["features"]] == [fid]
    api.call("POST", f"/api/admin/reports/{amy.id}/action", admin, {"action": "suspend"})
    assert api.call("GET", "/api/pitch", carl.headers)[1]["features"] == []


def test_a_suspended_brands_owner_replies_to_the_team_from_the_dashboard_box(api, pair):
    """The reply reaches the admin console's Issue reports (outside development the box is
    open only to admins and to owners of a suspended brand)."""
    amy, _ = pair
    reply = {"description": "We fixed our profile, please look again.", "path": "suspended"}
    admin = _admin()
    api.call("POST", f"/api/admin/reports/{amy.id}/action", admin, {"action": "suspend"})
    assert api.call("POST", "/api/issues/report", amy.headers, reply) == (201, {"message": "Issue sent"})
    _, issues = api.call("GET", "/api/admin/issue-reports", admin)
    assert [r["description"] for r in issues["reports"]] == [reply["description"]]


def test_declines_leave_out_a_blocked_brand_both_ways(api, pair):
    amy, ben = pair
    _, sent = send(api, ben, amy)
    status, _ = api.call("POST", f"/api/requests/{sent['request']['id']}/decline", amy.headers, {})
    assert status == 200
    assert len(api.call("GET", "/api/declines?dir=in", amy.headers)[1]["items"]) == 1
    assert len(api.call("GET", "/api/declines?dir=out", ben.headers)[1]["items"]) == 1
    _block(api, amy, ben.id)
    assert api.call("GET", "/api/declines?dir=in", amy.headers)[1]["items"] == []
    assert api.call("GET", "/api/declines?dir=out", ben.headers)[1]["items"] == []


def _connect(api, sender: Brand, to: Brand) -> str:
    _, sent = send(api, sender, to)
    request_id = sent["request"]["id"]
    assert api.call("POST", f"/api/requests/{request_id}/accept", to.headers)[0] == 200
    return request_id


REQUEST_NOT_FOUND = (404, {"error": "Request not found"})


@pytest.mark.parametrize("hide", ["block", "blocked", "suspend"])
def test_a_request_with_a_hidden_brand_answers_as_an_unknown_request(api, pair, hide):
    """GET requests/{id} and its actions, for both brands, once one blocked the other or the
    other is suspended: the 404 of a request that does not exist."""
    amy, ben = pair
    request_id = _connect(api, ben, amy)
    assert api.call("GET", f"/api/requests/{request_id}", amy.headers)[0] == 200
    if hide == "suspend":
        api.call("POST", f"/api/admin/reports/{ben.id}/action", _admin(), {"action": "suspend"})
    else:
        _block(api, amy if hide == "block" else ben, (ben if hide == "block" else amy).id)
    assert api.call("GET", "/api/requests/nosuchrequest", amy.headers) == REQUEST_NOT_FOUND
    assert api.call("GET", f"/api/requests/{request_id}", amy.headers) == REQUEST_NOT_FOUND
    for action in ("accept", "decline"):
        assert api.call("POST", f"/api/requests/{request_id}/{action}", amy.headers, {}) == REQUEST_NOT_FOUND
    if hide != "suspend":  # a suspended brand's own screens are closed in other ways
        assert api.call("GET", f"/api/requests/{request_id}", ben.headers) == REQUEST_NOT_FOUND
        assert api.call("POST", f"/api/requests/{request_id}/cancel", ben.headers, {}) == REQUEST_NOT_FOUND


def test_an_unblocked_request_opens_again(api, pair):
    amy, ben = pair
    request_id = _connect(api, ben, amy)
    _block(api, amy, ben.id)
    _block(api, amy, ben.id, "DELETE")
    status, body = api.call("GET", f"/api/requests/{request_id}", amy.headers)
    assert (status, body["request"]["status"]) == (200, "accepted")


NOT_CONNECTED = (404, {"error": "You are not connected with this brand"})


@pytest.mark.parametrize("hide", ["block", "suspend"])
def test_a_connection_and_its_share_with_a_hidden_brand_answer_as_for_a_stranger(api, pair, hide):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea", credits=6)
    _connect(api, ben, amy)
    summary = {"summary": "We ran a joint autumn giveaway on Instagram."}
    assert api.call("POST", f"/api/connections/{ben.id}/share", amy.headers, summary)[0] == 200
    if hide == "suspend":
        api.call("POST", f"/api/admin/reports/{ben.id}/action", _admin(), {"action": "suspend"})
    else:
        _block(api, ben, amy.id)
    stranger = api.call("GET", f"/api/connections/{carl.id}/share", amy.headers)
    assert stranger == NOT_CONNECTED
    assert api.call("GET", f"/api/connections/{ben.id}", amy.headers) == NOT_CONNECTED
    assert api.call("GET", f"/api/connections/{ben.id}/share", amy.headers) == NOT_CONNECTED
    assert api.call("POST", f"/api/connections/{ben.id}/share", amy.headers, summary) == NOT_CONNECTED
    agree = {"proposedAt": 1}
    assert api.call("POST", f"/api/connections/{ben.id}/share/agree", amy.headers, agree) == NOT_CONNECTED
    assert api.call("DELETE", f"/api/connections/{ben.id}/share", amy.headers) == NOT_CONNECTED
    if hide == "block":
        assert api.call("GET", f"/api/connections/{amy.id}/share", ben.headers) == NOT_CONNECTED
        assert api.call("DELETE", f"/api/connections/{amy.id}/share", ben.headers) == NOT_CONNECTED


@pytest.mark.delivery
def test_a_quick_action_link_from_a_brand_blocked_since_is_not_valid(api, pair):
    from tests.functional.helpers import links, press

    amy, ben = pair
    send(api, ben, amy)
    found = links("amy@example.com")
    _block(api, amy, ben.id)
    invalid = (400, {"error": "This link is not valid. Please sign in to answer the request."})
    forged = found["accept"].rsplit("/", 1)[0] + "/forged"
    assert press(api, forged) == invalid
    assert press(api, found["accept"]) == invalid
    assert press(api, found["decline"]) == invalid
    assert api.call("GET", f"/api{found['accept']}") == invalid
    assert available(ben.account) == 6


def test_the_block_checks_add_no_dynamodb_call_to_a_request_or_a_connection(api, pair, operations):
    """The blocks and suspensions come in the caller's check (one BatchGetItem): a request's or
    a connection's screen stays within the three-call rule."""
    amy, ben = pair
    request_id = _connect(api, ben, amy)
    _block(api, amy, ben.id)
    request, connection = f"/api/requests/{request_id}", f"/api/connections/{ben.id}"
    for path, expected in ((request, ["BatchGetItem", "GetItem"]), (connection, ["BatchGetItem"])):
        operations.clear()
        assert api.call("GET", path, amy.headers)[0] == 404
        assert operations == expected, path
    _block(api, amy, ben.id, "DELETE")
    for path in (request, connection):
        operations.clear()
        assert api.call("GET", path, amy.headers)[0] == 200
        assert len(operations) <= 3, (path, operations)


@pytest.mark.parametrize("path", ["saved", "dismissed"])
@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_saving_or_dismissing_a_hidden_brand_answers_as_an_unknown_brand(api, pair, path, method):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea", credits=6)
    assert api.call(method, f"/api/matches/{ben.id}/{path}", amy.headers)[0] == 200
    _block(api, ben, amy.id)
    api.call("POST", f"/api/admin/reports/{carl.id}/action", _admin(), {"action": "suspend"})
    unknown = api.call(method, f"/api/matches/999999/{path}", amy.headers)
    assert unknown == NOT_FOUND
    assert api.call(method, f"/api/matches/{ben.id}/{path}", amy.headers) == NOT_FOUND
    assert api.call(method, f"/api/matches/{amy.id}/{path}", ben.headers) == NOT_FOUND
    assert api.call(method, f"/api/matches/{carl.id}/{path}", amy.headers) == NOT_FOUND


def test_the_blocked_list_keeps_the_name_the_member_saw_when_blocking(api):
    """Issue 39: a member without a plan blocks a sender from a request card that named it; her
    list says whom she blocked. A name she did not know stays masked (a guess reveals nothing)."""
    from tests.functional.helpers import Brand as Member

    fay = Member("fay@example.com", "Fay Figs", status="none")
    oat = Member("oat@example.com", "Oat & Honey", category="food & drink")
    kin = Member("kin@example.com", "Kin Kombucha", category="food & drink")
    assert api.call("POST", f"/api/brands/{oat.id}/block", fay.headers, {"name": "Oat & Honey"})[0] == 200
    assert api.call("POST", f"/api/brands/{kin.id}/block", fay.headers, {"name": "A guess"})[0] == 200
    _, body = api.call("GET", "/api/users/blocked", fay.headers)
    assert [(b["name"], b["nameVisible"]) for b in body["blocked"]] == [
        ("Oat & Honey", True),
        ("A food & drink brand", False),
    ]


def _sent(api, who: Brand) -> list[tuple[str, str | None]]:
    items = api.call("GET", "/api/requests?box=sent", who.headers)[1]["items"]
    return [(i["toBrand"]["name"], i["cancelReason"]) for i in items]


def test_a_block_by_the_recipient_does_not_make_the_sender_wait(api, pair):
    """Issue 39 item 9: the sender did nothing. Its Sent says the brand is no longer available
    (the words a suspension gives too), the credit is back, and once unblocked it may write at
    once, without the 30 days a cancel or a decline of its own starts."""
    amy, ben = pair
    send(api, ben, amy)
    _block(api, amy, ben.id)
    assert _sent(api, ben) == [("Oat & Co", "unavailable")]
    assert available(ben.account) == 6
    _block(api, amy, ben.id, "DELETE")
    status, body = send(api, ben, amy, "Hello again")
    assert status == 201, body
    assert available(ben.account) == 5
    assert _sent(api, ben) == [("Oat & Co", None), ("Oat & Co", "unavailable")]


def test_a_sender_that_blocks_the_brand_it_wrote_to_still_waits(api, pair):
    """Blocking is the sender's own act: send, block, unblock, send would flood an inbox for
    free, so it waits as after its own cancel, and its own Sent leaves the blocked brand out."""
    amy, ben = pair
    send(api, amy, ben)
    _block(api, amy, ben.id)
    assert _sent(api, amy) == []
    _block(api, amy, ben.id, "DELETE")
    status, body = send(api, amy, ben, "Hello again")
    assert status == 409 and body["error"].startswith("You can send Fern Candles a new request from ")
    assert _sent(api, amy) == [("Fern Candles", None)]


def test_a_suspension_makes_no_one_wait_and_tells_each_sender_why(api, pair):
    amy, ben = pair
    carl = Brand("carl@example.com", "Tide Tea", credits=6)
    send(api, carl, ben)  # to the brand that is suspended
    send(api, ben, amy)  # from it
    admin = _admin()
    api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "suspend"})
    assert _sent(api, carl) == [("Fern Candles", "unavailable")]
    assert _sent(api, ben) == [("Oat & Co", "suspended")]
    api.call("POST", f"/api/admin/reports/{ben.id}/action", admin, {"action": "lift"})
    assert send(api, carl, ben, "Hello again")[0] == 201
    assert send(api, ben, amy, "Hello again")[0] == 201
    assert available(carl.account) == 5 and available(ben.account) == 5


def test_a_block_is_kept_as_a_record_matching_learns_from(api, pair):
    from datetime import UTC, datetime

    from tandem.services import match_learning
    from tandem.store.learning import CardAction

    amy, ben = pair
    assert _block(api, amy, ben.id) == (200, {"blocked": True})
    day = match_learning._days(int(datetime.now(UTC).timestamp()), 1)[0]
    (kept,) = [a for a in CardAction.of_day(day) if a.kind == "block"]
    assert (int(kept.actor), int(kept.target)) == (amy.id, ben.id)
