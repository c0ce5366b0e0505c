"""Passwords: argon2id hashing and the SPEC section 5 rules, messages word for word.

'contain a number' means an ASCII digit 0-9 (not '²' or '١'). Control, format, surrogate,
private-use and unassigned characters (Unicode categories Cc, Cf, Cs, Co, Cn: NUL, U+202E...)
are refused: they cannot be typed reliably and can hide what a password really is.

'be harder' (docs/decisions.md): the password, and the password without its trailing digits and
symbols, case-folded, must not be in zxcvbn's list of 30,000 common passwords (nor Passw0rd /
Password123); and zxcvbn, told the site's name and the person's own name and address, must
rate the whole password at least 3 of 4 and the part before the trailing digits and symbols at
least 2 (so 'Password123!' or 'TandemDemo1' are not strong only by what is tacked on the end).
zxcvbn loads on first use only, so sign-in never pays for it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn
from zxcvbn.frequency_lists import FREQUENCY_LISTS

from tandem.config import settings

MIN_LENGTH = 8
MAX_LENGTH = 30
TOO_SHORT = "Your password be at least 8 characters"
EXPLICITLY_WEAK = frozenset({"passw0rd", "password123"})
ASCII_DIGITS = frozenset("0123456789")
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
SITE_WORDS = ("tandem",)
MIN_SCORE = 3  # zxcvbn 0-4 for the whole password
MIN_BASE_SCORE = 2  # ... and for the part before trailing digits and symbols
TRAILING_DIGITS_AND_SYMBOLS = re.compile(r"[\W\d_]+$")


# PASSWORD_HASHING=test (tandem.config, refused outside the local stage): the tests hash at
# argon2's lowest cost, 0.24 s a hash at the real cost being most of many tests' time. Hashes
# carry their parameters, so either hasher verifies the other's; tests/unit/test_passwords.py
# keeps and checks the real parameters.
TEST_PARAMETERS = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


def _hasher():
    return _hasher_for(settings().password_hashing == "test")


@lru_cache(maxsize=2)
def _hasher_for(cheap: bool):
    if cheap:
        return PasswordHasher(**TEST_PARAMETERS)
    return PasswordHasher()  # argon2id with the library's current recommended parameters


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    return frozenset(p.casefold() for p in FREQUENCY_LISTS["passwords"]) | EXPLICITLY_WEAK


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError, UnicodeEncodeError):
        return False


def dummy_verify(password: str) -> None:
    """Spend the same time as a real check, so unknown emails are not told apart by timing."""
    verify_password(_dummy_hash(), password)


def _dummy_hash() -> str:
    return _dummy_hash_for(_hasher())


@lru_cache(maxsize=2)
def _dummy_hash_for(hasher) -> str:
    return hasher.hash("not-a-real-password-0")


def has_refused_characters(text: str) -> bool:
    """Control, format, surrogate, private-use or unassigned characters (see the module doc)."""
    return any(unicodedata.category(c) in REFUSED_CATEGORIES for c in text)


def base_of(password: str) -> str:
    """The password without its trailing digits and symbols, case-folded ('Passw0rd!' -> 'passw0rd')."""
    return TRAILING_DIGITS_AND_SYMBOLS.sub("", password).casefold()


def _context_words(context: Iterable[str]) -> list[str]:
    """The site's name and the person's own words (name, the address's parts), for zxcvbn."""
    words = list(SITE_WORDS)
    for value in context:
        words.extend(w for w in re.split(r"[^\w]+", value.casefold()) if len(w) >= 3)
    return words


def is_common(password: str) -> bool:
    """In the common-password list as it is, or once its trailing digits and symbols are gone."""
    common = common_passwords()
    return password.casefold() in common or base_of(password) in common


def is_too_easy(password: str, context: Iterable[str] = ()) -> bool:
    """The SPEC's 'be harder' for a password that meets the other rules (see the module doc)."""
    if not base_of(password) or is_common(password):
        return True

    words = _context_words(context)
    if zxcvbn(password, user_inputs=words)["score"] < MIN_SCORE:
        return True
    return zxcvbn(TRAILING_DIGITS_AND_SYMBOLS.sub("", password), user_inputs=words)["score"] < MIN_BASE_SCORE


def password_failures(password: str, context: Iterable[str] = ()) -> list[str]:
    failures = []
    if len(password) < MIN_LENGTH:
        failures.append("be at least 8 characters")
    if len(password) > MAX_LENGTH:
        failures.append("be at most 30 characters")
    if not any(c in ASCII_DIGITS for c in password):
        failures.append("contain a number")
    if not any(c.isupper() for c in password):
        failures.append("have an uppercase character")
    if not any(c.islower() for c in password):
        failures.append("have an lowercase character")
    if any(c.isspace() for c in password):
        failures.append("not contain spaces")
    if has_refused_characters(password):
        failures.append("not contain control or invisible characters")
    if failures:
        if is_common(password):
            failures.append("be harder")
    elif is_too_easy(password, context):
        failures.append("be harder")
    return failures


def password_problem(password: str, context: Iterable[str] = ()) -> str | None:
    """The SPEC's message for a password that breaks the rules, or None when it is fine.
    `context`: the person's own name and email address, which a password must not lean on."""
    if len(password) < MIN_LENGTH:
        return TOO_SHORT
    failures = password_failures(password, context)
    return f"Your password must {', '.join(failures)}" if failures else None
