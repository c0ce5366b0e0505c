"""Connection requests: send, accept, decline, cancel, the lists, and email quick actions.

Each change is ONE DynamoDB transaction: the request's status (conditional on the old one),
both brands' relation items (so the matcher and the brand pages know), and the sender's credit
(hold on send; spent on accept; returned on decline or cancel within the month). Sending is at
most three calls: a BatchGet (target brand, account, both relation items), the account's
credit buckets, and the transaction. Lists are one query on the box index (tandem.store.keys)
plus one call to read or move the brand's "seen" mark.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from pynamodb.exceptions import TransactWriteError

from tandem.domain import credits as credit_rules
from tandem.domain import requests as rules
from tandem.errors import Conflict, Forbidden, NotFound, PaymentRequired, TandemError, ValidationError
from tandem.integrations.aws import client, get_secret
from tandem.observability import logger
from tandem.services import credits, mailer, relations, subscriptions
from tandem.store import keys
from tandem.store.models import (
    Account,
    Brand,
    BrandRelation,
    BrandSummaryMap,
    ConnectionRequest,
    CreditHold,
)

ATTEMPTS = 4
NOT_FOUND = "Request not found"
CURSOR_INVALID = "This list link is out of date. Please reload the list."


class PaymentNeeded(PaymentRequired):
    """402 with a machine code the app opens the subscription overlay with."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _now_ms() -> int:
    return int(time.time() * 1000)


def _cfg():  # noqa: ANN202
    from tandem.config import settings

    return settings()


# ---------------------------------------------------------------- reading items


def _deserialize(model: type, raw: dict) -> Any:
    return model.from_raw_data(raw)


def _batch_get(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], dict]:
    """One BatchGetItem over any entities (consistent); {(pk, sk): raw item}."""
    found: dict[tuple[str, str], dict] = {}
    request = {
        _cfg().table_name: {
            "Keys": [{"pk": {"S": pk}, "sk": {"S": sk}} for pk, sk in dict.fromkeys(pairs)],
            "ConsistentRead": True,
        }
    }
    while request:
        answer = client("dynamodb").batch_get_item(RequestItems=request)
        for raw in answer.get("Responses", {}).get(_cfg().table_name, []):
            found[(raw["pk"]["S"], raw["sk"]["S"])] = raw
        request = answer.get("UnprocessedKeys") or {}
    return found


def get_request(request_id: str) -> ConnectionRequest:
    if not isinstance(request_id, str) or not request_id.isalnum() or len(request_id) > 40:
        raise NotFound(NOT_FOUND)
    try:
        return ConnectionRequest.get(keys.request_pk(request_id), keys.META, consistent_read=True)
    except ConnectionRequest.DoesNotExist:
        raise NotFound(NOT_FOUND) from None


def _logo_url(brand: Brand) -> str | None:
    from tandem.services import brands

    helper = getattr(brands, "logo_url", None)
    return helper(brand) if helper else None


def contact_of(brand: Brand) -> dict[str, str | None]:
    """The brand's contact details (BrandProfile `contact`), empty values as None."""
    contact = getattr(brand, "contact", None)
    if contact is None:
        return {}
    raw = contact.as_dict() if hasattr(contact, "as_dict") else dict(contact)
    return {k: (v or None) for k, v in raw.items() if k in ("name", "email", "phone")}


def _contact_snapshot(brand: Brand) -> dict[str, str | None]:
    """What the other side is given on accept: the brand's contact details, or its account's
    user when the brand has none yet."""
    contact = contact_of(brand)
    if any(contact.values()):
        return {"name": contact.get("name"), "email": contact.get("email"), "phone": contact.get("phone")}
    from tandem.services.accounts import users_of_account

    users = users_of_account(brand.account_id)
    if not users:
        return {"name": None, "email": None, "phone": None}
    first = sorted(users, key=lambda u: u.email)[0]
    return {"name": first.name, "email": first.email, "phone": None}


def _summary(brand: Brand) -> BrandSummaryMap:
    return BrandSummaryMap(
        id=int(brand.brand_id),
        name=brand.name,
        category=brand.category or "",
        logo_url=_logo_url(brand),
        hide_name=bool(brand.hide_name),
    )


# ---------------------------------------------------------------- shaping answers


