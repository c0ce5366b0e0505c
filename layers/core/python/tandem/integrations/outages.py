"""Which failures of a dependency are temporary, and what a member is told about them.

One place for the question every caller of Stripe and DynamoDB asks (issue 42): the API answers
these with a 503 and a message to try again (chalicelib/http.py), never "Something went wrong on
our side"; the billing state machine retries them (StripeTemporaryError) and, past its retries,
the scheduled retry-failed-stripe-events job takes the event again later.

Temporary: Stripe unreachable (refused, reset, timed out: APIConnectionError), rate limited
(429: RateLimitError) or failing on its side (any 5xx, api_error), after the stripe library's
own retries (MAX_NETWORK_RETRIES, idempotency keys on every POST); DynamoDB throttling past
botocore's retries (ThrottlingException, ProvisionedThroughputExceededException,
RequestLimitExceeded) and a transaction still conflicting after the store's retries.
A card declined, a 4xx of ours, a refused condition: not temporary, never retried.

The stripe library is not imported here: an exception can only be one of its classes if the
module is loaded (the API's cold start never pays for it).
"""

from __future__ import annotations

import sys
from typing import Any

from tandem.errors import Unavailable

PAYMENTS_UNAVAILABLE = (
    "We couldn't reach our payment provider, so nothing has changed. Please try again in a minute."
)
BUSY = "Tandem is very busy right now. Please try again in a moment."
PAYMENTS_RETRY_AFTER = 30
BUSY_RETRY_AFTER = 2
THROTTLING_CODES = frozenset(
    {
        "ThrottlingException",
        "ProvisionedThroughputExceededException",
        "RequestLimitExceeded",
        "Throttling",
    }
)


def is_stripe_temporary(exc: BaseException) -> bool:
    stripe = sys.modules.get("stripe")
    if stripe is None or not isinstance(exc, stripe.StripeError):
        return False
    if isinstance(exc, stripe.APIConnectionError | stripe.RateLimitError | stripe.APIError):
        return True
    return int(getattr(exc, "http_status", 0) or 0) >= 500


def is_aws_throttling(exc: BaseException) -> bool:
    """botocore's ClientError for throttling (directly, or as the cause of pynamodb's error)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        response = getattr(current, "response", None)
        if isinstance(response, dict):
            code = (response.get("Error") or {}).get("Code")
            if code in THROTTLING_CODES:
                return True
        code = getattr(current, "cause_response_code", None)
        if code in THROTTLING_CODES:
            return True
        current = current.__cause__ or current.__context__
    return False


def as_unavailable(exc: BaseException) -> Unavailable | None:
    """What the member is told when `exc` is a temporary failure of a dependency, else None."""
    if isinstance(exc, Unavailable):
        return exc
    if is_stripe_temporary(exc):
        return Unavailable(
            PAYMENTS_UNAVAILABLE,
            code="payments_unavailable",
            extra={"retryAfter": PAYMENTS_RETRY_AFTER},
        )
    if is_aws_throttling(exc):
        return Unavailable(BUSY, code="busy", extra={"retryAfter": BUSY_RETRY_AFTER})
    return None


def retry_after(error: Any) -> int | None:
    extra = getattr(error, "extra", None) or {}
    value = extra.get("retryAfter")
    return int(value) if isinstance(value, int) else None
