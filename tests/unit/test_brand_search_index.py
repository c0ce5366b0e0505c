"""Brand search's index (tandem.domain.search): words, rows, typo tolerance, ranking, and the
masking property: a hidden name changes nothing any search answers."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tandem.domain import matching, search_rows
from tandem.domain import search as rules
from tandem.errors import ValidationError

SHARD = 2000
# What a profile needs beyond the above to be complete (explore.incomplete), for a home brand.
COMPLETE = {
    "company_size": "11-50",
    "audience_size": "10K-100K",
    "niche": "decor",
    "price_tier": "mid-range",
    "age_bands": frozenset({"25-34"}),
    "genders": frozenset({"women"}),
}


def build(brands: list[dict]) -> rules.Index:
    """An index of `brands` ({name, hidden, category, feature, created}), ids 1..n."""
    records = bytearray()
    rows = []
    for brand_id, b in enumerate(brands, start=1):
        profile = matching.Profile(
            brand_id=brand_id,
            account_id=f"acct-{brand_id}",
            category=b.get("category", "home"),
            countries=frozenset(b.get("countries", ["GB"])),
            collab_kinds=frozenset(b.get("kinds", ["giveaways"])),
            **(COMPLETE if b.get("complete") else {}),
        )
        slot = brand_id % SHARD
        records += bytes(matching.RECORD_SIZE) * (slot - len(records) // matching.RECORD_SIZE)
        records += matching.pack(profile)
        rows.append(
            search_rows.row_for(
                slot, b.get("created", brand_id), b["name"], b.get("hidden", False), b.get("feature", False)
            )
        )
    shard = rules.Shard(number=0, version=1, records=bytes(records), search=search_rows.encode_rows(rows))
    return rules.build([shard], SHARD)


def found(index: rules.Index, text: str, by_name: bool = True, sort: str = "best", **filters) -> list[int]:
    query = rules.parse_query({"q": text, "sort": sort, **filters})
    page = rules.search(
        index, query, excluded=np.zeros(len(index), dtype=bool), by_name=by_name, fit=np.ones(len(index))
    )
    return [int(index.ids[p]) for p in page.positions]


def test_words_are_folded_to_plain_lower_case():
    assert rules.tokens("Café  Crème & Co.") == ["cafe", "creme", "co"]


def test_a_hidden_name_is_never_written_to_its_row():
    row = search_rows.row_for(5, 100, "Quietfox Labs", hides_name=True, feature_only=False)
    assert row.name == "" and row.flags & search_rows.HIDDEN
    blob = search_rows.encode_rows([row, search_rows.row_for(6, 100, "Moss Goods", False, True)])
    assert b"Quietfox" not in zlib.decompress(blob)
    assert search_rows.decode_rows(blob) == [
        row,
        search_rows.Row(6, 100, search_rows.FEATURE_ONLY, "Moss Goods"),
    ]


def test_typos_missing_letters_and_prefixes_find_the_name():
    index = build([{"name": "Northwind Outdoor"}, {"name": "Moss Goods"}, {"name": "Northern Lights"}])
    assert found(index, "northwnd") == [1]  # a letter missing
    assert found(index, "nortwhind") == []  # two edits away: not a typo we guess
    assert found(index, "narthwind") == [1]  # a letter changed
    assert found(index, "northwinds") == [1]  # a letter too many
    assert set(found(index, "north")) == {1, 3}  # a word prefix
    assert found(index, "north outd") == [1]  # every word must match
    assert found(index, "zebra") == []


def test_exact_name_hits_rank_first_whatever_the_fit():
    index = build([{"name": "Moss Goods Extra"}, {"name": "Moss Goods"}, {"name": "Moss Good"}])
    fit = np.array([0.9, 0.1, 0.8], dtype=np.float32)
    query = rules.parse_query({"q": "moss goods"})
    page = rules.search(index, query, excluded=np.zeros(3, dtype=bool), by_name=True, fit=fit)
    assert [int(index.ids[p]) for p in page.positions] == [2, 1, 3]


def test_best_fit_reorders_its_best_hits_by_the_rank_value_and_the_rest_follow_by_fit(monkeypatch):
    monkeypatch.setattr(rules, "RERANK", 3)
    index = build([{"name": f"Kestrel {i}"} for i in range(6)])
    fit = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.0], dtype=np.float32)
    asked = []

    def rerank(positions: np.ndarray) -> np.ndarray:
        asked.append(sorted(int(index.ids[p]) for p in positions))
        return np.array([{1: 0.1, 2: 0.3, 3: 0.2}.get(int(index.ids[p]), 0.05) for p in positions])

    def order(sort: str = "best", text: str = "") -> list[int]:
        query = rules.parse_query({"q": text, "sort": sort})
        page = rules.search(
            index, query, excluded=np.zeros(6, dtype=bool), by_name=True, fit=fit, rerank=rerank
        )
        return [int(index.ids[p]) for p in page.positions]

    # The three best by fit (1, 2, 3) go by the rank value, ahead of 4 and 5 by fit; 6 (fit 0) last.
    assert order() == [2, 3, 1, 4, 5, 6]
    assert asked == [[1, 2, 3]]
    # An exact name still comes first, whatever its rank value.
    assert order(text="kestrel 4")[0] == 5
    asked.clear()
    assert order(sort="newest") == [6, 5, 4, 3, 2, 1] and asked == []


def test_topic_words_match_for_everyone_names_only_for_who_sees_them():
    index = build(
        [{"name": "Northwind Outdoor", "category": "outdoors"}, {"name": "Moss", "category": "home"}]
    )
    assert found(index, "northwind", by_name=False) == []
    assert found(index, "outdoor", by_name=False) == [1]
    assert set(found(index, "giveaway", by_name=False)) == {1, 2}


def test_name_sort_orders_by_the_shown_name_and_puts_hidden_ones_after():
    """Issue 39: a hidden brand reads "A tech brand", which is no name to file among the A's."""
    index = build(
        [
            {"name": "Zest"},
            {"name": "Apple", "hidden": True, "category": "tech"},
            {"name": "Bloom"},
            {"name": "Acorn", "hidden": True, "category": "home"},
            {"name": "Aardvark"},
        ]
    )
    # 'aardvark', 'bloom', 'zest', then 'a home brand', 'a tech brand'
    assert found(index, "", sort="name") == [5, 3, 1, 4, 2]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"q": "a" * 101}, "Search for at most 100 characters"),
        ({"q": "a b c d e f g h i"}, "Search for at most 8 words"),
        ({"sort": "price"}, "Sort by best, newest or name"),
        ({"category": "spaceships"}, "Choose a category from the list"),
    ],
)
def test_bad_queries_are_refused_with_a_clear_message(params, message):
    with pytest.raises(ValidationError, match=message):
        rules.parse_query(params)


