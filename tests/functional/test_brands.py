"""Brands API (docs/api.md "Brands"): profiles, validation, logo uploads, the public brand view."""

from __future__ import annotations

import base64
import json
import re

import pytest
import requests

from tandem.store import keys
from tandem.store.matches import Match
from tandem.store.models import Brand, BrandRelation
from tests.factories import auth_headers, member, population
from tests.functional.helpers import subscribe, wait_for_run

RUN_ID = re.compile(r"^[0-9a-f]{32}$")

FULL_PROFILE = {
    "name": "Oat & Honey",
    "website": "https://oatandhoney.example",
    "description": "Small-batch oat snacks, baked in Bristol.",
    "category": "food & drink",
    "companySize": "11-50",
    "audienceSize": "10K-100K",
    "niche": "snacks",
    "priceTier": "mid-range",
    "audience": {"ageBands": ["25-34", "35-44"], "genders": ["women"], "countries": ["GB", "IE"]},
    "values": ["sustainable", "independent"],
    "collabKinds": ["giveaways", "newsletter swaps"],
    "social": {"instagram": "https://instagram.com/oatandhoney", "tiktok": None},
    "contact": {"name": "Dana Demo", "email": "Dana@OatAndHoney.example", "phone": "+44 20 7946 0000"},
    "hideName": False,
}


def stored(brand_id: int) -> dict:
    return Brand.get(keys.brand_pk(brand_id), keys.PROFILE, consistent_read=True).serialize()


# ---------------------------------------------------------------- options and lists


def test_options_are_the_lists_the_forms_offer(api):
    _, _, token = member()
    status, body = api.call("GET", "/api/brands/options", auth_headers(token))
    assert status == 200
    assert set(body) >= {
        "categories",
        "companySizes",
        "values",
        "collabKinds",
        "countries",
        "ageBands",
        "genders",
    }
    assert "food & drink" in body["categories"]
    assert body["companySizes"] == ["1-10", "11-50", "51-200", "200+"]
    assert body["audienceSizes"] == ["under 1K", "1K-10K", "10K-100K", "100K-1M", "1M+"]
    assert set(body["niches"]) == set(body["categories"])
    assert body["niches"]["beauty"] == ["skincare", "makeup", "haircare", "fragrance", "bath & body"]
    assert all(4 <= len(niches) <= 6 for niches in body["niches"].values())
    assert body["priceTiers"] == ["affordable", "mid-range", "premium"]
    assert {"code": "GB", "name": "United Kingdom"} in body["countries"]
    assert body["genders"] == ["women", "men", "non-binary"]
    assert "newsletter swaps" in body["collabKinds"]


def test_brands_lists_the_callers_brands_with_every_profile_field(api):
    _, (first, second), token = member(brand_names=("Oat & Co", "Fern Candles"))
    member("other@example.com", brand_names=("Not Mine",))
    status, body = api.call("GET", "/api/brands", auth_headers(token))
    assert status == 200
    assert [b["id"] for b in body["brands"]] == [int(first.brand_id), int(second.brand_id)]
    assert set(body["brands"][0]) == {
        "id",
        "name",
        "logoUrl",
        "website",
        "description",
        "category",
        "companySize",
        "audienceSize",
        "niche",
        "priceTier",
        "audience",
        "values",
        "collabKinds",
        "social",
        "contact",
        "hideName",
    }
    assert body["brands"][0]["social"] == dict.fromkeys(
        ("instagram", "tiktok", "facebook", "linkedin", "x", "youtube")
    )
    assert body["brands"][0]["contact"] == {"name": None, "email": None, "phone": None}


# ---------------------------------------------------------------- create


