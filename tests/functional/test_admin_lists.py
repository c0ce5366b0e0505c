"""The admin Users and Members lists read the users index (gsi3), never a table scan: every
DynamoDB operation of their loads is counted, as tests/bench/screens.py counts a screen's. A
user is in the index from sign-up, moves in it with an email change, and users from before
the index are put in it by the `index-users` job."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import auth_headers
from tests.functional.helpers import run_job


@pytest.fixture
def boss(aws) -> dict[str, Any]:
    from tandem.services import accounts, tokens

    _, user = accounts.create_account_with_user(
        email="boss@tandem.local", name="Ada Admin", password=None, access="admin"
    )
    token = tokens.issue_access_token(user.user_id, user.account_id, "admin")
    return {"user": user, "headers": auth_headers(token)}


def _sign_up(email: str, name: str) -> Any:
    from tandem.services import accounts

    return accounts.create_account_with_user(email=email, name=name, password=None)[1]


def test_users_and_members_come_from_the_index_in_email_order(api, boss, operations) -> None:
    for n in (3, 1, 2):
        _sign_up(f"shop{n}@example.com", f"Shop Keeper {n}")
    _sign_up("zed@tandem.local", "Zed Zebra")

    operations.clear()
    status, body = api.call("GET", "/api/admin/users", boss["headers"])
    assert status == 200
    assert [u["email"] for u in body["users"]] == [
        "boss@tandem.local",
        "shop1@example.com",
        "shop2@example.com",
        "shop3@example.com",
        "zed@tandem.local",
    ]
    assert body["users"][-1] == {
        "id": body["users"][-1]["id"],
        "email": "zed@tandem.local",
        "name": "Zed Zebra",
        "access": "member",
    }
    assert "Scan" not in operations and "Query" in operations, operations

    operations.clear()
    status, body = api.call("GET", "/api/admin/members?q=keeper", boss["headers"])
    assert status == 200
    assert [(u["email"], u["name"], u["plan"]["status"]) for u in body["users"]] == [
        (f"shop{n}@example.com", f"Shop Keeper {n}", "none") for n in (1, 2, 3)
    ]
    assert body["nextCursor"] is None
    status, body = api.call("GET", "/api/admin/members?q=ZED", boss["headers"])
    assert [u["email"] for u in body["users"]] == ["zed@tandem.local"]
    # each search is the caller, one Query of the index and one BatchGetItem of the page's
    # accounts (the three-calls rule): no member's credits are read, although none has a plan
    assert operations == ["GetItem", "Query", "BatchGetItem"] * 2, operations


def test_gifted_credits_only_is_told_from_the_account_without_reading_credits(
    aws, api, boss, operations
) -> None:
    from tandem.services import admin

    _sign_up("gift@example.com", "Gift Ed")
    _sign_up("plain@example.com", "Plain Ed")
    admin.gift_credits(boss["user"], {"email": "gift@example.com", "amount": 3, "kind": "gifted", "days": 30})
    operations.clear()
    status, body = api.call("GET", "/api/admin/members?q=%20ed", boss["headers"])
    assert status == 200, body
    assert [(u["email"], u["plan"]["status"]) for u in body["users"]] == [
        ("gift@example.com", "gifted"),
        ("plain@example.com", "none"),
    ]
    assert operations == ["GetItem", "Query", "BatchGetItem"], operations


def test_accounts_from_before_credit_windows_are_filled_in_by_the_job(aws, api, boss) -> None:
    from tandem.services import admin
    from tandem.store.models import Account

    old = _sign_up("early-gift@example.com", "Early Gift")
    admin.gift_credits(
        boss["user"], {"email": "early-gift@example.com", "amount": 2, "kind": "gifted", "days": 30}
    )
    Account(*Account.key(old.account_id)).update(actions=[Account.credit_windows.remove()])

    # until the job ran, the console reads the ledger for it, and still says what it holds
    found = api.call("GET", "/api/admin/members?q=early-gift", boss["headers"])[1]["users"]
    assert [u["plan"]["status"] for u in found] == ["gifted"]

    assert run_job(aws, "index-users")["creditWindows"] == 1
    windows = Account.get(*Account.key(old.account_id)).credit_windows
    assert [kind for kind, *_ in windows] == ["gifted"]
    assert run_job(aws, "index-users")["creditWindows"] == 0


def test_members_page_by_cursor_without_a_scan(api, boss, operations) -> None:
    from tandem.services import admin

    for n in range(admin.PAGE + 5):
        _sign_up(f"m{n:02d}@example.com", f"Member {n}")
    operations.clear()
    seen: list[str] = []
    path = "/api/admin/members"
    for _ in range(5):
        status, body = api.call("GET", path, boss["headers"])
        assert status == 200, body
        assert len(body["users"]) <= admin.PAGE
        seen += [u["email"] for u in body["users"]]
        if body["nextCursor"] is None:
            break
        path = f"/api/admin/members?cursor={body['nextCursor']}"
    assert seen == sorted(seen) and set(seen) == {
        "boss@tandem.local",
        *(f"m{n:02d}@example.com" for n in range(admin.PAGE + 5)),
    }
    assert "Scan" not in operations, operations
    status, body = api.call("GET", "/api/admin/members?cursor=bm9wZQ", boss["headers"])
    assert (status, body) == (400, {"error": "This list has changed. Please reload it."})


def test_an_email_change_moves_the_user_in_the_list(api, boss) -> None:
    from tandem.services import accounts, tokens

    _, user = accounts.create_account_with_user(
        email="anna@example.com", name="Anna", password="Sup3r-secret-pw"
    )
    headers = auth_headers(tokens.issue_access_token(user.user_id, user.account_id, user.access))
    status, body = api.call(
        "PUT",
        "/api/users/profile/email",
        headers,
        {"email": "zoe@example.com", "currentPassword": "Sup3r-secret-pw"},
    )
    assert status == 200, body
    listed = [u["email"] for u in api.call("GET", "/api/admin/users", boss["headers"])[1]["users"]]
    assert listed == ["boss@tandem.local", "zoe@example.com"]
    found = api.call("GET", "/api/admin/members?q=anna%40", boss["headers"])[1]["users"]
    assert found == []


def test_users_from_before_the_index_are_listed_once_the_job_ran(aws, api, boss) -> None:
    from tandem.store.models import User

    old = _sign_up("early@example.com", "Early Bird")
    User(*User.key(old.user_id)).update(actions=[User.gsi3pk.remove(), User.gsi3sk.remove()])
    listed = [u["email"] for u in api.call("GET", "/api/admin/users", boss["headers"])[1]["users"]]
    assert "early@example.com" not in listed

    assert run_job(aws, "index-users")["indexed"] == 1
    listed = [u["email"] for u in api.call("GET", "/api/admin/users", boss["headers"])[1]["users"]]
    assert listed == ["boss@tandem.local", "early@example.com"]
    assert run_job(aws, "index-users")["indexed"] == 0
    assert User.get(*User.key(old.user_id)).password_hash == old.password_hash  # nothing else changed


def test_the_index_projects_what_the_lists_show() -> None:
    from infra.local.template import build_plan
    from tandem.store.connection import INDEXES
    from tandem.store.models import USER_LIST_ATTRIBUTES

    indexes = {i["IndexName"]: i for i in build_plan().table["GlobalSecondaryIndexes"]}
    assert set(indexes) == set(INDEXES)  # pynamodb's table description names every index
    assert indexes["gsi3"]["Projection"] == {
        "ProjectionType": "INCLUDE",
        "NonKeyAttributes": USER_LIST_ATTRIBUTES,
    }
