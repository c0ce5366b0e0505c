"""GET brands/search (docs/api.md "Matches"): the whole directory, searched by name and topic,
filtered, sorted and paged, with the masking of Matches."""

from __future__ import annotations

import time
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tandem.services import brand_search, match_index
from tandem.store.models import BrandRelation
from tests.factories import auth_headers
from tests.functional.helpers import Brand


@pytest.fixture(autouse=True)
def fresh_index():
    brand_search.forget_index()  # each test's moto world is new: so is the container's index
    yield
    brand_search.forget_index()


def directory(count: int = 0) -> list:
    """Other members' brands: named ones, one that hides its name, and `count` more."""
    from tandem.services import brands

    made = [
        brands.create_brand(
            account_id="acct-northwind",
            name="Northwind Outdoor",
            category="outdoors",
            collab_kinds=["giveaways"],
            countries=["GB"],
        ),
        brands.create_brand(
            account_id="acct-secret", name="Quietfox Labs", category="tech", hide_name=True, countries=["GB"]
        ),
        brands.create_brand(account_id="acct-moss", name="Moss Goods", category="home", countries=["US"]),
    ]
    for i in range(count):
        made.append(
            brands.create_brand(
                account_id=f"acct-pop-{i}",
                name=f"Kestrel {i:02d}",
                category=["home", "beauty"][i % 2],
                countries=["GB"],
                collab_kinds=["giveaways"],
            )
        )
    match_index.rebuild()
    return made


def search(api, who: Brand, **params) -> tuple[int, dict]:
    return api.call("GET", f"/api/brands/search?{urlencode(params)}", who.headers)


def names(body: dict) -> list[str]:
    return [card["name"] for card in body["matches"]]


def test_a_typo_finds_the_brand_and_exact_names_come_first(api):
    me = Brand("me@example.com", "Oat & Co", category="food & drink", countries=["GB"])
    directory()
    status, body = search(api, me, q="northwnd")
    assert status == 200, body
    assert names(body) == ["Northwind Outdoor"]
    card = body["matches"][0]
    assert card["nameVisible"] is True and card["fit"] and isinstance(card["reasons"], list)
    assert set(card) >= {"id", "name", "logoUrl", "category", "description", "score", "saved", "isNew"}
    assert names(search(api, me, q="north")[1]) == ["Northwind Outdoor"]  # a word prefix
    assert names(search(api, me, q="Northwind Outdoor", sort="name")[1])[0] == "Northwind Outdoor"


def test_my_own_brands_are_never_found(api):
    me = Brand("me@example.com", "Northwind Kitchen", category="home")
    directory()
    assert names(search(api, me, q="northwind")[1]) == ["Northwind Outdoor"]


def test_a_hidden_name_is_never_found_by_its_name_even_by_a_subscriber(api):
    me = Brand("me@example.com", "Oat & Co")
    directory()
    assert search(api, me, q="quietfox")[1]["matches"] == []
    assert search(api, me, q="quietfx")[1]["matches"] == []
    by_topic = search(api, me, q="tech")[1]["matches"]
    assert [c["name"] for c in by_topic] == ["A tech brand"]  # found by what it does, masked
    assert by_topic[0]["nameVisible"] is False and by_topic[0]["logoUrl"] is None


def test_a_member_without_a_subscription_sees_masked_cards_and_cannot_search_names(api):
    me = Brand("me@example.com", "Oat & Co", status="none")
    directory()
    status, body = search(api, me, q="northwind")
    assert status == 200 and body["matches"] == [] and body["total"] == 0
    body = search(api, me, q="outdoors")[1]
    assert body["showingBrandNames"] is False
    assert names(body) == ["An outdoors brand"]
    assert body["matches"][0]["logoUrl"] is None


def test_filters_narrow_the_results(api):
    me = Brand("me@example.com", "Oat & Co")
    directory(4)
    assert set(names(search(api, me, country="US")[1])) == {"Moss Goods"}
    assert set(names(search(api, me, category="outdoors", country="GB")[1])) == {"Northwind Outdoor"}
    got = search(api, me, collabType="giveaways", category="beauty")[1]
    assert names(got) == ["Kestrel 01", "Kestrel 03"] or set(names(got)) == {"Kestrel 01", "Kestrel 03"}


