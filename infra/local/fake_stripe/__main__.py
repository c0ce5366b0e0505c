"""Run the fake Stripe on its own: python -m infra.local.fake_stripe --port 18610 \
    --webhook-url http://127.0.0.1:8000/api/stripe/webhook --state-file .local/fake-stripe.json

With --webhook-url, the signing secret comes from FAKE_STRIPE_WEBHOOK_SECRET (not from the
command line, which other users of the machine can read)."""

from __future__ import annotations

import argparse
import os
import signal
import threading

from infra.local.fake_stripe.server import FakeStripe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18610)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--webhook-url")
    parser.add_argument("--state-file")
    parser.add_argument("--public-url", help="the base URL browsers use, if not http://127.0.0.1:PORT")
    args = parser.parse_args()
    secret = os.environ.get("FAKE_STRIPE_WEBHOOK_SECRET")
    if args.webhook_url and not secret:
        parser.error("--webhook-url needs FAKE_STRIPE_WEBHOOK_SECRET in the environment")
    fake = FakeStripe(
        webhook_url=args.webhook_url,
        webhook_secret=secret,
        api_key=os.environ.get("FAKE_STRIPE_API_KEY"),
        state_file=args.state_file,
        public_url=args.public_url,
    )
    base = fake.start(args.port, args.host)
    print(f"fake Stripe on {base} (STRIPE_API_BASE={base})", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    fake.stop()


if __name__ == "__main__":
    main()