def test_create_saves_the_whole_profile_and_starts_a_match_run(api):
    user, (existing,), token = member()
    population(6)
    status, body = api.call("POST", "/api/brands", auth_headers(token), FULL_PROFILE)
    assert status == 201, body
    brand = body["brand"]
    assert brand["name"] == "Oat & Honey"
    assert brand["website"] == "https://oatandhoney.example"
    assert brand["audience"] == {
        "ageBands": ["25-34", "35-44"],
        "genders": ["women"],
        "countries": ["GB", "IE"],
    }
    assert brand["values"] == ["independent", "sustainable"]
    assert brand["collabKinds"] == ["giveaways", "newsletter swaps"]
    assert brand["audienceSize"] == "10K-100K"
    assert brand["niche"] == "snacks" and brand["priceTier"] == "mid-range"
    assert brand["social"]["instagram"] == "https://instagram.com/oatandhoney"
    assert brand["social"]["tiktok"] is None
    assert brand["contact"] == {
        "name": "Dana Demo",
        "email": "dana@oatandhoney.example",
        "phone": "+44 20 7946 0000",
    }
    assert brand["logoUrl"] is None and brand["hideName"] is False
    assert RUN_ID.match(body["runId"])

    new_id = brand["id"]
    assert stored(new_id)["account_id"] == {"S": user.account_id}
    status, listed = api.call("GET", "/api/brands", auth_headers(token))
    assert [b["id"] for b in listed["brands"]] == [int(existing.brand_id), new_id]
    status, dash = api.call("GET", f"/api/dashboard/{new_id}", auth_headers(token, new_id))
    assert status == 200 and {"id": new_id, "name": "Oat & Honey"} in dash["userBrands"]
    assert wait_for_run(api, token, new_id, body["runId"])["status"] == "done"


def test_create_needs_only_a_name(api):
    _, _, token = member()
    status, body = api.call("POST", "/api/brands", auth_headers(token), {"name": "  Pebble Paper Co  "})
    assert status == 201, body
    assert body["brand"]["name"] == "Pebble Paper Co"
    assert body["brand"]["website"] is None and body["brand"]["values"] == []


NICHE_MESSAGE = "Choose a niche from the list for your category"
BAD_FIELDS = [
    ({"name": ""}, "name", "This field is required"),
    ({"name": "   "}, "name", "This field is required"),
    ({"name": "x" * 81}, "name", "Must be 80 characters or fewer"),
    ({"name": 12}, "name", "Must be text"),
    ({"website": "oatandhoney.example"}, "website", "Must start with https://"),
    ({"website": "oat"}, "website", "Invalid URL"),
    ({"website": "http://oatandhoney.example"}, "website", "Must start with https://"),
    ({"website": "HTTPS://oatandhoney.example"}, "website", "HTTPS must be lowercase"),
    ({"website": "Http://oatandhoney.example"}, "website", "Http must be lowercase"),
    ({"website": "https://oatandhoney"}, "website", "Invalid URL"),
    ({"website": "https://oat honey.example"}, "website", "Invalid URL"),
    ({"description": "x" * 1001}, "description", "Must be 1,000 characters or fewer"),
    ({"category": "cars"}, "category", "Choose a category from the list"),
    ({"companySize": "5"}, "companySize", "Choose a company size from the list"),
    ({"audienceSize": "lots"}, "audienceSize", "Choose an audience size from the list"),
    ({"category": "food & drink", "niche": "skincare"}, "niche", NICHE_MESSAGE),  # a beauty niche
    ({"category": "food & drink", "niche": "crisps"}, "niche", NICHE_MESSAGE),
    ({"category": "", "niche": "snacks"}, "niche", "Choose a category first"),
    ({"priceTier": "luxury"}, "priceTier", "Choose a price tier from the list"),
    ({"values": ["evil"]}, "values", "Not one of the options: evil"),
    ({"collabKinds": "giveaways"}, "collabKinds", "Must be a list of options"),
    ({"audience": {"countries": ["XX"]}}, "audience.countries", "Not one of the options: XX"),
    ({"audience": {"genders": ["robots"]}}, "audience.genders", "Not one of the options: robots"),
    ({"audience": {"ageBands": ["10-12"]}}, "audience.ageBands", "Not one of the options: 10-12"),
    ({"audience": {"pets": ["dogs"]}}, "audience.pets", "Unknown field pets"),
    ({"audience": "everyone"}, "audience", "Must be an object"),
    ({"social": {"instagram": "http://instagram.com/oat"}}, "social.instagram", "Must start with https://"),
    ({"social": {"x": "x.com"}}, "social.x", "Invalid URL"),
    ({"social": {"myspace": "https://myspace.com/oat"}}, "social.myspace", "Unknown field myspace"),
    ({"contact": {"email": "dana@"}}, "contact.email", "Invalid email"),
    ({"contact": {"email": "dana@example"}}, "contact.email", "Invalid email"),
    ({"contact": {"phone": "call me"}}, "contact.phone", "Invalid phone number"),
    ({"contact": {"phone": "12"}}, "contact.phone", "Invalid phone number"),
    ({"hideName": "yes"}, "hideName", "Must be true or false"),
]


