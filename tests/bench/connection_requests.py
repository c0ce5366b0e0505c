"""DynamoDB calls per connection-request operation, counted with a botocore event hook.

Runs the request services against moto (tables provisioned from template.yaml, as the tests
do) and counts every DynamoDB API call they make, whichever client makes it (pynamodb's or
boto3's). The caller is already authorized (the route's `member_for_brand` adds the same two
reads to every private route). Emails are queued, not delivered here: in AWS the notifier is
another Lambda reading the queue.

Prints `BENCH request_send_ddb_calls <n>` (target: at most 3) and
`BENCH requests_list_ddb_calls <n>` (one page of received requests, new ones among them, so
the list also marks them seen; target: at most 2), then a few more for context. The lists are
given the brand's BrandSeen item as the route gives it (read in the caller's BatchGetItem, one
call with the caller's check: tests/bench/screens.py counts whole screens).
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("WARNING")

CALLS: list[str] = []


def _install_counter() -> None:
    """Every DynamoDB call of the process's one botocore session is reported to CALLS."""
    from tandem.integrations import aws

    aws.register("before-call.dynamodb", lambda model, **_: CALLS.append(model.name), unique_id="bench-count")


def counted(label: str, action):
    CALLS.clear()
    result = action()
    print(f"# {label}: {', '.join(CALLS)}", file=sys.stderr)
    return len(CALLS), result


def _queue_url() -> str:
    from tandem.config import settings

    return settings().notifications_queue_url


def main() -> None:
    with _setup.moto_world() as plan:
        from infra.local.lambda_inprocess import INVOCATIONS
        from infra.local.provision import inline_queue_consumers

        # The notifier is another Lambda reading the queue: the messages wait there (moto would
        # otherwise run it inline, inside the send, and its reads would be counted as the send's).
        inline_queue_consumers(False)
        _install_counter()
        from tandem.integrations.aws import client, reset_clients
        from tandem.services import accounts, brands, credits, requests
        from tandem.services.viewer import of_brand
        from tandem.store import keys, news
        from tandem.store.models import Account, bind_models

        reset_clients()
        bind_models()
        invoked_before = len(INVOCATIONS)

        sender_account, sender_user = accounts.create_account_with_user(
            email="send@bench.example", name="S", password=None
        )
        Account(keys.account_pk(sender_account.account_id), keys.META).update(
            actions=[Account.subscription_status.set("active")]
        )
        now = int(time.time())
        credits.grant(
            sender_account.account_id,
            kind="main",
            amount=40,
            valid_from=now - 60,
            valid_to=now + 86400,
            op_id="b",
        )
        sender = brands.create_brand(account_id=sender_account.account_id, name="Bench Sender")
        targets = [brands.create_brand(account_id=f"bench-{i}", name=f"Target {i}") for i in range(25)]
        receiver = targets[0]
        others = []
        for i in range(24):  # 24 senders to one receiver: more than one page
            account, user = accounts.create_account_with_user(
                email=f"s{i}@bench.example", name="S", password=None
            )
            Account(keys.account_pk(account.account_id), keys.META).update(
                actions=[Account.subscription_status.set("active")]
            )
            credits.grant(
                account.account_id,
                kind="main",
                amount=6,
                valid_from=now - 60,
                valid_to=now + 86400,
                op_id="b",
            )
            others.append((brands.create_brand(account_id=account.account_id, name=f"Sender {i}"), user))
        warm_up = {"toBrandId": int(targets[1].brand_id), "message": "warm-up"}
        # what the door reads with the caller (the account, who is hidden) is not the send's own
        as_sender, as_receiver = of_brand(sender, sender_user), of_brand(receiver)
        requests.send(as_sender, warm_up)  # warm caches

        send_calls, sent = counted(
            "send",
            lambda: requests.send(as_sender, {"toBrandId": int(receiver.brand_id), "message": "Hello!"}),
        )
        for other, user in others[:23]:
            requests.send(of_brand(other, user), {"toBrandId": int(receiver.brand_id), "message": "Hi"})
        list_calls, page = counted(
            "list received (new items)",
            lambda seen=news.read(int(receiver.brand_id)): requests.list_requests(
                replace(as_receiver, seen=seen), "received"
            ),
        )
        assert len(page["items"]) == 20 and any(i["isNew"] for i in page["items"]), page
        again_calls, _ = counted(
            "list received again",
            lambda seen=news.read(int(receiver.brand_id)): requests.list_requests(
                replace(as_receiver, seen=seen), "received"
            ),
        )
        next_calls, _ = counted(
            "list received page 2",
            lambda seen=news.read(int(receiver.brand_id)): requests.list_requests(
                replace(as_receiver, seen=seen), "received", page["nextCursor"]
            ),
        )
        sent_calls, _ = counted("list sent", lambda: requests.list_requests(as_sender, "sent"))
        req = requests.get_request(sent["request"]["id"])
        accept_calls, _ = counted("accept (transition only)", lambda: requests.transition(req, "accept"))
        counts_calls, _ = counted("menu counts (what is new)", lambda: news.read(int(receiver.brand_id)))

        # The bench's own setup, checked before any number is printed: the emails were queued
        # for the notifier, and the notifier did not run in this process.
        queued = client("sqs").get_queue_attributes(
            QueueUrl=_queue_url(),
            AttributeNames=["ApproximateNumberOfMessages"],
        )["Attributes"]["ApproximateNumberOfMessages"]
        if int(queued) == 0:
            raise SystemExit("bench setup wrong: no request email was queued for the notifier")
        notifier = plan.functions["NotifierFunction"].name
        if notifier in INVOCATIONS[invoked_before:]:
            raise SystemExit("bench setup wrong: the notifier ran inline and its calls were counted")

        print(f"BENCH request_send_ddb_calls {send_calls}")
        print(f"BENCH requests_list_ddb_calls {list_calls}")
        print(f"BENCH requests_list_again_ddb_calls {again_calls}")
        print(f"BENCH requests_list_next_page_ddb_calls {next_calls}")
        print(f"BENCH requests_sent_list_ddb_calls {sent_calls}")
        print(f"BENCH request_accept_ddb_calls {accept_calls}")
        print(f"BENCH menu_counts_ddb_calls {counts_calls}")


if __name__ == "__main__":
    main()
