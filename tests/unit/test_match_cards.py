"""The match list a run writes for the Matches screen (store/matches.py MatchCards): what goes in
comes back in the run's order, and the largest list a run can write fits in one item."""

from __future__ import annotations

from datetime import UTC, datetime

from tandem.domain.matching import Scored
from tandem.services import match_runs
from tandem.store.matches import MatchCard, MatchCards

ITEM_LIMIT = 400 * 1024  # DynamoDB's largest item, names and values counted


def _item_size(item: MatchCards) -> int:
    """DynamoDB's count: each attribute's name plus its value (strings in UTF-8, numbers as digits)."""
    size = 0
    for name, value in item.serialize().items():
        ((_kind, raw),) = value.items()  # S and N only: both counted as their text
        size += len(name.encode()) + len(str(raw).encode())
    return size


def test_cards_come_back_in_the_runs_order_with_score_reasons_and_rank() -> None:
    cards = [
        MatchCard(42, 0.91, ("They want giveaways, like you",), 1, labels=5),
        MatchCard(7, 0.55, ("You share vegan values", "Both in London"), 2),
        MatchCard(19, 0.3, (), None, labels=3),  # a saved brand outside the chosen list
    ]
    item = MatchCards.of(3, "run-1", cards, datetime.now(UTC))
    assert list(MatchCards.from_raw_data(item.serialize()).listed().values()) == cards


def test_a_card_keeps_the_fit_label_its_run_gave_it() -> None:
    # Once labels go by a card's chance of acceptance, a run's label is not its percent's: each
    # card carries it (and an explored card its propensity beside it).
    cards = [
        MatchCard(42, 0.80, ("Why",), 1, fit="Great fit"),
        MatchCard(7, 0.95, ("Why",), 2, propensity=0.25, fit="Worth a look"),
        MatchCard(19, 0.6, (), 3, fit="Good fit"),
        MatchCard(20, 0.6, (), None),  # no label stored: read by its percent
    ]
    item = MatchCards.of(3, "run-1", cards, datetime.now(UTC))
    assert list(MatchCards.from_raw_data(item.serialize()).listed().values()) == cards
    # A card of a run from before the labels were stored (six fields) reads as no label.
    item = MatchCards(*MatchCards.key(3), brand_id=3, run_id="run-0", cards='[[42,0.91,1,["Why"],0,0.5]]')
    item.written_at = datetime.now(UTC)
    (card,) = MatchCards.from_raw_data(item.serialize()).listed().values()
    assert card.fit == "" and card.propensity == 0.5


def test_cards_written_before_the_reply_label_code_read_as_no_labels() -> None:
    item = MatchCards(*MatchCards.key(3), brand_id=3, run_id="run-0", cards='[[42,0.91,1,["Why"]]]')
    item.written_at = datetime.now(UTC)
    (card,) = MatchCards.from_raw_data(item.serialize()).listed().values()
    assert card == MatchCard(42, 0.91, ("Why",), 1) and card.labels == 0


def test_the_largest_list_a_run_writes_fits_in_one_item() -> None:
    """50 chosen and SAVED_CARDS_KEPT saved brands outside them (more saved ones are dropped from
    the list and scored when shown), each with four reasons twice as long as any reason says."""
    reason = "They want newsletter swaps and giveaways and events, like you, in 12 more countries" * 2
    chosen = [Scored(10_000_000 + i, 0.999999, (reason,) * 4) for i in range(match_runs.MATCHES_KEPT)]
    extra = [
        Scored(20_000_000 + i, 0.123456, (reason,) * 4) for i in range(match_runs.SAVED_CARDS_KEPT + 100)
    ]
    labels = {s.candidate_id: 15 for s in [*chosen, *extra]}  # the widest code on every card
    cards = match_runs._cards(chosen, extra, labels)
    assert len(cards) == match_runs.MATCHES_KEPT + match_runs.SAVED_CARDS_KEPT
    assert [c.rank for c in cards[:3]] == [1, 2, 3] and cards[-1].rank is None
    item = MatchCards.of(9_999_999_999, "f" * 32, cards, datetime.now(UTC))
    size = _item_size(item)
    assert 200 * 1024 < size < ITEM_LIMIT, size