def test_create_rejects_each_invalid_field_and_saves_nothing(api):
    user, _, token = member()
    before = len(list(Brand.by_account.query(keys.account_pk(user.account_id))))
    for change, field, message in BAD_FIELDS:
        status, body = api.call("POST", "/api/brands", auth_headers(token), {**FULL_PROFILE, **change})
        assert status == 400, change
        assert body["errors"] == {field: message}, change
        assert body["error"] == "Please check the highlighted fields"
    assert len(list(Brand.by_account.query(keys.account_pk(user.account_id)))) == before


def test_create_reports_every_invalid_field_at_once(api):
    _, _, token = member()
    bad = {"name": "", "website": "nope", "contact": {"email": "x", "phone": "y"}, "values": ["z"]}
    status, body = api.call("POST", "/api/brands", auth_headers(token), bad)
    assert status == 400
    assert body["errors"] == {
        "name": "This field is required",
        "website": "Invalid URL",
        "values": "Not one of the options: z",
        "contact.email": "Invalid email",
        "contact.phone": "Invalid phone number",
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [(b"{nope", "The request body must be valid JSON"), (b"[1]", "The request body must be a JSON object")],
)
def test_create_with_a_body_that_is_not_an_object_is_a_400(api, raw, message):
    _, _, token = member()
    status, body = api.call(
        "POST", "/api/brands", {**auth_headers(token), "content-type": "application/json"}, raw
    )
    assert status == 400 and body["error"] == message


# ---------------------------------------------------------------- get and update


def test_get_brand_returns_own_brands_only(api):
    _, (mine,), token = member()
    _, (theirs,), _ = member("other@example.com")
    status, body = api.call("GET", f"/api/brands/{int(mine.brand_id)}", auth_headers(token))
    assert status == 200 and body["brand"]["name"] == "Oat & Co"
    status, body = api.call("GET", f"/api/brands/{int(theirs.brand_id)}", auth_headers(token))
    assert status == 403
    status, body = api.call("GET", "/api/brands/999999", auth_headers(token))
    assert status == 403
    status, body = api.call("GET", "/api/brands/abc", auth_headers(token))
    assert status == 400 and body["error"] == "Brand id must be a positive number"


def test_update_changes_only_the_named_fields(api):
    _, (brand,), token = member(values=["vegan"], collab_kinds=["giveaways"])
    brand_id = int(brand.brand_id)
    status, body = api.call(
        "PUT",
        f"/api/brands/{brand_id}",
        auth_headers(token),
        {"description": "Now with honey.", "hideName": True},
    )
    assert status == 200, body
    assert body["runId"] is None  # nothing that matters for matching changed
    assert body["brand"]["description"] == "Now with honey."
    assert body["brand"]["hideName"] is True
    assert body["brand"]["values"] == ["vegan"] and body["brand"]["collabKinds"] == ["giveaways"]
    assert stored(brand_id)["hide_name"] == {"BOOL": True}


