"""Matches API (docs/api.md "Matches"): lists, name visibility, save / unsave, dismiss / undo."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tandem.store import keys
from tandem.store.matches import Match, MatchCards
from tandem.store.models import BrandRelation
from tests.factories import auth_headers, member, population
from tests.functional.helpers import Brand, subscribe, wait_for_run


def add_match(
    brand_id: int, other_id: int, score: float, reasons=("They want giveaways, like you",), seen=False
):
    """A match as a run stores it (new to the brand unless `seen`): its Match item, and the
    brand's match list with it (MatchCards, the list the Matches screen reads)."""
    from tandem.store import news

    if not seen:
        news.add(brand_id, news.MATCHES, [other_id])
    match = Match(
        keys.brand_pk(brand_id),
        keys.match_sk(other_id),
        brand_id=brand_id,
        candidate_id=other_id,
        score=score,
        reasons=list(reasons),
        run_id="run",
        created_at=datetime.now(UTC),
    )
    match.save()
    listed = MatchCards.find(brand_id)
    cards = {**(listed.listed() if listed else {}), other_id: MatchCards.from_match(match)}
    MatchCards.of(brand_id, "run", cards.values(), datetime.now(UTC)).save()


def request_state(brand_id: int, other_id: int, state: str) -> None:
    BrandRelation.at(brand_id, other_id).update(
        actions=BrandRelation.request_state_actions(brand_id, other_id, state, "req-1")
    )


def listing(api, token, brand_id: int, which: str = "potentials", query: str = "") -> dict:
    status, body = api.call("GET", f"/api/matches?list={which}{query}", auth_headers(token, brand_id))
    assert status == 200, body
    return body


@pytest.fixture
def scene(api):
    """A subscribed member's brand with four matches of other members' brands."""
    user, (mine,), token = member()
    subscribe(user.account_id)
    _, others, _ = member(
        "others@example.com",
        brand_names=("Oat & Honey", "Fern Candles", "Salt Studio", "Moss Goods"),
        category="home",
    )
    me = int(mine.brand_id)
    ids = [int(b.brand_id) for b in others]
    for other_id, score in zip(ids, (0.87, 0.91, 0.15, 0.86), strict=True):
        add_match(me, other_id, score)
    return user, me, ids, token


def test_potentials_are_match_cards_best_first(api, scene):
    _, me, ids, token = scene
    body = listing(api, token, me)
    cards = body["matches"]
    assert [c["id"] for c in cards] == [ids[1], ids[0], ids[3], ids[2]]
    assert [c["score"] for c in cards] == [91, 87, 86, 15]
    assert [c["fit"] for c in cards] == ["Great fit", "Good fit", "Good fit", "Worth a look"]
    assert set(cards[0]) == {
        "id",
        "name",
        "nameVisible",
        "logoUrl",
        "category",
        "description",
        "reasons",
        "score",
        "fit",
        "fitPromise",
        "saved",
        "isNew",
        "replyLabels",
    }
    assert cards[0]["name"] == "Fern Candles" and cards[0]["nameVisible"] is True
    assert cards[0]["reasons"] == ["They want giveaways, like you"]
    assert cards[0]["category"] == "home"
    assert all(c["isNew"] for c in cards) and not any(c["saved"] for c in cards)
    assert all(c["replyLabels"] == [] for c in cards)  # no requests received yet: no label
    assert body["showingBrandNames"] is True
    assert body["runOutstanding"] is False and body["runId"] is None


def test_listing_potentials_marks_them_seen_so_the_menu_count_drops(api, scene):
    _, me, ids, token = scene
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 4
    listing(api, token, me, "saved")  # the saved list does not count as seeing potentials
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 4
    assert all(c["isNew"] for c in listing(api, token, me)["matches"])
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 0
    assert not any(c["isNew"] for c in listing(api, token, me)["matches"])


def test_potentials_leave_out_dismissed_requested_connected_and_declined_brands(api):
    user, (mine,), token = member()
    _, others, _ = member("others@example.com", brand_names=tuple(f"Brand {i}" for i in range(7)))
    me = int(mine.brand_id)
    ids = [int(b.brand_id) for b in others]
    for other_id in ids:
        add_match(me, other_id, 0.5)
    BrandRelation.set_flags(me, ids[0], dismissed=True)
    for other_id, state in zip(
        ids[1:6], ("requested-out", "requested-in", "connected", "declined-out", "declined-in"), strict=True
    ):
        request_state(me, other_id, state)
    request_state(me, ids[6], "cancelled")  # a cancelled request may be suggested again
    cards = listing(api, token, me)["matches"]
    assert [c["id"] for c in cards] == [ids[6]]
    # The hidden ones are not "new" either: the menu count reaches 0.
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 0


