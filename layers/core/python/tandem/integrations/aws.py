"""boto3 clients, created lazily and cached per process (keeps cold starts short)."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from tandem.config import settings


@cache
def client(service: str) -> Any:
    import boto3

    current = settings()
    return boto3.client(service, region_name=current.region, endpoint_url=current.endpoint_url)


@lru_cache(maxsize=1)
def _secrets_provider() -> Any:
    from aws_lambda_powertools.utilities.parameters import SecretsProvider

    return SecretsProvider(boto3_client=client("secretsmanager"))


def get_secret(name: str) -> str:
    """A secret's string value through Powertools parameters (cached for 5 minutes)."""
    return _secrets_provider().get(name, max_age=300)


def reset_clients() -> None:
    client.cache_clear()
    _secrets_provider.cache_clear()
