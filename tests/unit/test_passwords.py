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
        # Issue 11: a digit is 0-9; no control or format characters; 'be harder' sees through
        # trailing digits and symbols, case, and the shape of the old demo passwords.
        ("Abcdefg²Xy", "Your password must contain a number"),
        ("Abcdefg١Xy", "Your password must contain a number"),
        ("Oats\x00Tandem-2026", "Your password must not contain control or invisible characters"),
        ("Oats\u202eTandem-2026", "Your password must not contain control or invisible characters"),
        ("Oats\u200bTandem-2026", "Your password must not contain control or invisible characters"),
        ("Oats\ue000Tandem-2026", "Your password must not contain control or invisible characters"),
        ("Oats\ud800Tandem-2026", "Your password must not contain control or invisible characters"),
        ("oats\x07", "Your password be at least 8 characters"),  # the SPEC's short message first
        ("Passw0rd!", "Your password must be harder"),
        ("Password123!", "Your password must be harder"),
        ("PASSWORD123!!", "Your password must have an lowercase character, be harder"),
        ("Football1999#", "Your password must be harder"),
        ("Summer2024!", "Your password must be harder"),
        ("TandemDemo1", "Your password must be harder"),
        ("TandemAdmin1", "Your password must be harder"),
        ("TandemFeature1", "Your password must be harder"),
        ("TandemFree1", "Your password must be harder"),
        ("password1", "Your password must have an uppercase character, be harder"),
        ("Demo-Oats-Bristol-7", None),
        ("Fresh-Oats-2027", None),
    ],
)
def test_rules_and_messages_follow_the_spec(password, message):
    assert password_problem(password) == message


def test_a_password_must_not_lean_on_the_persons_own_name_or_address():
    person = ("Ottilie Brackenbury", "ottilie.brackenbury@example.com")
    assert password_problem("Brackenbury2026!") is None
    assert password_problem("Brackenbury2026!", person) == "Your password must be harder"
    assert password_problem("Demo-Oats-Bristol-7", person) is None


def test_common_list_is_large():
    assert len(common_passwords()) >= 10_000


def test_a_password_that_cannot_be_encoded_never_verifies():
    assert not verify_password(hash_password("Tandem-Oats-2026"), "Oats\ud800")


def test_argon2id_hash_verifies_only_the_right_password(production_passwords):
    hashed = hash_password("Tandem-Oats-2026")
    assert hashed.startswith("$argon2id$")
    assert verify_password(hashed, "Tandem-Oats-2026")
    assert not verify_password(hashed, "tandem-oats-2026")
    assert not verify_password("garbage", "x")


def test_the_demo_logins_follow_the_rules_they_demonstrate():
    from infra.local.seed import DEMO_LOGINS

    for login in DEMO_LOGINS:
        assert password_problem(login.password, (login.email,)) is None, login.email


def test_every_stage_hashes_at_argon2s_recommended_cost(production_passwords):
    from argon2 import PasswordHasher, extract_parameters

    recommended = PasswordHasher()
    parameters = extract_parameters(hash_password("Tandem-Oats-2026"))
    assert (parameters.time_cost, parameters.memory_cost, parameters.parallelism) == (
        recommended.time_cost,
        recommended.memory_cost,
        recommended.parallelism,
    )
    assert parameters.memory_cost >= 19 * 1024  # OWASP's floor for argon2id


def test_the_test_suite_hashes_cheaply_and_either_hash_verifies_under_the_other(monkeypatch):
    from argon2 import extract_parameters

    from tandem.config import reset_settings
    from tandem.domain.passwords import TEST_PARAMETERS

    cheap = hash_password("Tandem-Oats-2026")
    assert extract_parameters(cheap).memory_cost == TEST_PARAMETERS["memory_cost"]
    monkeypatch.delenv("PASSWORD_HASHING")
    reset_settings()
    try:
        real = hash_password("Tandem-Oats-2026")
        assert verify_password(cheap, "Tandem-Oats-2026")
    finally:
        monkeypatch.undo()
        reset_settings()
    assert verify_password(real, "Tandem-Oats-2026")
    assert not verify_password(real, "Tandem-Oats-2027")
