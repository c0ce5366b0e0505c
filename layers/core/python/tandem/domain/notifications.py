"""Notification rules (pure): the platforms and sources members choose from, their stored
settings, which platforms one message goes to, and how long a push may wait for an offline device.

Settings are stored whole, one object per user:

    {"requests_received": {"email": true, "browser": false, "slack": false},
     "new_matches": {"email": false, "browser": false, "slack": false,
                     "subOptions": {"daily_digest": {"email": true, "browser": false, "slack": false},
                                    "each_run": {"email": false, "browser": false, "slack": false}}},
     ...}

A source's own flag for a platform covers all of its sub-options (SPEC section 5: sub-option
toggles are disabled while the source's toggle is on); with the source's flag off each sub-option's
flag decides. Mandatory platforms are always on, not-applicable ones always off.
"""

from __future__ import annotations

import base64
import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

EMAIL, BROWSER, SLACK = "email", "browser", "slack"
PLATFORM_KEYS = (EMAIL, BROWSER, SLACK)
SUB_OPTIONS = "subOptions"

HOUR = 3600
DAY = 24 * HOUR


@dataclass(frozen=True)
class Platform:
    key: str
    label: str
    tool_tip: str


PLATFORMS = (
    Platform(EMAIL, "Email", "Sent to the email address of everyone on your account."),
    Platform(
        BROWSER,
        "Browser",
        "Shown by this browser even when Tandem isn't open. Turn it on in each browser you use.",
    ),
    Platform(SLACK, "Slack", "Posted to the Slack channel you choose when you connect Slack."),
)
SLACK_COMING_SOON = "Slack notifications are coming soon."


@dataclass(frozen=True)
class SubOption:
    key: str
    name: str
    description: str
    criteria: str
    push_ttl: int


@dataclass(frozen=True)
class Source:
    key: str
    label: str
    short_description: str
    full_description: str
    push_ttl: int  # seconds a push service keeps the message for an offline device
    topic: str  # RFC 8030 Topic stem: a newer message with the same topic replaces an undelivered one
    defaults: dict[str, bool]
    na: tuple[str, ...] = ()
    mandatory: tuple[str, ...] = ()
    sub_options: tuple[SubOption, ...] = ()
    sub_defaults: dict[str, dict[str, bool]] = field(default_factory=dict)


def _on(*platforms: str) -> dict[str, bool]:
    return {key: key in platforms for key in PLATFORM_KEYS}


DAILY_DIGEST, EACH_RUN = "daily_digest", "each_run"
DIGEST_LOCAL_HOUR = 9

_NEW_MATCHES_OPTIONS = (
    SubOption(
        key=DAILY_DIGEST,
        name="Daily digest",
        description=f"One summary a day, at {DIGEST_LOCAL_HOUR}:00 your time.",
        criteria="Sent once a day when there were new matches since the last digest.",
        push_ttl=20 * HOUR,  # gone before the next digest replaces it
    ),
    SubOption(
        key=EACH_RUN,
        name="Each run",
        description="A message as soon as a matching run finds new brands.",
        criteria="Sent after every matching run that finds at least one new match.",
        push_ttl=12 * HOUR,
    ),
)

# What each source delivers: push TTL (seconds a push service keeps it for an offline device),
# RFC 8030 Topic stem, platforms on by default, not applicable, mandatory. Email is mandatory for
# feature status (the feature terms promise approval by email) and billing; billing and tips stay
# out of Slack (a shared team channel).
# fmt: off
_RULES = (
    # key                 push TTL   topic       default   n/a       mandatory
    ("requests_received", 2 * DAY,   "req-in",   (EMAIL,), (),       ()),
    ("request_accepted",  2 * DAY,   "req-ok",   (EMAIL,), (),       ()),
    ("request_declined",  DAY,       "req-no",   (EMAIL,), (),       ()),
    ("new_matches",       12 * HOUR, "matches",  (),       (),       ()),
    ("pitches_received",  2 * DAY,   "pitch-in", (EMAIL,), (),       ()),
    ("feature_status",    DAY,       "feature",  (EMAIL,), (),       (EMAIL,)),  # feature terms
    ("billing_account",   DAY,       "billing",  (EMAIL,), (SLACK,), (EMAIL,)),  # no team channel
    ("tips",              12 * HOUR, "tips",     (EMAIL,), (SLACK,), ()),
    ("collaborations",    2 * DAY,   "collab",   (EMAIL,), (),       ()),
)
# fmt: on