def test_the_audience_size_filter_takes_the_brands_band_else_its_company_size(api):
    from tandem.services import brands

    me = Brand("me@example.com", "Oat & Co")
    for name, band, size in (
        ("Wren Small", "under 1K", "200+"),  # the band decides, not the 200+ people
        ("Wren Mid", "10K-100K", ""),
        ("Wren Staff", "", "11-50"),  # no band: 11-50 people reads as 10K-100K
        ("Wren Unknown", "", ""),
    ):
        brands.create_brand(account_id=f"acct-{name}", name=name, audience_size=band, company_size=size)
    match_index.rebuild()
    assert names(search(api, me, audienceSize="under 1K")[1]) == ["Wren Small"]
    assert set(names(search(api, me, audienceSize="10k-100k")[1])) == {"Wren Mid", "Wren Staff"}
    assert names(search(api, me, audienceSize="1M+")[1]) == []
    assert search(api, me, audienceSize="")[1]["total"] == 4
    # The filter's values are the ones the profile offers.
    _, options = api.call("GET", "/api/brands/options", me.headers)
    for band in options["audienceSizes"]:
        assert search(api, me, audienceSize=band)[0] == 200


def test_open_to_requests_leaves_out_feature_only_brands(api):
    from tandem.services import accounts, brands

    me = Brand("me@example.com", "Oat & Co")
    directory()
    account, _ = accounts.create_account_with_user(
        email="fin@example.com", name="Fin", password=None, access="feature", confirmed=True
    )
    featured = brands.create_brand(
        account_id=account.account_id, name="Northwind Trails", category="outdoors"
    )
    match_index.refresh(featured)  # as a profile save does
    assert set(names(search(api, me, q="northwind")[1])) == {"Northwind Outdoor", "Northwind Trails"}
    assert names(search(api, me, q="northwind", open="true")[1]) == ["Northwind Outdoor"]


def test_pages_of_twenty_by_cursor_and_sorts(api):
    me = Brand(
        "me@example.com", "Oat & Co", category="food & drink", countries=["GB"], collab_kinds=["giveaways"]
    )
    made = directory(25)
    first = search(api, me, sort="name")[1]
    assert first["total"] == len(made) and len(first["matches"]) == 20 and first["nextCursor"]
    second = search(api, me, sort="name", cursor=first["nextCursor"])[1]
    assert second["nextCursor"] is None
    everything = names(first) + names(second)
    assert (
        len(everything) == len(made) and len(set(c["id"] for c in first["matches"] + second["matches"])) == 28
    )
    cards = first["matches"] + second["matches"]
    # Shown names A to Z, then the ones that hide their name ("A tech brand" is filed last).
    assert [c["nameVisible"] for c in cards] == sorted((c["nameVisible"] for c in cards), reverse=True)
    assert not cards[-1]["nameVisible"] and cards[0]["nameVisible"]
    assert everything == sorted(everything, key=lambda n: (n.startswith(("A ", "An ")), n.casefold()))
    newest = search(api, me, sort="newest")[1]["matches"]
    assert [c["id"] for c in newest][:3] == sorted((int(b.brand_id) for b in made), reverse=True)[:3]
    best = search(api, me, sort="best")[1]["matches"]
    assert [c["score"] for c in best] == sorted((c["score"] for c in best), reverse=True)
    # A cursor belongs to its search.
    status, body = search(api, me, sort="newest", cursor=first["nextCursor"])
    assert status == 400 and body == {"error": "That page of results is no longer available: search again"}


def test_saved_flags_show_on_the_cards(api):
    me = Brand("me@example.com", "Oat & Co")
    northwind = directory()[0]
    BrandRelation.set_flags(me.id, int(northwind.brand_id), saved=True)
    card = search(api, me, q="northwind")[1]["matches"][0]
    assert card["saved"] is True


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"q": "x" * 101}, "Search for at most 100 characters"),
        ({"category": "rockets"}, "Choose a category from the list"),
        ({"country": "XX"}, "Choose a country from the list"),
        ({"audienceSize": "huge"}, "Choose an audience size from the list"),
        ({"audienceSize": "11-50"}, "Choose an audience size from the list"),  # a company size
        ({"age": "old"}, "Choose an age range from the list"),
        ({"gender": "robots"}, "Choose an audience gender from the list"),
        ({"collabType": "mergers"}, "Choose a kind of collaboration from the list"),
        ({"open": "maybe"}, "open must be true or false"),
        ({"sort": "random"}, "Sort by best, newest or name"),
        ({"cursor": "not-a-cursor"}, "That page of results is no longer available: search again"),
    ],
)
def test_bad_input_is_a_400_with_a_clear_message(api, params, message):
    me = Brand("me@example.com", "Oat & Co")
    status, body = search(api, me, **params)
    assert (status, body) == (400, {"error": message})


