import random

import pytest

from tandem.domain import brand_profile, matching
from tandem.domain.matching import (
    Packed,
    Profile,
    Scored,
    diversify,
    explain,
    merge_ranked,
    pack,
    rank,
    score_packed,
    score_pair,
    split_batches,
    top_positions,
    unpack,
)


def p(brand_id, account="a", **kw):
    return Profile(
        brand_id=brand_id,
        account_id=account,
        **{k: frozenset(v) if isinstance(v, list) else v for k, v in kw.items()},
    )


OAT = dict(
    category="food & drink",
    company_size="11-50",
    collab_kinds=["giveaways", "newsletter swaps"],
    values=["sustainable", "vegan"],
    countries=["GB"],
    age_bands=["25-34"],
    genders=["women"],
)


def test_mutual_fit_ranks_above_a_fit_that_only_suits_me():
    me = p(1, "me", **OAT)
    # Suits both: same market and audience, wants what I want, complementary category.
    mutual = p(2, "x", **{**OAT, "category": "home"})
    # Serves my audience (its markets include GB) and wants my kinds, but I reach a sliver of
    # its customers, it is far larger than me and it wants many things I do not offer.
    one_sided = p(
        3,
        "y",
        category="home",
        company_size="200+",
        collab_kinds=["giveaways", "newsletter swaps", "events", "bundles", "sampling", "pop-ups"],
        values=["sustainable", "vegan", "premium", "local", "organic", "B Corp"],
        countries=["GB", "US", "FR", "DE", "NL", "AU"],
        age_bands=["25-34", "35-44", "45-54"],
        genders=["women", "men"],
    )
    fit_mine = matching.fit(me, one_sided)
    assert fit_mine >= matching.fit(me, mutual) * 0.95  # it suits me about as well...
    assert matching.fit(one_sided, me) < 0.5 * matching.fit(mutual, me)  # ...but I do not suit it
    ranked = rank(me, [one_sided, mutual], limit=10)
    assert [s.candidate_id for s in ranked] == [2, 3]
    assert score_pair(me, one_sided).score < score_pair(me, mutual).score


def test_scores_are_symmetric_and_one_sided_cannot_dominate():
    a = p(1, "a", **OAT)
    b = p(2, "b", category="wellness", collab_kinds=["giveaways"], countries=["GB", "IE"])
    assert score_pair(a, b).score == score_pair(b, a).score
    assert matching.combine(1.0, 0.0, False) == 0.0
    assert matching.combine(0.9, 0.1, False) < matching.combine(0.5, 0.5, False)


def test_reasons_are_worded_for_members_with_country_names():
    me = p(1, "me", **OAT)
    other = p(2, "x", **{**OAT, "category": "home", "countries": ["GB", "IE"]})
    reasons, _ = explain(me, other)
    many = p(5, "z", countries=["GB", "IE", "FR", "DE", "NL"], genders=["women", "men"])
    mine_many = p(6, "me", countries=["GB", "IE", "FR", "DE", "NL"], genders=["women", "men"])
    assert explain(mine_many, many)[0] == (
        "You both reach women and men in France, Germany and 3 more countries",
    )
    assert reasons == (
        "You both reach women 25-34 in the UK",
        "They want giveaways and newsletter swaps, like you",
        "You share sustainable and vegan values",
        "Their home products complement your food & drink range",
    )
    partial = p(3, "y", category="pets", collab_kinds=["newsletter swaps"], countries=["IE", "FR", "NL"])
    mine = p(4, "me", category="outdoors", collab_kinds=["newsletter swaps"], countries=["NL", "IE", "FR"])
    assert explain(mine, partial)[0] == (
        "You both reach people in France, Ireland and the Netherlands",
        "They want newsletter swaps, like you",
        "Their pet products complement your outdoor range",
    )


def test_neighbouring_age_bands_read_as_one_range():
    assert matching.age_ranges(["25-34", "35-44"]) == ["25-44"]
    assert matching.age_ranges(["18-24", "45-54", "55+"]) == ["18-24", "45+"]
    assert matching.age_ranges(["under 18", "18-24"]) == ["under 25"]
    me = p(1, "me", countries=["US"], age_bands=["25-34", "35-44", "55+"], genders=["men"])
    other = p(2, "x", countries=["US"], age_bands=["25-34", "35-44", "55+"], genders=["men", "women"])
    assert explain(me, other)[0][0] == "You both reach men 25-44 and 55+ in the US"


