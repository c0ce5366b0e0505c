"""Our calendar on the dates that break calendars (issue 36), beside what Stripe does there.

Stripe bills a monthly plan on its billing cycle anchor's day of the month and, in a month
without that day, on the month's last day, then returns to the anchor day (an anchor of the
31st bills on 28/29 February, 30 April, then 31 May again); a yearly plan started on 29
February renews on 28 February in the years without one. The fake Stripe (its clock engine,
driven in-process here) must bill exactly so, and every date Tandem derives (credit months,
the grant calendar, renewals, the trial's end, request expiry and reminders, a member's own
day at their timezone offset) must agree with it from each of the dates below.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from infra.local.fake_stripe.util import add_interval
from tandem.domain import notifications
from tandem.domain import requests as request_rules
from tandem.domain.billing import add_months, compute
from tandem.domain.formats import format_list_date, format_relative
from tandem.domain.trial import TRIAL_DAYS
from tests.unit.stripe_world import World

DAY = 86400


def at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def day_of(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).date().isoformat()


# The dates that break calendars: a month's 31st, the last half hour of a short February, a leap
# day, both UK clock changes (last Sunday of March and of October, 00:30 UTC: half an hour before
# the change) and the year's last quarter hour.
DATES = {
    "31 January": "2027-01-31T10:00:00",
    "28 February 23:30": "2027-02-28T23:30:00",
    "29 February 2028": "2028-02-29T12:00:00",
    "UK clocks forward": "2027-03-28T00:30:00",
    "UK clocks back": "2027-10-31T00:30:00",
    "31 December 23:45": "2026-12-31T23:45:00",
}


def renewal_days(world: World, sub: dict, renewals: int) -> list[str]:
    """Let the fake's clock run (renewals fall due as they do at Stripe) until `renewals`
    periods have renewed; the start day of every period billed, in order."""
    for _ in range(renewals):
        end = world.engine.sub_period(world.engine.get("subscription", sub["id"]))[1]
        world.engine.advance(end - world.engine.now() + 60)
    lines = [i["lines"]["data"][0] for i in world.invoices if i["billing_reason"].startswith("subscription")]
    return [day_of(line["period"]["start"]) for line in lines]


# ---------------------------------------------------------------- Stripe's rule, in the fake


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (
            "2027-01-29T10:00:00",
            ["2027-01-29", "2027-02-28", "2027-03-29", "2027-04-29", "2027-05-29"],
        ),
        (
            "2027-01-30T10:00:00",
            ["2027-01-30", "2027-02-28", "2027-03-30", "2027-04-30", "2027-05-30"],
        ),
        (
            "2027-01-31T10:00:00",
            ["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30", "2027-05-31"],
        ),
        (
            "2028-01-29T10:00:00",  # a leap year: February has its 29th
            ["2028-01-29", "2028-02-29", "2028-03-29", "2028-04-29", "2028-05-29"],
        ),
        (
            "2028-01-31T10:00:00",
            ["2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31"],
        ),
        (
            "2027-08-31T10:00:00",  # 30 September, 31 October, 30 November, 31 December
            ["2027-08-31", "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31"],
        ),
    ],
)
def test_a_monthly_plan_bills_on_its_anchor_day_or_the_months_last_day(
    start: str, expected: list[str]
) -> None:
    world = World()
    sub = world.subscribe("tandem_main_monthly", at(start))
    assert renewal_days(world, sub, 4) == expected
    # Tandem's own month arithmetic gives the same days from the anchor
    assert [day_of(add_months(at(start), k)) for k in range(5)] == expected


def test_a_yearly_plan_started_on_29_february_renews_on_28_february_until_the_next_leap_year() -> None:
    world = World()
    start = at("2028-02-29T12:00:00")
    sub = world.subscribe("tandem_main_yearly", start)
    assert renewal_days(world, sub, 4) == [
        "2028-02-29",
        "2029-02-28",
        "2030-02-28",
        "2031-02-28",
        "2032-02-29",
    ]
    # its six credits a month come on the 29th, and on 28 February in 2029
    state = compute(world.snapshot(), {}, start)
    first_year = [g.key.rsplit(":", 1)[1] for g in state.grants if g.kind == "main"][:12]
    assert first_year == [
        "2028-02-29",
        "2028-03-29",
        "2028-04-29",
        "2028-05-29",
        "2028-06-29",
        "2028-07-29",
        "2028-08-29",
        "2028-09-29",
        "2028-10-29",
        "2028-11-29",
        "2028-12-29",
        "2029-01-29",
    ]


# ---------------------------------------------------------------- from each date, ours agrees


@pytest.mark.parametrize("name", list(DATES))
def test_credit_months_agree_with_stripes_months_from(name: str) -> None:
    start = at(DATES[name])
    for k in range(1, 26):
        assert add_months(start, k) == add_interval(start, "month", k), k
    assert add_months(start, 12) == add_interval(start, "year", 1)


@pytest.mark.parametrize("name", list(DATES))
def test_a_monthly_plan_started_on_the_date_renews_and_earns_as_stripe_bills(name: str) -> None:
    start = at(DATES[name])
    world = World()
    sub = world.subscribe("tandem_main_monthly", start)
    billed = renewal_days(world, sub, 3)
    assert billed == [day_of(add_interval(start, "month", k)) for k in range(4)]
    now = world.engine.now()
    state = compute(world.snapshot(), {}, now)
    assert state.status == "active" and state.plan == "monthly"
    assert state.period_end == add_months(start, 4)  # "Renews on" is Stripe's next billing date
    grants = [g for g in state.grants if g.kind == "main"]
    assert [day_of(g.valid_from) for g in grants] == billed  # six credits per paid month, on its day


@pytest.mark.parametrize("name", list(DATES))
def test_the_free_trial_lasts_exactly_fourteen_days_then_bills_monthly_from(name: str) -> None:
    start = at(DATES[name])
    world = World()
    sub = world.subscribe("tandem_main_monthly", start, trial_days=TRIAL_DAYS)
    trial_end = world.engine.get("subscription", sub["id"])["trial_end"]
    assert trial_end == start + TRIAL_DAYS * DAY  # UTC: no clock change shortens the trial
    billed = renewal_days(world, sub, 2)
    assert billed == [day_of(start), day_of(trial_end), day_of(add_interval(trial_end, "month", 1))]
    state = compute(world.snapshot(), {}, world.engine.now())
    assert state.trial_used and state.period_end == add_months(trial_end, 2)


@pytest.mark.parametrize("name", list(DATES))
def test_a_request_expires_fourteen_days_on_with_reminders_on_days_three_and_ten(name: str) -> None:
    sent = at(DATES[name])
    step, due = request_rules.first_step(sent)
    schedule = [(step, due)]
    while step != request_rules.EXPIRE:
        step, due = request_rules.step_after(step, sent)
        schedule.append((step, due))
    assert schedule == [
        ("remind-3", sent + 3 * DAY),
        ("remind-10", sent + 10 * DAY),
        ("expire", sent + 14 * DAY),
    ]
    expires = request_rules.expires_at(sent)
    assert request_rules.expires_in_days(expires, sent) == 14
    assert request_rules.expires_in_days(expires, expires - 1) == 1
    assert request_rules.expires_in_days(expires, expires) == 0
    # a closed request may be sent again from midnight UTC, 30 days after the day it closed
    again = request_rules.resend_at(sent)
    assert datetime.fromtimestamp(again, UTC).time().isoformat() == "00:00:00"
    assert date.fromisoformat(day_of(again)) - date.fromisoformat(day_of(sent)) == timedelta(days=30)


@pytest.mark.parametrize("name", list(DATES))
@pytest.mark.parametrize("offset", [13, -11, 1, 0])
def test_a_member_sees_their_own_day_at_their_offset(name: str, offset: int) -> None:
    moment = datetime.fromtimestamp(at(DATES[name]), UTC)
    zone = timezone(timedelta(hours=offset))
    local = moment.astimezone(zone)
    # a request sent at `moment` is listed under the member's own date
    assert format_list_date(local) == format_list_date(moment + timedelta(hours=offset))
    # one sent 24 hours earlier is "Yesterday" in every zone; the daily digest comes at their own hour
    assert format_relative(moment - timedelta(days=1), local) == "Yesterday"
    hour = notifications.digest_hour_utc(offset)
    assert (hour + offset) % 24 == notifications.DIGEST_LOCAL_HOUR