def test_another_members_brand_is_refused(api):
    me = Brand("me@example.com", "Oat & Co")
    them = Brand("them@example.com", "Moss Goods")
    status, _ = api.call("GET", "/api/brands/search?q=moss", auth_headers(me.token, them.id))
    assert status == 403
    status, _ = api.call("GET", f"/api/brands/search?q=moss&userBrand={them.id}", me.headers)
    assert status == 403


def test_a_feature_only_account_cannot_search(api):
    from tandem.services import accounts, brands, tokens

    account, user = accounts.create_account_with_user(
        email="fin@example.com", name="Fin", password=None, access="feature", confirmed=True
    )
    brand = brands.create_brand(account_id=account.account_id, name="Fin Goods")
    token = tokens.issue_access_token(user.user_id, account.account_id, user.access)
    status, body = api.call("GET", "/api/brands/search?q=oat", auth_headers(token, int(brand.brand_id)))
    assert status == 403, body


def test_a_name_hidden_after_the_index_was_loaded_is_no_longer_found(api):
    from tandem.services import brands

    me = Brand("me@example.com", "Oat & Co")
    northwind = directory()[0]
    assert names(search(api, me, q="northwind")[1]) == ["Northwind Outdoor"]
    brands.update_profile(northwind, {"hideName": True})  # its owner's save
    brand_search._CACHE.checked = 0.0  # as CHECK_SECONDS later: the next search checks the manifest
    assert search(api, me, q="northwind")[1]["matches"] == []
    assert names(search(api, me, q="outdoors")[1]) == ["An outdoors brand"]


def test_a_search_makes_at_most_three_dynamodb_calls_even_in_a_cold_container(api, operations):
    """Cold (no index in the container): the shards come in the batch with the caller's items;
    warm with the version check due, and warm without it: three calls too."""
    me = Brand("me@example.com", "Oat & Co")
    directory(4)
    for state in ("cold", "check due", "warm"):
        if state == "check due":
            brand_search._CACHE.checked = 0.0
        operations.clear()
        status, body = search(api, me, q="northwnd")
        assert (status, names(body)) == (200, ["Northwind Outdoor"]), state
        assert operations == ["Query", "BatchGetItem", "BatchGetItem"], state


def test_a_shard_changed_since_the_cold_load_is_read_again(api):
    from tandem.services import brands

    me = Brand("me@example.com", "Oat & Co")
    directory()
    assert names(search(api, me, q="wren")[1]) == []
    brands.create_brand(account_id="acct-wren", name="Wren Paper")
    match_index.rebuild()
    brand_search._CACHE.checked = 0.0
    assert names(search(api, me, q="wren")[1]) == ["Wren Paper"]


