"""The collaboration rules (tandem.domain.collaborations): the member's date, the plan's checks,
the phases, when results show, the limits' messages, the checklist from an idea's template."""

from __future__ import annotations

from datetime import date

import pytest

from tandem.domain import collaborations as rules
from tandem.errors import ValidationError

ON = date(2027, 3, 10)


def body(**changes):
    return {
        "format": "events",
        "title": "Supper club",
        "bringsMine": "The venue",
        "bringsTheirs": "Candles",
        "goal": "sales",
        "start": "2027-03-20",
        "end": "2027-03-30",
        **changes,
    }


def errors_of(**changes) -> dict[str, str]:
    with pytest.raises(ValidationError) as refused:
        rules.clean_plan(body(**changes), ON, frozenset({"valentines-day"}))
    assert refused.value.message == "Please check the highlighted fields"
    return refused.value.errors or {}


def test_the_member_date_follows_their_offset():
    noon_utc = 1804680000  # 2027-03-10 12:00 UTC
    assert rules.today(0, noon_utc) == date(2027, 3, 10)
    assert rules.today(14, noon_utc) == date(2027, 3, 11)
    assert rules.today(-12.5, noon_utc - 3600) == date(2027, 3, 9)
    assert rules.parse_offset("5.5") == 5.5 and rules.parse_offset("nonsense") == 0.0
    assert rules.parse_offset("99") == 0.0


def test_a_good_plan_is_taken_as_given():
    plan = rules.clean_plan(
        body(moment="valentines-day", title="  Supper club "), ON, frozenset({"valentines-day"})
    )
    assert plan.title == "Supper club" and plan.start == date(2027, 3, 20) and plan.moment == "valentines-day"
    assert rules.clean_plan(body(start="2027-03-10", end="2027-03-10"), ON).end == ON  # today is allowed


def test_each_bad_field_is_named():
    assert errors_of(start="2027-03-09") == {"start": "The start date can't be in the past"}
    assert errors_of(end="2027-03-19") == {"end": "The end date can't be before the start date"}
    assert errors_of(start="2027-02-30")["start"] == "Choose a start date"
    assert errors_of(format="raffles") == {"format": "Choose a format from the list"}
    assert errors_of(goal=None)["goal"].startswith("Choose a goal")
    assert errors_of(title="x" * 121) == {"title": "Please keep this under 120 characters"}
    assert errors_of(moment="not-a-moment")["moment"] == "Choose a moment from the calendar, or none"
    assert set(errors_of(title="", bringsMine=None)) == {"title", "bringsMine"}
    assert errors_of(end="2028-06-01") == {"end": "A collaboration can run for up to a year"}


def test_phases_follow_the_dates_and_the_results():
    start, end = date(2027, 3, 20), date(2027, 3, 30)
    assert rules.phase("proposed", start, end, date(2027, 3, 25), False) == "proposed"  # never agreed
    assert rules.phase("agreed", start, end, date(2027, 3, 19), False) == "agreed"
    assert rules.phase("agreed", start, end, start, False) == "live"
    assert rules.phase("agreed", start, end, end, False) == "live"
    assert rules.phase("agreed", start, end, date(2027, 3, 31), False) == "ended"
    assert rules.phase("agreed", start, end, date(2027, 3, 31), True) == "results-in"
    assert rules.phase("cancelled", start, end, date(2027, 3, 21), False) == "cancelled"


def test_the_other_sides_results_show_when_both_recorded_or_14_days_after_the_end():
    end = date(2027, 3, 30)
    assert not rules.results_visible(False, end, date(2027, 4, 13))
    assert rules.results_visible(False, end, date(2027, 4, 14))
    assert rules.results_visible(True, end, date(2027, 3, 31))


def test_results_are_whole_counts_and_a_revenue_with_its_currency():
    got = rules.clean_results(
        {"reach": "1200", "clicks": 30, "revenue": "1,250.5", "currency": "GBP", "again": True, "rating": 4}
    )
    assert got == {
        "reach": 1200,
        "clicks": 30,
        "revenueMinor": 125050,
        "currency": "GBP",
        "again": True,
        "rating": 4,
    }
    assert (
        rules.clean_results({"revenue": 12, "currency": "USD", "again": False, "rating": 1})["revenueMinor"]
        == 1200
    )
    with pytest.raises(ValidationError) as refused:
        rules.clean_results({"reach": -1, "revenue": "about 10", "again": "yes", "rating": 6})
    assert set(refused.value.errors or {}) == {"reach", "revenue", "again", "rating"}
    with pytest.raises(ValidationError) as refused:
        rules.clean_results({"revenue": "10", "again": True, "rating": 3})
    assert refused.value.errors == {"currency": "Choose the revenue's currency"}


