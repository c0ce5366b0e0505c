"""The billing proof at full size: 50 customers' Stripe histories (monthly and yearly plans,
extra credits, upgrades to yearly, refunds, renewals), every event delivered twice in a
shuffled order, leave exactly the state the ordered delivery leaves.

Two copies of the same world are built on one fake Stripe (in-process) and one moto account
(billing state machine really executed): the first gets its events in order, the second gets
them duplicated and shuffled. Each world is exactly 20 distinct events a customer (issue 12:
1,000 events for 50 customers), counted as the production endpoint receives them: the event
types it subscribes to (`stripe_events.BILLING_EVENTS`). Prints
`BENCH billing_customers <n>`, `BENCH billing_events_distinct <n>` (each world),
`BENCH billing_events_delivered <n>` (the shuffled world's, each event twice),
`BENCH billing_events_per_s <rate>` (shuffled delivery, processing included) and
`BENCH billing_shuffled_equals_ordered 1` (0, with the differences, when they differ) and
`BENCH billing_sync_writes_per_event` (DynamoDB writes of the account's billing sync, per
processed event of the shuffled world: the account, credit grants, receipt claims; target at
most 4; the whole ProcessEvent task's writes, with the users' and the event's marks, are
printed beside it). The notifier is another function (its queue is not consumed inline here:
the bench fails if it ran).
`CUSTOMERS=10 python tests/bench/billing_events.py` runs a smaller world.
"""

from __future__ import annotations

import functools
import os
import random
import sys
import threading
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR")

CUSTOMERS = int(os.environ.get("CUSTOMERS", "50"))
EVENTS_PER_CUSTOMER = 20  # issue 12: 1,000 events for 50 customers
API_KEY = "sk_test_bench"
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})


class ProcessingWrites:
    """DynamoDB write calls made inside `billing.sync_account` (the sync an event's processing
    runs) and inside `stripe_events.process` as a whole (the billing state machine's ProcessEvent
    task: the sync, then the users' and the event's marks), and how many events were processed.
    moto runs the task in-process on the execution's thread. Counting starts at `start()`."""

    def __init__(self) -> None:
        self.sync_writes = self.writes = self.events = 0
        self.kinds: dict[str, int] = {}
        self.counting = False
        self._inside = threading.local()

    def install(self) -> None:
        from botocore.client import BaseClient

        from tandem.services import billing, stripe_events

        original_call = BaseClient._make_api_call
        original_process, original_sync = stripe_events.process, billing.sync_account
        counter, inside = self, self._inside

        def call(client, operation_name, api_params):
            if (
                counter.counting
                and getattr(inside, "process", False)
                and operation_name in WRITES
                and client.meta.service_model.service_name == "dynamodb"
            ):
                in_sync = bool(getattr(inside, "sync", False))
                counter.writes += 1
                counter.sync_writes += in_sync
                kind = f"{'sync ' if in_sync else ''}{operation_name} {_written(api_params)}"
                counter.kinds[kind] = counter.kinds.get(kind, 0) + 1
            return original_call(client, operation_name, api_params)

        @functools.wraps(original_process)
        def process(*args, **kwargs):
            inside.process = True
            try:
                return original_process(*args, **kwargs)
            finally:
                inside.process = False
                counter.events += counter.counting

        @functools.wraps(original_sync)
        def sync_account(*args, **kwargs):
            inside.sync = True
            try:
                return original_sync(*args, **kwargs)
            finally:
                inside.sync = False

        BaseClient._make_api_call = call
        stripe_events.process = process
        billing.sync_account = sync_account  # process() calls it through the package

    def start(self) -> None:
        self.sync_writes = self.writes = self.events = 0
        self.kinds = {}
        self.counting = True


def _written(params: dict) -> str:
    """What a write touches, by key prefix: "ACCOUNT", "STRIPE_EVENT"... ("+"-joined for many)."""
    keys = [params.get("Key") or params.get("Item") or {}]
    for entry in params.get("TransactItems", []):
        for op in entry.values():
            keys.append(op.get("Key") or op.get("Item") or {})
    for requests in params.get("RequestItems", {}).values():
        for request in requests:
            for op in request.values():
                keys.append(op.get("Key") or op.get("Item") or {})
    prefixes = [str(k.get("pk", {}).get("S", "?")).split("#")[0] for k in keys if k]
    return "+".join(sorted(set(prefixes))) or "?"


