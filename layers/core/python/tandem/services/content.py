"""What the API answers from the team's content (tandem.content): Collab Ideas (`GET collab`),
Video Guides with the member's watched marks (`GET videos`), a recorded view
(`PUT users/video-view/{slug}`) and the dashboard's whatsNew. The dashboard's cold start imports
only whatsNew's module: the others are imported by the calls that read them."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from tandem.content import calendar, collab_ideas, videos, whats_new
from tandem.errors import NotFound, ValidationError
from tandem.store.models import User

FILTER_MAX = 40  # longer than any effort or benefit key: refused before it is looked up
UNKNOWN_VIDEO = "There is no video guide with that name."


def _filter_value(params: dict[str, str], name: str) -> str | None:
    value = (params.get(name) or "").strip()
    if not value:
        return None
    if len(value) > FILTER_MAX:
        raise ValidationError(f"Unknown {name} '{value[:FILTER_MAX]}…'.")
    return value


def collab(params: dict[str, str] | None) -> dict[str, Any]:
    """The ideas (filtered by `effort` and/or `benefit` when given), the benefit label map and
    the effort labels. An unknown effort or benefit is a 400 that says which."""
    params = params or {}
    try:
        found = collab_ideas.filter_ideas(_filter_value(params, "effort"), _filter_value(params, "benefit"))
    except ValueError as exc:
        raise ValidationError(str(exc)) from None
    return {
        "ideas": [idea.to_dict() for idea in found],
        "benefits": collab_ideas.benefits(),
        "efforts": collab_ideas.effort_labels(),
        "total": collab_ideas.IDEA_COUNT,
    }


CALENDAR_YEARS_AROUND = 1  # the calendar shows last year, this year and next year


def _calendar_year(raw: str | None, today: date) -> int:
    if not raw:
        return today.year
    allowed = range(today.year - CALENDAR_YEARS_AROUND, today.year + CALENDAR_YEARS_AROUND + 1)
    if not raw.isdigit() or int(raw) not in allowed:
        raise ValidationError(f"Year must be one of {', '.join(str(y) for y in allowed)}.")
    return int(raw)


def collab_calendar(params: dict[str, str] | None, today: date | None = None) -> dict[str, Any]:
    """GET collab/calendar: the moments coming up (under way today or starting within six
    months, the next first) and the year's moments by month, for one country (`GB`, `US`) or
    both, each with its lead time and the slugs of the ideas that suit it; `ideas` maps those
    slugs to their titles."""
    params = params or {}
    today = today or datetime.now(UTC).date()
    country = (params.get("country") or "").strip().upper() or None
    if country is not None and country not in calendar.COUNTRIES:
        raise ValidationError(f"Unknown country '{country[:8]}': use one of {', '.join(calendar.COUNTRIES)}.")
    year = _calendar_year((params.get("year") or "").strip(), today)
    wanted = None if country is None else (country,)
    titles = {idea.slug: idea.title for idea in collab_ideas.ideas()}
    return {
        "today": today.isoformat(),
        "year": year,
        "years": list(range(today.year - CALENDAR_YEARS_AROUND, today.year + CALENDAR_YEARS_AROUND + 1)),
        "country": country,
        "countries": dict(calendar.COUNTRIES),
        "upcoming": [o.to_dict(today) for o in calendar.upcoming(today, wanted)],
        "months": calendar.year_by_month(year, wanted),
        "ideas": titles,
    }


def watched(user: User) -> set[str]:
    return set(user.watched_videos or ())


def video_list(user: User) -> dict[str, Any]:
    """Every guide (ignored ones included, flagged: the SPEC's `ignore`), each marked `watched`
    when this user has played it. The user is already read by the caller's check: no extra read."""
    seen = watched(user)
    return {"videos": [{**guide, "watched": guide["slug"] in seen} for guide in videos.videos_payload()]}


def record_video_view(user: User, slug: str) -> dict[str, Any]:
    """Mark a guide watched by this user: one UpdateItem (a set ADD, so repeats change nothing)."""
    guide = videos.get(slug) if len(slug) <= 80 else None
    if guide is None:
        raise NotFound(UNKNOWN_VIDEO)
    user.update(actions=[User.watched_videos.add({guide.slug})])
    return {"slug": guide.slug, "watched": True}


def whats_new_now(today: datetime | None = None) -> list[dict[str, Any]]:
    return whats_new.latest((today or datetime.now(UTC)).date())
