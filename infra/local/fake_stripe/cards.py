"""Stripe's test card numbers and what each one does, in checkout (on session) and for later
off-session charges (renewals, upgrades, invoice retries)."""

from __future__ import annotations

from dataclasses import dataclass

DECLINE_MESSAGES = {
    "generic_decline": "Your card was declined.",
    "insufficient_funds": "Your card has insufficient funds.",
    "expired_card": "Your card has expired.",
    "incorrect_cvc": "Your card's security code is incorrect.",
    "incorrect_number": "Your card number is incorrect.",
}
AUTHENTICATION_FAILED = (
    "We are unable to authenticate your payment method. "
    "Please choose a different payment method and try again."
)


@dataclass(frozen=True)
class Card:
    number: str
    brand: str
    # on_session: 'succeeded' | 'declined' | 'authenticate'; off_session likewise
    on_session: str = "succeeded"
    off_session: str = "succeeded"
    code: str = ""  # error code for a decline ('card_declined', 'expired_card', ...)
    decline_code: str = ""

    @property
    def last4(self) -> str:
        return self.number[-4:]

    @property
    def message(self) -> str:
        return DECLINE_MESSAGES.get(self.decline_code or self.code, DECLINE_MESSAGES["generic_decline"])


SPECIAL_CARDS = {
    "4000000000000002": dict(
        on_session="declined", off_session="declined", code="card_declined", decline_code="generic_decline"
    ),
    "4000000000009995": dict(
        on_session="declined", off_session="declined", code="card_declined", decline_code="insufficient_funds"
    ),
    "4000000000000069": dict(
        on_session="declined", off_session="declined", code="expired_card", decline_code="expired_card"
    ),
    "4000000000000127": dict(
        on_session="declined", off_session="declined", code="incorrect_cvc", decline_code="incorrect_cvc"
    ),
    # Attaches and pays on session, then every later charge is declined.
    "4000000000000341": dict(off_session="declined", code="card_declined", decline_code="generic_decline"),
    # 3-D Secure on every payment, including renewals.
    "4000002760003184": dict(on_session="authenticate", off_session="authenticate"),
    # 3-D Secure once; later off-session charges go through.
    "4000002500003155": dict(on_session="authenticate"),
    "4000000000003220": dict(on_session="authenticate"),
}

TEST_CARDS = (
    ("4242424242424242", "Succeeds"),
    ("4000000000000002", "Declined"),
    ("4000000000009995", "Declined: insufficient funds"),
    ("4000002760003184", "3-D Secure required (every payment)"),
    ("4000002500003155", "3-D Secure required (first payment only)"),
    ("4000000000000341", "Succeeds now, later renewals declined"),
)


def _luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _brand(digits: str) -> str:
    if digits.startswith("4"):
        return "visa"
    if digits[:2] in ("34", "37"):
        return "amex"
    if digits[:2] in ("51", "52", "53", "54", "55") or digits[:1] == "2":
        return "mastercard"
    return "unknown"


def parse_card(raw: str) -> Card | None:
    """A card from what a person typed (spaces and dashes allowed); None if it is not a
    plausible card number (the page then says 'Your card number is invalid.')."""
    digits = "".join(ch for ch in raw if ch.isdigit())
    if len(digits) < 13 or len(digits) > 19 or any(ch not in "0123456789 -" for ch in raw.strip()):
        return None
    if not _luhn_ok(digits):
        return None
    return Card(number=digits, brand=_brand(digits), **SPECIAL_CARDS.get(digits, {}))


FORCED_OUTCOMES = {
    "card_declined": Card(
        "0", "visa", off_session="declined", code="card_declined", decline_code="generic_decline"
    ),
    "insufficient_funds": Card(
        "0", "visa", off_session="declined", code="card_declined", decline_code="insufficient_funds"
    ),
    "expired_card": Card(
        "0", "visa", off_session="declined", code="expired_card", decline_code="expired_card"
    ),
    "authentication_required": Card("0", "visa", off_session="authenticate"),
}
