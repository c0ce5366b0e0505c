"""The push service failing (issue 42): a 410 removes the browser's subscription at once (no
retry, nothing pushed to it again); a 5xx is retried on its own queue message, with the delay
growing per attempt, and after MAX_PUSH_RETRIES falls back to email exactly once."""

from __future__ import annotations

from infra.local.faults import Faults
from tandem.services import notify
from tests.faults.conftest import Notifier
from tests.functional.helpers import Brand, mail_to, send
from tests.functional.test_notifications import _subscribe
from tests.functional.test_notify_sources import _others, _store


def test_a_410_removes_the_subscription_and_the_email_goes_once(aws, api, fake_push, faults: Faults) -> None:
    from tandem.store.notify import PushSubscription

    notifier = Notifier(aws, faults)
    oat, ivy = Brand("a@example.com", "Oat & Co", credits=6), Brand("c@example.com", "Ivy Tea", credits=6)
    fern = Brand("b@example.com", "Fern Candles")
    subscription = _subscribe(api, fern, fake_push)
    change = {"requests_received": {"browser": True}}  # email stays on
    assert api.call("PUT", "/api/notifications/user", fern.headers, change)[0] == 200
    assert len(PushSubscription.of_user(fern.user.user_id)) == 1
    gone = faults.add("push", "410")

    assert send(api, oat, fern)[0] == 201
    assert notifier.drain() == [(1, 0)]  # delivered: the push ended for good, not an error
    assert gone.hits == 1
    assert PushSubscription.of_user(fern.user.user_id) == []
    assert fake_push.messages(subscription) == []
    assert len(mail_to(fern.email)) == 1

    assert send(api, ivy, fern)[0] == 201
    assert notifier.drain() == [(1, 0)]
    assert gone.hits == 1  # no push tried: the subscription is gone
    assert len(mail_to(fern.email)) == 2  # one email per request, none for the push


def test_a_push_service_failing_with_503_is_retried_then_falls_back_to_email_once(
    aws, api, fake_push, faults: Faults
) -> None:
    notifier = Notifier(aws, faults)
    mia = Brand("mia@example.com", "Oat & Co")
    subscription = _subscribe(api, mia, fake_push)
    change = {"new_matches": {"subOptions": {"each_run": {"browser": True}}}}  # email for the digest only
    assert api.call("PUT", "/api/notifications/user", mia.headers, change)[0] == 200
    failing = faults.add("push", "5xx", status=503)

    _store(mia, _others(2))
    rounds = notifier.drain()
    assert rounds == [(1, 0)] * (1 + notify.MAX_PUSH_RETRIES)  # the first try and five retries
    assert failing.hits == 1 + notify.MAX_PUSH_RETRIES
    assert fake_push.messages(subscription) == []
    (mail,) = mail_to("mia@example.com")  # then the email, once
    assert mail.subject == "2 new matches for Oat & Co"
    assert notifier.drain() == [] and len(mail_to("mia@example.com")) == 1

    faults.clear()  # the push service is back: the next run's matches are pushed, not mailed
    _store(mia, _others(2, start=2), run="run-2")
    assert notifier.drain() == [(1, 0)]
    assert len(fake_push.messages(subscription)) == 1 and len(mail_to("mia@example.com")) == 1
