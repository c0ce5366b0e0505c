"""Ids as the API receives them: the one parser for brand ids (paths, headers, bodies, lists)
and the other whole numbers of links."""

from __future__ import annotations

ID_DIGITS = 12  # brand ids (an atomic counter) never get near this


def parse_id(raw: object, max_digits: int = ID_DIGITS) -> int | None:
    """A positive whole number from an int, or from a string of at most `max_digits` ASCII
    digits (str.isdigit() alone also accepts '²', which int() refuses); None otherwise."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if raw >= 1 else None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= max_digits:
        value = int(raw)
        return value if value >= 1 else None
    return None
