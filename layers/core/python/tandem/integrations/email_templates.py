"""Emails rendered from Jinja2 templates (tandem/templates/email) as subject, plain text and HTML,
and the raw MIME message SES sends.

Every message is a pair `<name>.txt` (holding `{% block subject %}` and the text body) and
`<name>.html`, both extending the product's layout. HTML is autoescaped, so brand names,
messages and replies members typed are shown, never run; undefined variables are errors
(StrictUndefined), so a caller that forgets a field fails in tests, not in someone's inbox.

    subject, text, html = render("request_received", recipient_brand="Oat & Honey", ...)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import formatdate
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from tandem.config import settings
from tandem.domain import notifications
from tandem.domain.notifications import DAILY_DIGEST, EACH_RUN

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates" / "email"
SETTINGS_PATH = "/account/notifications/"


@dataclass(frozen=True)
class Message:
    source: str | None  # the notification source; None: account security mail, sent whatever the settings
    why: str  # the footer's answer to "Why am I getting this?"
    sub_option: str | None = None  # for sources with sub-options: which one this message is


_ACCOUNT_WHY = (
    "You asked for this at Tandem, or someone typed your email address. If it wasn't you, ignore it."
)


def _source_why(source: str) -> str:
    label = notifications.get_source(source).label
    return f"{label} emails are on in your Tandem notification settings."


_REQUIRED_WHY = "This is a required email about billing and your Tandem account, so it can't be switched off."

MESSAGES: dict[str, Message] = {
    "confirm_email": Message(None, "Someone created a Tandem account with this email address."),
    "reset_password": Message(None, _ACCOUNT_WHY),
    "create_password": Message(None, _ACCOUNT_WHY),
    "instant_login": Message(None, _ACCOUNT_WHY),
    "test_notification": Message(None, "You asked for a test notification in your Tandem settings."),
    "request_received": Message("requests_received", _source_why("requests_received")),
    "request_accepted": Message("request_accepted", _source_why("request_accepted")),
    "connection_made": Message("request_accepted", _source_why("request_accepted")),
    "request_declined": Message("request_declined", _source_why("request_declined")),
    "request_expired": Message("request_declined", _source_why("request_declined")),
    "request_reminder": Message("requests_received", _source_why("requests_received")),
    "new_matches": Message(
        "new_matches", "New-match emails after each matching run are on in your settings.", EACH_RUN
    ),
    "new_matches_digest": Message(
        "new_matches", "The daily digest of new matches is on in your settings.", DAILY_DIGEST
    ),
    "pitch_received": Message("pitches_received", _source_why("pitches_received")),
    "feature_approved": Message("feature_status", "Your feature's approval is always confirmed by email."),
    "feature_ended": Message("feature_status", "Emails about your Pitch Area feature are required."),
    "feature_refused": Message("feature_status", "Emails about your Pitch Area feature are required."),
    "payment_received": Message("billing_account", _REQUIRED_WHY),
    "subscription_approved": Message("billing_account", _REQUIRED_WHY),
    "subscription_refused": Message("billing_account", _REQUIRED_WHY),
    "refund_issued": Message("billing_account", _REQUIRED_WHY),
    "tip": Message("tips", _source_why("tips")),
    "collaboration_update": Message("collaborations", _source_why("collaborations")),
    "collaboration_reminder": Message("collaborations", _source_why("collaborations")),
}


# ---------------------------------------------------------------- filters


def _lines(value: object) -> Markup:
    """Member-typed text with its line breaks, escaped."""
    return Markup("<br>\n").join(escape(line) for line in str(value).splitlines())


def money(amount_minor: int, currency: str) -> str:
    """SPEC formats: gbp shows £, otherwise $; minor units, no decimals when whole."""
    symbol = "£" if currency.lower() == "gbp" else "$"
    sign = "-" if amount_minor < 0 else ""
    whole, minor = divmod(abs(int(amount_minor)), 100)
    return f"{sign}{symbol}{whole:,}" + (f".{minor:02d}" if minor else "")


def day(epoch: int | float) -> str:
    """'5 March 2026' (UTC)."""
    t = time.gmtime(int(epoch))
    return f"{t.tm_mday} {time.strftime('%B %Y', t)}"


def duration(seconds: int) -> str:
    """'15 minutes', 'an hour', '7 days' for link lifetimes."""
    seconds = int(seconds)
    for size, one, many in (
        (86400, "a day", "days"),
        (3600, "an hour", "hours"),
        (60, "a minute", "minutes"),
    ):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return one if count == 1 else f"{count} {many}"
    return f"{seconds} seconds"


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False, default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters.update(lines=_lines, money=money, day=day, duration=duration)
    return env


# ---------------------------------------------------------------- render


def render(template_name: str, **context: Any) -> tuple[str, str, str]:
    """(subject, text, html) of one message. `site_url` defaults to the configured one; messages
    of a source members may switch off need `unsubscribe_url` (the footer link)."""
    if template_name not in MESSAGES:
        raise ValueError(f"Unknown email template '{template_name}'.")
    message = MESSAGES[template_name]
    if "site_url" not in context:
        context["site_url"] = settings().site_url
    context["site_url"] = str(context["site_url"]).rstrip("/")
    source = notifications.get_source(message.source) if message.source else None
    unsubscribable = source is not None and notifications.EMAIL not in source.mandatory
    if unsubscribable and not context.get("unsubscribe_url"):
        raise ValueError(f"A {template_name} email needs its unsubscribe_url.")
    context.setdefault("unsubscribe_url", None)
    if not unsubscribable:
        context["unsubscribe_url"] = None
    context.update(
        settings_url=context["site_url"] + SETTINGS_PATH,
        source_label=source.label if source else "",
        why=message.why,
    )
    env = environment()
    text_template = env.get_template(f"{template_name}.txt")
    subject_block = text_template.blocks["subject"]
    subject = " ".join("".join(subject_block(text_template.new_context(dict(context)))).split())
    context["subject"] = subject
    text = text_template.render(context).strip() + "\n"
    html = env.get_template(f"{template_name}.html").render(context).strip() + "\n"
    return subject, text, html


# ---------------------------------------------------------------- MIME


def build_raw_message(
    *,
    sender: str,
    to: list[str],
    subject: str,
    text: str,
    html: str | None = None,
    reply_to: str | None = None,
    headers: dict[str, str] | None = None,
) -> bytes:
    """The bytes for SES `send_raw_email(RawMessage={'Data': ...})` or SESv2
    `send_email(Content={'Raw': {'Data': ...}})`: multipart/alternative (text first, then HTML),
    UTF-8, with extra headers such as List-Unsubscribe (SES adds the Message-ID). Header values
    with line breaks are refused."""
    if not to:
        raise ValueError("An email needs at least one recipient.")
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message["Date"] = formatdate(usegmt=True)
    message["Auto-Submitted"] = "auto-generated"
    if reply_to:
        message["Reply-To"] = reply_to
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(text, subtype="plain", charset="utf-8")
    if html is not None:
        message.add_alternative(html, subtype="html", charset="utf-8")
    return message.as_bytes()