def test_save_and_unsave_are_reflected_in_both_lists(api, scene):
    _, me, ids, token = scene
    status, body = api.call("PUT", f"/api/matches/{ids[2]}/saved", auth_headers(token, me))
    assert status == 200 and body == {"saved": True}
    saved = listing(api, token, me, "saved")["matches"]
    assert [c["id"] for c in saved] == [ids[2]]
    assert saved[0]["saved"] is True and saved[0]["score"] == 15
    potentials = {c["id"]: c for c in listing(api, token, me)["matches"]}
    assert potentials[ids[2]]["saved"] is True

    status, body = api.call("DELETE", f"/api/matches/{ids[2]}/saved", auth_headers(token, me))
    assert status == 200 and body == {"saved": False}
    assert listing(api, token, me, "saved")["matches"] == []
    assert not any(c["saved"] for c in listing(api, token, me)["matches"])


def test_a_saved_brand_that_is_not_a_stored_match_is_scored_on_the_spot(api):
    _, (mine,), token = member(
        category="food & drink",
        collab_kinds=["giveaways"],
        values=["vegan"],
        countries=["GB"],
        age_bands=["25-34"],
    )
    _, (theirs,), _ = member(
        "other@example.com",
        category="home",
        collab_kinds=["giveaways"],
        values=["vegan"],
        countries=["GB"],
        age_bands=["25-34"],
    )
    me, other = int(mine.brand_id), int(theirs.brand_id)
    api.call("PUT", f"/api/matches/{other}/saved", auth_headers(token, me))
    (card,) = listing(api, token, me, "saved")["matches"]
    assert card["id"] == other and card["isNew"] is False and card["saved"] is True
    assert 0 < card["score"] <= 100 and card["fit"] in ("Great fit", "Good fit", "Worth a look")
    assert any("giveaways" in reason for reason in card["reasons"])


def test_dismiss_and_undo(api, scene):
    _, me, ids, token = scene
    api.call("PUT", f"/api/matches/{ids[1]}/saved", auth_headers(token, me))
    status, body = api.call("PUT", f"/api/matches/{ids[1]}/dismissed", auth_headers(token, me))
    assert status == 200 and body == {"dismissed": True}
    assert ids[1] not in [c["id"] for c in listing(api, token, me)["matches"]]
    assert listing(api, token, me, "saved")["matches"] == []  # dismissing unsaves
    rel = BrandRelation.find(me, ids[1], consistent=True)
    assert rel.dismissed is True and rel.saved is False

    status, body = api.call("DELETE", f"/api/matches/{ids[1]}/dismissed", auth_headers(token, me))
    assert status == 200 and body == {"dismissed": False}
    assert listing(api, token, me)["matches"][0]["id"] == ids[1]


def test_dismissing_an_unseen_match_clears_it_from_the_menu_count(api, scene):
    _, me, ids, token = scene
    api.call("PUT", f"/api/matches/{ids[0]}/dismissed", auth_headers(token, me))
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 3


@pytest.mark.parametrize(
    ("method", "suffix"),
    [("PUT", "saved"), ("DELETE", "saved"), ("PUT", "dismissed"), ("DELETE", "dismissed")],
)
def test_save_or_dismiss_of_an_unknown_own_or_malformed_brand_changes_nothing(api, method, suffix):
    _, (mine, my_other), token = member(brand_names=("Oat & Co", "Fern Candles"))
    me = int(mine.brand_id)
    status, body = api.call(method, f"/api/matches/987654/{suffix}", auth_headers(token, me))
    assert status == 404 and body == {"error": "Brand not found"}
    status, body = api.call(
        method, f"/api/matches/{int(my_other.brand_id)}/{suffix}", auth_headers(token, me)
    )
    assert status == 400 and body == {"error": "That is one of your own brands"}
    status, body = api.call(method, f"/api/matches/{me}/{suffix}", auth_headers(token, me))
    assert status == 400
    status, body = api.call(method, f"/api/matches/0x1/{suffix}", auth_headers(token, me))
    assert status == 400 and body == {"error": "Brand id must be a positive number"}
    assert BrandRelation.of_brand(me) == {}


