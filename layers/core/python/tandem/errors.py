"""Errors the domain raises; the API turns each into a status and a JSON `error` message."""

from __future__ import annotations

from typing import Any


class TandemError(Exception):
    """`message` is the answer's `error`; `errors` names each field's problem, `code` is a machine
    code the app acts on, `extra` what the caller needs to go on (all three optional)."""

    status = 400
    errors: dict[str, str] | None = None
    code: str | None = None  # a subclass may name its own
    extra: dict[str, Any] | None = None

    def __init__(
        self,
        message: str,
        *,
        errors: dict[str, str] | None = None,
        code: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if errors is not None:
            self.errors = errors
        if code is not None:
            self.code = code
        if extra is not None:
            self.extra = extra


class ValidationError(TandemError):
    status = 400


class FieldErrors(ValidationError):
    """A 400 naming each field's problem; its message is the first one."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__(next(iter(errors.values())), errors=errors)


class Unauthorized(TandemError):
    status = 401


class Forbidden(TandemError):
    status = 403


SESSION_ENDED_CODE = "session_ended"


class SessionEnded(Forbidden):
    """A 403 after which this session can do nothing (the app signs the member out and sends them
    to `redirect` or to sign in). Every other 403 is an ordinary refusal the app shows: a
    suspended brand's send, another brand's request, an area the account type lacks."""

    code = SESSION_ENDED_CODE


class NotFound(TandemError):
    status = 404


class PaymentRequired(TandemError):
    status = 402


class Conflict(TandemError):
    status = 409


class TooManyRequests(TandemError):
    status = 429


class Gone(TandemError):
    status = 410


class Unavailable(TandemError):
    """A service we depend on is down or asked us to slow down (Stripe, DynamoDB past its
    retries): a 503 telling the member to try again (tandem.integrations.outages)."""

    status = 503