def test_no_reason_for_competing_categories_and_nothing_in_common():
    me = p(1, "me", category="beauty", collab_kinds=["events"], countries=["US"])
    rival = p(2, "x", category="beauty", collab_kinds=["bundles"], countries=["FR"])
    assert explain(me, rival)[0] == ()
    same = p(3, "y", **{**OAT, "category": "beauty"})
    other = p(4, "z", **{**OAT, "category": "wellness"})
    base = p(5, "me", **{**OAT, "category": "beauty"})
    assert score_pair(base, same).score < score_pair(base, other).score


def test_rank_excludes_own_account_itself_excluded_and_zero():
    me = p(1, "mine", **OAT)
    sibling = p(2, "mine", **OAT)
    good = p(3, "x", **{**OAT, "category": "home"})
    dismissed = p(4, "y", **{**OAT, "category": "home"})
    ranked = rank(me, [me, sibling, good, dismissed], limit=10, exclude={4})
    assert [s.candidate_id for s in ranked] == [3]


def test_diversity_breaks_up_near_copies_only_among_near_ties():
    # Matching keeps score order (DIVERSITY_MARGIN 0: ties only, issue 37); with a margin, ten
    # near-identical home brands score a hair above one different (wellness) brand.
    copies = [
        Scored(i, 0.80 - i * 0.001, ("r",), "home", frozenset({"kinds:giveaways", "values:vegan"}))
        for i in range(10)
    ]
    different = Scored(99, 0.79, ("s",), "wellness", frozenset({"audience:GB"}))
    plain = merge_ranked([[*copies, different]], limit=5)
    assert 99 not in [s.candidate_id for s in plain]
    assert diversify([*copies, different], limit=5) == plain  # the default: score order
    diverse = diversify([*copies, different], limit=5, margin=0.03)
    assert [s.candidate_id for s in diverse][:2] == [0, 99]
    assert diversify([*copies, different], limit=5, lam=1.0) == plain
    # A clearly weaker different brand (8% below) is never pulled above the better ones.
    far = Scored(98, 0.74, ("s",), "wellness", frozenset({"audience:GB"}))
    assert diversify([*copies, far], limit=5, margin=0.03) == merge_ranked([[*copies, far]], limit=5)


def test_same_category_is_allowed_and_audience_size_judged_both_ways():
    me = p(1, "me", **OAT)
    same = p(2, "x", **OAT)  # same category: another niche or tier is a fine partner
    assert score_pair(me, same).score > 0
    small = p(3, "s", **{**OAT, "category": "home", "audience_size": "1K-10K"})
    big = p(4, "b", **{**OAT, "category": "home", "audience_size": "100K-1M"})
    peer = p(5, "q", **{**OAT, "category": "home", "audience_size": "1K-10K"})
    # The small brand gains from the big one; the big one gains little from the small one.
    assert matching.fit(small, big) > matching.fit(big, small)
    # Both ways together: partners of like size rank first.
    assert score_pair(small, peer).score > score_pair(small, big).score
    back = unpack(pack(big), "b")
    assert back.audience_size == "100K-1M" and len(pack(big)) == matching.RECORD_SIZE


def test_a_pair_that_fails_on_one_field_ranks_below_one_middling_on_all():
    me = p(1, "me", **{**OAT, "countries": ["GB", "IE"], "age_bands": ["25-34", "35-44"]})
    # Perfect on every field but markets: it sells where I do not.
    elsewhere = p(2, "x", **{**OAT, "category": "home", "countries": ["FR"]})
    # Middling on all: one of my two markets, one of my two age bands, one of my two kinds of
    # collaboration, a size band bigger (an additive sum of the fields ranked it below).
    middling = p(
        3,
        "y",
        **{
            **OAT,
            "category": "home",
            "company_size": "51-200",
            "collab_kinds": ["giveaways", "events"],
            "countries": ["GB", "US"],
            "age_bands": ["35-44", "45-54"],
        },
    )
    assert score_pair(me, middling).score > 1.5 * score_pair(me, elsewhere).score
    ranked = rank(me, [elsewhere, middling], limit=10)
    assert [s.candidate_id for s in ranked] == [3, 2]
    # The packed form agrees.
    scores = score_packed(pack(me), Packed.from_bytes(pack(x) for x in (elsewhere, middling))).score
    assert scores[1] > 1.5 * scores[0]


