"""The Pitch Area: features (a brand's featured opportunity) and pitches to them.

Every change of a feature is ONE transaction: the feature (conditional on its old status), the
brand's slot (store/pitch.py: one open feature per brand; the dashboard's featureDone) and,
when credits pay, the credit ledger (tandem.services.credits.add_spend / add_refund). A pitch
is a connection request to the feature's owner (tandem.services.requests with a `Pitch`): the
owner's received requests ('Pitches Received') list it and accept / decline work as for any
request (docs/decisions.md).

The package by job (issue 21): `records` (one feature, the slot), `present` (shapes), `reading`
(lists and pages), `lifecycle` (create, checkout, end, expire), `review` (the admin's approval),
`pitching` (a pitch to a live feature), `mail`.
"""

from tandem.services.pitch.lifecycle import checkout, create, end, expire_due
from tandem.services.pitch.pitching import pitch
from tandem.services.pitch.present import feature_json, options
from tandem.services.pitch.reading import list_live, mine, view
from tandem.services.pitch.records import pitch_request_id
from tandem.services.pitch.review import admin_list, approve, refuse

__all__ = [
    "admin_list",
    "approve",
    "checkout",
    "create",
    "end",
    "expire_due",
    "feature_json",
    "list_live",
    "mine",
    "options",
    "pitch",
    "pitch_request_id",
    "refuse",
    "view",
]
