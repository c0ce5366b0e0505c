"""Runtime settings: one object, read from the environment once per process and checked then.

Every function gets the same variables from template.yaml (Globals); the local stack and the
tests set them the same way (infra/local/runtime.py `apply_environment`), so nothing here knows
which of the three it runs in. Every function's module reads the settings when it is imported
(functions/*), so a missing or empty variable fails there, with the variable's name, never
deep inside a request. Variables only some functions get (state machine ARNs) are checked by
those functions' modules at import with `settings().require(...)`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache


class ConfigError(RuntimeError):
    """The environment lacks a variable (or has a bad value); the message names it."""


# Field -> environment variable, for every variable each function must have (template Globals).
REQUIRED = {
    "stage": "STAGE",
    "table_name": "TABLE_NAME",
    "jwt_secret_name": "JWT_SECRET_NAME",
    "stripe_secret_name": "STRIPE_SECRET_NAME",
    "vapid_secret_name": "VAPID_SECRET_NAME",
    "slack_secret_name": "SLACK_SECRET_NAME",
    "notifications_queue_url": "NOTIFICATIONS_QUEUE_URL",
    "assets_bucket": "ASSETS_BUCKET",
    "mail_from": "MAIL_FROM",
    "site_url": "SITE_URL",
}
# Field -> variable, set only for the functions that use them (template.yaml per function).
PER_FUNCTION = {
    "match_run_state_machine_arn": "MATCH_RUN_STATE_MACHINE_ARN",
    "billing_state_machine_arn": "BILLING_STATE_MACHINE_ARN",
    "nightly_match_run_state_machine_arn": "NIGHTLY_MATCH_RUN_STATE_MACHINE_ARN",
}
DEFAULT_BATCH_SIZE = 4000  # two match-index shards a Map item: 10,000 brands in 3 items


@dataclass(frozen=True)
class Settings:
    stage: str
    region: str
    table_name: str
    endpoint_url: str | None  # AWS_ENDPOINT_URL: moto locally; unset in AWS
    jwt_secret_name: str
    stripe_secret_name: str
    vapid_secret_name: str
    slack_secret_name: str
    notifications_queue_url: str
    assets_bucket: str
    mail_from: str
    site_url: str
    match_run_state_machine_arn: str = ""
    billing_state_machine_arn: str = ""
    nightly_match_run_state_machine_arn: str = ""
    # Candidates per match-run Map item (optional; the template leaves it to this default).
    match_run_batch_size: int = DEFAULT_BATCH_SIZE
    # Where browsers post presigned logo uploads when that is not S3 itself (the local stack's
    # upload endpoint); empty in AWS, where the presigned POST's own S3 URL is used.
    assets_upload_url: str = ""
    # SLACK_NOTIFICATIONS_ACTIVE=true turns Slack on in the notification options of that
    # environment; until then it shows 'Coming Soon' (the connection screen works either way).
    slack_active: bool = False
    # The SES configuration set the notifier sends through (its bounces and complaints are
    # reported to functions/email_events); empty: sent without one.
    ses_configuration_set: str = ""
    # PASSWORD_HASHING=test: argon2 at its lowest cost (the test suite); ignored outside the
    # local stage, so no deployed stage can store cheap hashes.
    password_hashing: str = ""
    # SIGN_UPS_PER_HOUR: sign-ups one network may make in an hour (default 20, tandem.services.auth);
    # honoured only on the local stage, where the browser journeys sign many members up from one
    # address (127.0.0.1). A deployed stage always keeps the default.
    sign_ups_per_hour: int | None = None

    @property
    def is_local(self) -> bool:
        return self.stage == "local"

    @property
    def is_development(self) -> bool:
        """A stage of our own (local, dev): impersonation and the issue box for everyone."""
        return self.stage in ("local", "dev")

    @property
    def allows_impersonation(self) -> bool:
        return self.is_development

    def require(self, *names: str) -> str:
        """The (first) named per-function setting; ConfigError naming its variable when unset.
        A function's module calls this at import for what only it uses."""
        known = {f.name for f in fields(self)}
        for name in names:
            if name not in known:
                raise ValueError(f"unknown setting {name!r}")
        missing = [PER_FUNCTION.get(n, n.upper()) for n in names if not getattr(self, n)]
        if missing:
            raise ConfigError(f"Missing environment variable {', '.join(missing)}")
        return getattr(self, names[0])


def _batch_size(raw: str | None) -> int:
    if raw is None or not raw.strip():
        return DEFAULT_BATCH_SIZE
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ConfigError(f"MATCH_RUN_BATCH_SIZE must be a positive whole number, not {raw!r}")
    return int(text)


def load(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from `environ` (the process environment by default), checked."""
    env = os.environ if environ is None else environ

    def value(name: str) -> str:
        return (env.get(name) or "").strip()

    missing = [variable for variable in REQUIRED.values() if not value(variable)]
    region = value("AWS_REGION") or value("AWS_DEFAULT_REGION")
    if not region:
        missing.append("AWS_REGION")
    if missing:
        raise ConfigError(f"Missing environment variable {', '.join(missing)}")
    hashing = value("PASSWORD_HASHING").lower()
    if hashing not in ("", "test"):
        raise ConfigError(f"PASSWORD_HASHING must be empty or test, not {hashing!r}")
    sign_ups = value("SIGN_UPS_PER_HOUR")
    if sign_ups and (not sign_ups.isdigit() or int(sign_ups) < 1):
        raise ConfigError(f"SIGN_UPS_PER_HOUR must be a positive whole number, not {sign_ups!r}")
    if value("STAGE") != "local":
        hashing = ""  # never cheap hashes in a deployed stage, whatever its environment says
        sign_ups = ""  # nor a looser sign-up limit
    return Settings(
        region=region,
        endpoint_url=value("AWS_ENDPOINT_URL") or None,
        **{field: value(variable) for field, variable in REQUIRED.items() if field != "site_url"},
        site_url=value("SITE_URL").rstrip("/"),
        **{field: value(variable) for field, variable in PER_FUNCTION.items()},
        match_run_batch_size=_batch_size(env.get("MATCH_RUN_BATCH_SIZE")),
        assets_upload_url=value("ASSETS_UPLOAD_URL"),
        slack_active=value("SLACK_NOTIFICATIONS_ACTIVE").lower() in ("1", "true", "yes"),
        ses_configuration_set=value("SES_CONFIGURATION_SET"),
        password_hashing=hashing,
        sign_ups_per_hour=int(sign_ups) if sign_ups else None,
    )


@lru_cache(maxsize=1)
def settings() -> Settings:
    """The process's settings (read and checked on first use, then cached)."""
    return load()


def reset_settings() -> None:
    """Forget cached settings (tests and the local stack change the environment)."""
    settings.cache_clear()