def test_a_cursor_only_continues_its_own_search():
    query = rules.parse_query({"q": "moss"})
    cursor = rules.make_cursor(query, 20)
    assert rules.parse_query({"q": "moss", "cursor": cursor}).offset == 20
    with pytest.raises(ValidationError):
        rules.parse_query({"q": "fern", "cursor": cursor})


# ---------------------------------------------------------------- the masking property

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)
brand_name = st.lists(word, min_size=1, max_size=3).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(
    shown=st.lists(brand_name, min_size=1, max_size=12),
    hidden_name=brand_name,
    other_hidden_name=brand_name,
    typed=st.one_of(brand_name, st.just("")),
    use_hidden=st.booleans(),
    by_name=st.booleans(),
    sort=st.sampled_from(rules.SORTS),
    categories=st.lists(st.sampled_from(matching.CATEGORIES[:6]), min_size=13, max_size=13),
)
def test_a_hidden_name_changes_nothing_a_search_answers(
    shown, hidden_name, other_hidden_name, typed, use_hidden, by_name, sort, categories
):
    """Two directories that differ only in the hidden brand's name answer every query (even the
    hidden name itself, or a typo of it) with the same brands, in the same order, and the same
    count. The hidden brand sits in the middle of the ids, as any brand might."""
    text = hidden_name if use_hidden else typed

    def directory(secret: str) -> list[dict]:
        listed = [{"name": n, "category": categories[i]} for i, n in enumerate(shown)]
        middle = len(listed) // 2
        listed.insert(middle, {"name": secret, "hidden": True, "category": categories[12]})
        return listed

    one, two = build(directory(hidden_name)), build(directory(other_hidden_name))
    query = rules.parse_query({"q": text, "sort": sort})
    fit = np.linspace(0.1, 0.9, len(one)).astype(np.float32)
    nobody = np.zeros(len(one), dtype=bool)
    a = rules.search(one, query, excluded=nobody, by_name=by_name, fit=fit)
    b = rules.search(two, query, excluded=nobody, by_name=by_name, fit=fit)
    assert (a.positions, a.total, a.next_offset) == (b.positions, b.total, b.next_offset)
    assert [n for n in one.names if n] == shown  # the index holds the shown names, no other


