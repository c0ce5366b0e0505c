"""Collaborations between two connected brands (issue 41): the rules, with no store.

A collaboration is planned by one brand (the proposer) with a connected brand. States:

    proposed -> agreed -> live (from the start date) -> ended (after the end date) -> results in

`proposed` and `agreed` are stored; `live`, `ended` and `results in` follow from the dates (in
the member's own timezone: the offset every request carries) and from the results recorded, so
no job has to move them. While proposed, the brand whose turn it is accepts, proposes changes
(the turn goes back to the other side, each change kept and shown) or declines. Either side
cancels before it is live, with a reason. A block or a suspension ends what is not yet live
(`UNAVAILABLE`: the other side reads that the brand is no longer available).

Dates are calendar dates (YYYY-MM-DD); `today(offset, now)` is the member's date.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tandem.domain.vocabulary import FORM_KINDS
from tandem.errors import ValidationError

CHECK_FIELDS = "Please check the highlighted fields"

# Stored statuses
PROPOSED, AGREED, DECLINED, CANCELLED = "proposed", "agreed", "declined", "cancelled"
# Phases shown (the stored status and the dates)
LIVE, ENDED, RESULTS_IN = "live", "ended", "results-in"
PHASES = (PROPOSED, AGREED, LIVE, ENDED, RESULTS_IN, DECLINED, CANCELLED)
PHASE_LABELS = {
    PROPOSED: "Proposed",
    AGREED: "Agreed",
    LIVE: "Live",
    ENDED: "Ended",
    RESULTS_IN: "Results in",
    DECLINED: "Declined",
    CANCELLED: "Cancelled",
}
STORED = (PROPOSED, AGREED, DECLINED, CANCELLED)
OPEN = frozenset({PROPOSED, AGREED})  # stored statuses a block or suspension can end before live

FORMATS = tuple(FORM_KINDS)  # the six collab kinds of the brand form
GOALS = ("reach", "sales", "content", "credibility")
OWNERS = ("mine", "theirs", "both")  # as the caller names an item's owner side

TITLE_MAX = 120
BRINGS_MAX = 1000
REASON_MAX = 500
CHECKLIST_MAX = 100
ITEM_TEXT_MAX = 200
MESSAGE_MAX = 2000
OPEN_PROPOSALS_MAX = 20
MESSAGES_PER_HOUR = 60
PLAN_YEARS_AHEAD = 2
RESULTS_REVEAL_DAYS = 14

UNAVAILABLE = "unavailable"  # a block or suspension ended it
UNAVAILABLE_TEXT = "The other brand is no longer available."

TOO_MANY_ITEMS = f"A checklist can have up to {CHECKLIST_MAX} items."
MESSAGE_TOO_LONG = f"Please keep your message under {MESSAGE_MAX:,} characters."
MESSAGE_EMPTY = "Please write a message."
TOO_MANY_OPEN = (
    f"You have {OPEN_PROPOSALS_MAX} collaborations waiting for an answer. Please wait for one to be "
    "answered or cancel one before you plan another."
)
TOO_MANY_MESSAGES = (
    f"You've sent {MESSAGES_PER_HOUR} messages in the last hour. Please wait a little before you send more."
)
NOT_FOUND = "Collaboration not found"
NOT_YOUR_TURN = "It's the other brand's turn to answer this plan."
CHANGED = "This plan changed while you were reading it: read it again and try once more."
NOT_OPEN = "This collaboration is no longer open."
ALREADY_LIVE = "This collaboration is already live, so it can't be cancelled."
NO_RESULTS_YET = "You can record results once the collaboration has ended."
NOTHING_CHANGED = "Change at least one part of the plan, or accept it as it is."

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PLAN_FIELDS = ("format", "title", "bringsMine", "bringsTheirs", "goal", "start", "end", "moment")

RESULT_COUNTS = ("reach", "followers", "clicks", "orders")
CURRENCIES = ("GBP", "USD", "EUR", "CAD", "AUD", "NZD")
RESULT_LABELS = {
    "reach": "Reach",
    "followers": "New followers or subscribers",
    "clicks": "Clicks",
    "orders": "Orders or sign-ups",
    "revenue": "Revenue",
}


def today(offset_hours: float | None, now: float) -> date:
    """The member's date at `now` (epoch seconds), at their offset (local minus UTC, hours)."""
    offset = offset_hours if offset_hours is not None and math.isfinite(offset_hours) else 0.0
    return (datetime.fromtimestamp(now, UTC) + timedelta(hours=offset)).date()


def parse_offset(raw: object) -> float:
    """The X-Timezone-Offset header as hours; anything unreadable is UTC (a date, not a refusal)."""
    try:
        value = float(str(raw).strip())
    except (TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) and -12 <= value <= 14 else 0.0


