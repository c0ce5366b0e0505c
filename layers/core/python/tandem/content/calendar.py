"""The Collab Ideas calendar: retail and cultural moments of the year (`data/calendar.toml`),
each with a date rule, the countries it belongs to, a lead time and the ideas that suit it.

Date rules, as writers spell them in `when`:
- "14 February": the same date every year;
- "second Sunday of May", "last Monday of May": the nth (first to fifth, or last) weekday;
- "fourth Thursday of November + 1 day": any rule may be shifted by "+/- N day(s)";
- "Easter", "Easter - 21 days": relative to Western (Gregorian) Easter Sunday;
- "listed dates": moments that follow another calendar (Lunar New Year, Diwali) list each
  year's date in `dates`; a year without one simply has no occurrence.

`upcoming(today)` answers what to plan now; `year_by_month(year)` fills the calendar tab.
"""

from __future__ import annotations

import calendar as _stdlib_calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from tandem.content import ContentError, check_keys, load_toml, require
from tandem.content.collab_ideas import slugs as idea_slugs
from tandem.domain.formats import LONG_MONTHS

MONTHS = LONG_MONTHS  # one spelling of the month names (tandem.domain.formats)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
COUNTRIES = {"GB": "UK", "US": "US"}
LISTED = "listed dates"

_MONTH = "|".join(MONTHS)
_OFFSET = r"(?:\s*([+-])\s*(\d{1,3}) days?)?"
_FIXED = re.compile(rf"^(\d{{1,2}}) ({_MONTH}){_OFFSET}$")
_NTH = re.compile(rf"^({'|'.join(NTH)}) ({'|'.join(WEEKDAYS)}) of ({_MONTH}){_OFFSET}$")
_EASTER = re.compile(rf"^Easter{_OFFSET}$")
_FIELDS = {
    "slug",
    "name",
    "when",
    "dates",
    "countries",
    "lead_weeks",
    "ideas",
    "description",
    "days",
    "whole_month",
}


