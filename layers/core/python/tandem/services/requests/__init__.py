"""Connection requests, by job:

- sending.py       POST requests: hold a credit, save, flag it new, email the recipient
- transitions.py   accept / decline / cancel (one transaction each), releasing awaiting ones
- boxes.py         the lists: received, sent, declines out and in (cursors, isNew)
- connections.py   the connections list and one connection
- quick_actions.py the signed email links (preview with GET, act with POST)
- mail.py          the emails and the links in them
- present.py       the JSON shapes (RequestItem, Connection, contacts)
- records.py       reading one request and who may see it

Storage is tandem.store (boxes, news, items); the rules are tandem.domain.requests.
"""

from tandem.services.requests.boxes import CURSOR_INVALID, list_declines, list_requests
from tandem.services.requests.connections import connection_with, list_connections
from tandem.services.requests.mail import quick_action_links
from tandem.services.requests.present import contact_of, request_json
from tandem.services.requests.quick_actions import LinkGone, quick_action, quick_action_preview
from tandem.services.requests.records import get_request, view
from tandem.services.requests.sending import PaymentNeeded, send
from tandem.services.requests.transitions import act, cancel_awaiting, release_awaiting, transition

__all__ = [
    "CURSOR_INVALID",
    "LinkGone",
    "PaymentNeeded",
    "act",
    "cancel_awaiting",
    "connection_with",
    "contact_of",
    "get_request",
    "list_connections",
    "list_declines",
    "list_requests",
    "quick_action",
    "quick_action_links",
    "quick_action_preview",
    "release_awaiting",
    "request_json",
    "send",
    "transition",
    "view",
]