def parse_date(raw: object) -> date | None:
    if not isinstance(raw, str) or not _DATE.match(raw):
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError:
        return None


def _text(body: dict[str, Any], name: str, limit: int, errors: dict[str, str], required: bool = True) -> str:
    raw = body.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if required:
            errors[name] = "This field is required"
        return ""
    if not isinstance(raw, str):
        errors[name] = "Please write this in words"
        return ""
    text = raw.strip()
    if len(text) > limit:
        errors[name] = f"Please keep this under {limit:,} characters"
    return text


@dataclass(frozen=True)
class Plan:
    """What a proposal says, from the proposer's side (brings_mine is the proposer's)."""

    format: str
    title: str
    brings_mine: str
    brings_theirs: str
    goal: str
    start: date
    end: date
    moment: str | None = None

    def as_fields(self) -> dict[str, str | None]:
        return {
            "format": self.format,
            "title": self.title,
            "bringsMine": self.brings_mine,
            "bringsTheirs": self.brings_theirs,
            "goal": self.goal,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "moment": self.moment,
        }


def clean_plan(body: object, on: date, moments: frozenset[str] = frozenset()) -> Plan:
    """A proposal's plan, checked as of the member's date `on`; a ValidationError naming each
    field otherwise (nothing is saved)."""
    if not isinstance(body, dict):
        raise ValidationError(CHECK_FIELDS, errors={"body": "Send the plan as JSON"})
    errors: dict[str, str] = {}
    kind = body.get("format")
    if kind not in FORMATS:
        errors["format"] = "Choose a format from the list"
    title = _text(body, "title", TITLE_MAX, errors)
    brings_mine = _text(body, "bringsMine", BRINGS_MAX, errors)
    brings_theirs = _text(body, "bringsTheirs", BRINGS_MAX, errors)
    goal = body.get("goal")
    if goal not in GOALS:
        errors["goal"] = "Choose a goal: reach, sales, content or credibility"
    start, end = parse_date(body.get("start")), parse_date(body.get("end"))
    if start is None:
        errors["start"] = "Choose a start date"
    elif start < on:
        errors["start"] = "The start date can't be in the past"
    elif (start - on).days > 366 * PLAN_YEARS_AHEAD:
        errors["start"] = f"Please plan at most {PLAN_YEARS_AHEAD} years ahead"
    if end is None:
        errors["end"] = "Choose an end date"
    elif start is not None and end < start:
        errors["end"] = "The end date can't be before the start date"
    elif end < on:
        errors["end"] = "The end date can't be in the past"
    elif start is not None and (end - start).days > 366:
        errors["end"] = "A collaboration can run for up to a year"
    moment = body.get("moment")
    if moment in (None, ""):
        moment = None
    elif not isinstance(moment, str) or moment not in moments:
        errors["moment"] = "Choose a moment from the calendar, or none"
    if errors:
        raise ValidationError(CHECK_FIELDS, errors=errors)
    assert start is not None and end is not None and isinstance(kind, str) and isinstance(goal, str)
    return Plan(kind, title, brings_mine, brings_theirs, goal, start, end, moment)


