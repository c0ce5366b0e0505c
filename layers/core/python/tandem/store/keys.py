"""Key builders for the single table. One place decides how every entity is addressed:
nothing outside tandem/store spells a key prefix (tests/unit/test_store_boundaries.py).
Each model in models.py names its own key with these (`Brand.key(7)`).

Access patterns:
- an entity by id                      pk=<KIND>#<id>            sk=<KIND or child>
- all brands (match candidates)        gsi1pk=BRANDS             gsi1sk=BRAND#<padded id>
- a user by email                      gsi1pk=EMAIL#<email>      gsi1sk=USER
- an account's brands                  gsi2pk=ACCOUNT#<id>       gsi2sk=BRAND#<padded id>
- a brand's relations to others       pk=BRAND#<id>             sk=REL#<padded other id>
- runs still open (scheduler sweep)    gsi2pk=MATCHRUN#<status>  gsi2sk=<started iso>
- a connection request by id           pk=REQUEST#<id>           sk=META
- requests a brand received, by box    gsi1pk=REQ-IN#<brand>     gsi1sk=<BOX>#<ms>#<id>
- requests a brand sent, by box        gsi2pk=REQ-OUT#<brand>    gsi2sk=<BOX>#<ms>#<id>
  (BOX: PENDING | AWAITING | CONNECTED | DECLINED | CANCELLED; ms = last change, newest first)
- pending requests' next step due        gsi3pk=REQ-DUE            gsi3sk=<due epoch s>#<id>
  (sparse: only requests with a reminder, expiry or expiry email to come; expire-requests job)
- a brand's reply-time figures          pk=BRAND#<id>             sk=REPLYSTATS
- what a brand has seen (isNew)        pk=BRAND#<id>             sk=SEEN
- a brand's match list (Matches)       pk=BRAND#<id>             sk=MATCHCARDS
- an account's users (notifications)   gsi2pk=ACCOUNT-USERS#<id> gsi2sk=USER#<id>
- every user by email (admin lists)     gsi3pk=USERS              gsi3sk=<email>#<user id>
- holds still held (month-end settle)  gsi2pk=HOLDS#held         gsi2sk=<release_until>#<account>#<ref>
- live credit buckets (ledger check)   gsi1pk=BUCKETS            gsi1sk=<valid_to>#<account>#<bucket>
- a Stripe customer's account          pk=STRIPE_CUSTOMER#<cus>  sk=META
- accounts with a credit month to grant gsi1pk=BILLING_DUE        gsi1sk=<due epoch s>#<account>
- a customer's events in progress      gsi2pk=STRIPE_PENDING#<cus> gsi2sk=<received iso>
- a customer's processed events        gsi1pk=STRIPE_DONE#<cus>  gsi1sk=<done iso>
- the match-index shards' versions     pk=MATCHINDEX-VERSIONS   sk=META (brand search's check)
- request outcomes by month (training)  pk=OUTCOMES#<YYYYMM>     sk=<outcome ms>#<request id>
- the learned match model              pk=MATCHMODEL            sk=META
"""

from __future__ import annotations

import hashlib

ID_WIDTH = 10


def padded(num: int) -> str:
    return str(num).zfill(ID_WIDTH)


def brand_pk(brand_id: int) -> str:
    return f"BRAND#{brand_id}"


ACCOUNT_PREFIX = "ACCOUNT#"


def account_pk(account_id: str) -> str:
    return f"{ACCOUNT_PREFIX}{account_id}"


USER_PREFIX = "USER#"


def user_pk(user_id: str) -> str:
    return f"{USER_PREFIX}{user_id}"


EMAIL_SK = "USER"  # gsi1sk of a user's email entry
ALL_USERS = "USERS"  # gsi3pk of every user (the admin lists)


def user_list_sk(email: str, user_id: str) -> str:
    """gsi3sk: users listed by email (then id: an address may be held twice from before)."""
    return f"{email.strip().lower()}#{user_id}"


def email_gsi(email: str) -> str:
    return f"EMAIL#{email.strip().lower()}"


PROFILE = "PROFILE"
META = "META"
ALL_BRANDS = "BRANDS"


def brand_list_sk(brand_id: int) -> str:
    return f"BRAND#{padded(brand_id)}"