def test_no_kind_in_common_sinks_a_pair_and_ticking_every_kind_tells_nothing():
    me = p(1, "me", **OAT)
    shared = p(2, "x", **{**OAT, "category": "home", "collab_kinds": ["giveaways", "events"]})
    not_given = p(3, "y", **{**OAT, "category": "home", "collab_kinds": []})
    every = p(4, "z", **{**OAT, "category": "home", "collab_kinds": list(matching.COLLAB_KINDS)})
    none_shared = p(5, "w", **{**OAT, "category": "home", "collab_kinds": ["events", "pop-ups"]})
    score = {x.brand_id: score_pair(me, x).score for x in (shared, not_given, every, none_shared)}
    assert score[2] > score[3] == score[4] > score[5]
    assert score[5] < 0.6 * score[2]
    ranked = rank(me, [none_shared, every, not_given, shared], limit=10)
    assert [s.candidate_id for s in ranked] == [2, 3, 4, 5]


def test_pack_round_trip_keeps_listed_terms():
    profile = p(42, "acct", **{**OAT, "values": ["sustainable", "something unlisted"]})
    back = unpack(pack(profile), "acct")
    assert back.brand_id == 42 and back.category == "food & drink" and back.company_size == "11-50"
    assert back.values == frozenset({"sustainable"})  # unlisted terms are hashed, not kept
    assert back.countries == frozenset({"GB"}) and back.genders == frozenset({"women"})
    assert len(pack(profile)) == matching.RECORD_SIZE


def _random_profile(rng, i):
    return Profile(
        i,
        f"acct{i % 300}",
        category=rng.choice((*brand_profile.CATEGORIES, "", "something else")),
        company_size=rng.choice((*brand_profile.COMPANY_SIZES, "")),
        audience_size=rng.choice((*matching.AUDIENCE_SIZES, "", "")),
        values=frozenset(rng.sample((*brand_profile.VALUES, "unlisted"), rng.randint(0, 3))),
        collab_kinds=frozenset(rng.sample(brand_profile.COLLAB_KINDS, rng.randint(0, 3))),
        countries=frozenset(rng.sample(["GB", "US", "IE", "FR", "DE", "NL", "ZA", "JP"], rng.randint(0, 3))),
        age_bands=frozenset(rng.sample(brand_profile.AGE_BANDS, rng.randint(0, 2))),
        genders=frozenset(rng.sample(brand_profile.GENDERS, rng.randint(0, 2))),
        niche=rng.choice(("skincare", "snacks", "camping", "")),
        price_tier=rng.choice((*matching.PRICE_TIERS, "")),
    )


def test_vectorised_scores_equal_the_plain_rules():
    rng = random.Random(7)
    profiles = [_random_profile(rng, i) for i in range(1, 801)]
    packed = Packed.from_bytes(pack(x) for x in profiles)
    for me in profiles[:5]:
        scores = score_packed(pack(me), packed, exclude=[profiles[-1].brand_id])
        for position, other in enumerate(profiles):
            expected = 0.0
            if other.account_id != me.account_id and other is not profiles[-1]:
                expected = score_pair(me, other).score
            assert scores.score[position] == pytest.approx(expected, abs=1e-3), (me, other)
        best = top_positions(scores.score, 10)
        plain = sorted(
            (x for x in profiles[:-1] if x.account_id != me.account_id),
            key=lambda x: -score_pair(me, x).score,
        )
        assert abs(scores.score[best[0]] - score_pair(me, plain[0]).score) < 1e-3


def test_top_positions_orders_best_first_and_skips_zero():
    import numpy as np

    scores = np.array([0.1, 0.0, 0.9, 0.5, 0.9], dtype=np.float32)
    assert top_positions(scores, 3).tolist() == [2, 4, 3]
    assert top_positions(scores, 10).tolist() == [2, 4, 3, 0]


def test_every_option_the_forms_offer_has_a_place_in_the_packed_form():
    # A term outside the vocabulary would only be hashed: matches still work, reasons omit it.
    assert set(brand_profile.CATEGORIES) <= set(matching.CATEGORIES)
    assert set(brand_profile.COMPANY_SIZES) <= set(matching.COMPANY_SIZES)
    assert set(brand_profile.VALUES) <= set(matching.VALUES)
    assert set(brand_profile.COLLAB_KINDS) <= set(matching.COLLAB_KINDS)
    assert set(brand_profile.AGE_BANDS) <= set(matching.AGE_BANDS)
    assert set(brand_profile.GENDERS) <= set(matching.GENDERS)
    assert brand_profile.COUNTRY_CODES <= set(matching.COUNTRIES)
    assert len(matching.COLLAB_KINDS) <= 64 and len(matching.VALUES) <= 64 and len(matching.AGE_BANDS) <= 16