def test_update_of_a_matching_field_starts_a_run_with_the_changed_field_names(api, monkeypatch):
    from tandem.services import match_runs

    calls = []
    real = match_runs.profile_changed

    def spy(brand_id, *, created, changed):
        calls.append((brand_id, created, set(changed)))
        return real(brand_id, created=created, changed=changed)

    monkeypatch.setattr(match_runs, "profile_changed", spy)
    _, (brand,), token = member(values=["vegan"], countries=["GB"])
    brand_id = int(brand.brand_id)
    change = {
        "values": ["vegan", "local"],
        "audience": {"countries": ["GB", "FR"]},
        "companySize": "1-10",
        "name": "Oat & Co",  # unchanged
        "website": "https://oat.example",
    }
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), change)
    assert status == 200, body
    assert RUN_ID.match(body["runId"])
    assert calls == [(brand_id, False, {"values", "audience", "company_size", "website"})]
    assert wait_for_run(api, token, brand_id, body["runId"])["status"] == "done"


def test_update_can_clear_optional_fields(api):
    _, (brand,), token = member(values=["vegan"], website="https://oat.example")
    brand_id = int(brand.brand_id)
    status, body = api.call(
        "PUT",
        f"/api/brands/{brand_id}",
        auth_headers(token),
        {"website": "", "values": [], "contact": {"email": "dana@oat.example"}},
    )
    assert status == 200, body
    assert body["brand"]["website"] is None and body["brand"]["values"] == []
    assert body["brand"]["contact"] == {"name": None, "email": "dana@oat.example", "phone": None}
    item = stored(brand_id)
    assert "website" not in item and "values" not in item


def test_update_rejects_each_invalid_field_and_changes_nothing(api):
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    before = stored(brand_id)
    for change, field, message in BAD_FIELDS:
        # A valid change alongside the invalid one is not saved either.
        status, body = api.call(
            "PUT", f"/api/brands/{brand_id}", auth_headers(token), {"description": "Changed", **change}
        )
        assert status == 400, change
        assert body["errors"] == {field: message}, change
        assert stored(brand_id) == before, change


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": "Oat \ud800 Co"}, "name"),
        ({"contact": {"name": "Dana \ud800"}}, "contact.name"),
        ({"social": {"instagram": "https://instagram.com/oat\ud800"}}, "social.instagram"),
    ],
)
def test_a_save_the_store_cannot_hold_changes_nothing(api, change, field):
    """Issue 11: a lone surrogate reached the write and left the fields before it saved."""
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    before = stored(brand_id)
    status, body = api.call(
        "PUT", f"/api/brands/{brand_id}", auth_headers(token), {"description": "Changed", **change}
    )
    # refused where every body is parsed (chalicelib.http.json_body), before any write
    assert (status, body) == (400, {"error": "The request body contains text that is not valid Unicode"}), (
        field
    )
    assert stored(brand_id) == before
    status, body = api.call("POST", "/api/brands", auth_headers(token), {"name": "New", **change})
    assert status == 400 and len(api.call("GET", "/api/brands", auth_headers(token))[1]["brands"]) == 1


def test_update_of_another_members_brand_is_refused_and_changes_nothing(api):
    _, _, token = member()
    _, (theirs,), _ = member("other@example.com")
    their_id = int(theirs.brand_id)
    before = stored(their_id)
    status, body = api.call("PUT", f"/api/brands/{their_id}", auth_headers(token), {"name": "Mine now"})
    assert status == 403
    status, body = api.call(
        "PUT", f"/api/brands/{their_id}", auth_headers(token, their_id), {"name": "Mine now"}
    )
    assert status == 403
    status, body = api.call("PUT", "/api/brands/424242", auth_headers(token), {"name": "Ghost"})
    assert status == 403
    assert stored(their_id) == before


def test_a_member_edits_any_of_their_brands_whichever_is_selected(api):
    _, (first, second), token = member(brand_names=("Oat & Co", "Fern Candles"))
    status, body = api.call(
        "PUT",
        f"/api/brands/{int(second.brand_id)}",
        auth_headers(token, int(first.brand_id)),
        {"description": "Candles"},
    )
    assert status == 200 and body["brand"]["id"] == int(second.brand_id)


# ---------------------------------------------------------------- logos


def _upload(grant: dict, content: bytes, content_type: str) -> requests.Response:
    files = {"file": ("logo", content, content_type)}
    return requests.post(grant["url"], data=grant["fields"], files=files, timeout=10)