# What members read: label, short description, full description.
_TEXTS = {
    "requests_received": (
        "Requests received",
        "A brand sends you a connection request.",
        "When a brand asks to collaborate with one of your brands. The email has Accept and "
        "Decline links, so you can answer without signing in.",
    ),
    "request_accepted": (
        "Request accepted",
        "A brand accepts your request, or you accept one.",
        "When a brand accepts a connection request from one of your brands, or you accept one: "
        "the message carries the other brand's contact details.",
    ),
    "request_declined": (
        "Request declined",
        "A brand declines your request.",
        "When a brand declines a connection request from one of your brands, with the reply they "
        "sent and whether your credit was returned.",
    ),
    "new_matches": (
        "New matches",
        "New brands are suggested to you.",
        "When a matching run finds brands that suit one of your brands. Choose a daily digest, "
        "a message after each run, or both.",
    ),
    "pitches_received": (
        "Pitches received",
        "A brand pitches to your featured opportunity.",
        "When a brand pitches to collaborate on the opportunity you feature in the Pitch Area.",
    ),
    "feature_status": (
        "Feature approved or ended",
        "Your Pitch Area feature is approved, refused or has ended.",
        "When your feature in the Pitch Area is approved and goes live, and when it ends. "
        "Approval is always confirmed by email.",
    ),
    "billing_account": (
        "Billing and account",
        "Payments, subscription changes, refunds and account notices.",
        "Receipts, subscription approval or refusal, refunds and important notices about your "
        "account. These emails are required.",
    ),
    "collaborations": (
        "Collaborations",
        "A connection plans, changes or messages about a collaboration with you.",
        "When a brand you are connected with proposes a collaboration, changes, accepts, declines "
        "or cancels one, ticks its checklist, writes in its thread or records results; and "
        "reminders before the start, before checklist items are due and to record results.",
    ),
    "tips": (
        "Tips",
        "Ideas and guides to get more from Tandem.",
        "Occasional collaboration ideas, guides and product news. At most one a week.",
    ),
}
_SUB_OPTIONS = {"new_matches": (_NEW_MATCHES_OPTIONS, {DAILY_DIGEST: _on(EMAIL), EACH_RUN: _on()})}

SOURCES = tuple(
    Source(
        key,
        *_TEXTS[key],
        push_ttl=ttl,
        topic=topic,
        defaults=_on(*default),
        na=na,
        mandatory=mandatory,
        sub_options=_SUB_OPTIONS.get(key, ((), {}))[0],
        sub_defaults=_SUB_OPTIONS.get(key, ((), {}))[1],
    )
    for key, ttl, topic, default, na, mandatory in _RULES
)
SOURCE_BY_KEY = {source.key: source for source in SOURCES}

# The test notification is not a source: it goes to every platform the member has set up.
TEST_PUSH_TTL = 5 * 60
TEST_TOPIC = "test"


def get_source(key: str) -> Source:
    try:
        return SOURCE_BY_KEY[key]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown notification source '{key}'.") from None


# ---------------------------------------------------------------- options (GET notifications/options)


def options_payload(slack_active: bool) -> dict[str, Any]:
    """SPEC section 3 'Notification option'. An inactive platform shows 'Coming Soon'."""
    return {
        "platforms": [
            {
                "key": p.key,
                "label": p.label,
                "active": slack_active if p.key == SLACK else True,
                "tool_tip": p.tool_tip if p.key != SLACK or slack_active else SLACK_COMING_SOON,
            }
            for p in PLATFORMS
        ],
        "sources": [
            {
                "key": s.key,
                "label": s.label,
                "short_description": s.short_description,
                "full_description": s.full_description,
                "platforms": {"na": list(s.na), "mandatory": list(s.mandatory)},
                "hasSubOptions": bool(s.sub_options),
                "subOptions": [
                    {"key": o.key, "name": o.name, "description": o.description, "criteria": o.criteria}
                    for o in s.sub_options
                ],
            }
            for s in SOURCES
        ],
    }