MATCH_RUN_PREFIX = "MATCHRUN#"
MATCH_PREFIX = "MATCH#"
# Sorts after every MATCH#<id> and before MATCHRUN#, PROFILE, REL# and SEEN: a Query of the brand's
# partition from here to SEEN reads its match list without its Match items.
MATCH_CARDS = "MATCHCARDS"


def match_run_sk(run_id: str) -> str:
    return f"{MATCH_RUN_PREFIX}{run_id}"


def match_sk(candidate_id: int) -> str:
    return f"{MATCH_PREFIX}{padded(candidate_id)}"


MATCH_INDEX = "MATCHINDEX"  # packed match profiles: pk=MATCHINDEX sk=SHARD#<n>


def match_index_shard_sk(shard: int) -> str:
    return f"SHARD#{str(shard).zfill(6)}"


def shard_of_sk(sort_key: str) -> int:
    return int(sort_key.split("#", 1)[1])


# The shards' versions (pk=MATCHINDEX-VERSIONS, sk=META), brand search's check: a partition of
# its own, so the MATCHINDEX partition holds only shards.
MATCH_INDEX_MANIFEST = "MATCHINDEX-VERSIONS"


def match_run_status_gsi(status: str) -> str:
    return f"MATCHRUN#{status}"


RELATION_PREFIX = "REL#"


def relation_sk(other_id: int) -> str:
    return f"{RELATION_PREFIX}{padded(other_id)}"


def stripe_event_pk(event_id: str) -> str:
    return f"STRIPE_EVENT#{event_id}"


def stripe_customer_pk(customer_id: str) -> str:
    return f"STRIPE_CUSTOMER#{customer_id}"


BILLING_DUE = "BILLING_DUE"  # gsi1pk of accounts with a credit month still to grant


def billing_due_sk(due_at: int, account_id: str) -> str:
    return f"{str(due_at).zfill(ID_WIDTH)}#{account_id}"


def stripe_pending_gsi(customer_id: str) -> str:
    """gsi2pk of a customer's events received but not processed yet (sparse)."""
    return f"STRIPE_PENDING#{customer_id}"


STRIPE_RETRY_GSI = "STRIPE_RETRY"  # gsi1pk of failed events due for an automatic retry (gsi1sk: when)


def stripe_done_gsi(customer_id: str) -> str:
    """gsi1pk of a customer's processed events (gsi1sk: when processing finished)."""
    return f"STRIPE_DONE#{customer_id}"


COUNTER_PK = "COUNTER"


REFRESH_PREFIX = "REFRESH#"


def refresh_sk(token_id: str) -> str:
    return f"{REFRESH_PREFIX}{token_id}"


def code_pk(code_hash: str) -> str:
    return f"CODE#{code_hash}"


BUCKET_PREFIX = "BUCKET#"


def grant_bucket_id(grant_op_id: str) -> str:
    """The credit bucket a grant makes (credits.grant) and everything that finds it again (a
    revocation, the billing sync's "granted already"): named by its op id, so a grant applied
    twice lands on the one bucket."""
    return hashlib.sha256(grant_op_id.encode()).hexdigest()[:20]


def bucket_sk(bucket_id: str) -> str:
    return f"{BUCKET_PREFIX}{bucket_id}"


def hold_sk(hold_id: str) -> str:
    return f"HOLD#{hold_id}"


LEDGER_PREFIX = "LEDGER#"


def ledger_sk(op_id: str, bucket_id: str) -> str:
    return f"{ledger_op_prefix(op_id)}{bucket_id}"


def ledger_op_prefix(op_id: str) -> str:
    """Sort-key prefix of every ledger entry of one operation (one per bucket it touched)."""
    return f"{LEDGER_PREFIX}{op_id}#"


REQUEST_PREFIX = "REQUEST#"


def request_pk(request_id: str) -> str:
    return f"{REQUEST_PREFIX}{request_id}"


def requests_in_gsi(brand_id: int) -> str:
    return f"REQ-IN#{brand_id}"


def requests_out_gsi(brand_id: int) -> str:
    return f"REQ-OUT#{brand_id}"


TIME_WIDTH = 13  # epoch milliseconds


def box_sk(box: str, ms: int, request_id: str) -> str:
    return f"{box}#{str(ms).zfill(TIME_WIDTH)}#{request_id}"