def easter_sunday(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian algorithm, valid for any Gregorian year)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month, day = divmod(h + leap - 7 * m + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> date | None:
    """The nth `weekday` (0 = Monday) of the month; nth -1 is the last. None when the month
    has no such day (a fifth Monday, say)."""
    if nth == -1:
        last = date(year, month, _stdlib_calendar.monthrange(year, month)[1])
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    day = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
    return day if day.month == month else None


@dataclass(frozen=True)
class Rule:
    """A parsed `when`: how to find a moment's date in a given year."""

    text: str
    kind: str  # fixed | nth | easter | listed
    month: int = 0
    day: int = 0
    weekday: int = 0
    nth: int = 0
    offset: int = 0
    listed: tuple[date, ...] = ()

    def on(self, year: int) -> date | None:
        if self.kind == "listed":
            return next((d for d in self.listed if d.year == year), None)
        if self.kind == "fixed":
            base: date | None = date(year, self.month, self.day)
        elif self.kind == "nth":
            base = nth_weekday(year, self.month, self.weekday, self.nth)
        else:
            base = easter_sunday(year)
        return base + timedelta(days=self.offset) if base else None


def _offset(sign: str | None, number: str | None) -> int:
    return 0 if sign is None else int(number or 0) * (1 if sign == "+" else -1)


def parse_rule(when: str, dates: list[Any] | None = None, where: str = "rule") -> Rule:
    """Parse a `when` text (see the module docstring); ContentError says what is wrong."""
    text = " ".join(when.split())
    if text == LISTED:
        if not dates:
            raise ContentError(f"{where}: 'listed dates' needs a 'dates' list")
        try:
            listed = tuple(sorted(d if isinstance(d, date) else date.fromisoformat(d) for d in dates))
        except (TypeError, ValueError) as exc:
            raise ContentError(f"{where}: dates must be YYYY-MM-DD ({exc})") from exc
        if len({d.year for d in listed}) != len(listed):
            raise ContentError(f"{where}: one date per year")
        return Rule(text, "listed", listed=listed)
    if dates:
        raise ContentError(f"{where}: 'dates' is only for when = \"listed dates\"")
    if match := _FIXED.match(text):
        day, month = int(match[1]), MONTHS.index(match[2]) + 1
        if not 1 <= day <= _stdlib_calendar.monthrange(2025, month)[1]:  # 2025: not a leap year
            raise ContentError(f"{where}: '{text}' is not a date every year has")
        return Rule(text, "fixed", month=month, day=day, offset=_offset(match[3], match[4]))
    if match := _NTH.match(text):
        return Rule(
            text,
            "nth",
            month=MONTHS.index(match[3]) + 1,
            weekday=WEEKDAYS.index(match[2]),
            nth=NTH[match[1]],
            offset=_offset(match[4], match[5]),
        )
    if match := _EASTER.match(text):
        return Rule(text, "easter", offset=_offset(match[1], match[2]))
    raise ContentError(
        f"{where}: cannot read when = '{when}' (use e.g. '14 February', 'second Sunday of May', "
        "'fourth Thursday of November + 1 day', 'Easter - 21 days' or 'listed dates')"
    )


@dataclass(frozen=True)
class Moment:
    slug: str
    name: str
    rule: Rule
    countries: tuple[str, ...]
    lead_weeks: int
    ideas: tuple[str, ...]
    description: str
    days: int = 1
    whole_month: bool = False

    def occurrence(self, year: int) -> Occurrence | None:
        start = self.rule.on(year)
        if start is None:
            return None
        if self.whole_month:
            end = date(start.year, start.month, _stdlib_calendar.monthrange(start.year, start.month)[1])
        else:
            end = start + timedelta(days=self.days - 1)
        return Occurrence(self, start, end)


@dataclass(frozen=True)
class Occurrence:
    """A moment in one year: from `start` to `end` (inclusive); planning starts at `plan_from`."""

    moment: Moment
    start: date
    end: date

    @property
    def plan_from(self) -> date:
        return self.start - timedelta(weeks=self.moment.lead_weeks)

    def to_dict(self, today: date | None = None) -> dict[str, Any]:
        moment = self.moment
        answer: dict[str, Any] = {
            "slug": moment.slug,
            "name": moment.name,
            "date": self.start.isoformat(),
            "end": self.end.isoformat(),
            "when": moment.rule.text,
            "countries": list(moment.countries),
            "description": moment.description,
            "leadWeeks": moment.lead_weeks,
            "lead": f"Plan {moment.lead_weeks} weeks ahead",
            "planFrom": self.plan_from.isoformat(),
            "ideas": list(moment.ideas),
        }
        if today is not None:
            answer["ongoing"] = self.start <= today <= self.end
        return answer


def _load_moment(raw: Any, number: int, known_ideas: frozenset[str]) -> Moment:
    where = f"calendar.toml moment {number}"
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: must be a table")
    slug = raw.get("slug")
    where = f"calendar.toml moment '{slug}'" if isinstance(slug, str) else where
    check_keys(raw, _FIELDS, where)
    slug = require(raw, "slug", str, where)
    rule = parse_rule(require(raw, "when", str, where), raw.get("dates"), where)
    countries = require(raw, "countries", list, where)
    if not countries or any(c not in COUNTRIES for c in countries) or len(set(countries)) != len(countries):
        raise ContentError(f"{where}: countries must be a list of {', '.join(COUNTRIES)}")
    lead = require(raw, "lead_weeks", int, where)
    if not 1 <= lead <= 26:
        raise ContentError(f"{where}: lead_weeks must be 1 to 26")
    ideas = require(raw, "ideas", list, where)
    if not ideas:
        raise ContentError(f"{where}: name at least one idea")
    for idea in ideas:
        if idea not in known_ideas:
            raise ContentError(f"{where}: idea '{idea}' does not exist")
    days = raw.get("days", 1)
    whole_month = raw.get("whole_month", False)
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 62:
        raise ContentError(f"{where}: days must be 1 to 62")
    if not isinstance(whole_month, bool) or (whole_month and "days" in raw):
        raise ContentError(f"{where}: whole_month is true or false, and not combined with days")
    return Moment(
        slug=slug,
        name=require(raw, "name", str, where).strip(),
        rule=rule,
        countries=tuple(countries),
        lead_weeks=lead,
        ideas=tuple(ideas),
        description=require(raw, "description", str, where).strip(),
        days=days,
        whole_month=whole_month,
    )


@cache
def moments() -> tuple[Moment, ...]:
    raw = require(load_toml("calendar.toml"), "moments", list, "calendar.toml")
    known = idea_slugs()
    loaded = tuple(_load_moment(entry, number, known) for number, entry in enumerate(raw, start=1))
    seen: set[str] = set()
    for moment in loaded:
        if moment.slug in seen:
            raise ContentError(f"calendar.toml: slug '{moment.slug}' appears twice")
        seen.add(moment.slug)
    return loaded


def _in(moment: Moment, countries: Iterable[str] | None) -> bool:
    return countries is None or bool(set(moment.countries) & set(countries))


def occurrences(year: int, countries: Iterable[str] | None = None) -> list[Occurrence]:
    """The year's moments (for these countries; all when None), in date order."""
    wanted = None if countries is None else tuple(countries)
    found = [o for m in moments() if _in(m, wanted) and (o := m.occurrence(year)) is not None]
    return sorted(found, key=lambda o: (o.start, o.moment.name))


def upcoming(
    today: date, countries: Iterable[str] | None = None, within_days: int = 183, limit: int | None = None
) -> list[Occurrence]:
    """Moments still ahead of `today` or under way on it, starting within `within_days`, in
    date order: what a member should be planning now."""
    wanted = None if countries is None else tuple(countries)
    horizon = today + timedelta(days=within_days)
    found = [
        o
        for year in range(today.year - 1, horizon.year + 1)
        for o in occurrences(year, wanted)
        if o.end >= today and o.start <= horizon
    ]
    found.sort(key=lambda o: (o.start, o.moment.name))
    return found if limit is None else found[:limit]


def year_by_month(year: int, countries: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Twelve months, each with its moments (by start date), for the calendar tab."""
    wanted = None if countries is None else tuple(countries)
    months: list[dict[str, Any]] = [{"month": n, "name": MONTHS[n - 1], "moments": []} for n in range(1, 13)]
    for occurrence in occurrences(year, wanted):
        months[occurrence.start.month - 1]["moments"].append(occurrence.to_dict())
    return months