def test_logo_upload_grant_is_a_presigned_post_limited_in_type_and_size(api):
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    status, grant = api.call(
        "POST",
        f"/api/brands/{brand_id}/logo",
        auth_headers(token),
        {"contentType": "image/png", "size": 5000},
    )
    assert status == 200, grant
    assert re.fullmatch(rf"logos/{brand_id}/[0-9a-f]{{32}}\.png", grant["key"])
    from tandem.config import settings

    assert grant["url"] == f"https://{settings().assets_bucket}.s3.eu-west-2.amazonaws.com/"  # regional
    assert grant["maxBytes"] == 2 * 1024 * 1024
    assert grant["fields"]["key"] == grant["key"]
    assert grant["fields"]["Content-Type"] == "image/png"
    policy = json.loads(base64.b64decode(grant["fields"]["policy"]))
    assert ["content-length-range", 1, 2 * 1024 * 1024] in policy["conditions"]
    assert {"Content-Type": "image/png"} in policy["conditions"]


def test_uploaded_logo_is_saved_and_served_under_assets(api):
    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    _, grant = api.call(
        "POST", f"/api/brands/{brand_id}/logo", auth_headers(token), {"contentType": "image/webp", "size": 10}
    )
    assert _upload(grant, b"RIFF0000WEBP", "image/webp").status_code == 204
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), {"logoKey": grant["key"]})
    assert status == 200, body
    assert body["brand"]["logoUrl"] == f"/assets/{grant['key']}"
    assert body["runId"] is None

    # A second logo replaces the first, whose file is deleted.
    from tandem.config import settings
    from tandem.integrations.aws import client

    _, second = api.call(
        "POST", f"/api/brands/{brand_id}/logo", auth_headers(token), {"contentType": "image/jpeg", "size": 10}
    )
    _upload(second, b"\xff\xd8\xff\xe0jpeg", "image/jpeg")
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), {"logoKey": second["key"]})
    assert status == 200 and body["brand"]["logoUrl"] == f"/assets/{second['key']}"
    listed = client("s3").list_objects_v2(Bucket=settings().assets_bucket, Prefix=f"logos/{brand_id}/")
    assert [o["Key"] for o in listed["Contents"]] == [second["key"]]

    # And null removes it.
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), {"logoKey": None})
    assert status == 200 and body["brand"]["logoUrl"] is None


BAD_LOGOS = [
    ({"contentType": "image/gif", "size": 100}, "Logos must be PNG, JPEG or WebP images"),
    ({"contentType": "image/svg+xml", "size": 100}, "Logos must be PNG, JPEG or WebP images"),
    ({"size": 100}, "Logos must be PNG, JPEG or WebP images"),
    ({"contentType": "image/png", "size": 2 * 1024 * 1024 + 1}, "Logos must be 2 MB or smaller"),
    ({"contentType": "image/png", "size": 50 * 1024 * 1024}, "Logos must be 2 MB or smaller"),
    ({"contentType": "image/png", "size": 0}, "The logo file is empty"),
    ({"contentType": "image/png", "size": "big"}, "The logo's size must be a number of bytes"),
    ({"contentType": "image/png"}, "The logo's size must be a number of bytes"),
]


def test_logo_of_the_wrong_type_or_size_is_refused(api):
    _, (brand,), token = member()
    for request_body, message in BAD_LOGOS:
        status, body = api.call(
            "POST", f"/api/brands/{int(brand.brand_id)}/logo", auth_headers(token), request_body
        )
        assert status == 400, request_body
        assert body == {"error": message, "errors": {"logo": message}}


def test_logo_for_another_members_brand_is_refused(api):
    _, _, token = member()
    _, (theirs,), _ = member("other@example.com")
    status, _ = api.call(
        "POST",
        f"/api/brands/{int(theirs.brand_id)}/logo",
        auth_headers(token),
        {"contentType": "image/png", "size": 9},
    )
    assert status == 403