def box_prefix(box: str) -> str:
    return f"{box}#"


def box_ms(sort_key: str) -> int:
    """When an entry entered its box (epoch ms), from its box sort key."""
    return int(sort_key.split("#")[1])


def box_after(box: str, ms: int) -> tuple[str, str]:
    """Sort-key bounds of a box's entries changed after `ms` (for new-item counts)."""
    return f"{box}#{str(ms + 1).zfill(TIME_WIDTH)}", f"{box}#~"


REQUESTS_DUE = "REQ-DUE"  # gsi3pk of requests with a scheduled step to come (sparse)


def request_due_sk(due_at: int, request_id: str) -> str:
    return f"{str(int(due_at)).zfill(ID_WIDTH)}#{request_id}"


def request_due_before(now: int) -> str:
    """gsi3sk bound: every step due at or before `now` sorts below it."""
    return f"{str(int(now) + 1).zfill(ID_WIDTH)}#"


def request_id_of(pk: str) -> str:
    return pk[len(REQUEST_PREFIX) :]


def reminder_sk(day: int) -> str:
    """A request's reminder of day `day`, claimed once (store/requests.py RequestReminder)."""
    return f"REMINDED#{day}"


REPLY_STATS = "REPLYSTATS"  # sk of a brand's reply-time figures (pk: the brand)


def reply_week_attr(week: int, field: str) -> str:
    """A reply-stats attribute of one received-week (weeks since the epoch): w<week>_<field>."""
    return f"w{week}_{field}"


SEEN = "SEEN"


def account_users_gsi(account_id: str) -> str:
    return f"ACCOUNT-USERS#{account_id}"


HELD_HOLDS = "HOLDS#held"


def held_hold_gsi_sk(release_until: int, account_id: str, ref: str) -> str:
    return f"{str(release_until).zfill(ID_WIDTH)}#{account_id}#{ref}"


LIVE_BUCKETS = "BUCKETS"


def bucket_gsi_sk(valid_to: int, account_id: str, bucket_id: str) -> str:
    return f"{str(valid_to).zfill(ID_WIDTH)}#{account_id}#{bucket_id}"


def issue_pk(report_id: str) -> str:
    return f"ISSUE#{report_id}"


ALL_ISSUES = "ISSUES"  # gsi1pk of every issue report (gsi1sk: when it was reported)

# The Pitch Area (store/pitch.py): a feature, a brand's one slot, the live list by status.
FEATURE_PREFIX = "FEATURE#"
SLOT_SK = "FEATURE"
FEATURES_PREFIX = "FEATURES#"


def status_gsi(status: str) -> str:
    return f"{FEATURES_PREFIX}{status}"


def brand_features_gsi(brand_id: int) -> str:
    return f"BRAND-FEATURES#{brand_id}"


# Member collabs (store/shares.py): a share on its request, all shared collabs.
SHARE_SK = "SHARE"
ALL_SHARED = "COLLABS"

# The admin console (store/admin.py): audit entries, site settings, the approval queue.
AUDIT_PREFIX = "AUDIT#"
ALL_AUDIT = "AUDIT"
SITE_PK = "SITE"
SETTINGS_SK = "SETTINGS"
APPROVAL_PENDING = "APPROVAL#pending"

# Notifications (store/notify.py): preferences, push subscriptions, Slack, digests, suppressions,
# payment notices, tip weeks, deliveries.
NOTIFY_SK = "NOTIFY"
PUSH_PREFIX = "PUSH#"
SLACK_SK = "SLACK"
SLACK_STATE_PREFIX = "SLACKSTATE#"
DIGEST_PREFIX = "DIGEST#"
DIGEST_PENDING = "DIGEST_PENDING"
SUPPRESSED_PREFIX = "SUPPRESSED#"
PAYMENT_NOTICE_PREFIX = "PAYNOTICE#"
TIP_WEEK_PREFIX = "TIPWEEK#"
DELIVERY_PREFIX = "NOTIFIED#"


EMAIL_OWNER_SK = "OWNER"


def email_owner_pk(email: str) -> str:
    """Who owns an address (EmailOwner): claimed once, so one address is one user."""
    return f"EMAIL#{email}"


def rate_pk(scope: str, subject: str) -> str:
    return f"RATE#{scope}#{subject.lower()}"


