"""Small pieces the fake Stripe shares: ids, the form decoding Stripe's libraries use, calendar
arithmetic for billing periods, and the error type every endpoint raises."""

from __future__ import annotations

import calendar
import secrets
import string
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl

_ALPHABET = string.ascii_letters + string.digits


def new_id(prefix: str, length: int = 24) -> str:
    """An id shaped like Stripe's: a type prefix and random letters and digits."""
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(length))


class StripeError(Exception):
    """An API error, rendered as Stripe renders it: {"error": {type, code, message, param}}."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type_: str = "invalid_request_error",
        code: str | None = None,
        param: str | None = None,
        decline_code: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type_
        self.code = code
        self.param = param
        self.decline_code = decline_code
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"type": self.type, "message": self.message}
        if self.code:
            error["code"] = self.code
            error["doc_url"] = f"https://stripe.com/docs/error-codes/{self.code.replace('_', '-')}"
        if self.param:
            error["param"] = self.param
        if self.decline_code:
            error["decline_code"] = self.decline_code
        error.update(self.extra)
        return {"error": error}


def missing(kind: str, object_id: str, param: str = "id") -> StripeError:
    return StripeError(404, f"No such {kind}: '{object_id}'", code="resource_missing", param=param)


def invalid(message: str, param: str | None = None, code: str = "parameter_invalid") -> StripeError:
    return StripeError(400, message, code=code, param=param)


# --- form decoding -------------------------------------------------------------------------


def _key_path(key: str) -> list[str]:
    """'line_items[0][price]' -> ['line_items', '0', 'price']; 'expand[]' -> ['expand', '']."""
    head, sep, rest = key.partition("[")
    parts = [head]
    if not sep:
        return parts
    rest = "[" + rest
    while rest.startswith("["):
        end = rest.find("]")
        if end < 0:
            raise invalid(f"Invalid parameter name: {key}", key)
        parts.append(rest[1:end])
        rest = rest[end + 1 :]
    if rest:
        raise invalid(f"Invalid parameter name: {key}", key)
    return parts


def _listify(node: Any) -> Any:
    if isinstance(node, dict):
        converted = {k: _listify(v) for k, v in node.items()}
        if converted and all(k.isdigit() for k in converted):
            return [converted[k] for k in sorted(converted, key=int)]
        return converted
    if isinstance(node, list):
        return [_listify(v) for v in node]
    return node


def decode_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Form pairs as stripe-python (indexed arrays) or curl (`a[]=`) send them, to nested
    dicts and lists. Values stay strings; each endpoint converts what it reads."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        path = _key_path(key)
        node: Any = root
        for index, part in enumerate(path):
            last = index == len(path) - 1
            following = None if last else path[index + 1]
            if part == "":  # 'a[]' appends
                if not isinstance(node, list):
                    raise invalid(f"Invalid array parameter: {key}", key)
                if last:
                    node.append(value)
                else:
                    node.append({} if following != "" else [])
                    node = node[-1]
                continue
            if isinstance(node, list):
                raise invalid(f"Invalid array parameter: {key}", key)
            if last:
                node[part] = value
            else:
                default: Any = [] if following == "" else {}
                child = node.setdefault(part, default)
                if isinstance(child, str):  # 'metadata=' then 'metadata[a]=' : the nested form wins
                    child = node[part] = default
                node = child
    return _listify(root)


def decode_query(query: str) -> dict[str, Any]:
    return decode_form(parse_qsl(query, keep_blank_values=True))


# --- typed reads of decoded parameters -------------------------------------------------------


def as_bool(value: Any, param: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("true", "True", "1"):
        return True
    if value in ("false", "False", "0"):
        return False
    raise invalid(f"Invalid boolean: {value}", param)


def as_int(value: Any, param: str, minimum: int | None = None, maximum: int | None = None) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise invalid(f"Invalid integer: {value}", param) from None
    if minimum is not None and number < minimum:
        raise invalid(f"This value must be greater than or equal to {minimum}.", param)
    if maximum is not None and number > maximum:
        raise invalid(f"This value must be less than or equal to {maximum}.", param)
    return number


def as_str(value: Any, param: str, max_length: int = 5000) -> str:
    if not isinstance(value, str):
        raise invalid(f"Invalid string: {param} must be a string", param)
    if len(value) > max_length:
        raise invalid(f"Invalid string: {param} is longer than {max_length} characters", param)
    return value


def as_list(value: Any, param: str) -> list[Any]:
    if isinstance(value, list):
        return value
    if value == "":
        return []
    raise invalid(f"Invalid array: {param} must be an array", param)


def as_dict(value: Any, param: str) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if value == "":
        return {}
    raise invalid(f"Invalid hash: {param} must be a hash", param)


def metadata_update(current: dict[str, str], value: Any, param: str = "metadata") -> dict[str, str]:
    """Stripe's metadata rules: keys merge, an empty value deletes a key, `metadata=` clears all;
    at most 50 keys, keys up to 40 characters, values up to 500."""
    if value == "":
        return {}
    updates = as_dict(value, param)
    merged = dict(current)
    for key, item in updates.items():
        if not isinstance(item, str):
            raise invalid(f"Invalid value for metadata key {key}: must be a string", f"{param}[{key}]")
        if len(key) > 40:
            raise invalid(f"Metadata key is longer than 40 characters: {key}", f"{param}[{key}]")
        if len(item) > 500:
            raise invalid(f"Metadata value for {key} is longer than 500 characters", f"{param}[{key}]")
        if item == "":
            merged.pop(key, None)
        else:
            merged[key] = item
    if len(merged) > 50:
        raise invalid("Metadata can have at most 50 keys", param)
    return merged


# --- calendar ----------------------------------------------------------------------------------


def add_interval(anchor: int, interval: str, count: int) -> int:
    """`anchor` + `count` intervals, months clamped to the month's last day as Stripe does
    (a 31 January anchor renews on 28/29 February, then 31 March)."""
    start = datetime.fromtimestamp(anchor, UTC)
    if interval == "day":
        return int((start + timedelta(days=count)).timestamp())
    if interval == "week":
        return int((start + timedelta(weeks=count)).timestamp())
    months = count * (12 if interval == "year" else 1)
    if interval not in ("month", "year"):
        raise ValueError(f"unknown interval {interval}")
    month_index = start.month - 1 + months
    year = start.year + month_index // 12
    month = month_index % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return int(start.replace(year=year, month=month, day=day).timestamp())


def period_end(anchor: int, start: int, interval: str, count: int) -> int:
    """End of the billing period that begins at `start` for a subscription anchored at `anchor`:
    the first anchor + k intervals after `start` (so clamped months return to the anchor day)."""
    k = 1
    while True:
        end = add_interval(anchor, interval, k * count)
        if end > start:
            return end
        k += 1


def format_money(amount: int, currency: str) -> str:
    symbols = {"gbp": "£", "usd": "$", "eur": "€"}
    sign = "-" if amount < 0 else ""
    major = f"{abs(amount) / 100:,.2f}"
    symbol = symbols.get(currency.lower())
    return f"{sign}{symbol}{major}" if symbol else f"{sign}{major} {currency.upper()}"


def format_date(timestamp: int | None) -> str:
    if not timestamp:
        return ""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%-d %b %Y")