def _iso_ms(ms: int | None) -> str | None:
    return credit_rules.iso(int(ms) // 1000) if ms else None


def _brand_json(summary: BrandSummaryMap, visible: bool) -> dict[str, Any]:
    """A BrandSummary; a masked brand shows no logo either (a logo gives the name away, as in
    Matches and on brand pages)."""
    masked = bool(summary.hide_name) and not visible
    return {
        "id": int(summary.id),
        "name": rules.masked_name(summary.name, summary.category, bool(summary.hide_name), visible),
        "logoUrl": None if masked else summary.logo_url,
        "category": summary.category or "",
    }


def _box_ms(sort_key: str) -> int:
    return int(sort_key.split("#")[1])


def _raw_contact(value: Any) -> dict | None:
    if value is None:
        return None
    raw = value.as_dict() if hasattr(value, "as_dict") else dict(value)
    return {k: raw.get(k) for k in ("name", "email", "phone")}


def request_json(req: ConnectionRequest, viewer_brand_id: int, is_new: bool = False) -> dict[str, Any]:
    """The RequestItem of docs/api.md as the brand `viewer_brand_id` sees it."""
    sent = int(req.from_brand_id) == viewer_brand_id
    connected = req.status == rules.ACCEPTED
    other_contact = req.to_contact if sent else req.from_contact
    return {
        "id": req.request_id,
        "status": req.status,
        "direction": "sent" if sent else "received",
        "fromBrand": _brand_json(req.from_brand, visible=sent or connected),
        "toBrand": _brand_json(req.to_brand, visible=not sent or connected),
        "message": req.message,
        "reply": req.reply if req.status == rules.DECLINED else None,
        "createdAt": _iso_ms(req.created_at),
        "updatedAt": _iso_ms(req.updated_at),
        "isNew": is_new,
        "contact": _raw_contact(other_contact) if connected else None,
    }


def _party(req: ConnectionRequest, brand_id: int) -> str:
    """'sender' or 'recipient'; a brand that is neither does not learn the request exists."""
    if int(req.from_brand_id) == brand_id:
        return "sender"
    if int(req.to_brand_id) == brand_id and req.status != rules.AWAITING:
        return "recipient"
    raise NotFound(NOT_FOUND)


def view(request_id: str, brand_id: int) -> dict[str, Any]:
    req = get_request(request_id)
    _party(req, brand_id)
    return {"request": request_json(req, brand_id)}


# ---------------------------------------------------------------- send


@dataclass(frozen=True)
class _SendContext:
    target: Brand
    account: Account | None
    sender_state: str
    recipient_state: str
    resend_at: int | None  # when the sender may ask again after its last request was closed


def _send_context(from_brand: Brand, to_brand_id: int) -> _SendContext:
    account_key = (keys.account_pk(from_brand.account_id), keys.META)
    target_key = (keys.brand_pk(to_brand_id), keys.PROFILE)
    out_key = (keys.brand_pk(int(from_brand.brand_id)), keys.relation_sk(to_brand_id))
    in_key = (keys.brand_pk(to_brand_id), keys.relation_sk(int(from_brand.brand_id)))
    found = _batch_get([target_key, account_key, out_key, in_key])
    if target_key not in found:
        raise NotFound("Brand not found")
    state = {
        k: found[k].get("request_state", {}).get("S", "") if k in found else "" for k in (out_key, in_key)
    }
    resend_at = found.get(out_key, {}).get("resend_at", {}).get("N")
    return _SendContext(
        target=_deserialize(Brand, found[target_key]),
        account=_deserialize(Account, found[account_key]) if account_key in found else None,
        sender_state=state[out_key],
        recipient_state=state[in_key],
        resend_at=int(resend_at) if resend_at is not None else None,
    )


def _refusal(ctx: _SendContext, now: int) -> str | None:
    """Why this send is refused (409): a request between the two is open or they are connected,
    or the sender's last request to this brand was closed too recently."""
    conflict = rules.conflict_for(ctx.sender_state, ctx.recipient_state)
    if conflict:
        return conflict
    target = ctx.target  # named as the sender sees it: masked unless connected (it is not)
    name = rules.masked_name(target.name, target.category or "", bool(target.hide_name), visible=False)
    return rules.resend_refusal(name, ctx.resend_at, now)


def _clean(raw: Any, field: str, required: bool, limit: int) -> str:
    try:
        return rules.clean_message(raw, required=required, limit=limit)
    except ValueError as exc:
        error = ValidationError(str(exc))
        error.errors = {field: str(exc)}  # type: ignore[attr-defined]
        raise error from None


def _relation_free():  # noqa: ANN202
    """Condition on a relation item: no pending request and not connected."""
    return BrandRelation.request_state.does_not_exist() | ~BrandRelation.request_state.is_in(
        *rules.BLOCKING_STATES
    )


def _may_resend(now: int):  # noqa: ANN202
    """Condition on the sender's relation item: no wait after a closed request, or it is over."""
    return BrandRelation.resend_at.does_not_exist() | (BrandRelation.resend_at <= now)


def _relation_update(
    tx: Any, brand_id: int, other_id: int, state: str, request_id: str, condition=None, extra=()
) -> None:  # noqa: ANN001
    tx.update(
        relations.item(brand_id, other_id),
        actions=[*relations.request_state_actions(brand_id, other_id, state, request_id), *extra],
        condition=condition,
    )


def send(from_brand: Brand, body: dict[str, Any]) -> dict[str, Any]:
    """POST requests {toBrandId, message} -> {request, credits} (201)."""
    raw_to = body.get("toBrandId")
    if isinstance(raw_to, str) and raw_to.isascii() and raw_to.isdigit() and len(raw_to) <= 12:
        raw_to = int(raw_to)
    if not isinstance(raw_to, int) or isinstance(raw_to, bool) or raw_to < 1:
        error = ValidationError("Choose the brand to send your request to")
        error.errors = {"toBrandId": "This field is required"}  # type: ignore[attr-defined]
        raise error
    message = _clean(body.get("message"), "message", required=True, limit=rules.MESSAGE_MAX)
    to_brand_id = int(raw_to)
    if to_brand_id == int(from_brand.brand_id):
        raise ValidationError(rules.OWN_BRAND)

    ctx = _send_context(from_brand, to_brand_id)  # call 1
    if ctx.target.account_id == from_brand.account_id:
        raise ValidationError(rules.OWN_BRAND)
    if not (subscriptions.is_subscribed(ctx.account) or subscriptions.awaits_approval(ctx.account)):
        raise PaymentNeeded(subscriptions.NEEDS_SUBSCRIPTION, "no_subscription")
    conflict = _refusal(ctx, int(time.time()))
    if conflict:
        raise Conflict(conflict)

    status = rules.AWAITING if subscriptions.awaits_approval(ctx.account) else rules.PENDING
    account_id = from_brand.account_id
    request_id = secrets.token_hex(8)
    sender_state, recipient_state = rules.RELATION_STATES[status]
    for _ in range(ATTEMPTS):
        now = int(time.time())
        now_ms = _now_ms()
        buckets = credits.buckets(account_id)  # call 2
        plan = credit_rules.pick(buckets, credit_rules.REQUEST_HOLD, now)
        if not plan:
            raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")
        ((bucket, _),) = plan
        req = ConnectionRequest(
            keys.request_pk(request_id),
            keys.META,
            request_id=request_id,
            from_brand_id=int(from_brand.brand_id),
            to_brand_id=to_brand_id,
            from_account_id=account_id,
            to_account_id=ctx.target.account_id,
            from_brand=_summary(from_brand),
            to_brand=_summary(ctx.target),
            message=message,
            status=status,
            hold_bucket_id=bucket.bucket_id,
            hold_release_until=bucket.valid_to,
            created_at=now_ms,
            updated_at=now_ms,
            gsi1pk=keys.requests_in_gsi(to_brand_id),
            gsi1sk=keys.box_sk(rules.RECEIVED_BOX[status], now_ms, request_id),
            gsi2pk=keys.requests_out_gsi(int(from_brand.brand_id)),
            gsi2sk=keys.box_sk(rules.SENT_BOX[status], now_ms, request_id),
        )
        try:
            with credits._tx() as tx:  # call 3
                credits.add_hold(tx, account_id, request_id, bucket, now)
                tx.save(req, condition=ConnectionRequest.sk.does_not_exist())
                _relation_update(
                    tx,
                    int(from_brand.brand_id),
                    to_brand_id,
                    sender_state,
                    request_id,
                    _relation_free() & _may_resend(now),
                )
                if recipient_state:
                    _relation_update(
                        tx,
                        to_brand_id,
                        int(from_brand.brand_id),
                        recipient_state,
                        request_id,
                        _relation_free(),
                    )
        except TransactWriteError:
            # Either another request took that credit first (look again), or a request
            # between these two brands was made or closed meanwhile (refuse).
            again = _send_context(from_brand, to_brand_id)
            conflict = _refusal(again, now)
            if conflict:
                raise Conflict(conflict) from None
            continue
        left = [
            replace(b, available=b.available - 1) if b.bucket_id == bucket.bucket_id else b for b in buckets
        ]
        if status == rules.PENDING:
            _mail_received(req)
        info = credit_rules.credits_info(
            credit_rules.summary(left, now),
            status=subscriptions.status(ctx.account, now),
            valid_to=int(ctx.account.subscription_valid_to)
            if ctx.account and ctx.account.subscription_valid_to
            else None,
        )
        return {"request": request_json(req, int(from_brand.brand_id)), "credits": info}
    raise PaymentNeeded(credit_rules.OUT_OF_CREDITS, "out_of_credits")


# ---------------------------------------------------------------- accept / decline / cancel


def _box_updates(req: ConnectionRequest, status: str, now_ms: int) -> list:
    return [
        ConnectionRequest.status.set(status),
        ConnectionRequest.updated_at.set(now_ms),
        ConnectionRequest.gsi1sk.set(keys.box_sk(rules.RECEIVED_BOX[status], now_ms, req.request_id)),
        ConnectionRequest.gsi2sk.set(keys.box_sk(rules.SENT_BOX[status], now_ms, req.request_id)),
    ]


def _hold_is_held(req: ConnectionRequest) -> bool:
    try:
        held = CreditHold.get(
            keys.account_pk(req.from_account_id), keys.hold_sk(req.request_id), consistent_read=True
        )
    except CreditHold.DoesNotExist:
        return False
    return held.status == "held"


def transition(req: ConnectionRequest, action: str, reply: str | None = None) -> ConnectionRequest:
    """Apply accept / decline / cancel in one transaction; 409 when the request has moved on.
    The caller has checked who may do it."""
    starts, status = rules.TRANSITIONS[action]
    if req.status not in starts:
        raise Conflict(rules.refusal(action, req.status))
    sender, recipient = int(req.from_brand_id), int(req.to_brand_id)
    contacts: dict[str, dict] = {}
    if action == "accept":
        from tandem.services import brands

        both = {int(b.brand_id): b for b in brands.get_many([sender, recipient])}
        contacts = {
            "from_contact": _contact_snapshot(both[sender]) if sender in both else {},
            "to_contact": _contact_snapshot(both[recipient]) if recipient in both else {},
        }
    with_credit = req.hold_bucket_id is not None
    for _ in range(ATTEMPTS):
        now = int(time.time())
        now_ms = max(_now_ms(), int(req.updated_at) + 1)
        actions = _box_updates(req, status, now_ms)
        if reply is not None:
            actions.append(ConnectionRequest.reply.set(reply))
        for name, value in contacts.items():
            actions.append(getattr(ConnectionRequest, name).set(value))
        sender_state, recipient_state = rules.RELATION_STATES[status]
        try:
            with credits._tx() as tx:
                tx.update(
                    ConnectionRequest(keys.request_pk(req.request_id), keys.META),
                    actions=actions,
                    condition=ConnectionRequest.status.is_in(*starts),
                )
                # A closed request makes its sender wait before asking this brand again.
                wait = [BrandRelation.resend_at.set(rules.resend_at(now))] if action in rules.CLOSING else []
                _relation_update(tx, sender, recipient, sender_state, req.request_id, extra=wait)
                if req.status != rules.AWAITING:  # the recipient never knew of an awaiting one
                    _relation_update(tx, recipient, sender, recipient_state, req.request_id)
                if with_credit:
                    finish = (
                        "settle"
                        if action == "accept"
                        else credits.finish_for(now, int(req.hold_release_until))
                    )
                    add = credits.add_settle if finish == "settle" else credits.add_release
                    add(tx, req.from_account_id, req.request_id, req.hold_bucket_id, now)
        except TransactWriteError:
            fresh = get_request(req.request_id)
            if fresh.status not in starts:
                raise Conflict(rules.refusal(action, fresh.status)) from None
            if with_credit and not _hold_is_held(fresh):
                with_credit = False  # the month-end job spent it meanwhile: nothing to return
            req = fresh
            continue
        # The transaction succeeded: the item now reads as follows (no need to read it again).
        req.status, req.updated_at = status, now_ms
        req.gsi1sk = keys.box_sk(rules.RECEIVED_BOX[status], now_ms, req.request_id)
        req.gsi2sk = keys.box_sk(rules.SENT_BOX[status], now_ms, req.request_id)
        if reply is not None:
            req.reply = reply
        for name, value in contacts.items():
            setattr(req, name, value)
        return req
    raise Conflict("This request is busy. Please try again.")


def _acting(request_id: str, brand_id: int, action: str) -> ConnectionRequest:
    req = get_request(request_id)
    party = _party(req, brand_id)
    if party != rules.ACTOR[action]:
        who = "received" if rules.ACTOR[action] == "recipient" else "sent"
        raise Forbidden(f"Only the brand that {who} this request can {action} it")
    return req


def act(action: str, request_id: str, brand: Brand, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST requests/{id}/accept|decline|cancel as `brand` -> {request, credits}."""
    brand_id = int(brand.brand_id)
    req = _acting(request_id, brand_id, action)
    reply = None
    if action == "decline":
        reply = _clean((body or {}).get("reply"), "reply", required=False, limit=rules.REPLY_MAX) or None
    done = transition(req, action, reply)
    _mail_after(done, action)
    return {"request": request_json(done, brand_id), "credits": credits.info(brand.account_id)}


def release_awaiting(account_id: str) -> dict[str, int]:
    """The account's subscription was approved: its awaiting requests become pending and their
    recipients are emailed (billing calls this)."""
    from tandem.services import brands

    released = 0
    for brand in brands.brands_of_account(account_id):
        waiting = ConnectionRequest.sent.query(
            keys.requests_out_gsi(int(brand.brand_id)),
            ConnectionRequest.gsi2sk.startswith(f"{rules.SENT_BOX[rules.AWAITING]}#"),
            filter_condition=ConnectionRequest.status == rules.AWAITING,
        )
        for req in waiting:
            now_ms = max(_now_ms(), int(req.updated_at) + 1)
            try:
                with credits._tx() as tx:
                    tx.update(
                        ConnectionRequest(keys.request_pk(req.request_id), keys.META),
                        actions=_box_updates(req, rules.PENDING, now_ms),
                        condition=ConnectionRequest.status == rules.AWAITING,
                    )
                    _relation_update(
                        tx,
                        int(req.to_brand_id),
                        int(req.from_brand_id),
                        rules.RELATION_STATES[rules.PENDING][1],
                        req.request_id,
                    )
            except TransactWriteError:
                continue  # cancelled meanwhile
            released += 1
            _mail_received(get_request(req.request_id))
    return {"released": released}


# ---------------------------------------------------------------- lists


def _encode_cursor(key: dict | None) -> str | None:
    if not key:
        return None
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode().rstrip("=")


def _decode_cursor(cursor: str | None, gsi: str, partition: str, box: str) -> dict | None:
    """The position a `nextCursor` names: an item key of this brand's `box` on the index, and
    nothing else (a key outside the query's box is a DynamoDB error, not an empty page)."""
    if not cursor:
        return None
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error):
        raise ValidationError(CURSOR_INVALID) from None
    expected = {"pk", "sk", f"{gsi}pk", f"{gsi}sk"}
    if (
        not isinstance(key, dict)
        or set(key) != expected
        or not all(isinstance(v, dict) and isinstance(v.get("S"), str) and len(v) == 1 for v in key.values())
        or key[f"{gsi}pk"]["S"] != partition
    ):
        raise ValidationError(CURSOR_INVALID)
    position = _CURSOR_SORT_KEY.match(key[f"{gsi}sk"]["S"])
    if (
        position is None
        or position.group(1) != box
        or key["pk"]["S"] != keys.request_pk(position.group(2))
        or key["sk"]["S"] != keys.META
    ):
        raise ValidationError(CURSOR_INVALID)
    return key


_CURSOR_SORT_KEY = re.compile(rf"^([A-Z]+)#\d{{{keys.TIME_WIDTH}}}#([A-Za-z0-9]{{1,40}})$")


def _item_key(req: ConnectionRequest, gsi: str) -> dict:
    return {
        "pk": {"S": req.pk},
        "sk": {"S": req.sk},
        f"{gsi}pk": {"S": getattr(req, f"{gsi}pk")},
        f"{gsi}sk": {"S": getattr(req, f"{gsi}sk")},
    }


def _page(gsi: str, partition: str, box: str, cursor: dict | None, limit: int = rules.PAGE_SIZE):  # noqa: ANN202
    index = ConnectionRequest.received if gsi == "gsi1" else ConnectionRequest.sent
    sort_key = ConnectionRequest.gsi1sk if gsi == "gsi1" else ConnectionRequest.gsi2sk
    result = index.query(
        partition,
        sort_key.startswith(f"{box}#"),
        scan_index_forward=False,
        limit=limit,
        last_evaluated_key=cursor,
    )
    items = list(result)
    next_key = result.last_evaluated_key if len(items) == limit else None
    return items, next_key


def _seen_mark(brand_id: int, field: str, newest_ms: int | None) -> int:
    """The brand's previous "seen" mark for `field`; moves it to `newest_ms` when given (the
    newest item of a first page), in the same call."""
    table = _cfg().table_name
    key = {"pk": {"S": keys.brand_pk(brand_id)}, "sk": {"S": keys.SEEN}}
    if newest_ms is None:
        item = client("dynamodb").get_item(TableName=table, Key=key, ConsistentRead=True).get("Item") or {}
        return int(item.get(field, {}).get("N", "0"))
    answer = client("dynamodb").update_item(
        TableName=table,
        Key=key,
        UpdateExpression="SET #f = :v",
        ExpressionAttributeNames={"#f": field},
        ExpressionAttributeValues={":v": {"N": str(newest_ms)}},
        ReturnValues="ALL_OLD",
    )
    return int(answer.get("Attributes", {}).get(field, {}).get("N", "0"))


def _seen_view(brand_id: int, field: str, items: list[ConnectionRequest], gsi: str, first_page: bool) -> int:
    """Previous seen mark; viewing a first page with newer items marks them seen."""
    if not items:
        return 2**62  # nothing to flag
    newest = max(_box_ms(getattr(i, f"{gsi}sk")) for i in items)
    if not first_page:
        return _seen_mark(brand_id, field, None)
    previous = _seen_mark(brand_id, field, newest)
    if previous > newest:  # never move the mark back (items left the box meanwhile)
        _seen_mark(brand_id, field, previous)
    return previous


def _list_box(brand_id: int, side: str, status: str, seen_field: str | None, cursor: str | None) -> dict:
    """One page of the brand's received (`side` in) or sent (out) requests in `status`, newest
    first; `seen_field` names the new-items mark the first page moves (None: no new flags)."""
    gsi = "gsi1" if side == "in" else "gsi2"
    partition = keys.requests_in_gsi(brand_id) if side == "in" else keys.requests_out_gsi(brand_id)
    start = _decode_cursor(cursor, gsi, partition, status)
    items, next_key = _page(gsi, partition, status, start)
    seen = _seen_view(brand_id, seen_field, items, gsi, start is None) if seen_field else 2**62
    return {
        "items": [request_json(r, brand_id, _box_ms(getattr(r, f"{gsi}sk")) > seen) for r in items],
        "nextCursor": _encode_cursor(next_key),
    }


def list_requests(brand_id: int, box: str, cursor: str | None = None) -> dict[str, Any]:
    """GET requests?box=received|sent: pending requests, newest first, 20 a page."""
    if box not in ("received", "sent"):
        raise ValidationError("box must be received or sent")
    if box == "received":
        return _list_box(brand_id, "in", "PENDING", "requests", cursor)
    return _list_box(brand_id, "out", "PENDING", None, cursor)


def list_declines(brand_id: int, direction: str, cursor: str | None = None) -> dict[str, Any]:
    """GET declines?dir=out|in: out = this brand's requests that were declined (new ones are
    flagged), in = requests this brand declined."""
    if direction not in ("in", "out"):
        raise ValidationError("dir must be in or out")
    return _list_box(brand_id, direction, "DECLINED", "declines" if direction == "out" else None, cursor)


def _connection_json(req: ConnectionRequest, brand_id: int, live: dict[int, Brand], is_new: bool) -> dict:
    sent = int(req.from_brand_id) == brand_id
    other_id = int(req.to_brand_id) if sent else int(req.from_brand_id)
    stored = _raw_contact(req.to_contact if sent else req.from_contact) or {}
    brand = live.get(other_id)
    summary = _brand_json(req.to_brand if sent else req.from_brand, visible=True)
    if brand is not None:
        summary = {
            "id": other_id,
            "name": brand.name,
            "logoUrl": _logo_url(brand),
            "category": brand.category or "",
        }
        current = contact_of(brand)
        if any(current.values()):
            stored = {
                "name": current.get("name"),
                "email": current.get("email"),
                "phone": current.get("phone"),
            }
    return {
        "id": req.request_id,
        "brand": summary,
        "contact": stored or None,
        "connectedAt": _iso_ms(req.updated_at),
        "isNew": is_new,
        "direction": "sent" if sent else "received",
    }


def list_connections(brand_id: int, cursor: str | None = None) -> dict[str, Any]:
    """GET connections: accepted requests in either direction, newest connection first. The
    cursor holds a position in each of the two boxes ("end" when one is used up)."""
    sides = (("in", "gsi1", keys.requests_in_gsi(brand_id)), ("out", "gsi2", keys.requests_out_gsi(brand_id)))
    state: dict[str, Any] = {"in": None, "out": None}
    if cursor:
        try:
            parts = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        except (ValueError, binascii.Error):
            raise ValidationError(CURSOR_INVALID) from None
        if not isinstance(parts, dict) or set(parts) != {"in", "out"}:
            raise ValidationError(CURSOR_INVALID)
        for side, gsi, partition in sides:
            value = parts[side]
            if value is not None and not isinstance(value, str):
                raise ValidationError(CURSOR_INVALID)
            state[side] = (
                value if value in ("end", None) else _decode_cursor(value, gsi, partition, "CONNECTED")
            )
    fetched = {
        side: ([], None) if state[side] == "end" else _page(gsi, partition, "CONNECTED", state[side])
        for side, gsi, partition in sides
    }
    merged = sorted(
        [("in", r, _box_ms(r.gsi1sk)) for r in fetched["in"][0]]
        + [("out", r, _box_ms(r.gsi2sk)) for r in fetched["out"][0]],
        key=lambda t: (t[2], t[1].request_id),
        reverse=True,
    )
    page = merged[: rules.PAGE_SIZE]
    following: dict[str, Any] = {}
    for side, gsi, _ in sides:
        taken = [r for s, r, _ in page if s == side]
        items, more = fetched[side]
        if state[side] == "end" or (len(taken) == len(items) and more is None):
            following[side] = "end"
        elif taken:
            following[side] = _encode_cursor(_item_key(taken[-1], gsi))
        else:
            following[side] = _encode_cursor(state[side])
    from tandem.services import brands

    others = sorted({int(r.from_brand_id if s == "in" else r.to_brand_id) for s, r, _ in page})
    live = {int(b.brand_id): b for b in brands.get_many(others)} if others else {}
    # New: connections this brand asked for that the other brand accepted (its own accepts
    # are not news to it).
    asked = [r for s, r, _ in page if s == "out"]
    seen = _seen_view(brand_id, "connections", asked, "gsi2", cursor is None) if asked else 2**62
    return {
        "items": [
            _connection_json(r, brand_id, live, s == "out" and _box_ms(r.gsi2sk) > seen) for s, r, _ in page
        ],
        "nextCursor": None if all(v == "end" for v in following.values()) else _encode_cursor(following),
    }


def connection_with(brand_id: int, other_id: int) -> dict[str, Any]:
    """GET connections/{brandId}: the connection with one brand (404 when not connected)."""
    relation = relations.get(brand_id, other_id)
    if relation is None or relation.request_state != "connected" or not relation.request_id:
        raise NotFound("You are not connected with this brand")
    req = get_request(relation.request_id)
    if req.status != rules.ACCEPTED or brand_id not in (int(req.from_brand_id), int(req.to_brand_id)):
        raise NotFound("You are not connected with this brand")
    from tandem.services import brands

    live = {int(b.brand_id): b for b in brands.get_many([other_id])}
    return {"connection": _connection_json(req, brand_id, live, False)}


def menu_counts(brand_id: int) -> dict[str, int]:
    """New received requests, new connections (accepted by the other brand) and new declines."""
    table = _cfg().table_name
    dynamo = client("dynamodb")
    item = (
        dynamo.get_item(
            TableName=table,
            Key={"pk": {"S": keys.brand_pk(brand_id)}, "sk": {"S": keys.SEEN}},
            ConsistentRead=False,
        ).get("Item")
        or {}
    )
    mark = {f: int(item.get(f, {}).get("N", "0")) for f in ("requests", "connections", "declines")}

    def count(index: str, partition: str, box: str, since: int) -> int:
        low, high = keys.box_after(box, since)
        answer = dynamo.query(
            TableName=table,
            IndexName=index,
            Select="COUNT",
            KeyConditionExpression="#p = :p AND #s BETWEEN :low AND :high",
            ExpressionAttributeNames={"#p": f"{index}pk", "#s": f"{index}sk"},
            ExpressionAttributeValues={":p": {"S": partition}, ":low": {"S": low}, ":high": {"S": high}},
        )
        return int(answer.get("Count", 0))

    return {
        "requests": count("gsi1", keys.requests_in_gsi(brand_id), "PENDING", mark["requests"]),
        "connections": count("gsi2", keys.requests_out_gsi(brand_id), "CONNECTED", mark["connections"]),
        "declines": count("gsi2", keys.requests_out_gsi(brand_id), "DECLINED", mark["declines"]),
    }


# ---------------------------------------------------------------- quick actions (email links)


def _link_key() -> bytes:
    return rules.quick_action_key(get_secret(_cfg().jwt_secret_name))


def quick_action_links(req: ConnectionRequest, now: int | None = None) -> dict[str, str]:
    now = int(now if now is not None else time.time())
    expires = now + rules.QUICK_ACTION_DAYS * 86400
    key = _link_key()
    return {
        action: mailer.link(
            rules.quick_action_path(
                key,
                rules.QuickAction(
                    action, int(req.to_brand_id), int(req.from_brand_id), req.request_id, expires
                ),
            )
        )
        for action in rules.QUICK_ACTIONS
    }


class LinkGone(TandemError):
    status = 410


RESULT_MESSAGES = {
    "accept": "You're connected with {other}. We've emailed you both each other's contact details.",
    "decline": "You declined the request from {other}. We've let them know with a polite reply.",
}


def _verified_link(action: str, actioner: str, actionee: str, unique: str) -> ConnectionRequest:
    """The pending request a quick-action link names, if the link is genuine, unexpired and
    still usable: 400 forged or altered, 410 expired or already answered."""
    try:
        qa = rules.verify_quick_action(_link_key(), action, actioner, actionee, unique, int(time.time()))
    except rules.LinkError as exc:
        if exc.status == 410:
            raise LinkGone(exc.message) from None
        raise ValidationError(exc.message) from None
    try:
        req = get_request(qa.request_id)
    except NotFound:
        raise ValidationError(rules.LINK_INVALID) from None
    if (int(req.to_brand_id), int(req.from_brand_id)) != (qa.actioner, qa.actionee):
        raise ValidationError(rules.LINK_INVALID)
    if req.status != rules.PENDING:
        raise LinkGone(rules.refusal(action, req.status))
    return req


def quick_action_preview(action: str, actioner: str, actionee: str, unique: str) -> dict[str, Any]:
    """GET quick-action/{action}/{actioner}/{actionee}/{unique}: what the link would do, checked
    exactly as the POST checks it, and nothing changed (mail scanners open links; only the
    person's click on the page POSTs)."""
    req = _verified_link(action, actioner, actionee, unique)
    return {
        "action": action,
        "request": {
            "fromBrand": _brand_json(req.from_brand, visible=False),
            "toBrand": _brand_json(req.to_brand, visible=True),
            "message": req.message,
            "status": req.status,
        },
    }


def quick_action(action: str, actioner: str, actionee: str, unique: str) -> dict[str, Any]:
    """POST quick-action/{action}/{actioner}/{actionee}/{unique}: accept or decline from an
    email without signing in. Signed, expiring, and single-use (the request must be pending)."""
    req = _verified_link(action, actioner, actionee, unique)
    try:
        done = transition(req, action)
    except Conflict as exc:
        raise LinkGone(exc.message) from None
    _mail_after(done, action)
    other = _brand_json(done.from_brand, visible=action == "accept")["name"]
    return {
        "result": rules.TRANSITIONS[action][1],
        "message": RESULT_MESSAGES[action].format(other=other),
        "request": {
            "fromBrand": _brand_json(done.from_brand, visible=done.status == rules.ACCEPTED),
            "toBrand": _brand_json(done.to_brand, visible=True),
            "status": done.status,
        },
    }


# ---------------------------------------------------------------- emails


def _contact_lines(contact: dict | None) -> str:
    contact = _raw_contact(contact) or {}
    lines = [
        f"{label}: {contact[k]}"
        for k, label in (("name", "Name"), ("email", "Email"), ("phone", "Phone"))
        if contact.get(k)
    ]
    return "\n".join(lines) or "(They haven't added contact details yet; reply through Tandem.)"


def _mail_received(req: ConnectionRequest) -> None:
    sender = _brand_json(req.from_brand, visible=False)["name"]
    recipient = req.to_brand.name
    links = quick_action_links(req)
    view_link = mailer.link(f"/requests/received/{int(req.to_brand_id)}/{req.request_id}")
    text = (
        f"Hi,\n\n{sender} would like to collaborate with {recipient} and sent you this message:\n\n"
        f'"{req.message}"\n\n'
        f"Accept (you'll both get each other's contact details): {links['accept']}\n"
        f"Decline (we'll send them a polite reply): {links['decline']}\n\n"
        f"See the request in Tandem: {view_link}\n\n"
        f"The two links above work once and expire in {rules.QUICK_ACTION_DAYS} days.\n\nThe Tandem team"
    )
    _deliver(req.to_account_id, f"{sender} would like to collaborate with {recipient}", text)


def _mail_after(req: ConnectionRequest, action: str) -> None:
    sender, recipient = req.from_brand.name, req.to_brand.name
    sender_id, recipient_id = int(req.from_brand_id), int(req.to_brand_id)
    if action == "accept":
        _deliver(
            req.from_account_id,
            f"{recipient} accepted your request",
            f"Good news: {recipient} accepted the connection request from {sender}.\n\n"
            f"Their contact details:\n{_contact_lines(req.to_contact)}\n\n"
            f"See your connections: {mailer.link(f'/connections/{sender_id}/{recipient_id}')}\n\n"
            "The Tandem team",
        )
        _deliver(
            req.to_account_id,
            f"You're connected with {sender}",
            f"You accepted the connection request from {sender}. Here are their contact details:\n"
            f"{_contact_lines(req.from_contact)}\n\n"
            f"See your connections: {mailer.link(f'/connections/{recipient_id}/{sender_id}')}\n\n"
            "The Tandem team",
        )
    elif action == "decline":
        credit_note = (
            "Your credit has been returned."
            if _hold_status(req) == "released"
            else "The credit was not returned because the request's subscription month had ended."
        )
        hidden = _brand_json(req.to_brand, visible=False)["name"]
        _deliver(
            req.from_account_id,
            f"{hidden} declined your request",
            f"{hidden} declined the connection request from {sender}. {credit_note}\n\n"
            f"See your declines: {mailer.link(f'/declines/out/{int(req.from_brand_id)}')}\n\nThe Tandem team",
        )
        _deliver(
            req.from_account_id,
            f"A reply from {hidden}",
            f"{hidden} replied to the connection request from {sender}:\n\n"
            f'"{req.reply or rules.DEFAULT_REPLY}"\n\n(Sent by Tandem on their behalf.)',
        )


def _hold_status(req: ConnectionRequest) -> str:
    try:
        return CreditHold.get(keys.account_pk(req.from_account_id), keys.hold_sk(req.request_id)).status
    except CreditHold.DoesNotExist:
        return "none"


def _deliver(account_id: str, subject: str, text: str) -> None:
    """Emails never undo a change that happened: a queue failure is logged, not raised."""
    try:
        mailer.send_to_account(account_id, subject, text)
    except Exception:  # noqa: BLE001
        logger.exception("Could not queue a request email", extra={"subject": subject})
