"""Who is asking, checked with the reads a screen makes anyway.

A screen whose first read is keyed by its brand (the brand's partition) fetches the caller's
own items (their user, ...) in its second read, a BatchGetItem it makes anyway, and checks the
caller there before anything is shown or written. The API implements this protocol
(functions/api/chalicelib/auth.py `Caller`); services only pass the keys and call `verify`.
"""

from __future__ import annotations

from typing import Any, Protocol

from tandem.store.models import Brand, Key, TandemModel, User


class Access(Protocol):
    def keys(self) -> list[tuple[type[TandemModel], Key]]:
        """The caller's items to read with the screen's batch."""
        ...

    def verify(self, found: dict[Key, Any], brand: Brand | None) -> Any:
        """Raise Unauthorized / Forbidden unless the caller may act as `brand`; else the
        verified caller (its `user`)."""
        ...


def keys_of(access: Access | None) -> list[tuple[type[TandemModel], Key]]:
    return access.keys() if access is not None else []


def verify(access: Access | None, found: dict[Key, Any], brand: Brand | None) -> User | None:
    """The caller checked against `brand`: its user (None when there is no caller to check)."""
    return access.verify(found, brand).user if access is not None else None
