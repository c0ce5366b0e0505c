"""Passwords: argon2id hashing and the SPEC section 5 rules, messages word for word.

'be harder' covers Passw0rd, Password123 and the 30,000 most common passwords (zxcvbn's
frequency list, loaded on first use only, so sign-in never pays for it).
"""

from __future__ import annotations

from functools import lru_cache

MIN_LENGTH = 8
MAX_LENGTH = 30
TOO_SHORT = "Your password be at least 8 characters"
EXPLICITLY_WEAK = frozenset({"passw0rd", "password123"})


@lru_cache(maxsize=1)
def _hasher():  # noqa: ANN202
    from argon2 import PasswordHasher

    return PasswordHasher()  # argon2id with the library's current recommended parameters


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(p.lower() for p in FREQUENCY_LISTS["passwords"]) | EXPLICITLY_WEAK


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def dummy_verify(password: str) -> None:
    """Spend the same time as a real check, so unknown emails are not told apart by timing."""
    verify_password(_dummy_hash(), password)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return hash_password("not-a-real-password-0")


def password_failures(password: str) -> list[str]:
    failures = []
    if len(password) < MIN_LENGTH:
        failures.append("be at least 8 characters")
    if len(password) > MAX_LENGTH:
        failures.append("be at most 30 characters")
    if not any(c.isdigit() for c in password):
        failures.append("contain a number")
    if not any(c.isupper() for c in password):
        failures.append("have an uppercase character")
    if not any(c.islower() for c in password):
        failures.append("have an lowercase character")
    if any(c.isspace() for c in password):
        failures.append("not contain spaces")
    if password.lower() in common_passwords():
        failures.append("be harder")
    return failures


def password_problem(password: str) -> str | None:
    """The SPEC's message for a password that breaks the rules, or None when it is fine."""
    if len(password) < MIN_LENGTH:
        return TOO_SHORT
    failures = password_failures(password)
    return f"Your password must {', '.join(failures)}" if failures else None
