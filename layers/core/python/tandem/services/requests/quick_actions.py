"""Accept or decline from an email without signing in: signed, expiring, single-use links
(tandem.domain.requests). GET checks a link and changes nothing (mail scanners open links);
only the person's click on the page POSTs."""

from __future__ import annotations

import time
from typing import Any

from tandem.domain import requests as rules
from tandem.domain.identity import CONNECTED, INTRODUCED, OWN
from tandem.errors import Conflict, NotFound, TandemError, ValidationError
from tandem.services import visibility
from tandem.services.requests.mail import link_key, mail_after
from tandem.services.requests.present import brand_json
from tandem.services.requests.records import get_request
from tandem.services.requests.transitions import transition
from tandem.store.requests import ConnectionRequest


class LinkGone(TandemError):
    status = 410


RESULT_MESSAGES = {
    "accept": "You're connected with {other}. We've emailed you both each other's contact details.",
    "decline": "You declined the request from {other}. We've let them know with a polite reply.",
}


def _verified_link(action: str, actioner: str, actionee: str, unique: str) -> ConnectionRequest:
    """The pending request a quick-action link names, if the link is genuine, unexpired and
    still usable: 400 forged or altered, 410 expired or already answered."""
    try:
        qa = rules.verify_quick_action(link_key(), action, actioner, actionee, unique, int(time.time()))
    except rules.LinkError as exc:
        if exc.status == 410:
            raise LinkGone(exc.message) from None
        raise ValidationError(exc.message) from None
    try:
        req = get_request(qa.request_id)
    except NotFound:
        raise ValidationError(rules.LINK_INVALID) from None
    if (int(req.to_brand_id), int(req.from_brand_id)) != (qa.actioner, qa.actionee):
        raise ValidationError(rules.LINK_INVALID)
    # Brands blocked either way since the email, or a suspended one: as for an unknown request
    # (tandem.services.visibility; the link's second read).

    if qa.actionee in visibility.hidden_from(qa.actioner):
        raise ValidationError(rules.LINK_INVALID)
    if req.status != rules.PENDING:
        raise LinkGone(rules.refusal(action, req.status))
    return req


def quick_action_preview(action: str, actioner: str, actionee: str, unique: str) -> dict[str, Any]:
    """GET quick-action/{action}/{actioner}/{actionee}/{unique}: what the link would do, checked
    exactly as the POST checks it, and nothing changed."""
    req = _verified_link(action, actioner, actionee, unique)
    return {
        "action": action,
        "request": {
            "fromBrand": brand_json(req.from_brand, INTRODUCED),
            "toBrand": brand_json(req.to_brand, OWN),
            "message": req.message,
            "status": req.status,
        },
    }


def quick_action(action: str, actioner: str, actionee: str, unique: str) -> dict[str, Any]:
    """POST quick-action/{action}/{actioner}/{actionee}/{unique}: the request must be pending."""
    req = _verified_link(action, actioner, actionee, unique)
    try:
        done = transition(req, action)
    except Conflict as exc:
        raise LinkGone(exc.message) from None
    mail_after(done, action)
    other = brand_json(done.from_brand, CONNECTED if action == "accept" else INTRODUCED)["name"]
    return {
        "result": rules.TRANSITIONS[action][1],
        "message": RESULT_MESSAGES[action].format(other=other),
        "request": {
            "fromBrand": brand_json(
                done.from_brand, CONNECTED if done.status == rules.ACCEPTED else INTRODUCED
            ),
            "toBrand": brand_json(done.to_brand, OWN),
            "status": done.status,
        },
    }
