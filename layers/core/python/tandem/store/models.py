"""The table's entities, one module per aggregate; the ones a cold start's first request may
read are named here for the code that imports them from one place. All entities live in one
table; each model names its own key (`Brand.key(7)` -> ("BRAND#7", "PROFILE"), built with
keys.py) and its access patterns
(`Brand.of_account(...)`, `Match.of_brand(...)`), so nothing outside tandem/store spells a key.
`Model.at(*key args)` is an item with only its key, for updates and transactions.

- base.py      TandemModel, the indexes, bind_models, transaction / update_only /
               update_returning_old / save_all, Counter;
- accounts.py  Account, User, EmailOwner, RefreshToken, OneTimeCode, RateCounter, IssueReport;
- brands.py    Brand (Audience, SocialLinks, Contact), BrandSeen, BrandRelation, BrandSummaryMap;
- matches.py   MatchRun, Match, MatchCards (MatchCard), MatchIndexShard;
- billing.py   StripeCustomer, StripeEvent;
- credits.py   CreditBucket, CreditHold, LedgerEntry;
- requests.py  ConnectionRequest;
and the Pitch Area, notifications, the admin console and member collabs in pitch.py, notify.py,
admin.py and shares.py.
Not named here: what a member's first GET /api/dashboard reads none of (a cold start then
skips their modules): matches.py, requests.py, billing.py and learning.py (MatchModel,
MatchOutcome, what Matches showed and what was done with it). Their users import them from
their own module (`from tandem.store.matches import Match`), so what a file depends on is at
its top.

Every model uses one connection over the process's one DynamoDB client (store/connection.py).
The table itself is created by CloudFormation (template.yaml) in AWS and from the same
template by the local stack and the tests, never by these classes.
"""

from __future__ import annotations

from tandem.store.accounts import (
    USER_LIST_ATTRIBUTES,
    Account,
    EmailOwner,
    IssueReport,
    OneTimeCode,
    RateCounter,
    RefreshToken,
    User,
)
from tandem.store.base import (
    ALL_MODELS,
    Counter,
    Key,
    TandemModel,
    _Gsi1,
    _Gsi2,
    _register,
    bind_models,
    save_all,
    transaction,
    update_only,
    update_returning_old,
)
from tandem.store.brands import (
    Audience,
    Brand,
    BrandRelation,
    BrandSeen,
    BrandSummaryMap,
    Contact,
    SocialLinks,
)
from tandem.store.credits import CreditBucket, CreditHold, LedgerEntry

__all__ = [
    "USER_LIST_ATTRIBUTES",
    "Key",
    "_Gsi1",
    "_Gsi2",
    "TandemModel",
    "ALL_MODELS",
    "_register",
    "bind_models",
    "transaction",
    "update_only",
    "update_returning_old",
    "save_all",
    "Counter",
    "Account",
    "User",
    "EmailOwner",
    "RefreshToken",
    "OneTimeCode",
    "RateCounter",
    "IssueReport",
    "Audience",
    "SocialLinks",
    "Contact",
    "Brand",
    "BrandRelation",
    "BrandSummaryMap",
    "BrandSeen",
    "CreditBucket",
    "CreditHold",
    "LedgerEntry",
]