def test_another_members_brand_in_the_header_changes_nothing(api, scene):
    _, me, ids, token = scene
    _, (stranger,), _ = member("stranger@example.com")
    status, _ = api.call("PUT", f"/api/matches/{ids[0]}/saved", auth_headers(token, int(stranger.brand_id)))
    assert status == 403
    status, _ = api.call("GET", "/api/matches", auth_headers(token, ids[0]))
    assert status == 403
    assert BrandRelation.of_brand(int(stranger.brand_id)) == {}
    assert BrandRelation.of_brand(me) == {}
    assert list(BrandRelation.scan(BrandRelation.sk.startswith("REL#"))) == []


def test_a_non_subscriber_sees_masked_names(api):
    user, (mine,), token = member()
    _, (theirs,), _ = member(
        "other@example.com",
        brand_names=("Oat & Honey",),
        category="food & drink",
        description="Oat & Honey bakes.",
    )
    me, other = int(mine.brand_id), int(theirs.brand_id)
    add_match(me, other, 0.8)
    body = listing(api, token, me)
    (card,) = body["matches"]
    assert body["showingBrandNames"] is False
    assert card["name"] == "A food & drink brand" and card["nameVisible"] is False
    assert card["logoUrl"] is None and card["description"] == "This brand bakes."
    assert card["score"] == 80 and card["reasons"]
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["showingBrandNames"] is False and dash["showingBrandNamesGlobal"] is True

    subscribe(user.account_id)
    body = listing(api, token, me)
    assert body["showingBrandNames"] is True
    assert body["matches"][0]["name"] == "Oat & Honey" and body["matches"][0]["nameVisible"] is True
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["showingBrandNames"] is True


@pytest.mark.parametrize(
    ("status", "sees"),
    [("trialling", True), ("pending_approval", True), ("gifted", False), ("cancelled", False)],
)
def test_which_subscriptions_show_names(api, status, sees):
    user, (mine,), token = member()
    _, (theirs,), _ = member("other@example.com", brand_names=("Oat & Honey",))
    add_match(int(mine.brand_id), int(theirs.brand_id), 0.5)
    subscribe(user.account_id, status)
    (card,) = listing(api, token, int(mine.brand_id))["matches"]
    assert card["nameVisible"] is sees


def test_a_hidden_name_stays_masked_for_subscribers_but_not_for_connected_brands(api):
    user, (mine,), token = member()
    subscribe(user.account_id)
    _, (hidden, connected), their_token = member(
        "other@example.com", brand_names=("Secret Soap", "Quiet Candles"), category="beauty"
    )
    for brand in (hidden, connected):
        status, _ = api.call(
            "PUT", f"/api/brands/{int(brand.brand_id)}", auth_headers(their_token), {"hideName": True}
        )
        assert status == 200
    me = int(mine.brand_id)
    add_match(me, int(hidden.brand_id), 0.5)
    add_match(me, int(connected.brand_id), 0.6)
    BrandRelation.set_flags(me, int(connected.brand_id), saved=True)
    request_state(me, int(connected.brand_id), "connected")
    (card,) = listing(api, token, me)["matches"]  # connected brands are not potentials
    assert card["name"] == "A beauty brand" and card["nameVisible"] is False
    (saved,) = listing(api, token, me, "saved")["matches"]
    assert saved["name"] == "Quiet Candles" and saved["nameVisible"] is True

    _, dash = api.call("GET", "/api/dashboard", auth_headers(their_token, int(hidden.brand_id)))
    assert dash["brandInfoPublic"] is False
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["brandInfoPublic"] is True


def test_brand_ids_filter(api, scene):
    _, me, ids, token = scene
    body = listing(api, token, me, query=f"&brandIds={ids[0]},{ids[2]},999999")
    assert [c["id"] for c in body["matches"]] == [ids[0], ids[2]]
    # Only what was listed is seen.
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, me))
    assert dash["menuCounts"]["matches"] == 2


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("list=everything", "list must be potentials or saved"),
        ("list=potentials&brandIds=1,abc", "brandIds must be brand ids separated by commas"),
        ("list=potentials&brandIds=-4", "brandIds must be brand ids separated by commas"),
        ("brandIds=" + ",".join(str(i) for i in range(1, 102)), "Ask for at most 100 brands at a time"),
    ],
)
def test_bad_list_queries_are_400(api, query, message):
    _, (mine,), token = member()
    status, body = api.call("GET", f"/api/matches?{query}", auth_headers(token, int(mine.brand_id)))
    assert status == 400 and body == {"error": message}


