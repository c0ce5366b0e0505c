"""Errors the domain raises; the API turns each into a status and a JSON `error` message."""

from __future__ import annotations


class TandemError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ValidationError(TandemError):
    status = 400


class Unauthorized(TandemError):
    status = 401


class Forbidden(TandemError):
    status = 403


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