def plan_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: [before, after]} of what a counter-proposal changed (fields in the proposer's terms)."""
    return {
        name: [before.get(name), after.get(name)]
        for name in PLAN_FIELDS
        if before.get(name) != after.get(name)
    }


def phase(status: str, start: date, end: date, on: date, both_results: bool) -> str:
    """What a collaboration is now, on the member's date `on`."""
    if status != AGREED:
        return status
    if both_results:
        return RESULTS_IN
    if on > end:
        return ENDED
    if on >= start:
        return LIVE
    return AGREED


def results_visible(both_recorded: bool, end: date, on: date) -> bool:
    """Each side sees the other's figures once both recorded, or 14 days after the end."""
    return both_recorded or on > end + timedelta(days=RESULTS_REVEAL_DAYS)


def clean_reason(body: object, required: bool) -> str:
    raw = body.get("reason") if isinstance(body, dict) else None
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if required:
            raise ValidationError(CHECK_FIELDS, errors={"reason": "Please say why"})
        return ""
    if not isinstance(raw, str):
        raise ValidationError(CHECK_FIELDS, errors={"reason": "Please write this in words"})
    if len(raw.strip()) > REASON_MAX:
        raise ValidationError(
            CHECK_FIELDS, errors={"reason": f"Please keep this under {REASON_MAX} characters"}
        )
    return raw.strip()


def clean_version(body: object) -> int:
    raw = body.get("version") if isinstance(body, dict) else None
    if not isinstance(raw, int) or isinstance(raw, bool) or raw < 1:
        raise ValidationError("Say which version of the plan you read (version).")
    return raw


@dataclass(frozen=True)
class NewItem:
    text: str
    owner: str  # mine | theirs | both
    due: date | None


def clean_item(body: object, on: date, count: int) -> NewItem:
    if count >= CHECKLIST_MAX:
        raise ValidationError(TOO_MANY_ITEMS, errors={"text": TOO_MANY_ITEMS})
    if not isinstance(body, dict):
        raise ValidationError(CHECK_FIELDS, errors={"text": "This field is required"})
    errors: dict[str, str] = {}
    text = _text(body, "text", ITEM_TEXT_MAX, errors)
    owner = body.get("owner", "both")
    if owner not in OWNERS:
        errors["owner"] = "Choose who does this: you, them or both"
    due_raw = body.get("due")
    due = parse_date(due_raw) if due_raw not in (None, "") else None
    if due_raw not in (None, "") and due is None:
        errors["due"] = "Choose a due date"
    elif due is not None and due < on:
        errors["due"] = "The due date can't be in the past"
    if errors:
        raise ValidationError(CHECK_FIELDS, errors=errors)
    return NewItem(text, str(owner), due)


def clean_message(body: object) -> str:
    raw = body.get("text") if isinstance(body, dict) else None
    if not isinstance(raw, str) or not raw.strip():
        raise ValidationError(MESSAGE_EMPTY, errors={"text": MESSAGE_EMPTY})
    text = raw.strip()
    if len(text) > MESSAGE_MAX:
        raise ValidationError(MESSAGE_TOO_LONG, errors={"text": MESSAGE_TOO_LONG})
    return text


def _count(raw: object) -> int | None | str:
    """A whole count >= 0, None when left empty, or 'bad'."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        return "bad"
    if isinstance(raw, int):
        return raw if 0 <= raw <= 10**12 else "bad"
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit() and len(raw.strip()) <= 12:
        return int(raw.strip())
    return "bad"


def clean_results(body: object) -> dict[str, Any]:
    """What one side saw: counts (reach, followers, clicks, orders; each optional, whole numbers),
    revenue in minor units with its currency, and whether it would partner again (yes/no, 1-5)."""
    if not isinstance(body, dict):
        raise ValidationError(CHECK_FIELDS, errors={"body": "Send the results as JSON"})
    errors: dict[str, str] = {}
    answer: dict[str, Any] = {}
    for name in RESULT_COUNTS:
        value = _count(body.get(name))
        if value == "bad":
            errors[name] = "Please enter a whole number"
        elif value is not None:
            answer[name] = value
    revenue = body.get("revenue")
    if revenue not in (None, ""):
        amount = _money(revenue)
        if amount is None:
            errors["revenue"] = "Please enter the revenue as a number, like 1250.50"
        else:
            answer["revenueMinor"] = amount
            currency = body.get("currency")
            if currency not in CURRENCIES:
                errors["currency"] = "Choose the revenue's currency"
            else:
                answer["currency"] = currency
    again = body.get("again")
    if not isinstance(again, bool):
        errors["again"] = "Would you partner with them again? Choose yes or no"
    else:
        answer["again"] = again
    rating = body.get("rating")
    if not isinstance(rating, int) or isinstance(rating, bool) or not 1 <= rating <= 5:
        errors["rating"] = "Choose a rating from 1 to 5"
    else:
        answer["rating"] = rating
    if errors:
        raise ValidationError(CHECK_FIELDS, errors=errors)
    return answer


_MONEY = re.compile(r"^\d{1,12}(\.\d{1,2})?$")


def _money(raw: object) -> int | None:
    """Revenue in minor units (pence or cents) from a number or a numeric string."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw * 100 if 0 <= raw <= 10**12 else None
    if isinstance(raw, float):
        if not math.isfinite(raw) or raw < 0 or raw > 10**12:
            return None
        return round(raw * 100)
    if isinstance(raw, str):
        text = raw.strip().replace(",", "")
        if not _MONEY.match(text):
            return None
        whole, _, cents = text.partition(".")
        return int(whole) * 100 + int((cents + "00")[:2])
    return None


# ---- a finished collaboration on Member collabs (tandem.services.collab_shares)

SHARE_FIGURES = (*RESULT_COUNTS, "revenue")  # what each side may allow the share to show
NOT_FINISHED = "Choose a finished collaboration with this brand, or none."
BAD_FIGURES = "Choose the figures to show from the list: reach, followers, clicks, orders and revenue."


def finished(status: str, end: date, on: date) -> bool:
    """Agreed and past its end date on the member's date `on` (ended or results in)."""
    return status == AGREED and on > end


def clean_figures(raw: object) -> list[str]:
    """The result figures a side allows a share to show: a list of SHARE_FIGURES names (none by
    default), kept in SHARE_FIGURES order."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(name, str) and name in SHARE_FIGURES for name in raw):
        raise ValidationError(BAD_FIGURES)
    return [name for name in SHARE_FIGURES if name in raw]


def _figure(results: dict[str, Any] | None, name: str) -> Any:
    if not results:
        return None
    if name == "revenue":
        minor = results.get("revenueMinor")
        return None if minor is None else {"minor": int(minor), "currency": results.get("currency")}
    value = results.get(name)
    return None if value is None else int(value)


def shared_figures(
    allowed: tuple[list[str], list[str]],
    results: tuple[dict[str, Any] | None, dict[str, Any] | None],
    visible: bool,
) -> list[dict[str, Any]]:
    """What a shared collaboration shows of its results, side by side (the two brands in the
    share's order): only the figures BOTH sides allowed, only once each side may see the other's
    (`visible`: results_visible), and only those at least one side recorded. Each is {figure,
    label, values: [first brand's, second's]} (a count, {minor, currency}, or None)."""
    if not visible:
        return []
    both = [name for name in SHARE_FIGURES if name in allowed[0] and name in allowed[1]]
    shown = []
    for name in both:
        values = [_figure(results[0], name), _figure(results[1], name)]
        if any(v is not None for v in values):
            shown.append({"figure": name, "label": RESULT_LABELS[name], "values": values})
    return shown


def worked(results: dict[str, Any] | None) -> bool:
    """A side's results say the collaboration worked: it would partner again."""
    return bool(results and results.get("again"))


def template_checklist(template: str, limit: int = 20) -> list[str]:
    """A checklist from a collab idea's template: each line that names something to fill in
    ('Date and time: [...]') becomes 'Agree: Date and time'."""
    items: list[str] = []
    for line in template.splitlines():
        line = line.strip()
        if "[" not in line:
            continue
        for part in line.split(" · "):
            label = part.split(":", 1)[0].strip() if ":" in part else ""
            if label and "[" not in label and len(label) <= 60:
                item = f"Agree: {label}"
                if item not in items:
                    items.append(item)
    return items[:limit]


def first_due_dates(count: int, on: date, start: date, lead_weeks: int | None) -> list[date | None]:
    """Due dates for a copied checklist: spread from today to the day before the start, over the
    moment's lead time when the plan is built around one (never before today)."""
    if count == 0:
        return []
    last = start - timedelta(days=1)
    first = max(on, start - timedelta(weeks=lead_weeks)) if lead_weeks else on
    if last < first:
        return [start] * count if start >= on else [None] * count
    span = (last - first).days
    return [first + timedelta(days=round(span * (i + 1) / count)) for i in range(count)]


START_REMINDER_DAYS = 2  # before the start
RESULTS_REMINDER_DAYS = (1, 7, 13)  # after the end, until both recorded (each sees the other's on day 15)


@dataclass(frozen=True)
class Reminder:
    key: str  # what is claimed once: start, due:<item>, results:<role>:<day>
    roles: tuple[str, ...]  # who is reminded: a, b
    text: str


def reminders_due(
    start: date,
    end: date,
    checklist: list[dict[str, Any]],
    recorded: dict[str, bool],
    on: date,
) -> list[Reminder]:
    """What an agreed collaboration reminds its brands of on day `on`: its start in two days,
    each open checklist item due tomorrow (its owner side), and results not recorded on days 1,
    7 and 13 after the end."""
    found: list[Reminder] = []
    if on == start - timedelta(days=START_REMINDER_DAYS):
        found.append(Reminder("start", ("a", "b"), f"it starts on {start.isoformat()}"))
    for item in checklist:
        due = parse_date(item.get("due"))
        if due is not None and not item.get("done_at") and on == due - timedelta(days=1):
            owner = item.get("owner") or "both"
            roles = ("a", "b") if owner == "both" else (str(owner),)
            found.append(Reminder(f"due:{item.get('id')}", roles, f"'{item.get('text')}' is due tomorrow"))
    after = (on - end).days
    if after in RESULTS_REMINDER_DAYS:
        for role in ("a", "b"):
            if not recorded.get(role):
                found.append(
                    Reminder(f"results:{role}:{after}", (role,), "it has ended: record what you saw")
                )
    return found


def watch_ends(end: date) -> date:
    """The last day an agreed collaboration may remind anyone of anything."""
    return end + timedelta(days=max(RESULTS_REMINDER_DAYS))
