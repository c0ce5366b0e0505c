"""Secrets are read once per process and cached; the API function starts the JWT key's read at
import (`prefetch_secret`) and the first request waits for that read instead of making another."""

from __future__ import annotations

import pytest


def _count_secret_reads():
    from tandem.integrations.aws import register

    reads: list[str] = []
    register("before-call.secrets-manager.GetSecretValue", lambda **_: reads.append("read"), "count-reads")
    return reads


def test_a_prefetched_secret_is_read_once_and_get_secret_waits_for_it(aws):
    from tandem.config import settings
    from tandem.integrations.aws import get_secret, prefetch_secret

    reads = _count_secret_reads()
    prefetch_secret(settings().jwt_secret_name)
    prefetch_secret(settings().jwt_secret_name)  # already under way: no second read
    from tandem.integrations.aws import client

    value = get_secret(settings().jwt_secret_name)
    assert (
        value
        == client("secretsmanager").get_secret_value(SecretId=settings().jwt_secret_name)["SecretString"]
    )
    assert len(reads) == 2  # the prefetch's, and the one just above
    assert get_secret(settings().jwt_secret_name) == value
    assert len(reads) == 2


def test_a_prefetch_that_fails_leaves_get_secret_to_report_the_error(aws):
    from botocore.exceptions import ClientError

    from tandem.integrations.aws import get_secret, prefetch_secret

    prefetch_secret("tandem/local/no-such-secret")
    with pytest.raises(ClientError, match="ResourceNotFoundException"):
        get_secret("tandem/local/no-such-secret")


def test_the_api_answers_its_first_signed_in_request_with_the_prefetched_key(api):
    from tests.functional.helpers import Brand

    mia = Brand("mia@example.com", "Oat & Co")
    status, body = api.call("GET", "/api/dashboard", mia.headers)
    assert status == 200, body
    assert body["dashboard"]["brandName"] == "Oat & Co"
