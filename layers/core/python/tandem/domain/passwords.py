"""Password hashing with argon2id (the rules and messages arrive with the accounts issue)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _hasher():  # noqa: ANN202
    from argon2 import PasswordHasher

    return PasswordHasher()  # argon2id with the library's current recommended parameters


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
