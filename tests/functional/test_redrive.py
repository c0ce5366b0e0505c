"""make redrive / make replay-stripe-event on moto: what failed for real comes back once it is
fixed, and a second run starts nothing more (infra/redrive.py)."""

from __future__ import annotations

import json

import pytest

from infra import redrive
from tests.conftest import wait_for_execution
from tests.factories import member, population
from tests.functional.helpers import Brand, mail_to
from tests.functional.test_billing import Shop, fake, shop  # noqa: F401 (its fixtures, used by name)


@pytest.fixture
def stack(aws, monkeypatch):
    """The environment `stack_environment` reads from CloudFormation, from the moto stack."""
    from tandem.integrations.aws import client

    sqs = client("sqs")
    monkeypatch.setenv("TANDEM_REDRIVE_ENVIRONMENT_SET", "1")
    for variable, queue in (
        ("NOTIFICATIONS_DLQ_URL", "NotificationsDeadLetterQueue"),
        ("ASYNC_DLQ_URL", "AsyncDeadLetterQueue"),
    ):
        monkeypatch.setenv(variable, sqs.get_queue_url(QueueName=aws.queues[queue]["name"])["QueueUrl"])
    monkeypatch.setenv("SCHEDULER_FUNCTION", aws.functions["SchedulerFunction"].name)
    return aws


def run(capsys, *args: str) -> list[str]:
    capsys.readouterr()
    assert redrive.main(["--stack", "tandem-local", *args]) == 0
    return [line for line in capsys.readouterr().out.splitlines() if not line.startswith('{"_aws"')]


@pytest.mark.delivery
def test_notifications_in_the_dead_letter_queue_go_back_to_the_queue_and_are_delivered_once(stack, capsys):
    import os

    from tandem.integrations.aws import client

    message = {"channel": "email", "to": "mia@example.com", "subject": "Your request", "text": "Hello"}
    client("sqs").send_message(QueueUrl=os.environ["NOTIFICATIONS_DLQ_URL"], MessageBody=json.dumps(message))

    (moved,) = run(capsys, "--what", "notifications")
    assert moved.endswith("back on the queue")
    assert [m.subject for m in mail_to("mia@example.com")] == ["Your request"]  # the queue's trigger sent it
    assert run(capsys, "--what", "notifications") == ["the notifications DLQ is empty"]
    assert len(mail_to("mia@example.com")) == 1


def test_a_failed_billing_execution_is_replayed_once_fixed_and_only_once(
    shop: Shop,  # noqa: F811
    stack,
    capsys,
    monkeypatch,
):
    from tandem.services import billing
    from tandem.store.billing import StripeEvent

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    paid = next(e for e in shop.new_events() if e["type"] == "invoice.paid")
    real = billing.sync_account
    monkeypatch.setattr(billing, "sync_account", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    assert shop.deliver(paid) == (200, {"received": True})
    assert wait_for_execution(f"{shop.executions}:{paid['id']}")["status"] == "FAILED"
    monkeypatch.setattr(billing, "sync_account", real)  # the fix is deployed

    assert run(capsys, "--what", "billing") == [f"{paid['id']}: failed -> started again (attempt 2)"]
    shop.settle([paid], attempt=1)
    assert StripeEvent.find(paid["id"], consistent=True).status == "done"
    assert shop.credits(mia)["available"] == 6
    assert run(capsys, "--what", "billing") == [f"{paid['id']}: done already, left alone"]
    assert shop.credits(mia)["available"] == 6


def test_a_stripe_event_the_webhook_never_got_is_replayed_by_id(shop: Shop, stack, capsys):  # noqa: F811
    from tandem.store.billing import StripeEvent

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))
    events = shop.new_events()  # the endpoint was down: none delivered
    paid = next(e for e in events if e["type"] == "invoice.paid")
    assert StripeEvent.find(paid["id"], consistent=True) is None

    assert run(capsys, "--stripe-event", paid["id"]) == [f"{paid['id']}: fetched from Stripe and started"]
    shop.settle([paid])
    assert shop.credits(mia)["available"] == 6
    assert run(capsys, "--stripe-event", paid["id"]) == [f"{paid['id']}: done already, left alone"]


def test_brands_whose_match_run_failed_run_again_once(stack, capsys, monkeypatch):
    from tandem.services import match_runs

    _, (brand,), _ = member()
    population(3)
    real = match_runs.score_batch
    monkeypatch.setattr(
        match_runs, "score_batch", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom"))
    )
    failed = match_runs.start_run(int(brand.brand_id))
    machine = stack.state_machines["MatchRunStateMachine"].arn.replace(":stateMachine:", ":execution:")
    assert wait_for_execution(f"{machine}:match-{int(brand.brand_id)}-{failed.run_id}")["status"] == "FAILED"
    monkeypatch.setattr(match_runs, "score_batch", real)

    (line,) = run(capsys, "--what", "match-runs")
    assert line.startswith(f"brand {int(brand.brand_id)}: run {failed.run_id} failed, started run ")
    new_run = line.rsplit(" ", 1)[-1]
    assert wait_for_execution(f"{machine}:match-{int(brand.brand_id)}-{new_run}")["status"] == "SUCCEEDED"
    assert match_runs.get_run(int(brand.brand_id), new_run).status == "done"
    assert run(capsys, "--what", "match-runs") == [
        f"brand {int(brand.brand_id)}: ran again since run {failed.run_id} failed, left alone"
    ]


def test_failed_scheduled_jobs_run_once_each_and_leave_the_async_queue(stack, capsys):
    import os

    from tandem.integrations.aws import client

    sqs = client("sqs")
    queue = os.environ["ASYNC_DLQ_URL"]
    scheduler = client("lambda").get_function(FunctionName=os.environ["SCHEDULER_FUNCTION"])["Configuration"]
    on_failure = {  # Lambda's OnFailure record after the retries of an asynchronous invocation
        "version": "1.0",
        "requestContext": {
            "functionArn": scheduler["FunctionArn"] + ":$LATEST",
            "condition": "RetriesExhausted",
        },
        "requestPayload": {"job": "fail-stuck-match-runs"},
        "responsePayload": {"errorMessage": "boom"},
    }
    sqs.send_message(QueueUrl=queue, MessageBody=json.dumps(on_failure))
    sqs.send_message(
        QueueUrl=queue, MessageBody=json.dumps({"job": "fail-stuck-match-runs"})
    )  # EventBridge's
    sqs.send_message(QueueUrl=queue, MessageBody=json.dumps({"job": "settle-expired-holds"}))

    assert sorted(run(capsys, "--what", "jobs")) == [
        "job fail-stuck-match-runs: ran",
        "job settle-expired-holds: ran",
    ]
    assert run(capsys, "--what", "jobs") == ["the async DLQ is empty"]
