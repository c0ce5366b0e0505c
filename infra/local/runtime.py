"""Point this process's tandem package at a provisioned plan (local stack and tests)."""

from __future__ import annotations

import os

from infra.local.template import REGION, LocalPlan


def apply_environment(plan: LocalPlan, endpoint_url: str | None = None) -> None:
    """Set the union of the template's function environments, as Lambda would per function,
    and make cached settings, clients and pynamodb connections pick it up."""
    os.environ.update(plan.environment)
    os.environ["AWS_DEFAULT_REGION"] = REGION
    os.environ["AWS_REGION"] = REGION
    if endpoint_url:
        os.environ["AWS_ENDPOINT_URL"] = endpoint_url
    else:
        os.environ.pop("AWS_ENDPOINT_URL", None)

    from aws_lambda_powertools.utilities import parameters

    from tandem.config import reset_settings
    from tandem.integrations.aws import reset_clients
    from tandem.store.models import bind_models

    reset_settings()
    reset_clients()
    bind_models()
    parameters.clear_caches()
