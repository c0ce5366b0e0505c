"""The Stripe client's configuration: the pinned API version and the lazy import."""

from __future__ import annotations

import subprocess
import sys

import stripe

from tandem.integrations import stripe_client


def test_the_pinned_api_version_is_the_one_the_library_speaks() -> None:
    # Upgrading stripe moves this on purpose: the fake and the billing rules read this version's shapes.
    assert stripe_client.API_VERSION == stripe.api_version


def test_importing_the_client_does_not_import_stripe() -> None:
    code = "import sys, tandem.integrations.stripe_client; print('stripe' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_client_talks_to_the_given_base_with_retries_and_timeouts() -> None:
    client = stripe_client.make_client("sk_test_x", "http://127.0.0.1:9/")
    requestor = client._requestor
    assert requestor.base_addresses["api"] == "http://127.0.0.1:9"
    assert requestor._options.stripe_version == stripe_client.API_VERSION
    assert requestor._options.max_network_retries == stripe_client.MAX_NETWORK_RETRIES
    assert requestor._client._timeout == stripe_client.TIMEOUT
