"""The emails and pushes a feature's owner gets."""

from __future__ import annotations

from typing import Any

from tandem.domain import pitch as rules
from tandem.observability import logger
from tandem.services import mailer, notify
from tandem.store.pitch import Feature


def mail_ended(feature: Feature, early: bool) -> None:
    deliver(
        feature,
        "feature_ended",
        {"brand": feature.brand.name, "ended_early": early, "new_feature_url": mailer.link("/pitch/new")},
        {"title": rules.ENDED_MESSAGE, "body": f"Your feature for {feature.brand.name} has ended."},
    )


def deliver(feature: Feature, template: str, context: dict[str, Any], push: dict[str, str]) -> None:
    try:
        notify.notify(
            account_id=feature.account_id,
            source="feature_status",
            template=template,
            context=context,
            push={**push, "url": f"/pitch/jump/{feature.feature_id}"},
            subject=feature.feature_id,
        )
    except Exception:  # an email never undoes a change
        logger.exception("Could not queue a feature notification", extra={"template": template})