def test_list_defaults_to_potentials_and_joins_more_than_100_brands(api):
    user, (mine,), token = member()
    subscribe(user.account_id)
    others = population(130)
    me = int(mine.brand_id)
    for i, other in enumerate(others):
        add_match(me, int(other.brand_id), (i + 1) / 200, seen=True)
    status, body = api.call("GET", "/api/matches", auth_headers(token, me))
    assert status == 200
    assert len(body["matches"]) == 130
    assert body["matches"][0]["name"] == others[-1].name
    assert body["matches"][-1]["score"] == 0  # 0.005 rounds to 0 of 100


def test_fifty_new_match_cards_load_in_at_most_three_dynamodb_calls(api, operations):
    """The house rule for a screen's load: the brand's partition, one BatchGetItem of the 50
    brands with the caller's and viewer's items (the cards' reply labels are on the match list:
    nobody's reply figures are read), and the UpdateItem that marks the new matches seen."""
    user, (mine,), token = member()
    subscribe(user.account_id)
    others = population(50)
    me = int(mine.brand_id)
    for i, other in enumerate(others):
        add_match(me, int(other.brand_id), (i + 1) / 100)
    operations.clear()
    body = listing(api, token, me)
    assert len(body["matches"]) == 50
    assert len(operations) <= 3, operations
    assert operations.count("BatchGetItem") == 1, operations


def test_a_brand_page_loads_in_three_dynamodb_calls_and_writes_its_open(api, operations, written_items):
    """The house rule for a screen's load (the day replay of issue 42 found five): the Viewer's
    BatchGetItem, one BatchGetItem of the brand, the relation, the match and the reply figures,
    and the one item a GET may write, the open matching learns from."""
    user, (mine,), token = member()
    subscribe(user.account_id)
    (other,) = population(1)
    me, them = int(mine.brand_id), int(other.brand_id)
    add_match(me, them, 0.5)
    BrandRelation.set_flags(me, them, saved=True)
    operations.clear()
    written_items.clear()
    status, body = api.call("GET", f"/api/brand/{them}", auth_headers(token, me))
    assert status == 200, body
    assert body["brand"]["id"] == them
    assert body["relation"]["saved"] is True
    assert operations == ["BatchGetItem", "BatchGetItem", "PutItem"], operations
    assert len(written_items) == 1, written_items


def test_the_first_view_after_a_run_writes_one_item_and_keeps_its_cards(api, written_items):
    """A GET writes at most one item: the view that clears new matches keeps its cards on the
    same BrandSeen item (what matching learns from, issue 37), in one UpdateItem; a view of the
    same list again writes nothing; a save keeps its action."""
    from tandem.services import match_learning
    from tandem.store import news
    from tandem.store.learning import CardAction, unpack_views

    user, (mine,), token = member()
    subscribe(user.account_id)
    others = population(5)
    me = int(mine.brand_id)
    for i, other in enumerate(others):
        add_match(me, int(other.brand_id), (i + 1) / 10)
    written_items.clear()
    body = listing(api, token, me)
    assert all(c["isNew"] for c in body["matches"])
    assert written_items == [("UpdateItem", keys.SEEN)]
    (view,) = unpack_views(news.read(me).views)
    assert [i for i, _, _ in view.cards] == [c["id"] for c in body["matches"]]
    assert [p for _, p, _ in view.cards] == [c["score"] for c in body["matches"]]
    assert {p for _, _, p in view.cards} == {1.0}

    written_items.clear()
    again = listing(api, token, me)
    assert not any(c["isNew"] for c in again["matches"])
    assert written_items == []  # nothing new, the same cards: no write at all

    add_match(me, int(population(1, "later")[0].brand_id), 0.95)  # a rerun finds one more
    written_items.clear()
    third = listing(api, token, me)
    assert [c["isNew"] for c in third["matches"]].count(True) == 1
    assert written_items == [("UpdateItem", keys.SEEN)]
    assert len(unpack_views(news.read(me).views)) == 2

    status, _ = api.call("PUT", f"/api/matches/{int(others[0].brand_id)}/saved", auth_headers(token, me))
    assert status == 200
    day = match_learning._days(int(datetime.now(UTC).timestamp()), 1)[0]
    (saved,) = [a for a in CardAction.of_day(day) if a.kind == "save"]
    assert (int(saved.actor), int(saved.target)) == (me, int(others[0].brand_id))


