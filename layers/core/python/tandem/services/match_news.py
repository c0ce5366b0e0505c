"""New-match notifications (source `new_matches`): a message after each matching run that finds
new brands (sub-option `each_run`), and a daily digest at 9:00 the member's time (`daily_digest`).

- `found(brand_id, new_ids)`: a run stored new matches for a brand. It queues the each-run message
  for the brand's account (the notifier sends it to the users who take it) and marks the account
  as having news for the digest (DigestPending).
- `send_digests(now)`: the scheduler's hourly `new-matches-digest` job. For every account marked
  pending, each user whose digest hour (tandem.domain.notifications.digest_hour_utc, from the
  time zone offset their browser last sent) is this hour and who takes the digest gets the
  matches their account's brands got since their previous digest (at most a day back). An
  account is forgotten a day after its newest run, when every user's hour has come since.

Names follow the same rule as the Matches screen: a brand's name only where the account may see
it (a subscription, the brand not hiding its name), otherwise its masked name.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from tandem.domain import notifications as rules
from tandem.domain.identity import identity
from tandem.observability import logger
from tandem.services import mailer, notification_settings, notify
from tandem.services.viewer import acting_as
from tandem.store import items
from tandem.store.matches import Match
from tandem.store.models import Account, Brand, User
from tandem.store.notify import DigestPending, NotificationSettings

LISTED = 5  # brands named in a message; the rest are counted
DAY = 24 * 3600


def _visible_names(account: Account | None, viewer_brand: Brand, others: list[Brand]) -> dict[int, dict]:
    viewer = acting_as(viewer_brand, account, None)  # the account, by email: no one user
    items = {}
    for other in others:  # a new match is not a connection yet
        items[int(other.brand_id)] = {
            "name": identity(viewer, other).name,
            "category": other.category or "",
            "url": mailer.link(f"/matches/brand/{int(other.brand_id)}"),
        }
    return items


def _listed(account: Account | None, brand: Brand, candidate_ids: list[int]) -> list[dict]:
    shown = candidate_ids[:LISTED]
    by_id = _visible_names(account, brand, Brand.find_many(shown))
    return [by_id[i] for i in shown if i in by_id]


def found(
    brand_id: int, new_ids: list[int], now: int | None = None, *, account_id: str | None = None
) -> None:
    """After a run stored `new_ids` (best first) as new matches of `brand_id`. With the brand's
    `account_id` (a run's Prepare knows it), the brand, its account and the brands listed are
    read in one BatchGetItem."""
    if not new_ids:
        return

    shown = new_ids[:LISTED]
    if account_id is None:
        known = Brand.find(brand_id)
        if known is None:
            return
        account_id = known.account_id
    wanted = [(Brand, Brand.key(brand_id)), (Account, Account.key(account_id))]
    wanted += [(Brand, Brand.key(i)) for i in shown]
    found_items = items.get_many(wanted)
    brand = found_items.get(Brand.key(brand_id))
    if brand is None:
        return
    if brand.account_id == account_id:
        account = found_items.get(Account.key(account_id))
    else:  # not the account the run was given: the brand's own
        account = Account.find(brand.account_id)
    others = [found_items[Brand.key(i)] for i in shown if Brand.key(i) in found_items]
    by_id = _visible_names(account, brand, others)
    listed = [by_id[i] for i in shown if i in by_id]
    total = len(new_ids)
    path = f"/matches/{brand_id}"
    notify.notify(
        account_id=brand.account_id,
        source="new_matches",
        sub_option=rules.EACH_RUN,
        template="new_matches",
        context={
            "brand": brand.name,
            "total": total,
            "matches": listed,
            "matches_url": mailer.link(path),
            "sign_in": {"key": "matches_url", "path": path, "status": "new-matches"},
        },
        push={
            "title": f"{total} new {'match' if total == 1 else 'matches'} for {brand.name}",
            "body": ", ".join(item["name"] for item in listed[:3]),
            "url": path,
        },
        subject=str(brand_id),
    )
    DigestPending.mark(brand.account_id, int(time.time()) if now is None else now)


def _account_news(account_id: str) -> tuple[Account | None, list[tuple[Brand, list[tuple[float, int]]]]]:
    """Each brand of the account with its current matches as (created epoch s, candidate id),
    best ranked first."""
    account = Account.find(account_id)
    news = []
    for brand in Brand.of_account(account_id):
        matches = sorted(
            Match.of_brand(int(brand.brand_id)).values(), key=lambda m: (m.rank is None, m.rank or 0)
        )
        news.append((brand, [(m.created_at.timestamp(), int(m.candidate_id)) for m in matches]))
    return account, news


def _digest_context(
    account: Account | None, news: list[tuple[Brand, list[tuple[float, int]]]], since: float, until: float
) -> dict[str, Any] | None:
    """The matches created after `since` up to `until` (the previous digest's and this one's
    cut-off), per brand."""
    groups = []
    for brand, matches in news:
        fresh = [candidate for created, candidate in matches if since < created <= until]
        if fresh:
            groups.append(
                {
                    "brand": brand.name,
                    "total": len(fresh),
                    "matches": _listed(account, brand, fresh),
                    "matches_url": mailer.link(f"/matches/{int(brand.brand_id)}"),
                }
            )
    if not groups:
        return None
    return {
        "total": sum(g["total"] for g in groups),
        "brands": groups,
        "matches_url": mailer.link("/matches"),
    }


def _digest_hour(item: NotificationSettings | None) -> int:
    """The UTC hour a user's digest comes at (9:00 at the offset their browser last sent)."""
    offset = float(item.tz_offset) if item is not None and item.tz_offset is not None else 0.0
    return rules.digest_hour_utc(offset)


def _forget_if_done(pending: DigestPending, at: int) -> None:
    """A day after the account's newest run every user's hour has come: forget it (a delete
    tried only then, as a refused conditional write costs a write too)."""
    if pending.last_at <= at - DAY:
        pending.forget_if_older(at - DAY)


def send_digests(now: int | None = None) -> dict[str, int]:
    """The hourly digest job. Returns how many digests were queued and accounts looked at.

    An account's users are read once after each run that marked it (their digest hours are then
    kept on the pending item): at the other hours the job passes it by on the one Query. Read
    every hour, the users and settings of every pending account were about 60% of a member-day's
    DynamoDB reads (tests/bench/day_replay.py). A user who moves time zone after that look has
    the digest at the old hour until the next run marks the account again. `now`: epoch
    seconds, as every scheduled job takes it (the local clock control)."""
    at = int(time.time()) if now is None else int(now)
    now = datetime.fromtimestamp(at, UTC)
    sent = accounts = 0
    for pending in DigestPending.all():
        accounts += 1
        try:
            if pending.hours is not None and now.hour not in pending.hours:
                _forget_if_done(pending, at)
                continue
            users = [u for u in User.of_account(pending.account_id) if u.email]
            items = NotificationSettings.of_users([u.user_id for u in users]) if users else {}
            hours = {_digest_hour(items.get(u.user_id)) for u in users}
            if hours and hours != set(pending.hours or ()):
                pending.note_hours(hours)
            due = [u for u in users if _digest_hour(items.get(u.user_id)) == now.hour]
            news = _account_news(pending.account_id) if due else None
            for user in due:
                item = items.get(user.user_id)
                channels = rules.channels_for(
                    rules.normalize(item.as_dict() if item is not None else None),
                    "new_matches",
                    rules.DAILY_DIGEST,
                    slack_active=notification_settings.slack_active(),
                )
                if not channels:
                    continue
                last = float(item.digest_sent_at) if item is not None and item.digest_sent_at else 0.0
                context = _digest_context(news[0], news[1], max(last, at - DAY), at)  # type: ignore[index]
                if context is None:
                    continue
                notify.notify(
                    user_id=user.user_id,
                    source="new_matches",
                    sub_option=rules.DAILY_DIGEST,
                    template="new_matches_digest",
                    context=context,
                    push={
                        "title": f"Your daily matches: {context['total']} new",
                        "body": ", ".join(g["brand"] for g in context["brands"]),
                        "url": "/matches",
                    },
                )
                NotificationSettings.set_digest_sent(user.user_id, at)
                sent += 1
            _forget_if_done(pending, at)
        except Exception:
            logger.exception("Daily digest failed for an account", extra={"account_id": pending.account_id})
    return {"accounts": accounts, "digests": sent}