# ---------------------------------------------------------------- settings (GET / PUT notifications/user)


def _fixed(source: Source, flags: dict[str, bool]) -> dict[str, bool]:
    """Mandatory platforms on, not-applicable ones off, whatever was stored."""
    return {key: (key in source.mandatory) or (key not in source.na and bool(flags[key])) for key in flags}


def default_settings() -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for source in SOURCES:
        entry: dict[str, Any] = _fixed(source, dict(source.defaults))
        if source.sub_options:
            entry[SUB_OPTIONS] = {
                o.key: _fixed(source, dict(source.sub_defaults.get(o.key, _on()))) for o in source.sub_options
            }
        settings[source.key] = entry
    return settings


def normalize(stored: dict[str, Any] | None) -> dict[str, Any]:
    """A stored settings object made whole and current: sources added since it was saved get
    their defaults, sources and keys no longer known are dropped, mandatory / n/a re-applied."""
    result = default_settings()
    if not isinstance(stored, dict):
        return result
    for source in SOURCES:
        saved = stored.get(source.key)
        if not isinstance(saved, dict):
            continue
        entry = result[source.key]
        for key in PLATFORM_KEYS:
            if isinstance(saved.get(key), bool):
                entry[key] = saved[key]
        saved_subs = saved.get(SUB_OPTIONS)
        if source.sub_options and isinstance(saved_subs, dict):
            for option in source.sub_options:
                flags = saved_subs.get(option.key)
                if isinstance(flags, dict):
                    for key in PLATFORM_KEYS:
                        if isinstance(flags.get(key), bool):
                            entry[SUB_OPTIONS][option.key][key] = flags[key]
        result[source.key] = _apply_fixed(source, entry)
    return result


def _apply_fixed(source: Source, entry: dict[str, Any]) -> dict[str, Any]:
    fixed: dict[str, Any] = _fixed(source, {key: entry[key] for key in PLATFORM_KEYS})
    if source.sub_options:
        fixed[SUB_OPTIONS] = {key: _fixed(source, flags) for key, flags in entry[SUB_OPTIONS].items()}
    return fixed


def _platform_label(key: str) -> str:
    return next(p.label for p in PLATFORMS if p.key == key)


SLACK_NOT_CONNECTED = "Slack isn't connected. Connect Slack first."


def turns_on(partial: object, platform: str) -> bool:
    """Whether a PUT notifications/user body turns `platform` on anywhere (a source's own flag
    or a sub-option's): what needs checking before it is stored."""
    if not isinstance(partial, dict):
        return False
    for changes in partial.values():
        if not isinstance(changes, dict):
            continue
        if changes.get(platform) is True:
            return True
        subs = changes.get(SUB_OPTIONS)
        if isinstance(subs, dict) and any(
            isinstance(flags, dict) and flags.get(platform) is True for flags in subs.values()
        ):
            return True
    return False


def platform_off(settings: dict[str, Any] | None, platform: str) -> dict[str, Any]:
    """The settings with `platform` off everywhere it can be (Slack after it is disconnected)."""
    result = normalize(settings)
    for source in SOURCES:
        entry = result[source.key]
        if platform not in source.mandatory:
            entry[platform] = False
        for flags in (entry.get(SUB_OPTIONS) or {}).values():
            if platform not in source.mandatory:
                flags[platform] = False
        result[source.key] = _apply_fixed(source, entry)
    return result


