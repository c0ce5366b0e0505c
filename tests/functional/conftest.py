"""Fixtures shared by the functional tests (the `aws` fixture itself is in tests/conftest.py).

Helpers that are plain functions (`Api`, `subscribe`, `sent_mail`) live in helpers.py."""

from __future__ import annotations

import pytest

from tests.functional.helpers import Api


@pytest.fixture
def api(aws) -> Api:
    """The API as API Gateway calls it, on a fresh moto account provisioned from template.yaml."""
    return Api(aws)
