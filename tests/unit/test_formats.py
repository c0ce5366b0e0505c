"""SPEC section 9 formats for emails: the same cases as web/src/lib/format.test.ts."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from tandem.domain.formats import (
    currency_symbol,
    format_credits,
    format_list_date,
    format_list_datetime,
    format_money,
    format_number,
    format_ordinal_date,
    format_relative,
    ordinal,
    yearly_saving,
)

LONDON_WINTER = timezone(timedelta(hours=0))
NEW_YORK_WINTER = timezone(timedelta(hours=-5))
NOW = datetime(2026, 11, 22, 14, 0, 0, tzinfo=LONDON_WINTER)


def ago(seconds: float, start: datetime = NOW) -> datetime:
    return start - timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (7, "7"),
        (999, "999"),
        (999.4, "999"),
        (999.6, "1K"),
        (1_000, "1K"),
        (1_049, "1K"),
        (1_050, "1.1K"),
        (1_150, "1.2K"),
        (1_234, "1.2K"),
        (9_949, "9.9K"),
        (9_950, "10K"),
        (9_999, "10K"),
        (12_345, "12K"),
        (999_499, "999K"),
        (999_500, "1M"),
        (1_000_000, "1M"),
        (1_250_000, "1.3M"),
        (9_999_999, "10M"),
        (123_456_789, "123M"),
        (1_000_000_000, "1,000M"),
        (-1_234, "-1.2K"),
        (float("nan"), "–"),
    ],
)
def test_numbers_abbreviate_with_k_and_m(value, text):
    assert format_number(value) == text


def test_relative_seconds_minutes_hours():
    assert format_relative(ago(2), NOW) == "just now"
    assert format_relative(ago(5), NOW) == "5 seconds ago"
    assert format_relative(ago(59), NOW) == "59 seconds ago"
    assert format_relative(ago(60), NOW) == "1 minute ago"
    assert format_relative(ago(119), NOW) == "1 minute ago"
    assert format_relative(ago(59 * 60 + 59), NOW) == "59 minutes ago"
    assert format_relative(ago(3_600), NOW) == "1 hour ago"
    assert format_relative(ago(3 * 3_600), NOW) == "3 hours ago"
    assert format_relative(NOW.replace(hour=0), NOW) == "14 hours ago"


def test_yesterday_across_midnight_in_the_members_time():
    after_midnight = datetime(2026, 11, 22, 0, 30, tzinfo=LONDON_WINTER)
    assert format_relative(datetime(2026, 11, 21, 23, 0, tzinfo=LONDON_WINTER), after_midnight) == "Yesterday"
    assert format_relative(datetime(2026, 11, 21, 0, 0, tzinfo=LONDON_WINTER), after_midnight) == "Yesterday"
    assert (
        format_relative(datetime(2026, 11, 21, 23, 50, tzinfo=LONDON_WINTER), after_midnight)
        == "40 minutes ago"
    )
    assert (
        format_relative(datetime(2026, 11, 20, 18, 30, tzinfo=LONDON_WINTER), after_midnight) == "2 days ago"
    )
    # Stored in UTC, read in New York: 03:00 UTC on the 22nd is 22:00 on the 21st there.
    stored = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)
    ny_now = datetime(2026, 11, 22, 9, 0, tzinfo=NEW_YORK_WINTER)
    assert format_relative(stored, ny_now) == "Yesterday"
    assert format_relative(stored, datetime(2026, 11, 22, 9, 0, tzinfo=UTC)) == "6 hours ago"


def test_days_ago_under_ten_then_the_date():
    assert format_relative(datetime(2026, 11, 20, 15, 0, tzinfo=LONDON_WINTER), NOW) == "2 days ago"
    assert format_relative(datetime(2026, 11, 13, 9, 0, tzinfo=LONDON_WINTER), NOW) == "9 days ago"
    assert format_relative(datetime(2026, 11, 12, 23, 59, tzinfo=LONDON_WINTER), NOW) == "12 Nov 26"
    assert format_relative(datetime(2025, 1, 3, 9, 0, tzinfo=LONDON_WINTER), NOW) == "3 Jan 25"


def test_the_future_reads_the_same_way_with_tomorrow():
    assert format_relative(NOW + timedelta(seconds=30), NOW) == "in 30 seconds"
    assert format_relative(NOW + timedelta(minutes=5), NOW) == "in 5 minutes"
    assert format_relative(NOW + timedelta(hours=2), NOW) == "in 2 hours"
    assert format_relative(datetime(2026, 11, 23, 9, 0, tzinfo=LONDON_WINTER), NOW) == "Tomorrow"
    late = datetime(2026, 11, 22, 23, 0, tzinfo=LONDON_WINTER)
    assert format_relative(datetime(2026, 11, 23, 0, 10, tzinfo=LONDON_WINTER), late) == "Tomorrow"
    assert format_relative(datetime(2026, 11, 26, 9, 0, tzinfo=LONDON_WINTER), NOW) == "in 4 days"
    assert format_relative(datetime(2026, 12, 3, 9, 0, tzinfo=LONDON_WINTER), NOW) == "3 Dec 26"


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (24, "24th"),
        (30, "30th"),
        (31, "31st"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_ordinals(n, text):
    assert ordinal(n) == text


def test_ordinal_dates_show_the_year_only_when_not_this_year():
    today = date(2026, 11, 22)
    assert format_ordinal_date(date(2026, 11, 3), today) == "3rd November"
    assert format_ordinal_date(date(2026, 1, 31), today) == "31st January"
    assert format_ordinal_date(date(2025, 3, 22), today) == "22nd March 2025"
    assert format_ordinal_date(date(2027, 2, 11), NOW) == "11th February 2027"


def test_list_dates():
    assert format_list_date(date(2026, 12, 3)) == "3 Dec 26"
    assert format_list_date(date(2030, 5, 21)) == "21 May 30"
    assert format_list_date(date(2009, 1, 1)) == "1 Jan 09"
    assert format_list_datetime(datetime(2026, 12, 3, 9, 5)) == "3 Dec 26 09:05"
    assert format_list_datetime(datetime(2026, 12, 3, 23, 59)) == "3 Dec 26 23:59"
    assert format_list_datetime(datetime(2026, 12, 3, 0, 0)) == "3 Dec 26 00:00"


def test_currency_symbol():
    assert currency_symbol("gbp") == "£"
    assert currency_symbol("GBP") == "£"
    assert currency_symbol("usd") == "$"
    assert currency_symbol("eur") == "$"
    assert currency_symbol(None) == "$"


@pytest.mark.parametrize(
    ("minor", "currency", "text"),
    [
        (1200, "gbp", "£12"),
        (1250, "gbp", "£12.50"),
        (1205, "usd", "$12.05"),
        (99, "gbp", "£0.99"),
        (0, "gbp", "£0"),
        (120_000, "gbp", "£1,200"),
        (12_345_678, "usd", "$123,456.78"),
        (-500, "gbp", "-£5"),
    ],
)
def test_money_in_minor_units_without_decimals_when_whole(minor, currency, text):
    assert format_money(minor, currency) == text


def test_yearly_saving_and_credits_text():
    assert yearly_saving(4_900, 49_000) == 9_800
    assert format_money(yearly_saving(4_900, 49_000), "gbp") == "£98"
    assert format_credits(5, 6) == "5/6"
