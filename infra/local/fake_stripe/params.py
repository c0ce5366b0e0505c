"""Typed, checked reads of a request's decoded parameters. Unknown parameters are refused the
way Stripe refuses them ('Received unknown parameter: x'), so the app cannot come to rely
locally on a parameter Stripe would reject."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from infra.local.fake_stripe.util import StripeError, as_bool, as_dict, as_int, as_list, as_str, invalid

LIST_PARAMS = ("limit", "starting_after", "ending_before", "expand")
EMPTY = object()


class Params:
    def __init__(
        self,
        data: dict[str, Any],
        allowed: Iterable[str],
        required: Iterable[str] = (),
        prefix: str = "",
    ) -> None:
        self.data = data
        self.prefix = prefix
        allowed = set(allowed) | ({"expand"} if not prefix else set())
        for key in data:
            if key not in allowed:
                raise StripeError(
                    400,
                    f"Received unknown parameter: {self.name(key)}",
                    code="parameter_unknown",
                    param=self.name(key),
                )
        for key in required:
            if key not in data or data[key] in ("", None):
                raise StripeError(
                    400,
                    f"Missing required param: {self.name(key)}.",
                    code="parameter_missing",
                    param=self.name(key),
                )

    def name(self, key: str) -> str:
        return f"{self.prefix}[{key}]" if self.prefix else key

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> Any:
        return self.data.get(key)

    def str(
        self,
        key: str,
        default: Any = None,
        *,
        max_length: int = 5000,
        choices: Iterable[str] | None = None,
        empty_is_none: bool = True,
    ) -> Any:
        if key not in self.data:
            return default
        value = as_str(self.data[key], self.name(key), max_length)
        if value == "" and empty_is_none:
            return None
        if choices is not None and value not in set(choices):
            options = ", ".join(f"`{c}`" for c in choices)
            raise invalid(
                f"Invalid {self.name(key)}: must be one of {options}",
                self.name(key),
                "parameter_invalid_string",
            )
        return value

    def int(
        self, key: str, default: Any = None, *, minimum: int | None = None, maximum: int | None = None
    ) -> Any:
        if key not in self.data or self.data[key] == "":
            return default
        return as_int(self.data[key], self.name(key), minimum, maximum)

    def bool(self, key: str, default: Any = None) -> Any:
        if key not in self.data or self.data[key] == "":
            return default
        return as_bool(self.data[key], self.name(key))

    def dict(self, key: str) -> dict[str, Any]:
        return as_dict(self.data.get(key, {}), self.name(key))

    def list(self, key: str) -> list[Any]:
        value = self.data.get(key, [])
        if isinstance(value, str) and value:
            return [value]
        return as_list(value, self.name(key))

    def sub(self, key: str, allowed: Iterable[str], required: Iterable[str] = ()) -> Params:
        return Params(self.dict(key), allowed, required, prefix=self.name(key))

    def expand(self) -> list[str]:
        return [as_str(v, "expand") for v in self.list("expand")] if "expand" in self.data else []


def currency(value: Any, param: str) -> str:
    text = as_str(value, param).lower()
    if len(text) != 3 or not text.isalpha():
        raise invalid(
            f"Invalid currency: {value}. Stripe currently supports these currencies: gbp, usd, eur, ...",
            param,
        )
    return text


def timestamp_filter(params: Params, key: str = "created") -> list[tuple[str, int]]:
    """`created=123` or `created[gte]=123` ... -> [(op, value)]."""
    if not params.has(key):
        return []
    value = params.raw(key)
    if isinstance(value, dict):
        sub = params.sub(key, ("gt", "gte", "lt", "lte"))
        return [(op, sub.int(op)) for op in ("gt", "gte", "lt", "lte") if sub.has(op)]
    return [("eq", params.int(key))]


def matches_timestamp(value: int, filters: list[tuple[str, int]]) -> bool:
    checks = {
        "eq": lambda a, b: a == b,
        "gt": lambda a, b: a > b,
        "gte": lambda a, b: a >= b,
        "lt": lambda a, b: a < b,
        "lte": lambda a, b: a <= b,
    }
    return all(checks[op](value, limit) for op, limit in filters)
