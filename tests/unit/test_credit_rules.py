from tandem.domain.credits import Bucket, pick, summary

NOW = 1_000_000


def b(bucket_id, available, valid_to, kind="main", total=None, valid_from=0):
    return Bucket(bucket_id, kind, total or available, available, valid_from, valid_to)


def test_soonest_expiring_bucket_pays_first_and_spans_buckets():
    plan = pick([b("late", 5, NOW + 900), b("soon", 1, NOW + 10), b("expired", 9, NOW - 1)], 3, NOW)
    assert [(bucket.bucket_id, take) for bucket, take in plan] == [("soon", 1), ("late", 2)]


def test_not_enough_credits_is_none_and_expired_or_future_buckets_do_not_count():
    assert pick([b("expired", 9, NOW), b("future", 9, NOW + 99, valid_from=NOW + 1)], 1, NOW) is None
    assert pick([b("a", 2, NOW + 5)], 3, NOW) is None


def test_summary_counts_live_buckets_and_lists_add_ons():
    info = summary(
        [b("m", 4, NOW + 100, total=6), b("g", 2, NOW + 50, kind="gifted", total=2), b("old", 6, NOW - 5)],
        NOW,
    )
    assert (info["available"], info["total"], info["totalMain"], info["totalAddOns"]) == (6, 8, 6, 2)
    assert info["next"] == {"to": NOW + 50, "credits": 2}
    assert info["giftedOnly"] is False
    assert [a["type"] for a in info["addOns"]] == ["gifted"]
