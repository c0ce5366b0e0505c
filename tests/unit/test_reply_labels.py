"""A brand's reply labels as the one small code its search row and its match cards carry
(issue 28): the code gives back exactly the labels its figures give, and rides in the row
flags' bits 4-7 beside the reply tier without touching the other flags."""

from __future__ import annotations

import random

import numpy as np

from tandem.domain import reply_time
from tandem.domain import search_rows as rows

DAY = reply_time.DAY
NOW = 1_800_000_000


def _history(rng: random.Random) -> list[tuple[int, int | None]]:
    """Up to 12 requests received in the last 120 days (some outside the window), each
    answered after 0-10 days or never."""
    history = []
    for _ in range(rng.randint(0, 12)):
        received = NOW - rng.randint(0, 120 * DAY)
        days = rng.choice([0, 1, 2, 3, 5, 7, 10])
        after = None if rng.random() < 0.35 else days * DAY
        if after is not None and rng.random() < 0.5:
            after += rng.randint(-3600, 3600)
        history.append((received, None if after is None else max(0, after)))
    return history


def test_the_labels_of_a_code_are_the_labels_of_its_figures_for_many_random_histories():
    rng = random.Random(28)
    seen = set()
    for _ in range(3000):
        figures = reply_time.figures_from_history(_history(rng), NOW)
        code = reply_time.label_code(figures)
        assert 0 <= code <= reply_time.LABEL_CODE_MAX
        assert reply_time.label_texts(code) == figures.labels(), (figures, code)
        seen.add(tuple(figures.labels()))
    # The histories reach every speed, with and without "Replies to most requests", and none.
    assert len(seen) >= 7, seen


def test_no_labels_under_three_ended_requests_and_for_no_code():
    fast = [(NOW - DAY, 60), (NOW - 2 * DAY, 60)]
    assert reply_time.label_code(reply_time.figures_from_history(fast, NOW)) == 0
    assert reply_time.label_texts(0) == [] and reply_time.label_texts(None) == []
    three = reply_time.figures_from_history([*fast, (NOW - 3 * DAY, 60)], NOW)
    assert reply_time.label_texts(reply_time.label_code(three)) == [
        "Usually replies within a day",
        "Replies to most requests",
    ]


def test_the_code_rides_in_bits_4_to_7_of_the_row_flags_beside_the_tier():
    row = rows.row_for(5, 1, "Fern", hides_name=True, feature_only=True, reply_tier=2, reply_labels=6)
    assert row.flags & rows.HIDDEN and row.flags & rows.FEATURE_ONLY
    plain = rows.row_for(6, 1, "Moss", hides_name=False, feature_only=False)
    column = np.array([r.flags for r in rows.decode_rows(rows.encode_rows([row, plain]))], dtype=np.uint8)
    assert rows.reply_tiers(column).tolist() == [2, 0]
    assert rows.reply_label_codes(column).tolist() == [6, 0]  # a row written before: no labels
    again = rows.with_reply_tier(row, 1, 5)
    others = rows.HIDDEN | rows.FEATURE_ONLY
    assert again.flags & others == row.flags & others
    flags = np.array([again.flags], dtype=np.uint8)
    assert rows.reply_tiers(flags).tolist() == [1] and rows.reply_label_codes(flags).tolist() == [5]


def test_a_row_rewritten_by_a_save_keeps_its_labels_and_tier():
    blob = rows.encode_rows([rows.row_for(5, 1, "Fern", False, False, reply_tier=3, reply_labels=7)])
    saved = rows.row_for(5, 1, "Fern & Wick", False, True)
    kept = {r.slot: r for r in rows.decode_rows(rows.splice_row(blob, saved, 5, keep=rows.REPLY_SIGNAL))}[5]
    flags = np.array([kept.flags], dtype=np.uint8)
    assert rows.reply_tiers(flags).tolist() == [3] and rows.reply_label_codes(flags).tolist() == [7]
    assert kept.name == "Fern & Wick" and kept.flags & rows.FEATURE_ONLY
