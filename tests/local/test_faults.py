"""The fault switches (infra/local/faults.py): share, window, count and match, the simulated
retry waits, the control API (/__local/faults), and moto's SQS queue losing no message sent
while another is deleted (infra/local/moto_sqs.py)."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
import requests

from infra.local.faults import FAULTS, FaultError, Faults, simulated_sleeps


def test_a_share_is_drawn_from_the_seeded_rng_exactly() -> None:
    faults = Faults(seed=42)
    faults.add("stripe", "500", share=0.25)
    hits = sum(faults.hit("stripe", "POST /v1/customers") is not None for _ in range(400))
    draws = random.Random(42)
    assert hits == sum(draws.random() < 0.25 for _ in range(400))
    assert faults.hits("stripe", "500") == hits and 60 < hits < 140


def test_a_window_ends_on_the_faults_clock_a_count_and_a_match_limit_it() -> None:
    faults = Faults()
    window = faults.add("ses", "throttle", for_seconds=60)
    assert faults.hit("ses", "send_raw_email") is window
    faults.advance(59)
    assert faults.hit("ses", "send_email") is window
    faults.advance(2)
    assert faults.hit("ses", "send_raw_email") is None
    later = faults.add("push", "410", after_seconds=10, times=2, match="sub-1")
    assert faults.hit("push", "sub-1") is None  # not yet
    faults.advance(10)
    assert [faults.hit("push", "sub-2"), faults.hit("push", "sub-1"), faults.hit("push", "sub-1")] == [
        None,
        later,
        later,
    ]
    assert faults.hit("push", "sub-1") is None  # twice only
    assert faults.clear("push") == 1 and faults.clear() == 1 and faults.listed() == []


def test_an_unknown_fault_or_share_is_refused() -> None:
    faults = Faults()
    with pytest.raises(FaultError, match="Unknown fault stripe/teapot"):
        faults.add("stripe", "teapot")
    with pytest.raises(FaultError, match="share"):
        faults.add("dynamodb", "throttle", share=1.5)
    with pytest.raises(FaultError, match="5xx"):
        faults.add("push", "5xx", status=404)
    with pytest.raises(FaultError, match="only moves ahead"):
        faults.advance(-1)


def test_simulated_sleeps_move_the_clock_and_return_at_once() -> None:
    import time

    import botocore.endpoint
    import stripe._http_client

    faults = Faults()
    real = time.monotonic()
    with simulated_sleeps(faults) as slept:
        before = faults.now()
        botocore.endpoint.time.sleep(120)
        stripe._http_client.time.sleep(30)
        assert faults.now() - before >= 150
    assert time.monotonic() - real < 5 and (slept.sleeps, slept.slept) == (2, 150.0)
    assert botocore.endpoint.time is time  # put back


@pytest.fixture
def site(aws, tmp_path: Path):
    from infra.local.gateway import LocalApiGateway
    from infra.local.server import LocalSite

    (tmp_path / "index.html").write_text("<!doctype html>")
    server = LocalSite(("127.0.0.1", 0), LocalApiGateway(aws), tmp_path)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    FAULTS.reset()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    FAULTS.reset()
    server.shutdown()
    server.server_close()


def test_the_control_api_switches_faults_on_lists_them_moves_their_clock_and_clears_them(site) -> None:
    made = requests.post(
        f"{site}/__local/faults",
        json={"target": "stripe", "kind": "429", "share": 0.5, "forSeconds": 60, "retryAfter": 3},
        timeout=10,
    )
    assert made.status_code == 201 and made.json()["kind"] == "429" and made.json()["retry_after"] == 3
    listed = requests.get(f"{site}/__local/faults", timeout=10).json()
    assert [f["target"] for f in listed["faults"]] == ["stripe"] and listed["offsetSeconds"] == 0
    bad = requests.post(f"{site}/__local/faults", json={"target": "stripe", "kind": "teapot"}, timeout=10)
    assert bad.status_code == 400 and "Unknown fault" in bad.json()["error"]
    moved = requests.post(f"{site}/__local/faults/clock", json={"advanceSeconds": 61}, timeout=10)
    assert moved.status_code == 200 and moved.json()["offsetSeconds"] == 61
    assert FAULTS.hit("stripe", "POST /v1/customers") is None  # the window is over
    cleared = requests.delete(f"{site}/__local/faults?target=stripe", timeout=10)
    assert cleared.json() == {"cleared": 1}
    assert requests.put(f"{site}/__local/faults", timeout=10).status_code == 405


def test_moto_keeps_a_message_sent_while_another_is_deleted(aws) -> None:
    """moto 5.2.1 rebuilt the queue's list in delete_message outside the queue's lock: a message
    appended meanwhile by another thread was dropped (3 emails of issue 42's run). The send is
    made while the delete is half-way through its list; with the lock it waits, and is kept."""
    from moto.backends import get_backend
    from moto.sqs import models

    from infra.local.template import ACCOUNT, REGION
    from tandem.integrations.aws import client

    sqs = client("sqs")
    queue_url = sqs.create_queue(QueueName="race")["QueueUrl"]
    sqs.send_message(QueueUrl=queue_url, MessageBody="first")
    (first,) = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=1)["Messages"]
    deleting, sent = threading.Event(), threading.Event()
    queue = get_backend("sqs")[ACCOUNT][REGION].queues["race"]
    plain = type(queue)

    class Pausing(plain):  # the one moment the race needs: the list rebuilt, not yet put in place
        def __setattr__(self, name, value):
            if name == "_messages" and threading.current_thread().name == "deleter" and not deleting.is_set():
                deleting.set()
                sent.wait(0.5)  # without the lock the send lands here, on the list about to be dropped
            super().__setattr__(name, value)

    def send_second() -> None:
        deleting.wait(5)
        queue.add_message(models.Message("m2", "second"))
        sent.set()

    try:
        queue.__class__ = Pausing
        deleter = threading.Thread(
            target=sqs.delete_message,
            kwargs={"QueueUrl": queue_url, "ReceiptHandle": first["ReceiptHandle"]},
            name="deleter",
        )
        sender = threading.Thread(target=send_second)
        sender.start()
        deleter.start()
        deleter.join(10)
        sender.join(10)
    finally:
        queue.__class__ = plain
    assert [m.body for m in queue._messages] == ["second"]