def main() -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    with _setup.moto_world() as plan:
        from infra import stripe_sync
        from infra.local.fake_stripe import FakeStripe
        from infra.local.lambda_inprocess import INVOCATIONS
        from infra.local.provision import inline_queue_consumers

        inline_queue_consumers(False)  # the notifier is another function: its writes are not the sync's
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
        shop.new_events()  # the catalogue's own events (products, prices): not the members'
        counted = ProcessingWrites()
        counted.install()
        try:
            ordered, events = world(shop, "o")
            shop.deliver_all(events)
            drop_notifications(plan)
            left = seen(shop, ordered)
            shuffled, more = world(shop, "s")
            doubled = more + more
            random.Random(11).shuffle(doubled)
            counted.start()
            started = time.perf_counter()
            for n, event in enumerate(doubled):
                assert shop.deliver(event)[0] == 200
                if n % 100 == 99:
                    drop_notifications(plan)
            shop.settle(more)
            seconds = time.perf_counter() - started
            counted.counting = False
            right = seen(shop, shuffled)
        finally:
            sc.reset_client()
            fake.stop()
    _ = Brand  # the members are made through the product's own services
    target = EVENTS_PER_CUSTOMER * CUSTOMERS
    counts = {len(events), len(more), len({e["id"] for e in doubled})}
    assert counts == {target} and len(doubled) == 2 * target, (len(events), len(more), len(doubled))
    differences = [(n, a, b) for n, (a, b) in enumerate(zip(left, right, strict=True)) if a != b]
    for n, a, b in differences:
        print(f"# customer {n}: ordered {a} shuffled {b}", file=sys.stderr)
    print(f"BENCH billing_customers {CUSTOMERS}")
    print(f"BENCH billing_events_distinct {len(more)}")
    print(f"BENCH billing_events_delivered {len(doubled)}")
    print(f"BENCH billing_events_per_s {len(doubled) / seconds:.1f}")
    print(f"BENCH billing_shuffled_equals_ordered {0 if differences else 1}")
    if counted.events < len(more):  # each distinct event is processed at least once
        raise RuntimeError(f"bench setup wrong: {counted.events} processings counted for {len(more)} events")
    if plan.functions["NotifierFunction"].name in INVOCATIONS:
        raise RuntimeError("bench setup wrong: the notifier ran inside the billing processing")
    if not counted.sync_writes:
        raise RuntimeError("bench setup wrong: no billing sync was counted")
    detail = ", ".join(f"{kind} {n}" for kind, n in sorted(counted.kinds.items()))
    print(f"billing: {counted.writes} DynamoDB writes in {counted.events} event processings: {detail}")
    print(f"billing: {counted.writes / counted.events:.2f} writes an event's processing (sync and marks)")
    print(f"BENCH billing_sync_writes_per_event {counted.sync_writes / counted.events:.2f}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    # wall well above CPU means waiting (the machine's other work: the proof itself waits only
    # for the last executions, docs/decisions.md 2026-11-29)
    print(f"billing: {wall:.0f} s wall, {cpu:.0f} s CPU (every thread of this process) from moto's start")
    if differences:
        raise SystemExit("the shuffled delivery left another state than the ordered one (above)")


def drop_notifications(plan) -> None:
    """Empty the notifications queue: the notifier is another function and is not run here,
    and moto's SQS counts every waiting message on each send (which slowed the proof)."""
    from moto.backends import get_backend

    from infra.local.provision import ACCOUNT, REGION

    get_backend("sqs")[ACCOUNT][REGION].purge_queue(plan.queues["NotificationsQueue"]["name"])


def world(shop, prefix: str):
    """Each customer: a plan (every third yearly), then by turn extra credits, an upgrade to
    yearly, or a refund; then, until the world holds exactly EVENTS_PER_CUSTOMER billing events
    a customer, more extra credits bought in turn by the customers whose plan is live, and last
    (to land on the exact count) notes written on their subscriptions, one
    customer.subscription.updated each. Returns the members and their billing events."""
    from tandem.integrations import stripe_client as sc
    from tandem.services import billing
    from tandem.services.stripe_events import is_billing_event
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
            billing.refund_latest_payment(customer)

    store = shop.fake.store
    with store.lock:
        counted = [len(store.tables.get("event", {}))]  # events looked at so far (created in order)
    billing_pending = [
        sum(1 for kind in shop.fake.event_types(skip=shop.delivered) if is_billing_event(kind))
    ]

    def pending() -> int:
        """Billing events not delivered yet: the count so far plus those of the events made since
        (nothing is delivered while a world is built; counting them all again each time made
        building the 1,000-event world quadratic)."""
        with store.lock:
            made = list(store.tables.get("event", {}).values())[counted[0] :]
        counted[0] += len(made)
        billing_pending[0] += sum(
            1 for e in made if e["id"] not in shop.delivered and is_billing_event(e["type"])
        )
        return billing_pending[0]

    target = EVENTS_PER_CUSTOMER * len(members)
    live = [m for n, m in enumerate(members) if n % 4 != 3]
    most, turn = 3, 0  # the most billing events one purchase has made (at least 3 are expected)
    while pending() + most <= target:
        member = live[turn % len(live)]
        before = pending()
        session = sc.create_checkout_session(
            customer=billing.customers_of(Account.find(member.account))[0],
            lookup_key="tandem_extra_3",
            account_id=member.account,
            brand_id=str(member.id),
            user_id=member.user.user_id,
            quantity=1 + (turn // len(live)) % 10,  # the same purchase twice is one checkout
        )
        shop.pay(session["url"])
        most, turn = max(most, pending() - before), turn + 1
    turn = 0
    while pending() < target:
        member = live[turn % len(live)]
        (plan,) = (
            sc.client()
            .v1.subscriptions.list({"customer": billing.customers_of(Account.find(member.account))[0]})
            .data
        )
        sc.client().v1.subscriptions.update(plan.id, {"metadata": {"bench_note": f"{prefix}{turn}"}})
        turn += 1
    return members, [e for e in shop.new_events() if is_billing_event(e["type"])]


def seen(shop, members):
    """What each member's dashboard shows. Their tokens are issued again first: building and
    delivering 1,000 events can outlast an access token's 15 minutes on a busy machine."""
    from tandem.services import tokens

    rows = []
    for member in members:
        member.token = tokens.issue_access_token(member.user.user_id, member.account, member.user.access)
        c = shop.credits(member)
        rows.append(
            (c["available"], c["total"], c["active"], c["isYearly"], c["totalAddOns"], c["hasSubscription"])
        )
    return rows


if __name__ == "__main__":
    main()
