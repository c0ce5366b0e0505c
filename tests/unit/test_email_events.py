"""Which addresses an SES event says never to mail again (tandem.services.email_events)."""

from __future__ import annotations

import pytest

from tandem.services.email_events import addresses_to_suppress


def _bounce(kind: str, *addresses: str, key: str = "eventType") -> dict:
    return {
        key: "Bounce",
        "bounce": {
            "bounceType": kind,
            "bounceSubType": "General",
            "bouncedRecipients": [
                {"emailAddress": a, "diagnosticCode": "smtp; 550 5.1.1"} for a in addresses
            ],
        },
    }


def test_a_permanent_bounce_marks_every_bounced_recipient():
    found = addresses_to_suppress(_bounce("Permanent", "a@example.com", "b@example.com"))
    assert [(a, r) for a, r, _ in found] == [("a@example.com", "bounce"), ("b@example.com", "bounce")]
    assert found[0][2] == "Permanent/General smtp; 550 5.1.1"


@pytest.mark.parametrize("kind", ["Transient", "Undetermined"])
def test_a_bounce_that_may_pass_next_time_marks_nothing(kind):
    assert addresses_to_suppress(_bounce(kind, "a@example.com")) == []


def test_identity_notifications_are_read_like_configuration_set_events():
    assert addresses_to_suppress(_bounce("Permanent", "a@example.com", key="notificationType"))[0][0] == (
        "a@example.com"
    )
    complaint = {
        "notificationType": "Complaint",
        "complaint": {
            "complainedRecipients": [{"emailAddress": "c@example.com"}],
            "complaintFeedbackType": "abuse",
        },
    }
    assert addresses_to_suppress(complaint) == [("c@example.com", "complaint", "abuse")]


@pytest.mark.parametrize(
    "event",
    [
        {"eventType": "Delivery", "delivery": {"recipients": ["a@example.com"]}},
        {"eventType": "Bounce"},
        {"eventType": "Complaint", "complaint": {"complainedRecipients": [{}]}},
        {},
    ],
)
def test_other_or_incomplete_events_mark_nothing(event):
    assert addresses_to_suppress(event) == []