def _check_flag(
    source: Source, where: str, key: str, value: object, slack_active: bool, slack_connected: bool = True
) -> bool:
    if key not in PLATFORM_KEYS:
        raise ValueError(f"Unknown platform '{key}' for {where}. Use one of: {', '.join(PLATFORM_KEYS)}.")
    if not isinstance(value, bool):
        raise ValueError(f"{where}.{key} must be true or false.")
    label = _platform_label(key)
    if key in source.mandatory and not value:
        raise ValueError(f"{label} notifications for {source.label} are required and can't be turned off.")
    if key in source.na and value:
        raise ValueError(f"{label} notifications are not available for {source.label}.")
    if key == SLACK and value and not slack_active:
        raise ValueError(SLACK_COMING_SOON)
    if key == SLACK and value and not slack_connected:
        raise ValueError(SLACK_NOT_CONNECTED)
    return value


def merge_settings(
    current: dict[str, Any] | None,
    partial: object,
    *,
    slack_active: bool = False,
    slack_connected: bool = True,
) -> dict[str, Any]:
    """The settings after a PUT notifications/user body, e.g.
    {"requests_received": {"email": false}, "new_matches": {"subOptions": {"each_run": {"browser": true}}}}.
    Validates everything before changing anything; raises ValueError with a message for the member."""
    if not isinstance(partial, dict):
        raise ValueError("Send the notification settings as an object keyed by source.")
    result = normalize(current)
    for source_key, changes in partial.items():
        source = get_source(source_key)
        if not isinstance(changes, dict):
            raise ValueError(f"Settings for {source_key} must be an object of platform flags.")
        entry = result[source.key]
        for key, value in changes.items():
            if key != SUB_OPTIONS:
                entry[key] = _check_flag(source, source_key, key, value, slack_active, slack_connected)
                continue
            if not source.sub_options:
                raise ValueError(f"{source.label} has no sub-options.")
            if not isinstance(value, dict):
                raise ValueError(f"{source_key}.subOptions must be an object keyed by sub-option.")
            for option_key, flags in value.items():
                if option_key not in entry[SUB_OPTIONS]:
                    known = ", ".join(o.key for o in source.sub_options)
                    raise ValueError(
                        f"Unknown sub-option '{option_key}' for {source_key}. Use one of: {known}."
                    )
                where = f"{source_key}.subOptions.{option_key}"
                if not isinstance(flags, dict):
                    raise ValueError(f"{where} must be an object of platform flags.")
                for key, flag in flags.items():
                    entry[SUB_OPTIONS][option_key][key] = _check_flag(
                        source, where, key, flag, slack_active, slack_connected
                    )
    return result


def email_off(settings: dict[str, Any] | None, source_key: str) -> dict[str, Any]:
    """The settings after a one-click unsubscribe: that source's email off, its own flag and every
    sub-option's, and nothing else changed. Mandatory email cannot be unsubscribed (ValueError)."""
    source = get_source(source_key)
    if EMAIL in source.mandatory:
        raise ValueError(f"Email notifications for {source.label} are required and can't be turned off.")
    result = normalize(settings)
    entry = result[source.key]
    entry[EMAIL] = False
    for flags in entry.get(SUB_OPTIONS, {}).values():
        flags[EMAIL] = False
    return result


# ---------------------------------------------------------------- routing one message


def channels_for(
    settings: dict[str, Any] | None,
    source_key: str,
    sub_option: str | None = None,
    *,
    slack_active: bool = False,
) -> list[str]:
    """The platforms one message of `source_key` (and `sub_option`, required exactly for sources
    that have them) goes to, in platform order. Mandatory platforms always; Slack only where the
    product has it turned on (the notifier still needs a connected channel)."""
    source = get_source(source_key)
    _check_sub_option(source, sub_option)
    entry = normalize(settings)[source.key]
    chosen = []
    for key in PLATFORM_KEYS:
        if key == SLACK and not slack_active:
            continue
        on = entry[key] or (sub_option is not None and entry[SUB_OPTIONS][sub_option][key])
        if key in source.mandatory or (key not in source.na and on):
            chosen.append(key)
    return chosen


