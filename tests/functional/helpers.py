"""What the functional tests share: `Api` calls the API the way API Gateway does (through the
local gateway built from template.yaml); members with brands, credits and subscriptions; sent
mail; the links in request emails."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from infra.local import outbox
from infra.local.gateway import LocalApiGateway
from infra.local.outbox import Mail
from tests.factories import auth_headers, member

if TYPE_CHECKING:
    from infra.local.fake_slack import FakeSlack


class Api:
    def __init__(self, plan) -> None:
        self.gateway = LocalApiGateway(plan)

    def call(self, method: str, path: str, headers: dict[str, str] | None = None, body: Any = None):
        raw = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else b"")
        lowered = {k.lower(): v for k, v in (headers or {}).items()}
        if raw:
            lowered.setdefault("content-type", "application/json")
        response = self.gateway.handle(method, path, lowered, raw, "127.0.0.1")
        try:
            payload = json.loads(response.body or b"null")
        except ValueError:
            payload = response.body.decode()
        return response.status, payload


def subscribe(account_id: str, status: str = "active") -> None:
    """Give an account a subscription status (what the Stripe webhook workflow records)."""
    from tandem.store import keys
    from tandem.store.models import Account

    Account(keys.account_pk(account_id), keys.META).update(actions=[Account.subscription_status.set(status)])


def sent_mail() -> list[Mail]:
    """Every email moto's SES has accepted in this test (parsed as the local outbox does)."""
    return outbox.sent()


DAY = 86400


def grant(account_id: str, amount: int = 6, start: int | None = None, op: str = "grant:main:test") -> None:
    from tandem.services import credits

    start = start if start is not None else int(time.time()) - DAY
    credits.grant(
        account_id, kind="main", amount=amount, valid_from=start, valid_to=start + 30 * DAY, op_id=op
    )


class Brand:
    """A member with one brand, as the API sees it."""

    def __init__(self, email: str, name: str, credits: int = 0, status: str = "active", **profile) -> None:
        self.user, (self.brand,), self.token = member(email, (name,), **profile)
        self.id = int(self.brand.brand_id)
        self.account = self.user.account_id
        self.email = email
        if status != "none":
            subscribe(self.account, status)
        if credits:
            grant(self.account, credits)

    @property
    def headers(self) -> dict[str, str]:
        return auth_headers(self.token, self.id)


def run_job(aws, job: str) -> dict:
    """Invoke the scheduler function through the Lambda API, as EventBridge does."""
    from tandem.integrations.aws import client

    answer = client("lambda").invoke(
        FunctionName=aws.functions["SchedulerFunction"].name, Payload=json.dumps({"job": job}).encode()
    )
    return json.loads(answer["Payload"].read())["result"]


def mail_to(email: str) -> list:
    return [m for m in sent_mail() if email in m.destinations["ToAddresses"]]


def send(api, sender: Brand, to: Brand | int, message: str = "Shall we run a giveaway together?"):
    target = to.id if isinstance(to, Brand) else to
    return api.call("POST", "/api/requests", sender.headers, {"toBrandId": target, "message": message})


def available(account: str) -> int:
    from tandem.services import entitlements

    return entitlements.credits_of(account)["available"]


def relation_state(brand: int, other: int) -> str:
    from tandem.store.models import BrandRelation

    found = BrandRelation.find(brand, other, consistent=True)
    return found.request_state if found else ""


LINK = re.compile(r"https?://[^/\s]+(/quick-action/(accept|decline)/\d+/\d+/\S+)")


def links(email: str) -> dict[str, str]:
    (mail,) = [m for m in mail_to(email) if "would like to collaborate" in m.subject]
    return {action: path for path, action in LINK.findall(mail.body)}


def press(api, path: str):
    return api.call("POST", f"/api{path}")  # no Authorization header: the link is the credential


def point_slack_at(fake: FakeSlack) -> None:
    """Make the app's Slack secret name this local Slack (its client, its API and authorize
    addresses, a new encryption key for the tokens), as an operator sets the real one."""
    from tandem.config import settings
    from tandem.integrations.aws import client, reset_clients
    from tandem.integrations.slack import new_encryption_key

    secret = {
        "client_id": fake.client_id,
        "client_secret": fake.client_secret,
        "encryption_key": new_encryption_key(),
        "api_url": f"{fake.url}/api/",
        "authorize_url": f"{fake.url}/oauth/v2/authorize",
    }
    client("secretsmanager").put_secret_value(
        SecretId=settings().slack_secret_name, SecretString=json.dumps(secret)
    )
    reset_clients()  # forget the cached secret


def slack_consent(api: Api, fake_slack: FakeSlack, member: Brand, allow: bool = True) -> str:
    """What a member does to connect Slack: Connect (GET /api/slack/auth), then Allow (or Cancel)
    on Slack's consent page. The app's callback path and query Slack sends the browser back to."""
    status, body = api.call("GET", "/api/slack/auth", member.headers)
    assert status == 200, body
    query = {k: v[0] for k, v in parse_qs(urlsplit(body["url"]).query).items()}
    back = fake_slack.authorize(
        query["client_id"], query["scope"], query["redirect_uri"], query["state"], allow=allow
    )
    parts = urlsplit(back)
    return f"{parts.path}?{parts.query}"


def redirected_to(api: Api, path_and_query: str) -> str:
    """Where a GET that answers 302 sends the browser (the Slack callback's answer)."""
    response = api.gateway.handle("GET", path_and_query, {}, b"", "127.0.0.1")
    assert response.status == 302, response.status
    return {k.lower(): v for k, v in response.headers}["location"]


def wait_for_run(
    api: Api, token: str, brand_id: int, run_id: str, seen: list[dict] | None = None, timeout: float = 180.0
) -> dict:
    """Poll the match run's check, as the Matches page does, until the run is done or failed;
    the last check. Every earlier check (the run still going) is appended to `seen` if given."""
    deadline = time.monotonic() + timeout  # a bound, not a speed target: CI machines are busy
    path = f"/api/matching/run-check/{run_id}/{brand_id}"
    while time.monotonic() < deadline:
        status, check = api.call("GET", path, auth_headers(token, brand_id))
        assert status == 200, check
        if check["status"] in ("done", "failed"):
            return check
        if seen is not None:
            seen.append(check)
        time.sleep(0.1)
    raise AssertionError(f"match run {run_id} did not finish in {timeout:.0f} s")


def store_values_model(evidence: int) -> None:
    """Store a learned model (as the training job would) whose one belief is "brands that share
    my values say yes", with `evidence` effective answers (0: not blended yet)."""
    import json

    from tandem.domain.matching import learned, training
    from tandem.store.learning import MatchModel

    weights = [0.0] * (training.N_FEATURES + 1)
    weights[learned.FEATURES.index("values_ab")] = 8.0
    weights[-1] = -4.0
    stored = {
        "version": training.MODEL_VERSION,
        "send": None,
        "accept": weights,
        "evidence": evidence,
        "groups": 40,
    }
    MatchModel(*MatchModel.key(), weights=[], outcomes=0, trained_at=1, learned=json.dumps(stored)).save()