def test_a_logo_key_must_be_an_existing_upload_of_that_brand(api):
    _, (mine, other_of_mine), token = member(brand_names=("Oat & Co", "Fern Candles"))
    brand_id = int(mine.brand_id)
    _, grant = api.call(
        "POST", f"/api/brands/{brand_id}/logo", auth_headers(token), {"contentType": "image/png", "size": 9}
    )
    _upload(grant, b"\x89PNG....", "image/png")
    missing = f"logos/{brand_id}/{'0' * 32}.png"
    elsewhere = grant["key"].replace(f"logos/{brand_id}/", f"logos/{int(other_of_mine.brand_id)}/")
    for key in (missing, elsewhere, "logos/../secrets.png", "web/index.html", 42):
        status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), {"logoKey": key})
        assert status == 400, key
        assert body["errors"] == {"logoKey": "Upload the logo again: we couldn't find that upload"}
    # The other brand cannot adopt this brand's upload either.
    status, body = api.call(
        "PUT", f"/api/brands/{int(other_of_mine.brand_id)}", auth_headers(token), {"logoKey": grant["key"]}
    )
    assert status == 400
    assert "logo_key" not in stored(brand_id) and "logo_key" not in stored(int(other_of_mine.brand_id))


@pytest.mark.parametrize(
    ("content", "content_type", "message"),
    [
        (b"x" * (2 * 1024 * 1024 + 1), "image/png", "Logos must be 2 MB or smaller"),
        (b"GIF89a", "image/gif", "Logos must be PNG, JPEG or WebP images"),
    ],
)
def test_a_logo_file_that_got_past_the_upload_rules_is_still_refused(api, content, content_type, message):
    """S3 enforces the presigned policy; the save checks the stored object again."""
    from tandem.config import settings
    from tandem.integrations.aws import client

    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    key = f"logos/{brand_id}/{'a' * 32}.png"
    client("s3").put_object(Bucket=settings().assets_bucket, Key=key, Body=content, ContentType=content_type)
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), {"logoKey": key})
    assert status == 400
    assert body == {"error": message, "errors": {"logoKey": message}}
    assert "logo_key" not in stored(brand_id)


# ---------------------------------------------------------------- public brand view


def _profile(api, token, brand_id: int, **changes) -> None:
    status, body = api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), changes)
    assert status == 200, body


def test_public_view_of_an_unknown_brand_is_404(api):
    _, _, token = member()
    status, body = api.call("GET", "/api/brand/987654", auth_headers(token))
    assert status == 404 and body == {"error": "Brand not found"}
    status, body = api.call("GET", "/api/brand/x1", auth_headers(token))
    assert status == 400 and body == {"error": "Brand id must be a positive number"}


def test_a_non_subscriber_sees_other_brands_masked(api):
    _, (mine,), token = member()
    _, (theirs,), their_token = member(
        "other@example.com", brand_names=("Oat & Honey",), category="food & drink"
    )
    _profile(
        api,
        their_token,
        int(theirs.brand_id),
        website="https://oatandhoney.example",
        description="Oat & Honey bakes oat snacks.",
        social={"instagram": "https://instagram.com/oatandhoney"},
        contact={"email": "dana@oatandhoney.example"},
        audienceSize="10K-100K",
    )
    status, body = api.call("GET", f"/api/brand/{int(theirs.brand_id)}", auth_headers(token))
    assert status == 200, body
    brand = body["brand"]
    assert brand["name"] == "A food & drink brand" and brand["nameVisible"] is False
    assert brand["logoUrl"] is None and brand["website"] is None
    assert brand["description"] == "This brand bakes oat snacks."
    assert brand["social"]["instagram"] is None
    assert brand["contact"] is None
    assert brand["audienceSize"] == ""  # shown only where the brand's name is
    assert brand["niche"] == "" and brand["priceTier"] == ""  # not given: "not given" on the page
    assert brand["category"] == "food & drink"
    assert body["isOwn"] is False
    assert body["relation"] == {
        "saved": False,
        "dismissed": False,
        "requestState": None,
        "requestId": None,
        "waitMessage": None,
    }
    assert body["match"] is None