_FUZZ: dict = {}
query_params = st.fixed_dictionaries(
    {},
    optional={
        "q": st.text(max_size=120),
        "category": st.sampled_from(["home", "outdoors", "HOME", "", "x", "food & drink"]),
        "country": st.sampled_from(["GB", "us", "", "ZZ", "G"]),
        "audienceSize": st.sampled_from(["under 1K", "1M+", "1-10", "", "big"]),
        "age": st.sampled_from(["25-34", "55+", "", "7"]),
        "gender": st.sampled_from(["women", "men", "", "?"]),
        "collabType": st.sampled_from(["giveaways", "events", "", "?"]),
        "open": st.sampled_from(["true", "false", "", "yes"]),
        "sort": st.sampled_from(["best", "newest", "name", "", "up"]),
        "cursor": st.text(max_size=40),
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(params=query_params)
def test_any_query_string_is_answered_or_refused_never_a_server_error(api, params):
    """The route's fuzz: whatever the query string, a 200 or a 400 with a message."""
    if _FUZZ.get("api") is not api:  # one world for every example of this test
        directory()
        _FUZZ.update(api=api, me=Brand("me@example.com", "Oat"))
    me = _FUZZ["me"]
    params = {k: v.replace("\x00", "") for k, v in params.items()}
    status, body = search(api, me, **params)
    assert status in (200, 400), (params, status, body)
    if status == 400:
        assert isinstance(body["error"], str) and body["error"]
    else:
        assert len(body["matches"]) <= 20


def test_a_blocked_brand_is_found_by_neither_side_until_unblocked(api):
    me = Brand("me@example.com", "Oat & Co", countries=["GB"])
    fern = Brand("fern@example.com", "Fern Candles", countries=["GB"])
    directory()
    assert names(search(api, me, q="fern")[1]) == ["Fern Candles"]
    before = search(api, me, q="")[1]["total"]

    assert api.call("POST", f"/api/brands/{fern.id}/block", me.headers) == (200, {"blocked": True})
    assert names(search(api, me, q="fern")[1]) == []
    assert search(api, me, q="")[1]["total"] == before - 1  # gone from the count too
    assert names(search(api, fern, q="oat")[1]) == []  # and the blocked side cannot find me

    assert api.call("DELETE", f"/api/brands/{fern.id}/block", me.headers) == (200, {"blocked": False})
    assert names(search(api, me, q="fern")[1]) == ["Fern Candles"]
    assert names(search(api, fern, q="oat")[1]) == ["Oat & Co"]


def test_a_suspended_brand_is_found_by_no_one(api):
    from tandem.store.safety import set_suspended

    me = Brand("me@example.com", "Oat & Co", countries=["GB"])
    northwind = directory()[0]
    assert names(search(api, me, q="northwind")[1]) == ["Northwind Outdoor"]
    set_suspended(int(northwind.brand_id), True)  # hidden at once, before the index is rebuilt
    assert names(search(api, me, q="northwind")[1]) == []
    set_suspended(int(northwind.brand_id), False)
    assert names(search(api, me, q="northwind")[1]) == ["Northwind Outdoor"]


def test_a_brand_that_just_signed_up_is_found_by_name_without_the_nightly_rebuild(api, operations):
    """Issue 39: sign-up's first brand goes into the index at once (no rebuild runs here), and
    the search screen still reads at most 3 DynamoDB calls."""
    me = Brand("me@example.com", "Oat & Co", category="food & drink", countries=["GB"])
    directory()  # the index as the last nightly rebuild left it
    body = {
        "name": "Nia New",
        "email": "nia@example.com",
        "password": "Tandem-Oats-2026",
        "brandName": "Larkspur Teas",
    }
    assert api.call("POST", "/api/users/create-account", {}, body)[0] == 201
    operations.clear()
    status, found = search(api, me, q="larkspur")
    assert status == 200, found
    assert names(found) == ["Larkspur Teas"]
    assert len(operations) <= 3, operations


def test_best_fit_follows_the_stored_model_as_match_runs_do(api):
    """Best fit orders its top hits by the value match runs rank by: the rules blended with the
    fresh prior, then with the stored learned model once it has evidence (issue 37)."""

    from tandem.store.models import Brand as BrandItem
    from tests.factories import member, population
    from tests.functional.helpers import store_values_model, subscribe

    user, (mine,), token = member(category="home", values=["vegan"], collab_kinds=["giveaways"])
    subscribe(user.account_id)
    population(40)
    match_index.rebuild()
    brand_id = int(mine.brand_id)

    def best_fit() -> list[int]:
        brand_search.forget_index()  # a new container: it reads the stored model with the index
        ids, params = [], {"sort": "best"}
        while True:
            status, body = api.call(
                "GET", f"/api/brands/search?{urlencode(params)}", auth_headers(token, brand_id)
            )
            assert status == 200, body
            ids += [int(card["id"]) for card in body["matches"]]
            if not body["nextCursor"]:
                return ids
            params = {"sort": "best", "cursor": body["nextCursor"]}

    rules = best_fit()
    store_values_model(evidence=0)
    assert best_fit() == rules  # no evidence yet: the fresh value alone
    store_values_model(evidence=20_000)
    blended = best_fit()
    assert blended != rules and sorted(blended) == sorted(rules)
    vegan = {int(b.brand_id) for b in BrandItem.find_many(rules) if "vegan" in (b.values or ())}

    def place(order: list[int]) -> float:
        return sum(order.index(i) for i in vegan) / len(vegan)

    assert vegan and place(blended) < place(rules)


def _kept_views() -> list:
    from datetime import UTC, datetime

    from tandem.store.learning import ShownCards

    today = datetime.now(UTC).strftime("%Y%m%d")
    return sorted(ShownCards.of_day(today), key=lambda v: v.offset)


def keep(api, who: Brand, view) -> tuple[int, dict]:
    return api.call("POST", "/api/brands/search/views", who.headers, {"view": view})


def test_a_page_the_screen_shows_is_kept_as_what_the_brand_was_shown(api, operations):
    """Issue 37: the search writes nothing; the screen hands each page's view back once it shows
    it, and the API keeps its cards in order, with their fit and their place in the results."""
    me = Brand(
        "me@example.com", "Oat & Co", category="food & drink", countries=["GB"], collab_kinds=["giveaways"]
    )
    directory(25)
    operations.clear()
    first = search(api, me, sort="name")[1]
    assert not {"PutItem", "UpdateItem"} & set(operations)  # the GET writes nothing
    second = search(api, me, sort="name", cursor=first["nextCursor"])[1]
    assert first["view"] and second["view"] and first["view"] != second["view"]
    operations.clear()
    assert keep(api, me, first["view"]) == (200, {"kept": 20})
    assert operations == ["BatchGetItem", "PutItem"]
    assert keep(api, me, second["view"]) == (200, {"kept": 8})
    assert keep(api, me, first["view"]) == (200, {"kept": 20})  # again: the same record
    kept = _kept_views()
    assert [(v.viewer, v.surface, v.offset) for v in kept] == [(me.id, "search", 0), (me.id, "search", 20)]
    assert kept[0].ids == [c["id"] for c in first["matches"]]
    assert kept[0].percents == [c["score"] for c in first["matches"]]
    assert kept[1].ids == [c["id"] for c in second["matches"]]
    assert {a for v in kept for a in [v.account]} == {me.user.account_id}
    assert all(v.ttl > time.time() + 59 * 86400 for v in kept)
    # A page with nothing on it has no view to keep.
    assert search(api, me, q="zzzzzz")[1]["view"] is None


def test_the_training_job_learns_from_search_pages_at_their_place(api, monkeypatch):
    from tandem.domain.matching import training
    from tandem.services import match_learning

    me = Brand("me@example.com", "Oat & Co", category="food & drink", countries=["GB"])
    directory(25)
    first = search(api, me, sort="name")[1]
    second = search(api, me, sort="name", cursor=first["nextCursor"])[1]
    for body in (first, second):
        assert keep(api, me, body["view"])[0] == 200
    seen: list = []
    real = training.train

    def watched(impressions, actions, records):
        seen.extend(impressions)
        return real(impressions, actions, records)

    monkeypatch.setattr(training, "train", watched)
    assert match_learning.train()["views"] == 2
    by_offset = sorted(seen, key=lambda imp: imp.cards[0][1])
    assert [imp.surface for imp in by_offset] == ["search", "search"]
    assert [c[:2] for c in by_offset[1].cards] == [(c["id"], 20 + k) for k, c in enumerate(second["matches"])]


@pytest.mark.parametrize(
    "case", ["altered", "another brand", "an hour old", "not a view", "missing", "a number"]
)
def test_a_view_that_is_not_this_brands_recent_search_is_refused_and_nothing_is_kept(api, case):
    from tandem.services import tokens

    me = Brand("me@example.com", "Oat & Co", category="food & drink", countries=["GB"])
    them = Brand("them@example.com", "Wren Studio", category="food & drink", countries=["GB"])
    directory()
    view = search(api, me, q="northwind")[1]["view"]
    head, body, signature = view.split(".")
    views = {
        "altered": f"{head}.{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{signature}",
        "another brand": search(api, them, q="northwind")[1]["view"],
        "an hour old": tokens.issue_view_token(
            tokens.ShownView(me.id, "search", 1, 0, ((1, 50),), int((time.time() - 3601) * 1000))
        ),
        "not a view": me.token,  # an access token is never a view
        "missing": None,
        "a number": 12,
    }
    status, answer = keep(api, me, views[case])
    assert (status, answer) == (400, {"error": "view must be a view a search gave in the last hour"})
    assert _kept_views() == []


def test_a_view_is_kept_only_for_the_callers_own_brand(api):
    me = Brand("me@example.com", "Oat & Co")
    them = Brand("them@example.com", "Moss Goods")
    directory()
    view = search(api, them, q="northwind")[1]["view"]
    status, _ = api.call("POST", "/api/brands/search/views", auth_headers(me.token, them.id), {"view": view})
    assert status == 403
    assert _kept_views() == []
