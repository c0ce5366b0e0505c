"""The expire-requests job on 10,000 pending requests of which 1,000 are due to expire
(in-process against moto, tables from template.yaml; the notifier's queue is not consumed: in
AWS it is another Lambda). Every DynamoDB call of the run is counted with a botocore hook.

Prints `BENCH expire_job_ddb_calls_per_request <n>` (target: at most 3: the due index is read
a page of 100 at a time, then one transaction and one update a request) and
`BENCH expire_job_10k_pending_s <s>` (the run's wall time; noisy on a shared machine: the
script prints the load beside it). Fails loudly when the setup or the run is not what it says.
"""

from __future__ import annotations

import os
import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("WARNING")

PENDING, DUE, SENDERS = 10_000, 1_000, 100
DAY = 86400
CALLS: list[str] = []


def _populate(now: int) -> list[tuple[str, str]]:
    """SENDERS accounts with a bucket each, one brand each (the job reads no brand item: a
    request keeps both brands' summaries); PENDING requests to 50 brands, the
    first DUE of them sent 14 days ago and reminded on time (their next step is the expiry),
    the others sent in the last two days (nothing due yet)."""
    from tandem.domain import requests as rules
    from tandem.services.requests.present import summary
    from tandem.store.models import Brand, CreditBucket, CreditHold, save_all
    from tandem.store.requests import ConnectionRequest

    senders = [
        Brand(*Brand.key(1 + i), brand_id=1 + i, account_id=f"acct{i}", name=f"Sender {i}")
        for i in range(SENDERS)
    ]
    receivers = [
        Brand(*Brand.key(1000 + i), brand_id=1000 + i, account_id=f"recv{i}", name=f"Receiver {i}")
        for i in range(50)
    ]
    buckets = [
        CreditBucket.new(
            f"acct{i}",
            "main",
            now + 20 * DAY,
            kind="main",
            total=200,
            available=100,
            valid_from=now - 20 * DAY,
        )
        for i in range(SENDERS)
    ]
    requests, holds, due = [], [], []
    for n in range(PENDING):
        sender, receiver = senders[n % SENDERS], receivers[n % 50]
        sent_ms = (now - 14 * DAY - 60) * 1000 if n < DUE else (now - (n % 48) * 3600) * 1000
        request_id = f"r{n:05d}"
        req = ConnectionRequest.new(
            request_id,
            from_brand=summary(sender),
            to_brand=summary(receiver),
            from_account_id=sender.account_id,
            to_account_id=receiver.account_id,
            message="Shall we?",
            status=rules.PENDING,
            at_ms=sent_ms,
            hold_bucket_id="main",
            hold_release_until=now + 20 * DAY,
        )
        if n < DUE:  # the day-3 and day-10 reminders were sent on time
            pending_since = sent_ms // 1000
            req.due_step = rules.EXPIRE
            req.gsi3sk = ConnectionRequest._due_fields(
                request_id, rules.EXPIRE, rules.expires_at(pending_since)
            )["gsi3sk"]
            due.append((sender.account_id, request_id))
        requests.append(req)
        holds.append(
            CreditHold.new(
                sender.account_id, request_id, now + 20 * DAY, bucket_id="main", status="held", created_at=now
            )
        )
    save_all(CreditBucket, buckets)
    save_all(CreditHold, holds)
    save_all(ConnectionRequest, requests)
    return due


def main() -> None:
    with _setup.moto_world(execute_state_machines=False):
        from infra.local.provision import inline_queue_consumers

        inline_queue_consumers(False)
        from tandem.integrations import aws
        from tandem.integrations.aws import reset_clients
        from tandem.services.requests import expiry
        from tandem.store.models import CreditBucket, CreditHold, bind_models
        from tandem.store.requests import ConnectionRequest

        reset_clients()
        bind_models()
        now = int(time.time())
        started = time.perf_counter()
        due = _populate(now)
        print(f"# setup: {PENDING} pending written in {time.perf_counter() - started:.1f} s", file=sys.stderr)
        due_now = sum(len(ids) for ids in ConnectionRequest.due_ids(now))
        if due_now != DUE:
            raise SystemExit(f"setup is wrong: {due_now} requests due, expected {DUE}")

        aws.register(
            "before-call.dynamodb", lambda model, **_: CALLS.append(model.name), unique_id="bench-count"
        )
        started, cpu = time.perf_counter(), time.process_time()
        result = expiry.run(now=now, budget_s=3600)  # the whole run (a Lambda run stops at 240 s)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        calls = list(CALLS)
        aws.unregister("before-call.dynamodb", unique_id="bench-count") if hasattr(
            aws, "unregister"
        ) else None

        if result != {"expired": DUE}:
            raise SystemExit(f"the run did not expire the {DUE} due requests: {result}")
        sample_account, sample_id = due[0]
        if CreditHold.find(sample_account, sample_id).status != "released":
            raise SystemExit("a due request's credit was not returned")
        if ConnectionRequest.find("r09999").status != "pending":
            raise SystemExit("a request not due was touched")
        returned = sum(int(CreditBucket.find(f"acct{i}", "main").available) - 100 for i in range(SENDERS))
        if returned != DUE:
            raise SystemExit(f"{returned} credits returned, expected {DUE}")
        kinds = {name: calls.count(name) for name in sorted(set(calls))}
        print(f"# calls: {kinds}", file=sys.stderr)
        print(f"BENCH expire_job_ddb_calls_per_request {len(calls) / DUE:.2f}")
        print(f"BENCH expire_job_10k_pending_s {wall:.2f}")
        load = os.getloadavg()
        print(
            f"# run: {wall:.2f} s wall, {cpu:.2f} s CPU; load average {' '.join(f'{x:.2f}' for x in load)}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