def test_a_subscriber_sees_names_unless_the_brand_hides_its_name(api):
    user, _, token = member()
    subscribe(user.account_id)
    _, (shown, hidden), their_token = member(
        "other@example.com", brand_names=("Oat & Honey", "Secret Soap"), category="beauty"
    )
    _profile(api, their_token, int(hidden.brand_id), hideName=True)
    _profile(
        api,
        their_token,
        int(shown.brand_id),
        contact={"email": "dana@oatandhoney.example"},
        audienceSize="1M+",
    )
    _profile(api, their_token, int(hidden.brand_id), audienceSize="1M+")
    status, body = api.call("GET", f"/api/brand/{int(shown.brand_id)}", auth_headers(token))
    assert body["brand"]["name"] == "Oat & Honey" and body["brand"]["nameVisible"] is True
    assert body["brand"]["audienceSize"] == "1M+"
    assert body["brand"]["contact"] is None  # contact only once connected
    status, body = api.call("GET", f"/api/brand/{int(hidden.brand_id)}", auth_headers(token))
    assert body["brand"]["name"] == "A beauty brand" and body["brand"]["nameVisible"] is False
    assert body["brand"]["audienceSize"] == ""


def test_connected_brands_see_name_and_contact_even_when_hidden(api):
    _, (mine,), token = member()
    _, (theirs,), their_token = member("other@example.com", brand_names=("Secret Soap",), category="beauty")
    _profile(
        api,
        their_token,
        int(theirs.brand_id),
        hideName=True,
        contact={"name": "Sam", "phone": "+44 7700 900123"},
    )
    Brand_rel = BrandRelation.at(int(mine.brand_id), int(theirs.brand_id))
    Brand_rel.update(
        actions=BrandRelation.request_state_actions(
            int(mine.brand_id), int(theirs.brand_id), "connected", "r1"
        )
    )
    status, body = api.call("GET", f"/api/brand/{int(theirs.brand_id)}", auth_headers(token))
    assert status == 200
    assert body["brand"]["name"] == "Secret Soap" and body["brand"]["nameVisible"] is True
    assert body["brand"]["contact"] == {"name": "Sam", "email": None, "phone": "+44 7700 900123"}
    assert body["relation"]["requestState"] == "connected" and body["relation"]["requestId"] == "r1"


def test_public_view_of_an_own_brand_has_contact_and_is_own(api):
    _, (first, second), token = member(brand_names=("Oat & Co", "Fern Candles"))
    _profile(api, token, int(second.brand_id), hideName=True, contact={"email": "fern@example.com"})
    status, body = api.call(
        "GET", f"/api/brand/{int(second.brand_id)}", auth_headers(token, int(first.brand_id))
    )
    assert status == 200
    assert body["isOwn"] is True
    assert body["brand"]["name"] == "Fern Candles"
    assert body["brand"]["contact"]["email"] == "fern@example.com"


def test_public_view_carries_the_match_and_the_relation(api):
    from datetime import UTC, datetime

    user, (mine,), token = member()
    _, (theirs,), _ = member("other@example.com", category="home")
    Match(
        keys.brand_pk(int(mine.brand_id)),
        keys.match_sk(int(theirs.brand_id)),
        brand_id=int(mine.brand_id),
        candidate_id=int(theirs.brand_id),
        score=0.914,
        reasons=["They want newsletter swaps, like you"],
        run_id="r",
        created_at=datetime.now(UTC),
    ).save()
    BrandRelation.set_flags(int(mine.brand_id), int(theirs.brand_id), saved=True)
    status, body = api.call("GET", f"/api/brand/{int(theirs.brand_id)}", auth_headers(token))
    assert status == 200
    assert body["match"] == {
        "score": 91,
        "fit": "Great fit",
        "fitPromise": None,  # no promise our own data backs yet
        "reasons": ["They want newsletter swaps, like you"],
    }
    assert body["relation"]["saved"] is True


