"""How the API writes a moment (no I/O): ISO 8601 in UTC, to the second, with a `Z`
("2026-12-04T19:05:00Z"). The items keep epoch seconds (plans, credits, features) or epoch
milliseconds (requests, collaborations, shares); both are written here, once."""

from __future__ import annotations

from datetime import UTC, datetime


def iso(epoch: float | None) -> str | None:
    """Epoch seconds (an int, or a stored number) as ISO 8601 UTC; None stays None."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(int(epoch), UTC).isoformat().replace("+00:00", "Z")


def iso_ms(ms: float | None) -> str | None:
    """Epoch milliseconds as ISO 8601 UTC, to the second; None (or 0: never set) is None."""
    return iso(int(ms) // 1000) if ms else None