def _new_brand(api, token: str) -> dict:
    """A member adds a full brand profile (POST /api/brands): the answer, with its first run's id."""
    status, created = api.call(
        "POST",
        "/api/brands",
        auth_headers(token),
        {
            "name": "Pebble Paper Co",
            "category": "home",
            "values": ["sustainable", "vegan", "local"],
            "collabKinds": ["giveaways", "newsletter swaps", "content swaps"],
            "audience": {
                "countries": ["GB", "US", "IE"],
                "ageBands": ["25-34", "35-44"],
                "genders": ["women"],
            },
        },
    )
    assert status == 201, created
    return created


def test_a_new_brand_gets_matches_with_reasons_from_its_first_run(api):
    user, _, token = member()
    subscribe(user.account_id)
    population(40)
    created = _new_brand(api, token)
    brand_id = created["brand"]["id"]
    check = wait_for_run(api, token, brand_id, created["runId"])
    assert check["status"] == "done", check
    assert check["dashboard"]["menuCounts"]["matches"] > 0
    cards = listing(api, token, brand_id)["matches"]
    assert cards and all(c["reasons"] for c in cards)
    assert all(0 <= c["score"] <= 100 for c in cards)
    # In the run's diversified order (its rank), not re-sorted by score.

    ranks = {candidate: int(m.rank) for candidate, m in Match.of_brand(brand_id).items()}
    assert [c["id"] for c in cards] == sorted((c["id"] for c in cards), key=ranks.__getitem__)
    assert all(c["nameVisible"] and c["name"].startswith("Brand ") for c in cards)
    _, dash = api.call("GET", "/api/dashboard", auth_headers(token, brand_id))
    assert dash["menuCounts"]["matches"] == 0


def test_a_runs_exploration_places_reach_the_view_with_the_probability_they_had(api):
    """Issue 37's exploration: a run gives one place in ten to a brand the model is unsure of
    (every population brand's profile is incomplete), drawn at random; the match list keeps the
    probability each card had of being there and the Matches view keeps it for training: below
    1 for the explored cards, 1 for the ranked ones."""
    from tandem.domain.matching import explore
    from tandem.store import news
    from tandem.store.learning import unpack_views

    user, _, token = member()
    subscribe(user.account_id)
    population(120)
    created = _new_brand(api, token)
    brand_id = created["brand"]["id"]
    assert wait_for_run(api, token, brand_id, created["runId"])["status"] == "done"
    listed = MatchCards.find(brand_id).listed()
    assert len(listed) == 50
    body = listing(api, token, brand_id)
    (view,) = unpack_views(news.read(brand_id).views)
    assert [i for i, _, _ in view.cards] == [c["id"] for c in body["matches"]]
    explored = [k for k, (_, _, p) in enumerate(view.cards) if p < 1]
    assert explored == explore.places(50)
    assert all(abs(p - listed[i].propensity) <= 1 / 255 for i, _, p in view.cards)
    assert all(0 < listed[view.cards[k][0]].propensity < 1 for k in explored)


def test_a_last_step_cut_off_after_writing_the_matches_still_counts_them_new_when_retried(api, monkeypatch):
    """The state machine retries a Finalize that timed out after its batch write: the matches
    it wrote are still new to the brand (they were left uncounted, and the local stack's menu
    count read 0 when a second run of the brand overlapped)."""
    from tandem.domain.matching import Scored
    from tandem.services import match_runs

    me = Brand("me@example.com", "Oat & Co")
    others = [Brand(f"o{i}@example.com", f"Brand {i}", status="none") for i in range(3)]
    chosen = [Scored(o.id, 0.9 - i / 10, ("They want giveaways, like you",)) for i, o in enumerate(others)]

    class CutOff(Exception):
        pass

    real = Match.batch_write

    class WritesThenDies:
        def __init__(self, *args, **kwargs) -> None:
            self.batch = real(*args, **kwargs)

        def __enter__(self):
            return self.batch.__enter__()

        def __exit__(self, *exc) -> None:
            self.batch.__exit__(None, None, None)  # every match is written...
            raise CutOff  # ...and the Lambda is stopped before the step ends

    monkeypatch.setattr(Match, "batch_write", WritesThenDies)
    with pytest.raises(CutOff):
        match_runs.store_matches(me.id, "run-1", chosen, [])
    monkeypatch.undo()
    match_runs.store_matches(me.id, "run-1", chosen, [])  # the retry

    status, dash = api.call("GET", "/api/dashboard", me.headers)
    assert status == 200, dash
    assert dash["menuCounts"]["matches"] == 3


