"""The local stack's outbox page: every email the app sent (through moto SES), newest first,
with clickable links, so a person can confirm an address or reset a password locally."""

from __future__ import annotations

import email
import email.policy
import html
import re
from dataclasses import dataclass, field
from typing import Any

from infra.local.template import ACCOUNT, REGION

LINK = re.compile(r"(https?://[^\s<]+)")


@dataclass
class Mail:
    """One email moto's SES accepted, whether sent with send_email or as a raw MIME message
    (notifications: text and HTML parts, List-Unsubscribe headers)."""

    destinations: dict[str, list[str]]
    subject: str
    body: str  # the plain-text part
    html: str = ""
    headers: dict[str, str] = field(default_factory=dict)


def parse(message: Any) -> Mail:
    raw = getattr(message, "raw_data", None)
    if raw is None:
        return Mail(message.destinations, message.subject, message.body)
    parsed = email.message_from_string(raw, policy=email.policy.default)
    text = parsed.get_body(("plain",))
    markup = parsed.get_body(("html",))
    return Mail(
        # moto lists a raw message's recipients from both the call and the To header: once each
        {"ToAddresses": list(dict.fromkeys(message.destinations))},
        str(parsed["Subject"]),
        text.get_content() if text else "",
        markup.get_content() if markup else "",
        {k: str(v) for k, v in parsed.items()},
    )


def sent() -> list[Mail]:
    """Every email sent so far, oldest first."""
    from moto.backends import get_backend

    return [parse(m) for m in get_backend("ses")[ACCOUNT][REGION].sent_messages]


def messages() -> list[dict[str, str]]:
    return [
        {"to": ", ".join(m.destinations.get("ToAddresses", [])), "subject": m.subject, "body": m.body}
        for m in reversed(sent())
    ]


def render() -> bytes:
    rows = []
    for message in messages():
        body = LINK.sub(r'<a href="\1">\1</a>', html.escape(message["body"]))
        rows.append(
            f"<article><h2>{html.escape(message['subject'])}</h2>"
            f"<p class=to>To: {html.escape(message['to'])}</p><pre>{body}</pre></article>"
        )
    content = "".join(rows) or "<p>No emails yet.</p>"
    return (
        "<!doctype html><html lang=en><meta charset=utf-8><title>Tandem local outbox</title>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        "<style>body{font:15px system-ui;margin:2rem auto;max-width:760px;padding:0 1rem;color:#111827}"
        "article{border:1px solid #e5e7eb;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}"
        "h2{font-size:1.05rem;margin:0}.to{color:#6b7280;margin:.25rem 0 0}"
        "pre{white-space:pre-wrap;font:inherit}a{color:#4f46e5}</style>"
        f"<h1>Local outbox</h1><p>Emails sent by this local stack, newest first.</p>{content}"
    ).encode()
