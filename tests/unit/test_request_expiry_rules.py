"""The expiry schedule of a pending request and the reply-time figures (pure rules)."""

from __future__ import annotations

from tandem.domain import reply_time
from tandem.domain import requests as rules

DAY = 86400
SENT = 1_795_000_000


def test_a_pending_request_is_reminded_on_day_3_and_10_and_expires_on_day_14():
    assert rules.EXPIRY_DAYS == 14 and rules.REMINDER_DAYS == (3, 10)
    assert rules.expires_at(SENT) == SENT + 14 * DAY
    assert rules.first_step(SENT) == ("remind-3", SENT + 3 * DAY)
    assert rules.step_after("remind-3", SENT) == ("remind-10", SENT + 10 * DAY)
    assert rules.step_after("remind-10", SENT) == ("expire", SENT + 14 * DAY)
    assert rules.reminder_day("remind-10") == 10 and rules.reminder_day("expire") is None


def test_days_left_round_up_and_stop_at_zero():
    expires = SENT + 14 * DAY
    assert rules.expires_in_days(expires, SENT) == 14
    assert rules.expires_in_days(expires, SENT + 11 * DAY - 1) == 4  # 3 days and a second left
    assert rules.expires_in_days(expires, SENT + 11 * DAY) == 3
    assert rules.expires_in_days(expires, expires) == 0
    assert rules.expires_in_days(expires, expires + DAY) == 0


def test_an_expired_request_sits_in_both_declines_and_can_no_longer_be_answered():
    assert rules.RECEIVED_BOX[rules.EXPIRED] == rules.SENT_BOX[rules.EXPIRED] == "DECLINED"
    assert not rules.can("accept", rules.EXPIRED) and not rules.can("cancel", rules.EXPIRED)
    expired = "This request expired: it wasn't answered within 14 days."
    assert rules.refusal("accept", rules.EXPIRED) == expired
    assert rules.can("expire", rules.PENDING) and not rules.can("expire", rules.AWAITING)


def test_reply_figures_label_speed_and_rate_only_from_three_ended_requests():
    now = SENT + 30 * DAY
    fast = [(SENT, 3600), (SENT, 5 * 3600), (SENT + DAY, 2 * DAY)]
    assert reply_time.figures_from_history(fast[:2], now).labels() == []  # two: too few
    figures = reply_time.figures_from_history(fast, now)
    assert (figures.received, figures.answered, figures.median_days()) == (3, 3, 1)
    assert figures.labels() == ["Usually replies within a day", "Replies to most requests"]

    slow = [(SENT, 2 * DAY), (SENT, 6 * DAY), (SENT, 6 * DAY), (SENT, None), (SENT, None)]
    figures = reply_time.figures_from_history(slow, now)
    assert figures.median_days() == 7 and figures.answer_rate == 0.6
    assert figures.labels() == ["Usually replies within a week", "Replies to most requests"]

    never = [(SENT, None)] * 3 + [(SENT, 9 * DAY)]
    assert reply_time.figures_from_history(never, now).labels() == []  # slow and rarely


def test_reply_figures_forget_requests_received_more_than_90_days_ago():
    history = [(SENT, 3600)] * 3
    assert reply_time.figures_from_history(history, SENT + 80 * DAY).received == 3
    assert reply_time.figures_from_history(history, SENT + 100 * DAY).received == 0


def test_the_reply_factor_lowers_only_brands_that_rarely_answer():
    from tandem.domain.matching.reply import REPLY_WEIGHT, reply_factor

    assert reply_factor(None) == 1.0  # no history: no penalty
    assert reply_factor(1.0) == reply_factor(0.6) == 1.0
    assert reply_factor(0.0) == 1.0 - REPLY_WEIGHT
    assert reply_factor(0.0) < reply_factor(0.3) < reply_factor(0.59) < 1.0