def _check_sub_option(source: Source, sub_option: str | None) -> None:
    keys = [o.key for o in source.sub_options]
    if keys and sub_option not in keys:
        raise ValueError(f"A {source.key} message needs one of the sub-options: {', '.join(keys)}.")
    if not keys and sub_option is not None:
        raise ValueError(f"{source.label} has no sub-options.")


TERMINAL_OUTCOMES = ("gone", "failed", "disconnected")


def email_fallback(
    settings: dict[str, Any] | None,
    source_key: str,
    sub_option: str | None,
    platform: str,
    outcome: str,
) -> bool:
    """Whether a message whose push or Slack delivery ended for good (`gone`, `failed`,
    `disconnected`; a `retry` is tried again instead) is sent by email instead. Only when it was not
    emailed already and the member takes email for that source at all (its own flag or any of its
    sub-options'): someone who switched a source's email off entirely gets no email from a fallback."""
    source = get_source(source_key)
    _check_sub_option(source, sub_option)
    if platform not in (BROWSER, SLACK) or outcome not in TERMINAL_OUTCOMES:
        return False
    if EMAIL in channels_for(settings, source_key, sub_option):
        return False  # it went by email already
    entry = normalize(settings)[source.key]
    return entry[EMAIL] or any(flags[EMAIL] for flags in entry.get(SUB_OPTIONS, {}).values())


# ---------------------------------------------------------------- push delivery hints

_TOPIC_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
TOPIC_MAX = 32  # RFC 8030 section 5.4: at most 32 characters from the URL-safe base64 alphabet


def push_ttl(source_key: str, sub_option: str | None = None) -> int:
    source = get_source(source_key)
    _check_sub_option(source, sub_option)
    if sub_option is not None:
        return next(o.push_ttl for o in source.sub_options if o.key == sub_option)
    return source.push_ttl


def push_topic(source_key: str, sub_option: str | None = None, subject: str | None = None) -> str:
    """The RFC 8030 Topic of a push: a newer message with the same topic replaces one the push
    service still holds for an offline device. Per source (and sub-option), and with `subject`
    (a request id, a brand id) per thing, so news about two different requests both arrive."""
    source = get_source(source_key)
    _check_sub_option(source, sub_option)
    topic = source.topic + ({DAILY_DIGEST: "-day", EACH_RUN: "-run"}.get(sub_option or "", ""))
    if subject:
        digest = hashlib.sha256(str(subject).encode()).digest()
        topic += "-" + base64.urlsafe_b64encode(digest).decode()[:16]
    assert len(topic) <= TOPIC_MAX and set(topic) <= _TOPIC_ALPHABET, topic
    return topic


# ---------------------------------------------------------------- daily digest time

OFFSET_INVALID = "The timezone offset must be a number of hours between -12 and 14, in quarter hours."


def parse_timezone_offset(raw: object) -> float:
    """The X-Timezone-Offset header (local time minus UTC, in hours: 5.5 in India, -5 in New York
    winter), validated."""
    try:
        value = float(str(raw).strip())
    except ValueError:
        raise ValueError(OFFSET_INVALID) from None
    if not math.isfinite(value) or not -12 <= value <= 14 or (value * 4) != int(value * 4):
        raise ValueError(OFFSET_INVALID)
    return value + 0.0  # -0.0 -> 0.0


def digest_hour_utc(offset_hours: float, local_hour: int = DIGEST_LOCAL_HOUR) -> int:
    """The UTC hour (0-23) whose hourly scheduler run sends the member's daily digest: the first
    full UTC hour at or after `local_hour`:00 local time (9:30 local for UTC+5:30, 9:00 for whole-hour
    offsets). The offset is the member's latest, so it follows daylight saving time."""
    offset = parse_timezone_offset(offset_hours)
    return math.ceil(local_hour - offset) % 24


def digest_local_time(offset_hours: float, local_hour: int = DIGEST_LOCAL_HOUR) -> str:
    """The member's local time of the digest, 'HH:MM', for the settings screen."""
    offset = parse_timezone_offset(offset_hours)
    minutes = round((digest_hour_utc(offset, local_hour) + offset) * 60) % (24 * 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"
