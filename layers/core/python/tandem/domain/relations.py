"""What one brand has to do with another: the one vocabulary of relation states.

Each direction is one BrandRelation item (the brand's own view). Requests write the states
(tandem.domain.requests.RELATION_STATES), the matcher and the Matches screens read them.
"""

from __future__ import annotations

NONE = ""
REQUESTED_OUT = "requested-out"  # this brand sent a request that is still open
REQUESTED_IN = "requested-in"  # the other brand sent this brand a request that is still open
CONNECTED = "connected"
DECLINED_OUT = "declined-out"  # this brand's request was declined
DECLINED_IN = "declined-in"  # this brand declined the other's request
CANCELLED = "cancelled"  # the request between them was cancelled by its sender

STATES = (NONE, REQUESTED_OUT, REQUESTED_IN, CONNECTED, DECLINED_OUT, DECLINED_IN, CANCELLED)
# Never suggested again as a match.
EXCLUDING = frozenset({REQUESTED_OUT, REQUESTED_IN, CONNECTED, DECLINED_OUT, DECLINED_IN})
# No new request between the two while one of these holds.
BLOCKING = (REQUESTED_OUT, REQUESTED_IN, CONNECTED)


def is_excluded(state: str | None, dismissed: bool) -> bool:
    """A brand never to suggest: dismissed, requested, connected or declined."""
    return bool(dismissed) or (state or NONE) in EXCLUDING
