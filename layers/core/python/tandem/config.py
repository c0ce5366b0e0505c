"""Runtime settings, read from the environment once per process.

Every function gets the same variables from template.yaml (Globals); the local stack and the
tests set them the same way, so nothing here knows which of the three it runs in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Settings:
    stage: str
    region: str
    table_name: str
    endpoint_url: str | None
    match_run_state_machine_arn: str
    billing_state_machine_arn: str
    notifications_queue_url: str
    assets_bucket: str
    jwt_secret_name: str
    match_run_batch_size: int
    site_url: str
    # Where browsers post presigned logo uploads when that is not S3 itself (the local stack's
    # upload endpoint); empty in AWS, where the presigned POST's own S3 URL is used.
    assets_upload_url: str = ""

    @property
    def is_local(self) -> bool:
        return self.stage == "local"

    @property
    def allows_impersonation(self) -> bool:
        return self.stage in ("local", "dev")


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip().isdigit() else default


@lru_cache(maxsize=1)
def settings() -> Settings:
    env = os.environ.get
    return Settings(
        stage=env("STAGE", "local"),
        region=env("AWS_REGION") or env("AWS_DEFAULT_REGION") or "eu-west-2",
        table_name=env("TABLE_NAME", "tandem-local"),
        endpoint_url=env("AWS_ENDPOINT_URL") or None,
        match_run_state_machine_arn=env("MATCH_RUN_STATE_MACHINE_ARN", ""),
        billing_state_machine_arn=env("BILLING_STATE_MACHINE_ARN", ""),
        notifications_queue_url=env("NOTIFICATIONS_QUEUE_URL", ""),
        assets_bucket=env("ASSETS_BUCKET", ""),
        jwt_secret_name=env("JWT_SECRET_NAME", "tandem/local/jwt"),
        match_run_batch_size=_int("MATCH_RUN_BATCH_SIZE", 500),
        site_url=env("SITE_URL", "http://127.0.0.1:8080").rstrip("/"),
        assets_upload_url=env("ASSETS_UPLOAD_URL", ""),
    )


def reset_settings() -> None:
    """Forget cached settings (tests and the local stack change the environment)."""
    settings.cache_clear()
