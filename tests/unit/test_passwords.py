import pytest

from tandem.domain.passwords import (
    common_passwords,
    hash_password,
    password_problem,
    verify_password,
)


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("Ab1", "Your password be at least 8 characters"),
        ("abcdefgh", "Your password must contain a number, have an uppercase character"),
        ("QWZXKPLM7", "Your password must have an lowercase character"),
        ("Abcdefg 1", "Your password must not contain spaces"),
        ("Abcdefgh1" * 4, "Your password must be at most 30 characters"),
        ("Passw0rd", "Your password must be harder"),
        ("Password123", "Your password must be harder"),
        ("Football1", "Your password must be harder"),  # in the common-password list
        ("Tandem-Oats-2026", None),
    ],
)
def test_rules_and_messages_follow_the_spec(password, message):
    assert password_problem(password) == message


def test_common_list_is_large():
    assert len(common_passwords()) >= 10_000


def test_argon2id_hash_verifies_only_the_right_password():
    hashed = hash_password("Tandem-Oats-2026")
    assert hashed.startswith("$argon2id$")
    assert verify_password(hashed, "Tandem-Oats-2026")
    assert not verify_password(hashed, "tandem-oats-2026")
    assert not verify_password("garbage", "x")
