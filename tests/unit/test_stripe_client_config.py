"""The Stripe client's configuration: the pinned API version and the lazy import."""

from __future__ import annotations

import subprocess
import sys

import pytest
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


def test_parallel_stripe_calls_run_on_threads_kept_between_calls():
    """The library keeps a connection pool per thread: a second sync's calls must run on the
    threads the first one used (no new thread, so no new TLS connection to Stripe)."""
    import threading

    from tandem.integrations import stripe_client

    seen = threading.local()
    gate = threading.Barrier(stripe_client.PARALLEL_CALLS, timeout=10)

    def call(item: int) -> tuple[int, bool]:
        fresh = not getattr(seen, "used", False)
        seen.used = True
        gate.wait()  # every call on its own thread: all the pool's threads are used
        return item * 2, fresh

    first = stripe_client.in_parallel(call, range(stripe_client.PARALLEL_CALLS))
    second = stripe_client.in_parallel(call, range(stripe_client.PARALLEL_CALLS))
    assert [value for value, _ in first] == [value for value, _ in second] == [0, 2, 4, 6]
    assert not any(fresh for _, fresh in second)


def test_a_failing_parallel_stripe_call_is_raised():
    from tandem.integrations import stripe_client

    def call(item: int) -> int:
        if item == 2:
            raise ValueError("Stripe said no")
        return item

    with pytest.raises(ValueError, match="Stripe said no"):
        stripe_client.in_parallel(call, [1, 2, 3])
