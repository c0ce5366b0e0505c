"""Trust and safety (issue 27): blocks between brands, suspended brands, reports of a brand.

- a brand's blocks                     pk=BRAND#<id>      sk=SAFETY  (BrandBlocks)
  `blocked`: brands it blocked; `blocked_by`: brands that blocked it. Both directions are kept
  on each side, so one item tells a brand everything it must not see, and it is read with the
  brand's partition (store/partition.py) or in a screen's BatchGetItem.
- every suspended brand                pk=SITE            sk=SUSPENDED (SuspendedBrands)
- a brand's open report case           pk=REPORTS#<brand> sk=CASE (ReportCase), listed by
  status                               gsi1pk=REPORTS#<open|suspended>  gsi1sk=<opened iso>#<brand>
- one reporter's open report           pk=REPORTS#<brand> sk=FROM#<account> (OpenReport): one
  open report per reporter account and brand; deleted when the case is resolved.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pynamodb.attributes import (
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    NumberSetAttribute,
    UnicodeAttribute,
    UTCDateTimeAttribute,
)

from tandem.store import keys
from tandem.store.base import Key, TandemModel, _Gsi1, _register, transaction
from tandem.store.errors import ConditionFailed
from tandem.store.models import Brand
from tandem.store.requests import ConnectionRequest


@_register
class BrandBlocks(TandemModel):
    brand_id = NumberAttribute()
    blocked = NumberSetAttribute(null=True)  # brands this brand blocked
    blocked_by = NumberSetAttribute(null=True)  # brands that blocked this brand
    named = NumberSetAttribute(null=True)  # of `blocked`, those whose real name the member saw

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.brand_pk(brand_id), keys.SAFETY_SK

    def hidden(self) -> set[int]:
        return {int(i) for i in (self.blocked or set())} | {int(i) for i in (self.blocked_by or set())}


def set_block(brand_id: int, other_id: int, blocked: bool, named: bool = False) -> None:
    """Block (or unblock) `other_id` as `brand_id`: both brands' items in one transaction.
    `named`: the member saw the other brand's real name when blocking (their list keeps it)."""
    with transaction() as tx:
        mine = [BrandBlocks.brand_id.set(brand_id)]
        theirs = [BrandBlocks.brand_id.set(other_id)]
        if blocked:
            mine.append(BrandBlocks.blocked.add({other_id}))
            if named:
                mine.append(BrandBlocks.named.add({other_id}))
            theirs.append(BrandBlocks.blocked_by.add({brand_id}))
        else:
            mine.append(BrandBlocks.blocked.delete({other_id}))
            mine.append(BrandBlocks.named.delete({other_id}))
            theirs.append(BrandBlocks.blocked_by.delete({brand_id}))
        tx.update(BrandBlocks.at(brand_id), actions=mine)
        tx.update(BrandBlocks.at(other_id), actions=theirs)


@_register
class SuspendedBrands(TandemModel):
    brand_ids = NumberSetAttribute(null=True)

    @classmethod
    def key(cls) -> Key:
        return keys.SITE_PK, keys.SUSPENDED_SK

    def ids(self) -> set[int]:
        return {int(i) for i in (self.brand_ids or set())}


class ReportEntry(MapAttribute):
    reporter_account_id = UnicodeAttribute()
    reporter_user_id = UnicodeAttribute()
    reporter_email = UnicodeAttribute(default="")
    reporter_brand_id = NumberAttribute()
    reporter_brand_name = UnicodeAttribute(default="")
    reason = UnicodeAttribute()
    text = UnicodeAttribute(default="")
    at = NumberAttribute()  # epoch seconds