def test_the_list_is_the_runs_match_list_with_each_brand_as_it_is_now(api):
    """A run writes the match list once; the brands on it are shown as they are when listed:
    renamed, hiding their name since the run, or gone."""
    from tandem.domain.matching import Scored
    from tandem.services import match_runs
    from tandem.store.models import Brand as BrandItem

    user, (mine,), token = member()
    subscribe(user.account_id)
    _, others, their_token = member(
        "others@example.com", brand_names=("Oat & Honey", "Fern Candles", "Salt Studio"), category="home"
    )
    me, ids = int(mine.brand_id), [int(b.brand_id) for b in others]
    chosen = [Scored(i, 0.9 - n / 10, ("They want giveaways, like you",)) for n, i in enumerate(ids)]
    match_runs.store_matches(me, "run-1", chosen, [])
    assert [c["name"] for c in listing(api, token, me)["matches"]] == [
        "Oat & Honey",
        "Fern Candles",
        "Salt Studio",
    ]

    status, _ = api.call("PUT", f"/api/brands/{ids[0]}", auth_headers(their_token), {"name": "Oat & Rye"})
    assert status == 200
    status, _ = api.call("PUT", f"/api/brands/{ids[1]}", auth_headers(their_token), {"hideName": True})
    assert status == 200
    BrandItem.at(ids[2]).delete()
    cards = listing(api, token, me)["matches"]
    assert [(c["id"], c["name"], c["nameVisible"]) for c in cards] == [
        (ids[0], "Oat & Rye", True),
        (ids[1], "A home brand", False),
    ]
    assert cards[1]["logoUrl"] is None and cards[0]["score"] == 90


def test_matches_stored_before_the_match_list_existed_are_still_listed(api):
    """A brand whose last run wrote only Match items (no MatchCards item yet) is listed from them."""
    user, (mine,), token = member()
    subscribe(user.account_id)
    _, (theirs,), _ = member("other@example.com", brand_names=("Oat & Honey",))
    me, other = int(mine.brand_id), int(theirs.brand_id)
    add_match(me, other, 0.7)
    MatchCards.at(me).delete()
    (card,) = listing(api, token, me)["matches"]
    assert (card["id"], card["name"], card["score"], card["isNew"]) == (other, "Oat & Honey", 70, True)


def _lost_run(brand_id: int, started: datetime) -> str:
    """A queued run whose execution never started or was lost: recorded as start_run records one."""
    import uuid

    from tandem.services import match_runs
    from tandem.store.matches import MatchRun

    run_id = uuid.uuid4().hex
    MatchRun(
        *MatchRun.key(brand_id, run_id),
        run_id=run_id,
        brand_id=brand_id,
        status=match_runs.QUEUED,
        message=match_runs.RUNNING_MESSAGE,
        trigger="on-demand",
        started_at=started,
        gsi2pk=MatchRun.status_key(match_runs.QUEUED),
        gsi2sk=started.isoformat(),
    ).save()
    return run_id


def test_the_sweep_fails_a_run_open_past_15_minutes_and_its_member_is_told(api, aws):
    """The scheduler's fail-stuck-match-runs job, invoked as the local clock control invokes it
    (with `now`, epoch seconds, as every job takes it): a run queued 20 minutes before is failed
    with the message the Matches page shows, one queued 5 minutes before is left running."""
    import json
    from datetime import timedelta

    from tandem.integrations.aws import client
    from tandem.services import match_runs

    _, (brand,), token = member()
    brand_id = int(brand.brand_id)
    now = datetime(2027, 1, 31, 10, 0, tzinfo=UTC)
    lost = _lost_run(brand_id, now - timedelta(minutes=20))
    young = _lost_run(brand_id, now - timedelta(minutes=5))

    answer = client("lambda").invoke(
        FunctionName=aws.functions["SchedulerFunction"].name,
        Payload=json.dumps({"job": "fail-stuck-match-runs", "now": int(now.timestamp())}).encode(),
    )
    assert "FunctionError" not in answer
    assert json.loads(answer["Payload"].read()) == {"job": "fail-stuck-match-runs", "result": 1}

    headers = auth_headers(token, brand_id)
    status, check = api.call("GET", f"/api/matching/run-check/{lost}/{brand_id}", headers)
    assert status == 200
    assert (check["status"], check["message"]) == ("failed", match_runs.FAILED_MESSAGE)
    status, check = api.call("GET", f"/api/matching/run-check/{young}/{brand_id}", headers)
    assert (status, check["status"]) == (200, "queued")
