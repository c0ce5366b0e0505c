"""The free trial, one written decision: what the catalogue offers (catalogue.py), what billing
grants for it (billing/grants.py) and what it gives (entitlements.py) all read it here."""

from __future__ import annotations

TRIAL_DAYS = 14  # the main plan's free trial, through Checkout (card collected) or an admin grant
TRIAL_CREDITS = 3  # credits for the trial's 14 days; the first paid month brings the usual 6
TRIAL_TERMS = (
    f"Try Tandem free for {TRIAL_DAYS} days, once per account: {TRIAL_CREDITS} credits to send requests "
    "and pitch, and every brand name in Matches.",
    "We take your card but charge nothing until the trial ends; then the monthly plan starts "
    "and renews each month with 6 credits.",
    "Cancel in the payment portal before the trial ends and you pay nothing.",
)