def test_brands_created_together_get_the_next_ids_in_order_and_read_back_whole(aws):
    """create_brands (the local seed's population): one id reservation and batch writes; the
    brands are the ones create_brand would have made, and ids stay unique afterwards."""
    from tandem.services import brands

    first = brands.create_brand(account_id="acc-1", name="Before")
    many = [
        {
            "account_id": f"acc-{i}",
            "name": f"Brand {i}",
            "category": "home",
            "values": ["vegan"],
            "countries": ["GB"],
        }
        for i in range(30)  # more than one BatchWriteItem (25 a call)
    ]
    made = brands.create_brands(many)
    after = brands.create_brand(account_id="acc-2", name="After")
    ids = [int(b.brand_id) for b in made]
    assert ids == list(range(int(first.brand_id) + 1, int(first.brand_id) + 31))
    assert int(after.brand_id) == ids[-1] + 1
    saved = {int(b.brand_id): b for b in brands.get_many(ids)}
    assert [saved[i].name for i in ids] == [f"Brand {i}" for i in range(30)]
    assert saved[ids[3]].account_id == "acc-3" and saved[ids[3]].values == {"vegan"}
    assert saved[ids[3]].audience.countries == {"GB"}
    assert [int(b.brand_id) for b in brands.brands_of_account("acc-7")] == [ids[7]]
    assert brands.create_brands([]) == []


def test_niche_and_price_tier_are_saved_checked_against_the_category_and_shown_to_others(api):
    def _put(api, token, brand_id, **changes):
        return api.call("PUT", f"/api/brands/{brand_id}", auth_headers(token), changes)

    _, _, token = member(category="beauty")
    _, (theirs,), their_token = member("other@example.com", brand_names=("Fern Skin",), category="beauty")
    brand_id = int(theirs.brand_id)
    status, body = _put(api, their_token, brand_id, niche="skincare", priceTier="premium")
    assert status == 200, body
    assert (body["brand"]["niche"], body["brand"]["priceTier"]) == ("skincare", "premium")
    # A niche is checked against the saved category when the body names no category.
    status, body = _put(api, their_token, brand_id, niche="snacks")
    assert status == 400 and body["errors"] == {"niche": "Choose a niche from the list for your category"}
    # A new category leaves the old category's niche behind; the tier stays.
    status, body = _put(api, their_token, brand_id, category="wellness")
    assert status == 200 and (body["brand"]["niche"], body["brand"]["priceTier"]) == ("", "premium")
    status, body = _put(api, their_token, brand_id, category="beauty", niche="fragrance")
    assert status == 200 and body["brand"]["niche"] == "fragrance"
    # Shown to other brands like the category (masked or not), cleared with "".
    status, body = api.call("GET", f"/api/brand/{brand_id}", auth_headers(token))
    assert status == 200 and body["brand"]["nameVisible"] is False
    assert (body["brand"]["niche"], body["brand"]["priceTier"]) == ("fragrance", "premium")
    status, body = _put(api, their_token, brand_id, niche="", priceTier=None)
    assert status == 200 and (body["brand"]["niche"], body["brand"]["priceTier"]) == ("", "")


def test_a_hidden_name_is_hidden_in_its_description_however_it_is_written(api):
    """Issue 40: the name with other spacing, inside a word or as a domain was readable."""
    _, (mine,), token = member()
    _, (theirs,), their_token = member(
        "zed@example.com", brand_names=("Zyxquor Hidden Studio",), category="outdoors"
    )
    text = "At Zyxquor we camp; zyxquor-hidden-studio.example; Zyxquor  Hidden  Studio"
    status, body = api.call(
        "PUT",
        f"/api/brands/{int(theirs.brand_id)}",
        auth_headers(their_token),
        {"description": text, "hideName": True},
    )
    assert status == 200 and body["notice"] == (
        "Your description names your brand; it will be shown with the name removed."
    ), body
    assert body["brand"]["description"] == text  # the owner keeps what they wrote
    status, body = api.call("GET", f"/api/brand/{int(theirs.brand_id)}", auth_headers(token))
    assert status == 200, body
    assert body["brand"]["description"] == "At This brand we camp; this brand's website; This brand"
    status, body = api.call(
        "PUT", f"/api/brands/{int(theirs.brand_id)}", auth_headers(their_token), {"description": "We camp."}
    )
    assert status == 200 and body["notice"] is None, body
