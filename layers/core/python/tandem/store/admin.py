"""What the admin console keeps and reads (issue 12):

- an audit entry (who, when, what)      pk=AUDIT#<id>        sk=META
  newest first                          gsi1pk=AUDIT         gsi1sk=<iso time>#<id>
- the site settings (global message,    pk=SITE              sk=SETTINGS
  approval of new members' plans)
- accounts awaiting approval (sparse)   gsi2pk=APPROVAL#pending  gsi2sk=<since iso>#<account>
  (on the Account item; billing's sync writes it with the plan's status)
- issue reports newest first            gsi1pk=ISSUES        gsi1sk=<iso time> (IssueReport)
- every user by email (the admin Users gsi3pk=USERS            gsi3sk=<email>#<user id>
  and Members lists; on the User item, only the listed fields projected)

Every list is one Query per call (the member search at most two) with an opaque cursor the
service encodes; none scans the table.
"""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from typing import Any

from pynamodb.attributes import BooleanAttribute, JSONAttribute, UnicodeAttribute, UTCDateTimeAttribute

from tandem.store import keys
from tandem.store.keys import ALL_AUDIT, APPROVAL_PENDING, AUDIT_PREFIX, SETTINGS_SK, SITE_PK
from tandem.store.models import Account, IssueReport, Key, TandemModel, User, _Gsi1, _register


class BadCursor(ValueError):
    """A cursor that this list did not hand out."""


def encode_cursor(last_key: dict[str, Any] | None) -> str | None:
    if not last_key:
        return None
    return base64.urlsafe_b64encode(json.dumps(last_key, sort_keys=True).encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None, allowed: set[str]) -> dict[str, Any] | None:
    """The key a cursor stands for; BadCursor unless it names exactly `allowed` string keys."""
    if cursor is None or cursor == "":
        return None
    try:
        raw = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, TypeError):
        raise BadCursor(cursor) from None
    if not isinstance(raw, dict) or set(raw) != allowed:
        raise BadCursor(cursor)
    for value in raw.values():
        if not isinstance(value, dict) or set(value) != {"S"} or not isinstance(value["S"], str):
            raise BadCursor(cursor)
    return raw


@_register
class AuditEntry(TandemModel):
    """One admin action: who did it, when, what, to whom, with what details."""

    entry_id = UnicodeAttribute()
    actor_user_id = UnicodeAttribute()
    actor_email = UnicodeAttribute(default="")
    action = UnicodeAttribute()
    target = UnicodeAttribute(default="")
    details = JSONAttribute(default=dict)
    created_at = UTCDateTimeAttribute()
    gsi1pk = UnicodeAttribute()
    gsi1sk = UnicodeAttribute()
    gsi1_index = _Gsi1()

    @classmethod
    def key(cls, entry_id: str) -> Key:
        return f"{AUDIT_PREFIX}{entry_id}", keys.META

    @classmethod
    def new(cls, entry_id: str, created_at: datetime, **fields: Any) -> AuditEntry:
        return cls(
            *cls.key(entry_id),
            entry_id=entry_id,
            created_at=created_at,
            gsi1pk=ALL_AUDIT,
            gsi1sk=f"{created_at.astimezone(UTC).isoformat()}#{entry_id}",
            **fields,
        )

    @classmethod
    def newest(cls, limit: int, cursor: str | None) -> tuple[list[AuditEntry], str | None]:
        start = decode_cursor(cursor, {"pk", "sk", "gsi1pk", "gsi1sk"})
        result = cls.gsi1_index.query(
            ALL_AUDIT, scan_index_forward=False, limit=limit, last_evaluated_key=start
        )
        items = list(result)
        return items, encode_cursor(result.last_evaluated_key)


@_register
class SiteSettings(TandemModel):
    """Settings an admin changes at run time: the top bar's global message, and whether the
    first plan of members who sign up from now on waits for a team member's approval."""

    global_message = UnicodeAttribute(null=True)
    approve_new_members = BooleanAttribute(default=False)
    updated_at = UTCDateTimeAttribute(null=True)
    updated_by = UnicodeAttribute(null=True)

    @classmethod
    def key(cls) -> Key:
        return SITE_PK, SETTINGS_SK

    @classmethod
    def current(cls, consistent: bool = False) -> SiteSettings:
        return cls.find(consistent=consistent) or cls(*cls.key())

    @classmethod
    def message(cls) -> str | None:
        """The top bar's message for everyone (None: none set)."""
        return cls.current().global_message or None


def approval_queue_actions(pending_since: str | None, account_id: str) -> list:
    """Account update actions that list (or unlist) the account in the approval queue."""
    if pending_since is None:
        return [Account.gsi2pk.remove(), Account.gsi2sk.remove()]
    return [Account.gsi2pk.set(APPROVAL_PENDING), Account.gsi2sk.set(f"{pending_since}#{account_id}")]


def approval_queue(limit: int, cursor: str | None) -> tuple[list[Account], str | None]:
    """Accounts awaiting approval, longest waiting first."""
    start = decode_cursor(cursor, {"pk", "sk", "gsi2pk", "gsi2sk"})
    result = Account.approval_index.query(APPROVAL_PENDING, limit=limit, last_evaluated_key=start)
    items = list(result)
    return items, encode_cursor(result.last_evaluated_key)


def issue_reports(limit: int, cursor: str | None) -> tuple[list[IssueReport], str | None]:
    start = decode_cursor(cursor, {"pk", "sk", "gsi1pk", "gsi1sk"})
    result = IssueReport.gsi1_index.query(
        keys.ALL_ISSUES, scan_index_forward=False, limit=limit, last_evaluated_key=start
    )
    items = list(result)
    return items, encode_cursor(result.last_evaluated_key)


def listed_users(limit: int) -> list[User]:
    """The first `limit` users by email (user_id, account_id, email, name, access only)."""
    return list(User.listed.query(keys.ALL_USERS, limit=limit))


def search_users(
    text: str, page_size: int, cursor: str | None, max_calls: int = 2
) -> tuple[list[User], str | None]:
    """Users by email whose email or name contains `text` (as typed, lower-cased or
    capitalised), from at most `max_calls` Query calls on the users index (so one screen load
    stays within its reads budget); the cursor continues where the last call stopped, so with
    a search a page may hold fewer than `page_size` and a large search takes several pages.
    Without one each page is `page_size` users. Admins only."""
    start = decode_cursor(cursor, {"pk", "sk", "gsi3pk", "gsi3sk"})
    condition = None
    if text:
        condition = User.email.contains(text.lower())
        for variant in sorted({text, text.lower(), text.capitalize(), text.title()}):
            condition = condition | User.name.contains(variant)
    pages = User.listed.query(
        keys.ALL_USERS,
        filter_condition=condition,
        last_evaluated_key=start,
        page_size=None if text else page_size,
    ).page_iter
    found: list[User] = []
    for _ in range(max_calls):
        try:
            page = next(pages)
        except StopIteration:
            break
        found.extend(User.from_raw_data(item) for item in page.get("Items") or [])
        if pages.last_evaluated_key is None or len(found) >= page_size:
            break
    return found, encode_cursor(pages.last_evaluated_key)
