"""DynamoDB calls of the Pitch Area's screens, counted the way tests/bench/screens.py counts
them (a `before-call` hook on the process's one botocore session), through the API as API
Gateway calls it, against moto with 30 live features (a page is 20).

Prints `BENCH pitch_list_ddb_calls <n>` (one page of live features; target: at most 2),
`BENCH pitch_list_filtered_ddb_calls`, `BENCH pitch_detail_ddb_calls`,
`BENCH pitch_mine_ddb_calls` and `BENCH dashboard_with_feature_ddb_calls` (target: at most 3).
Nothing here asserts a number.
"""

from __future__ import annotations

import sys
import time

import _setup  # sets sys.path first; see tests/bench/_setup.py

_setup.moto_environment("ERROR", POWERTOOLS_METRICS_DISABLED="true")

from tests.bench import screens  # noqa: E402 (its API client and DynamoDB call counter)


def main() -> None:
    with _setup.moto_world() as plan:
        screens._install_counter()
        from tandem.services import accounts, brands, credits, mailer, pitch, tokens
        from tandem.services.viewer import of_brand
        from tandem.store.models import Account

        mailer.enqueue = lambda *args, **kwargs: None  # the notifier's job, another Lambda
        api = screens.Client(plan)
        now = int(time.time())
        _, admin = accounts.create_account_with_user(
            email="admin@bench.example", name="Ada", password=None, access="admin"
        )

        def member(email: str, name: str, category: str):
            account, user = accounts.create_account_with_user(email=email, name="Mia", password=None)
            Account.at(account.account_id).update(actions=[Account.subscription_status.set("active")])
            credits.grant(
                account.account_id,
                kind="main",
                amount=6,
                valid_from=now - 60,
                valid_to=now + 86400,
                op_id="b",
            )
            brand = brands.create_brand(account_id=account.account_id, name=name, category=category)
            return brand, user, tokens.issue_access_token(user.user_id, account.account_id, user.access)

        body = {
            "title": "Partners wanted",
            "offer": "A spot in our box",
            "lookingFor": "Food brands",
            "audience": "UK",
            "months": 3,
            "acceptTerms": True,
        }
        kinds = ["bundles", "giveaways", "events"]
        last = None
        for i in range(30):
            brand, user, _ = member(f"f{i}@bench.example", f"Featured {i}", ["food", "home", "beauty"][i % 3])
            made = pitch.create(of_brand(brand, user), {**body, "collabKinds": [kinds[i % 3]]})
            pitch.approve(made["feature"]["id"], admin)
            last = made["feature"]["id"]
        viewer, _, token = member("viewer@bench.example", "Viewer", "food")
        me = int(viewer.brand_id)
        counts = {
            "pitch_list": api.counted("pitch list", "/api/pitch", token, me),
            "pitch_list_filtered": api.counted("pitch list (kind)", "/api/pitch?kind=events", token, me),
            "pitch_detail": api.counted("pitch detail", f"/api/pitch/{last}", token, me),
            "pitch_mine": api.counted("pitch mine", "/api/pitch/mine", token, me),
            "dashboard_with_feature": api.counted("dashboard", "/api/dashboard", token, me),
        }
        status, page = api.call("GET", "/api/pitch", token, me)
        print(f"# one page: {len(page['features'])} features, cursor {bool(page['cursor'])}", file=sys.stderr)
        for name, value in counts.items():
            print(f"BENCH {name}_ddb_calls {value}")


if __name__ == "__main__":
    main()