@_register
class ReportCase(TandemModel):
    """The reports of one brand awaiting the team (status open), or a suspended brand's case."""

    brand_id = NumberAttribute()
    brand_name = UnicodeAttribute(default="")
    status = UnicodeAttribute()  # open | suspended
    reports = ListAttribute(of=ReportEntry, null=True)
    opened_at = UTCDateTimeAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    by_status = _Gsi1()

    @classmethod
    def key(cls, brand_id: int) -> Key:
        return keys.reports_pk(brand_id), keys.REPORT_CASE_SK

    @classmethod
    def with_status(cls, status: str, limit: int, start: dict[str, Any] | None) -> tuple[list, Any]:
        result = cls.by_status.query(
            keys.report_cases_gsi(status), scan_index_forward=False, limit=limit, last_evaluated_key=start
        )
        return list(result), result.last_evaluated_key


@_register
class OpenReport(TandemModel):
    brand_id = NumberAttribute()
    reporter_account_id = UnicodeAttribute()

    @classmethod
    def key(cls, brand_id: int, account_id: str) -> Key:
        return keys.reports_pk(brand_id), keys.reporter_sk(account_id)


def file_report(brand_id: int, brand_name: str, entry: ReportEntry, now: datetime) -> bool:
    """Add a report to the brand's case (opened if needed) in one transaction; False when this
    reporter's account already has an open report of the brand."""
    claim = OpenReport(*OpenReport.key(brand_id, entry.reporter_account_id))
    claim.brand_id = brand_id
    claim.reporter_account_id = entry.reporter_account_id
    opened = now.astimezone(UTC)
    actions = [
        ReportCase.brand_id.set(brand_id),
        ReportCase.brand_name.set(brand_name),
        ReportCase.status.set(ReportCase.status | "open"),
        ReportCase.opened_at.set(ReportCase.opened_at | opened),
        ReportCase.gsi1pk.set(ReportCase.gsi1pk | keys.report_cases_gsi("open")),
        ReportCase.gsi1sk.set(ReportCase.gsi1sk | f"{opened.isoformat()}#{keys.padded(brand_id)}"),
        ReportCase.reports.set((ReportCase.reports | []).append([entry])),
    ]
    try:
        with transaction() as tx:
            tx.save(claim, condition=OpenReport.sk.does_not_exist())
            tx.update(ReportCase.at(brand_id), actions=actions)
    except ConditionFailed:
        return False
    return True


def close_reports(case: ReportCase) -> None:
    """The case's reports are resolved: reporters may report the brand again."""
    with OpenReport.batch_write() as batch:
        for entry in case.reports or []:
            batch.delete(OpenReport(*OpenReport.key(int(case.brand_id), entry.reporter_account_id)))


def set_case_status(brand_id: int, brand_name: str, status: str | None, now: datetime) -> None:
    """A case becomes `status` (suspended) with no reports left, or is deleted (None)."""
    if status is None:
        ReportCase.at(brand_id).delete()
        return
    at = now.astimezone(UTC)
    ReportCase(
        *ReportCase.key(brand_id),
        brand_id=brand_id,
        brand_name=brand_name,
        status=status,
        reports=[],
        opened_at=at,
        gsi1pk=keys.report_cases_gsi(status),
        gsi1sk=f"{at.isoformat()}#{keys.padded(brand_id)}",
    ).save()


def set_suspended(brand_id: int, suspended: bool) -> None:
    """The brand's flag and the site's list of suspended brands, in one transaction."""
    with transaction() as tx:
        tx.update(
            Brand.at(brand_id),
            actions=[Brand.suspended.set(suspended)],
            condition=Brand.pk.exists(),
        )
        change = SuspendedBrands.brand_ids.add if suspended else SuspendedBrands.brand_ids.delete
        tx.update(SuspendedBrands.at(), actions=[change({brand_id})])


def sent_recently(brand_id: int, limit: int = 10, scan: int = 200) -> list:
    """The brand's latest requests sent, any outcome, newest change first (one Query of at most
    `scan` items over its sent boxes)."""
    found = list(ConnectionRequest.sent.query(keys.requests_out_gsi(brand_id), limit=scan))
    return sorted(found, key=lambda r: int(r.updated_at), reverse=True)[:limit]