def test_merge_keeps_global_best_and_split_covers_every_id():
    merged = merge_ranked([[Scored(1, 0.2), Scored(2, 0.9)], [Scored(3, 0.5)]], limit=2)
    assert [s.candidate_id for s in merged] == [2, 3]
    batches = split_batches(list(range(10)), 4)
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_a_run_suggests_only_candidates_it_can_give_reasons_for():
    from tandem.services import match_runs

    me = p(1, "me", **OAT)
    related = p(2, "x", **{**OAT, "category": "home"})
    blank = p(3, "y")  # nothing filled in: some score (unknowns get a little credit), no reason
    cands = Packed.from_bytes(pack(x) for x in (me, related, blank))
    top = match_runs._top_entries(pack(me), cands, excluded=[], saved=[])
    assert {entry[0] for entry in top["top"]} == {2, 3} and top["scored"] == 2
    chosen, extra = match_runs._choose(me, top["top"], saved=set())
    assert [s.candidate_id for s in chosen] == [2] and extra == []
    assert chosen[0].reasons[0] == "You both reach women 25-34 in the UK"


def test_the_logistic_fit_learns_what_the_rows_say():
    import numpy as np

    from tandem.domain.matching import learned

    profiles = [_random_profile(random.Random(3), i) for i in range(1, 60)]
    packed = Packed.from_bytes(pack(x) for x in profiles)
    features = learned.pair_features(pack(profiles[0]), packed)
    assert features.shape == (len(profiles), len(learned.FEATURES))
    # "More shared kinds, more yeses", with noise.
    x = np.array([[k] for k in (0.0, 0.2, 0.5, 0.8, 1.0) * 40])
    y = (x[:, 0] + np.tile([0.1, -0.1, 0.3, -0.3, 0.0], 40)[: len(x)] > 0.5).astype(float)
    slope, bias = learned.fit_logistic(x, y)
    assert slope > 0 and bias + slope > 0 > bias  # all shared: more likely yes than no; none: no


def test_same_category_competes_only_with_the_same_niche_and_a_like_price_tier():
    base = {**OAT, "category": "beauty"}
    me = p(1, "me", **base, niche="skincare", price_tier="mid-range")
    rival = p(2, "r", **base, niche="skincare", price_tier="premium")  # next tier: competitor
    other_niche = p(3, "n", **base, niche="makeup", price_tier="mid-range")
    cheaper = p(4, "t", **base, niche="skincare", price_tier="affordable")
    unknown = p(5, "u", **base, niche="skincare")  # no tier given: as before
    plain = p(6, "x", **base)
    me_far = p(7, "me2", **base, niche="skincare", price_tier="premium")
    cheap = p(8, "c", **base, niche="skincare", price_tier="affordable")
    base_score = score_pair(me, plain).score
    assert score_pair(me, rival).score == pytest.approx(base_score * matching.COMPETITOR_FACTOR, abs=1e-3)
    assert score_pair(me, rival).score < score_pair(me, other_niche).score == pytest.approx(base_score)
    assert score_pair(me, cheaper).score < base_score  # affordable and mid-range are neighbours
    assert score_pair(me_far, cheap).score == pytest.approx(base_score)  # premium and affordable are not
    assert score_pair(me, unknown).score == pytest.approx(base_score)
    # Another category with the same niche name is no competitor (a niche is of its category).
    # The packed form agrees, and keeps niche and tier in the same 66 bytes.
    cands = [rival, other_niche, cheaper, unknown, plain, cheap]
    packed = score_packed(pack(me), Packed.from_bytes(pack(c) for c in cands)).score
    assert packed.tolist() == pytest.approx([score_pair(me, c).score for c in cands], abs=1e-3)
    back = unpack(pack(rival), "r")
    assert (back.niche, back.price_tier, back.company_size) == ("skincare", "premium", "11-50")
    assert len(pack(rival)) == matching.RECORD_SIZE
    # A niche of another category is not kept (it cannot be stored: the profile rejects it).
    assert unpack(pack(p(9, "z", **{**OAT, "niche": "skincare"}))).niche == ""