# Trust and safety (store/safety.py, issue 27): a brand's blocks, the suspended brands, reports.
# SAFETY sorts between PROFILE and SEEN, so a brand's partition Query (store/partition.py) reads
# its blocks with its profile, relations and what is new.
SAFETY_SK = "SAFETY"
SUSPENDED_SK = "SUSPENDED"  # pk=SITE: the ids of every suspended brand
REPORT_CASE_SK = "CASE"


def reports_pk(brand_id: int) -> str:
    return f"REPORTS#{brand_id}"


def reporter_sk(account_id: str) -> str:
    return f"FROM#{account_id}"


def report_cases_gsi(status: str) -> str:
    """gsi1pk of report cases by status (open | suspended); a closed case is deleted."""
    return f"REPORTS#{status}"


# Learning from outcomes (store/learning.py, issue 30): each request's outcome with the pair's
# packed records, in one partition per month of the outcome (the training job Queries the last
# months, no scan), and the trained model as one item.
def match_outcomes_pk(month: str) -> str:
    """pk of the outcomes recorded in `month` (YYYYMM, UTC)."""
    return f"OUTCOMES#{month}"


def match_outcome_sk(at_ms: int, request_id: str) -> str:
    return f"{str(int(at_ms)).zfill(TIME_WIDTH)}#{request_id}"


MATCH_MODEL = "MATCHMODEL"  # pk of the learned model (sk=META)


# What members are shown and do (store/learning.py, issue 37): one partition per UTC day of each
# (the training job Queries the days it learns from, no scan).
def shown_pk(day: str) -> str:
    """pk of the views (impressions) of `day` (YYYYMMDD, UTC)."""
    return f"SHOWN#{day}"


def acts_pk(day: str) -> str:
    """pk of the members' actions on cards of `day` (YYYYMMDD, UTC)."""
    return f"ACTS#{day}"


# Collaborations (store/collaborations.py, issue 41): one partition per collaboration holds a copy
# of the collaboration for each of its two brands (SIDE#<brand>: each copy is on that brand's
# index, so a brand's list is one Query) and its thread (MSG#<ms>#<id>); the screen of one
# collaboration is one Query of the partition.
COLLAB_PREFIX = "COLLAB#"
COLLAB_SIDE_PREFIX = "SIDE#"
COLLAB_MESSAGE_PREFIX = "MSG#"


def collab_pk(collab_id: str) -> str:
    return f"{COLLAB_PREFIX}{collab_id}"


def collab_side_sk(brand_id: int) -> str:
    return f"{COLLAB_SIDE_PREFIX}{padded(brand_id)}"


def collab_message_sk(at_ms: int, message_id: str) -> str:
    return f"{COLLAB_MESSAGE_PREFIX}{str(int(at_ms)).zfill(TIME_WIDTH)}#{message_id}"


def brand_collabs_gsi(brand_id: int) -> str:
    """gsi1pk of a brand's collaborations (gsi1sk: when each was proposed, then its id)."""
    return f"BRAND-COLLABS#{brand_id}"


def brand_collabs_sk(created_ms: int, collab_id: str) -> str:
    return f"{str(int(created_ms)).zfill(TIME_WIDTH)}#{collab_id}"


# gsi2pk of the agreed collaborations whose reminders are still to come (sparse, on the proposer's
# copy only; gsi2sk: <end date>#<id>), the collaboration-reminders job's one Query.
COLLABS_WATCHED = "COLLAB-WATCH"
COLLAB_STATS_SK = "COLLABSTATS"  # pk=SITE: how many collaborations are in each status, proposed each month


def collab_watch_sk(end_day: str, collab_id: str) -> str:
    return f"{end_day}#{collab_id}"


def collab_reminded_sk(key: str) -> str:
    """A collaboration's reminder, claimed once (store/collaborations.py CollabReminder)."""
    return f"REMINDED#{key}"


COLLAB_FEED_SK = "CALFEED"  # pk=BRAND#<id>: the brand's calendar feed (the hash of its secret)


def collab_feed_pk(secret_hash: str) -> str:
    """Which brand a calendar feed's secret opens (pk=CALFEED#<sha256 of the secret>, sk=META)."""
    return f"CALFEED#{secret_hash}"
