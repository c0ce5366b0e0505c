"""The billing proof at full size: 50 customers' Stripe histories (monthly and yearly plans,
extra credits, upgrades to yearly, refunds, renewals), every event delivered twice in a
shuffled order, leave exactly the state the ordered delivery leaves.

Two copies of the same world are built on one fake Stripe (in-process) and one moto account
(billing state machine really executed): the first gets its events in order, the second gets
them duplicated and shuffled. Prints `BENCH billing_events_delivered <n>`,
`BENCH billing_events_per_s <rate>` (shuffled delivery, processing included) and
`BENCH billing_shuffled_equals_ordered 1` (0, with the differences, when they differ).
`CUSTOMERS=10 python tests/bench/billing_events.py` runs a smaller world.
"""

from __future__ import annotations

import os
import random
import sys
import time

import _setup  # noqa: I001 (sets sys.path first; see tests/bench/_setup.py)

_setup.moto_environment("ERROR")

CUSTOMERS = int(os.environ.get("CUSTOMERS", "50"))
API_KEY = "sk_test_bench"


def main() -> None:
    from moto import mock_aws

    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        from infra import stripe_sync
        from infra.local.fake_stripe import FakeStripe
        from infra.local.provision import provision
        from infra.local.runtime import apply_environment

        plan = provision()
        apply_environment(plan)
        fake = FakeStripe(api_key=API_KEY)
        fake.start(0)
        os.environ.update({"STRIPE_API_KEY": API_KEY, "STRIPE_API_BASE": fake.base_url})
        from tandem.config import settings
        from tandem.integrations import stripe_client as sc

        sc.reset_client()
        stripe_sync.Sync(sc.client(), settings().site_url, log=lambda _: None).run()
        from tests.functional.helpers import Brand
        from tests.functional.test_billing import Shop

        shop = Shop(plan, fake)
        try:
            ordered, events = world(shop, "o")
            shop.deliver_all(events)
            left = seen(shop, ordered)  # now: the members' access tokens last 15 minutes
            shuffled, more = world(shop, "s")
            doubled = more + more
            random.Random(11).shuffle(doubled)
            started = time.perf_counter()
            for event in doubled:
                assert shop.deliver(event)[0] == 200
            shop.settle(more)
            seconds = time.perf_counter() - started
            right = seen(shop, shuffled)
        finally:
            sc.reset_client()
            fake.stop()
    _ = Brand  # the members are made through the product's own services
    differences = [(n, a, b) for n, (a, b) in enumerate(zip(left, right, strict=True)) if a != b]
    for n, a, b in differences:
        print(f"# customer {n}: ordered {a} shuffled {b}", file=sys.stderr)
    print(f"BENCH billing_events_delivered {len(doubled)}")
    print(f"BENCH billing_events_per_s {len(doubled) / seconds:.1f}")
    print(f"BENCH billing_shuffled_equals_ordered {0 if differences else 1}")


def world(shop, prefix: str):  # noqa: ANN001, ANN201
    """Each customer: a plan (every third yearly), then by turn extra credits, an upgrade to
    yearly, a refund, or a month's renewal (the fake's clock is moved once for everyone)."""
    from tandem.integrations import stripe_client as sc
    from tandem.services import billing
    from tandem.store.models import Account
    from tests.functional.helpers import Brand

    members = [
        Brand(f"{prefix}{n}@bench.local", f"Bench {prefix}{n}", status="none") for n in range(CUSTOMERS)
    ]
    for n, member in enumerate(members):
        shop.pay(shop.link(member, "tandem_main_yearly" if n % 3 == 2 else "tandem_main_monthly"))
    for n, member in enumerate(members):
        customer = billing.customers_of(Account.find(member.account))[0]
        turn = n % 4
        if turn == 0:
            session = sc.create_checkout_session(
                customer=customer,
                lookup_key="tandem_extra_6",
                account_id=member.account,
                brand_id=str(member.id),
                user_id=member.user.user_id,
            )
            shop.pay(session["url"])
        elif turn == 1 and n % 3 != 2:
            (plan,) = sc.client().v1.subscriptions.list({"customer": customer}).data
            sc.upgrade_to_yearly(plan.id)
        elif turn == 3:
            sc.refund_latest_payment(customer)
    return members, shop.new_events()


def seen(shop, members):  # noqa: ANN001, ANN201
    rows = []
    for member in members:
        c = shop.credits(member)
        rows.append(
            (c["available"], c["total"], c["active"], c["isYearly"], c["totalAddOns"], c["hasSubscription"])
        )
    return rows


if __name__ == "__main__":
    main()
