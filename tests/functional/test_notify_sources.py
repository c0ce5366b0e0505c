"""The notification sources wired beyond requests: new matches after each run and in the daily
digest at 9:00 the member's time, the payment receipt from the billing sync (mandatory email),
and that each follows the member's settings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tandem.domain.matching import Scored
from tests.functional.helpers import Brand, mail_to, run_job, subscribe
from tests.functional.test_billing import Shop, fake, shop  # noqa: F401  (fixtures)


def digests(at: datetime) -> dict[str, int]:
    """The hourly digest job at `at`, as the scheduler runs it (epoch seconds)."""
    from tandem.services import match_news

    return match_news.send_digests(int(at.timestamp()))


def _store(brand: Brand, candidates: list[Brand], run: str = "run-1") -> int:
    """What a match run's last step does: store the brand's best matches."""
    from tandem.services import match_runs

    chosen = [
        Scored(c.id, 0.9 - i / 100, ("They want giveaways, like you",)) for i, c in enumerate(candidates)
    ]
    return match_runs.store_matches(brand.id, run, chosen, [])


def _others(count: int, start: int = 0) -> list[Brand]:
    return [
        Brand(f"o{i}@example.com", f"Brand {i}", status="none", category="food")
        for i in range(start, start + count)
    ]


def _settings(api, member: Brand, change: dict, offset: str | None = None) -> dict:
    headers = dict(member.headers)
    if offset is not None:
        headers["X-Timezone-Offset"] = offset
    status, body = api.call("PUT", "/api/notifications/user", headers, change)
    assert status == 200, body
    return body


@pytest.mark.delivery
def test_each_run_message_lists_the_new_matches_when_the_member_takes_it(api):
    mia = Brand("mia@example.com", "Oat & Co")  # subscribed: sees names
    others = _others(7)
    _settings(api, mia, {"new_matches": {"subOptions": {"each_run": {"email": True}}}})

    assert _store(mia, others) == 7
    (mail,) = [m for m in mail_to("mia@example.com") if "new matches" in m.subject]
    assert mail.subject == "7 new matches for Oat & Co"
    assert "Brand 0 (food)" in mail.body and "Brand 4 (food)" in mail.body
    assert "Brand 5" not in mail.body and "...and 2 more." in mail.body
    # "See all your matches" signs the member in on them (tests/functional/test_sign_in_links.py).
    assert f"/matches/brand/{others[0].id}" in mail.body and "/new-matches" in mail.body

    assert _store(mia, others, "run-2") == 0  # nothing new: no message
    assert len([m for m in mail_to("mia@example.com") if "new matches" in m.subject]) == 1


@pytest.mark.delivery
def test_each_run_is_off_by_default_and_a_member_without_a_plan_sees_masked_names(api):
    ben = Brand("ben@example.com", "Fern Candles", status="none")
    _store(ben, _others(2))
    assert mail_to("ben@example.com") == []  # default: the daily digest only

    _settings(api, ben, {"new_matches": {"subOptions": {"each_run": {"email": True}}}})
    _store(ben, _others(1, start=10), "run-2")
    (mail,) = mail_to("ben@example.com")
    assert mail.subject == "1 new match for Fern Candles"
    assert "Brand 10" not in mail.body and "A food brand" in mail.body


@pytest.mark.delivery
def test_the_daily_digest_comes_at_nine_local_once_with_the_matches_since_the_last(api, aws):
    from tandem.store.notify import DigestPending

    mia = Brand("mia@example.com", "Oat & Co")
    # The settings screen sends the member's offset: India, UTC+5:30 -> the 04:00 UTC run (9:30 local).
    _settings(api, mia, {"tips": {"email": False}}, offset="5.5")
    _store(mia, _others(3))
    assert mail_to("mia@example.com") == []  # nothing right after the run: the digest waits

    now = datetime.now(UTC)
    four = now.replace(hour=4, minute=0, second=0, microsecond=0)
    four += timedelta(days=1) if four <= now else timedelta()  # the next 04:00 UTC
    at = lambda hour, days=0: four + timedelta(hours=hour - 4, days=days)  # noqa: E731
    assert digests(at(3)) == {"accounts": 1, "digests": 0}  # 8:30 in India
    assert digests(at(4)) == {"accounts": 1, "digests": 1}
    (digest,) = mail_to("mia@example.com")
    assert digest.subject == "Your daily matches: 3 new brands"
    assert "Oat & Co: 3 new" in digest.body and "Brand 2 (food)" in digest.body
    assert "/notifications/unsubscribe/" in str(digest.headers.get("List-Unsubscribe", ""))

    assert digests(at(4)) == {"accounts": 1, "digests": 0}  # again the same hour
    assert digests(at(4, days=1)) == {"accounts": 1, "digests": 0}  # nothing new
    assert len(mail_to("mia@example.com")) == 1
    assert DigestPending.all() == []  # a day after its last run the account is forgotten

    assert run_job(aws, "new-matches-digest") == {"accounts": 0, "digests": 0}  # the scheduler job


def _next(hour: int, after: datetime) -> datetime:
    """The first time the UTC clock reads `hour`:00 after `after`."""
    at = after.replace(minute=0, second=0, microsecond=0)
    while at <= after or at.hour != hour:
        at += timedelta(hours=1)
    return at


@pytest.mark.delivery
def test_the_hourly_digest_reads_an_accounts_users_once_after_each_run(api, operations):
    from tandem.domain.notifications import digest_hour_utc
    from tandem.store.notify import DigestPending

    # A digest holds the last day's matches, and these are stored now: every run below is within a
    # few hours of now, at whatever hour the test runs (a fixed quiet hour put Ben's digest 28 hours
    # after his matches when it ran at 10:00 UTC). The members' offsets are chosen so their digest
    # hours come 2 and 4 hours after the first run: Mia's a half-hour offset, Ben's a whole one.
    now = datetime.now(UTC)
    first = _next((now.hour + 1) % 24, now)

    def offset_for(hour: int, half: bool) -> float:
        offsets = [o + (0.5 if half else 0.0) for o in range(-11, 13)]
        return next(o for o in offsets if digest_hour_utc(o) == hour)

    mia_offset, ben_offset = offset_for((first.hour + 2) % 24, True), offset_for((first.hour + 4) % 24, False)
    mia, ben = Brand("mia@example.com", "Oat & Co"), Brand("ben@example.com", "Fern Candles")
    _settings(api, mia, {"tips": {"email": False}}, offset=str(mia_offset))
    _settings(api, ben, {"tips": {"email": False}}, offset=str(ben_offset))
    hours = {"mia": digest_hour_utc(mia_offset), "ben": digest_hour_utc(ben_offset)}
    _store(mia, _others(3))
    _store(ben, _others(2, start=10))

    operations.clear()
    assert digests(first) == {"accounts": 2, "digests": 0}
    assert sorted(operations) == ["BatchGetItem"] * 2 + ["Query"] * 3 + ["UpdateItem"] * 2
    assert {p.account_id: p.hours for p in DigestPending.all()} == {
        mia.account: {hours["mia"]},
        ben.account: {hours["ben"]},
    }
    operations.clear()
    assert digests(first + timedelta(hours=1)) == {"accounts": 2, "digests": 0}
    assert operations == ["Query"]  # not their hour: passed by on the one Query

    assert digests(_next(hours["mia"], first)) == {"accounts": 2, "digests": 1}
    assert [m.subject for m in mail_to("mia@example.com")] == ["Your daily matches: 3 new brands"]
    assert mail_to("ben@example.com") == []
    assert digests(_next(hours["ben"], first)) == {"accounts": 2, "digests": 1}
    assert [m.subject for m in mail_to("ben@example.com")] == ["Your daily matches: 2 new brands"]

    _store(mia, _others(1, start=20), "run-2")  # a new run: mia's users are looked up again
    assert {p.account_id: p.hours for p in DigestPending.all()}[mia.account] is None


@pytest.mark.delivery
def test_digest_turned_off_sends_nothing_and_unsubscribe_is_per_source(api):

    ben = Brand("ben@example.com", "Fern Candles")
    _settings(api, ben, {"new_matches": {"subOptions": {"daily_digest": {"email": False}}}}, offset="0")
    _store(ben, _others(2))
    nine = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0) + timedelta(days=1)
    assert digests(nine) == {"accounts": 1, "digests": 0}
    assert mail_to("ben@example.com") == []


@pytest.mark.delivery
def test_a_payment_sends_one_receipt_however_often_the_sync_runs(shop: Shop):  # noqa: F811
    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    # Billing email is required: the member cannot switch it off.
    status, body = shop.api.call(
        "PUT", "/api/notifications/user", mia.headers, {"billing_account": {"email": False}}
    )
    assert status == 400 and "required" in str(body), body
    shop.pay(shop.link(mia))
    events = shop.new_events()
    shop.deliver_all(events)
    receipts = [m for m in mail_to("mia@tandem.local") if m.subject.startswith("Payment received")]
    assert [m.subject for m in receipts] == ["Payment received: £49"]
    assert "your Tandem subscription" in receipts[0].body
    assert "List-Unsubscribe" not in receipts[0].headers  # a required email has no unsubscribe

    from tandem.services import billing

    billing.sync_account(mia.account)  # every later sync (events, the payment page) sees it again
    receipts = [m for m in mail_to("mia@tandem.local") if m.subject.startswith("Payment received")]
    assert len(receipts) == 1


@pytest.mark.delivery
def test_two_syncs_at_once_send_one_receipt(shop: Shop, monkeypatch):  # noqa: F811
    """Both syncs read the claims before either claims (held at a barrier): the claim's
    condition, not the batch read, keeps the receipt to one."""
    import threading

    from tandem.services import billing
    from tandem.store.notify import PaymentNotice

    mia = Brand("mia@tandem.local", "Oat & Co", status="none")
    shop.pay(shop.link(mia))  # paid in Stripe; its events not delivered yet
    both_read = threading.Barrier(2, timeout=60)
    read_claims = PaymentNotice.noticed.__func__

    def noticed(cls, payment_ids):
        found = read_claims(cls, payment_ids)
        both_read.wait()
        return found

    monkeypatch.setattr(PaymentNotice, "noticed", classmethod(noticed))
    errors: list[BaseException] = []

    def sync() -> None:
        try:
            billing.sync_account(mia.account)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=sync) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and not any(t.is_alive() for t in threads)
    receipts = [m for m in mail_to("mia@tandem.local") if m.subject.startswith("Payment received")]
    assert [m.subject for m in receipts] == ["Payment received: £49"]


@pytest.mark.delivery
def test_members_of_an_account_without_a_plan_get_their_own_settings(api):
    """Each user of the account follows their own settings (the notifier resolves them)."""
    ann = Brand("ann@example.com", "Salt Harbour", status="none")
    subscribe(ann.account)
    _settings(api, ann, {"new_matches": {"email": True}})  # the source's own flag covers every run
    _store(ann, _others(1))
    assert [m.subject for m in mail_to("ann@example.com")] == ["1 new match for Salt Harbour"]


@pytest.mark.delivery
def test_the_weekly_tip_goes_once_a_week_to_members_who_take_tips(api, aws):
    Brand("mia@example.com", "Oat & Co")
    ben = Brand("ben@example.com", "Fern Candles", status="none")
    _settings(api, ben, {"tips": {"email": False}})

    first = run_job(aws, "weekly-tip")
    assert first["queued"] == 2 and first["week"].startswith("20")  # queued for both; settings decide
    (tip,) = mail_to("mia@example.com")
    assert tip.subject.startswith("Collab idea of the week: ")
    assert "/inspiration/ideas?idea=" in tip.body
    assert "/notifications/unsubscribe/" in str(tip.headers.get("List-Unsubscribe", ""))
    assert mail_to("ben@example.com") == []

    assert run_job(aws, "weekly-tip") == {"week": first["week"], "queued": 0, "already": True}
    assert len(mail_to("mia@example.com")) == 1