def test_messages_and_checklist_items_have_their_limits():
    assert rules.clean_message({"text": "  hello "}) == "hello"
    with pytest.raises(ValidationError, match="under 2,000 characters"):
        rules.clean_message({"text": "x" * 2001})
    assert rules.clean_message({"text": "x" * 2000})
    with pytest.raises(ValidationError, match="Please write a message"):
        rules.clean_message({"text": "   "})
    assert rules.clean_item({"text": "Book the venue", "due": "2027-03-12"}, ON, 99).owner == "both"
    with pytest.raises(ValidationError, match="up to 100 items"):
        rules.clean_item({"text": "One too many"}, ON, 100)
    with pytest.raises(ValidationError) as refused:
        rules.clean_item({"text": "Late", "due": "2027-03-01", "owner": "nobody"}, ON, 0)
    assert set(refused.value.errors or {}) == {"due", "owner"}


def test_a_counter_proposal_names_what_changed():
    before = {"start": "2027-03-20", "end": "2027-03-30", "title": "A"}
    after = {"start": "2027-03-22", "end": "2027-03-30", "title": "A"}
    assert rules.plan_changes(before, after) == {"start": ["2027-03-20", "2027-03-22"]}


def test_an_ideas_template_becomes_a_checklist_with_due_dates_before_the_start():
    template = (
        "Event: [name] · In one sentence: [who]\nDate and time: [date] · Venue: [venue]\nNo brackets here"
    )
    assert rules.template_checklist(template) == [
        "Agree: Event",
        "Agree: In one sentence",
        "Agree: Date and time",
        "Agree: Venue",
    ]
    dues = rules.first_due_dates(4, ON, date(2027, 3, 20), None)
    assert dues == sorted(dues) and dues[0] > ON and dues[-1] == date(2027, 3, 19)
    lead = rules.first_due_dates(2, date(2027, 1, 1), date(2027, 3, 20), 2)  # two weeks' lead
    assert lead[0] > date(2027, 3, 6) and lead[-1] == date(2027, 3, 19)
    assert rules.first_due_dates(2, ON, ON, None) == [ON, ON]


def test_reminders_come_before_the_start_the_day_before_an_item_is_due_and_after_the_end():
    start, end = date(2027, 3, 20), date(2027, 3, 30)
    items = [
        {"id": "i1", "text": "Book", "owner": "b", "due": "2027-03-15"},
        {"id": "i2", "text": "Done already", "owner": "both", "due": "2027-03-15", "done_at": 1},
    ]
    none = {"a": False, "b": False}
    assert rules.reminders_due(start, end, items, none, date(2027, 3, 13)) == []
    (due,) = rules.reminders_due(start, end, items, none, date(2027, 3, 14))
    assert due.key == "due:i1" and due.roles == ("b",)
    (begins,) = rules.reminders_due(start, end, items, none, date(2027, 3, 18))
    assert begins.roles == ("a", "b") and begins.text == "it starts on 2027-03-20"
    assert [r.key for r in rules.reminders_due(start, end, [], {"a": True}, date(2027, 3, 31))] == [
        "results:b:1"
    ]
    assert [r.key for r in rules.reminders_due(start, end, [], none, date(2027, 4, 6))] == [
        "results:a:7",
        "results:b:7",
    ]
    assert rules.reminders_due(start, end, [], none, date(2027, 4, 5)) == []
    assert rules.watch_ends(end) == date(2027, 4, 12)


def test_a_share_shows_only_the_figures_both_sides_allowed_and_recorded():
    a = {"reach": 1200, "orders": 4, "revenueMinor": 5000, "currency": "GBP"}
    b = {"reach": 800, "clicks": 30}
    allowed = (["reach", "orders", "revenue"], ["reach", "clicks", "revenue"])
    shown = rules.shared_figures(allowed, (a, b), True)
    assert shown == [
        {"figure": "reach", "label": "Reach", "values": [1200, 800]},
        {"figure": "revenue", "label": "Revenue", "values": [{"minor": 5000, "currency": "GBP"}, None]},
    ]
    assert rules.shared_figures((["clicks"], ["clicks"]), (a, None), True) == []  # nobody recorded clicks
    assert rules.shared_figures((["reach"], ["reach"]), (a, b), False) == []  # not visible to each other yet


def test_the_figures_a_side_allows_are_checked_and_kept_in_order():
    assert rules.clean_figures(None) == []
    assert rules.clean_figures(["revenue", "reach", "reach"]) == ["reach", "revenue"]
    for bad in ("reach", ["reach", "rating"], [1]):
        with pytest.raises(ValidationError):
            rules.clean_figures(bad)