def test_the_property_can_fail_a_shown_name_is_found():
    """The control: the same name shown is found, so the property above is not vacuous."""
    index = build([{"name": "Moss"}, {"name": "Quietfox Labs"}])
    assert found(index, "quietfox") == [2]
    hidden = build([{"name": "Moss"}, {"name": "Quietfox Labs", "hidden": True}])
    assert found(hidden, "quietfox") == []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(alphabet="abcXYZ Café-Ø ß'.\t12ñ東", max_size=14), st.booleans()),
        min_size=1,
        max_size=12,
    )
)
def test_the_index_holds_each_shown_names_words_as_name_key_reads_them(names):
    """build folds every name in one pass: it must read each name exactly as `tokens` does."""
    index = build([{"name": name, "hidden": hidden} for name, hidden in names])
    for position, (name, hidden) in enumerate(names):
        words = [] if hidden else rules.tokens(name)
        assert int(index.word_counts[position]) == len(words)
        for word in words:
            i = index.vocab.index(word)
            assert position in index.word_brands[index.word_offsets[i] : index.word_offsets[i + 1]].tolist()
    assert len(index.word_brands) == sum(len(rules.tokens(n)) for n, hidden in names if not hidden)


def test_best_fit_without_words_gives_incomplete_profiles_their_share_of_the_first_ten():
    """As a match list's first ten (explore.fair_top): 30 of 100 results are incomplete, the fit
    ranks every complete one first, so the first ten hold 3 incomplete ones, the best of them."""
    brands = [{"name": f"Brand {i:03d}", "complete": i % 10 >= 3} for i in range(100)]
    index = build(brands)
    incomplete = {i + 1 for i in range(100) if i % 10 < 3}
    fit = np.where(index.incomplete, 0.1, 0.9) + index.ids / 10_000  # complete ones first, then by id
    assert set(np.flatnonzero(index.incomplete) + 1) == incomplete

    def page(offset: int, **params) -> list[int]:
        query = rules.parse_query({"sort": "best", **params})
        query = rules.Query(**{**query.__dict__, "offset": offset})
        excluded = np.zeros(len(index), dtype=bool)
        got = rules.search(index, query, excluded=excluded, by_name=True, fit=fit)
        return [int(index.ids[p]) for p in got.positions]

    by_fit = sorted(range(1, 101), key=lambda i: -fit[i - 1])
    first, rest = page(0), page(20) + page(40) + page(60) + page(80)
    assert len([i for i in first[:10] if i in incomplete]) == 3
    assert first[7:10] == [i for i in by_fit if i in incomplete][:3]  # the best of them, at the end
    assert first[:7] == by_fit[:7] and first[10:13] == by_fit[7:10]  # moved down just after
    assert sorted(first + rest) == list(range(1, 101))  # no brand on two pages, none lost
    # Words: the text's own order (exact names first); Newest and Name: as they are.
    assert page(0, q="brand")[:10] == by_fit[:10]
    assert page(0, sort="newest")[:3] == [100, 99, 98]


def test_the_packed_incomplete_mask_is_explore_incomplete_of_each_record():
    from tandem.domain.matching import explore

    rng = np.random.default_rng(7)
    profiles = []
    for i in range(400):
        fields = {k: v for k, v in COMPLETE.items() if rng.random() < 0.8}
        profiles.append(
            matching.Profile(
                brand_id=i + 1,
                account_id=f"acct-{i}",
                category="home",
                countries=frozenset({"GB"}) if rng.random() < 0.9 else frozenset(),
                collab_kinds=frozenset({"giveaways"}) if rng.random() < 0.9 else frozenset(),
                **fields,
            )
        )
    packed = matching.Packed.from_bytes(matching.pack(p) for p in profiles)
    assert packed.incomplete().tolist() == [explore.incomplete(p) for p in profiles]
    assert 0 < packed.incomplete().sum() < len(profiles)
