from tandem.domain.matching import Profile, Scored, merge_ranked, rank, score_pair, split_batches


def p(brand_id, account="a", **kw):
    return Profile(
        brand_id=brand_id,
        account_id=account,
        **{k: frozenset(v) if isinstance(v, list) else v for k, v in kw.items()},
    )


def test_shared_wants_and_markets_give_reasons_members_can_read():
    me = p(1, collab_kinds=["giveaways", "events"], countries=["GB"], values=["vegan"])
    other = p(2, "b", collab_kinds=["giveaways"], countries=["GB"], values=["vegan"])
    scored = score_pair(me, other)
    assert scored.score > 0
    assert scored.reasons == (
        "You both want giveaways",
        "You share the values vegan",
        "You both reach customers in GB",
    )


def test_rank_excludes_own_account_and_orders_best_first():
    me = p(1, "mine", collab_kinds=["giveaways"])
    sibling = p(2, "mine", collab_kinds=["giveaways"])
    strong = p(3, "x", collab_kinds=["giveaways"])
    weak = p(4, "y", collab_kinds=["giveaways", "events", "bundles"])
    none = p(5, "z", collab_kinds=["events"])
    ranked = rank(me, [sibling, weak, none, strong], limit=10)
    assert [s.candidate_id for s in ranked] == [3, 4]


def test_same_category_scores_lower_than_complementary():
    me = p(1, category="food", collab_kinds=["giveaways"])
    same = p(2, "b", category="food", collab_kinds=["giveaways"])
    other = p(3, "c", category="home", collab_kinds=["giveaways"])
    assert score_pair(me, same).score < score_pair(me, other).score


def test_merge_keeps_global_best_and_split_covers_every_id():
    merged = merge_ranked([[Scored(1, 0.2), Scored(2, 0.9)], [Scored(3, 0.5)]], limit=2)
    assert [s.candidate_id for s in merged] == [2, 3]
    batches = split_batches(list(range(10)), 4)
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
