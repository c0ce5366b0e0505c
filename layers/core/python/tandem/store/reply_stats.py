"""A brand's reply-time figures (pk=BRAND#<id>, sk=REPLYSTATS): per week it received requests
in (weeks since the epoch), how many of them ended (answered or expired), how many it answered,
and how many of those within 1, 3 and 7 days. The request transitions ADD to it inside their own
transaction (services/requests/transitions.py), so a figure is counted exactly once and nothing
ever scans the requests; readers fold the last weeks (tandem.domain.reply_time)."""

from __future__ import annotations

from typing import Any

from pynamodb.attributes import NumberAttribute

from tandem.domain import reply_time as rules
from tandem.store import keys
from tandem.store.base import Key, TandemModel, _register
from tandem.store.connection import Transaction


def _week_attr(week: int, field: str) -> NumberAttribute:
    return NumberAttribute(attr_name=keys.reply_week_attr(week, field))


@_register
class BrandReplyStats(TandemModel):
    """The week counters are attributes named w<week>_<field> (keys.reply_week_attr), kept as
    they are read in `weeks` ({(week, field): count})."""

    updated_at = NumberAttribute(null=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.weeks: dict[tuple[int, str], int] = {}

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.REPLY_STATS

    @classmethod
    def from_raw_data(cls, data: dict[str, Any]) -> BrandReplyStats:
        item = super().from_raw_data(data)
        for name, value in data.items():
            parsed = rules.parse_week_attr(name)
            if parsed is not None and "N" in value:
                item.weeks[parsed] = int(value["N"])
        return item

    def figures(self, now: int) -> rules.ReplyFigures:
        return rules.figures(self.weeks, now)

    @classmethod
    def add_in(
        cls, tx: Transaction, brand_id: int, received_at: int, answered_after: int | None, at: int
    ) -> None:
        """Count one ended request the brand received at `received_at` (epoch s), answered
        `answered_after` seconds later (None: it expired unanswered), in a caller's transaction;
        drops the week that has left every window."""
        week = rules.week_of(received_at)
        actions = [cls.updated_at.set(at)]
        for field in rules.counts_for(answered_after):
            actions.append(_week_attr(week, field).add(1))
        stale = week - rules.WINDOW_WEEKS - 1
        actions += [_week_attr(stale, field).remove() for field in rules.FIELDS]
        tx.update(cls.at(brand_id), actions=actions)
