"""A local stand-in for Stripe that the unchanged `stripe` library talks to by base URL.

    from infra.local.fake_stripe import FakeStripe
    fake = FakeStripe(webhook_url=".../api/stripe/webhook", webhook_secret="whsec_...")
    stripe.api_base = fake.start(18610)

What it implements and what it does not: docs/decisions.md ('The local payment stand-in').
"""

from infra.local.fake_stripe.server import FakeStripe

__all__ = ["FakeStripe"]
