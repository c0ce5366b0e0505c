"""`make stripe-sync`: the catalogue made real in a Stripe account (the local fake, started on
an OS-chosen port in-process), idempotently."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from infra import stripe_sync
from infra.local.fake_stripe import FakeStripe
from tandem.domain import catalogue
from tandem.integrations.stripe_client import make_client

API_KEY = "sk_test_sync"
SITE = "https://tandem.test"


@pytest.fixture
def fake() -> Iterator[FakeStripe]:
    f = FakeStripe(api_key=API_KEY)
    f.start(0)
    yield f
    f.stop()


@pytest.fixture
def stripe_client(fake: FakeStripe) -> Any:
    return make_client(API_KEY, fake.base_url)


def run(client: Any, site: str = SITE, **kwargs: Any) -> list[str]:
    lines: list[str] = []
    actions = stripe_sync.Sync(client, site, log=lines.append, **kwargs).run()
    assert lines, "a run always says what it did"
    return actions


def active_links(client: Any) -> dict[str, Any]:
    return {
        link.metadata["tandem_link"]: link
        for link in client.v1.payment_links.list({"active": True, "limit": 100}).auto_paging_iter()
    }


def test_the_first_run_creates_everything_and_the_second_changes_nothing(stripe_client: Any) -> None:
    actions = run(stripe_client)
    assert len([a for a in actions if a.startswith("created product")]) == len(catalogue.PRODUCTS)
    assert len([a for a in actions if a.startswith("created price")]) == len(catalogue.PRICES)
    assert len([a for a in actions if a.startswith("created payment link")]) == len(catalogue.LINK_KINDS)
    assert "created the customer portal configuration" in actions
    assert "created price tandem_main_yearly (£470/year)" in actions

    monthly = stripe_client.v1.prices.list({"lookup_keys": ["tandem_main_monthly"]}).data[0]
    assert monthly.unit_amount == 4900 and monthly.currency == "gbp" and monthly.recurring.interval == "month"
    assert monthly.product == "tandem_main" and monthly.metadata["tandem_kind"] == "main"
    assert monthly.metadata["credits"] == "6" and monthly.nickname == "Tandem membership: Monthly"
    product = stripe_client.v1.products.retrieve("tandem_access_3_months")
    assert product.metadata["tandem_kind"] == "fixed_term" and product.name == "3-month access"
    extra = stripe_client.v1.prices.list({"lookup_keys": ["tandem_extra_3"]}).data[0]
    assert extra.type == "one_time" and extra.metadata["days"] == "30"

    links = active_links(stripe_client)
    assert set(links) == set(catalogue.LINK_KINDS)
    yearly_link = stripe_client.v1.payment_links.retrieve(links["yearly"].id, {"expand": ["line_items"]})
    assert yearly_link.line_items.data[0].price.lookup_key == "tandem_main_yearly"
    assert yearly_link.after_completion.redirect.url == (
        f"{SITE}/account/subscriptions/payment-processing/{{CHECKOUT_SESSION_ID}}"
    )
    assert links["one_off"].customer_creation == "always" and links["one_off"].invoice_creation.enabled
    assert links["3month"].metadata["lookup_key"] == "tandem_feature_3_months"

    portal = [
        c
        for c in stripe_client.v1.billing_portal.configurations.list({"limit": 100}).data
        if c.to_dict()["metadata"].get("tandem_portal") == "main"
    ]
    assert len(portal) == 1 and portal[0].default_return_url == f"{SITE}/account/subscriptions/"
    assert portal[0].features.subscription_cancel.mode == "at_period_end"
    assert sorted(portal[0].features.subscription_update.products[0].prices) == sorted(
        p.id for p in stripe_client.v1.prices.list({"product": "tandem_main"}).data
    )

    lines: list[str] = []
    assert stripe_sync.Sync(stripe_client, SITE, log=lines.append).run() == []
    assert lines == [
        f"Stripe is up to date: {len(catalogue.PRODUCTS)} products, {len(catalogue.PRICES)} prices, "
        f"{len(catalogue.LINK_KINDS)} payment links, the portal configuration."
    ]


def test_a_changed_amount_is_a_new_price_that_takes_the_lookup_key(
    stripe_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(stripe_client)
    old = stripe_client.v1.prices.list({"lookup_keys": ["tandem_main_monthly"]}).data[0]
    old_link = active_links(stripe_client)["monthly"]

    dearer = dataclasses.replace(catalogue.price("tandem_main_monthly"), unit_amount=5500)
    prices = tuple(dearer if p.lookup_key == dearer.lookup_key else p for p in catalogue.PRICES)
    monkeypatch.setattr(catalogue, "PRICES", prices)
    monkeypatch.setattr(catalogue, "BY_LOOKUP", {p.lookup_key: p for p in prices})
    monkeypatch.setattr(catalogue, "BY_LINK", {p.link_kind: p for p in prices if p.link_kind})

    actions = run(stripe_client)
    assert actions[0] == (
        f"replaced price tandem_main_monthly: £49 -> £55/month (archived {old.id}; its members keep it)"
    )
    assert f"archived payment link monthly ({old_link.id})" in actions
    assert "created payment link monthly (tandem_main_monthly, £55/month)" in actions
    assert "updated the customer portal configuration" in actions
    assert len(actions) == 4  # nothing else moved

    new = stripe_client.v1.prices.list({"lookup_keys": ["tandem_main_monthly"]}).data[0]
    assert new.id != old.id and new.unit_amount == 5500 and new.metadata["tandem_kind"] == "main"
    archived = stripe_client.v1.prices.retrieve(old.id)
    assert archived.active is False and archived.lookup_key is None
    assert archived.metadata["tandem_lookup_key"] == "tandem_main_monthly"  # still readable by billing
    assert stripe_client.v1.payment_links.retrieve(old_link.id).active is False
    link = stripe_client.v1.payment_links.retrieve(
        active_links(stripe_client)["monthly"].id, {"expand": ["line_items"]}
    )
    assert link.line_items.data[0].price.id == new.id

    assert run(stripe_client) == []


def test_a_new_site_address_moves_the_links_and_the_portal_return(stripe_client: Any) -> None:
    run(stripe_client)
    actions = run(stripe_client, "https://members.tandem.test")
    assert sorted(actions) == sorted(
        ["updated the customer portal configuration"]
        + [f"updated payment link {kind}: after_completion" for kind in catalogue.LINK_KINDS]
    )
    assert run(stripe_client, "https://members.tandem.test") == []


def test_changed_metadata_or_an_archived_price_is_put_back(stripe_client: Any) -> None:
    run(stripe_client)
    price = stripe_client.v1.prices.list({"lookup_keys": ["tandem_extra_6"]}).data[0]
    stripe_client.v1.prices.update(price.id, {"active": False, "metadata": {"credits": "60"}})
    stripe_client.v1.products.update("tandem_feature", {"name": "Renamed by hand"})
    actions = run(stripe_client)
    assert actions == [
        "updated product tandem_feature: name",
        "updated price tandem_extra_6: active, metadata",
    ]
    again = stripe_client.v1.prices.retrieve(price.id)
    assert again.active and again.metadata["credits"] == "6"


def test_a_dry_run_changes_nothing(fake: FakeStripe, stripe_client: Any) -> None:
    actions = run(stripe_client, dry_run=True)
    assert len(actions) == len(catalogue.PRODUCTS) + len(catalogue.PRICES) + 1 + len(catalogue.LINK_KINDS)
    assert stripe_client.v1.products.list({"limit": 100}).data == []
    assert stripe_client.v1.prices.list({"limit": 100}).data == []


def test_the_command_reads_the_key_and_base_from_the_environment(
    fake: FakeStripe, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STRIPE_API_KEY", API_KEY)
    monkeypatch.setenv("STRIPE_API_BASE", fake.base_url)
    monkeypatch.delenv("SITE_URL", raising=False)
    assert stripe_sync.main(["--env", "local"]) == 0
    first = capsys.readouterr().out
    assert f"Stripe sync for local ({fake.base_url}), site http://127.0.0.1:8080" in first
    assert "created price tandem_main_monthly (£49/month)" in first
    assert stripe_sync.main(["--env", "local"]) == 0
    assert "Stripe is up to date" in capsys.readouterr().out

    monkeypatch.setenv("STRIPE_API_KEY", "sk_live_not_here")
    with pytest.raises(SystemExit, match="Refusing a live Stripe key"):
        stripe_sync.main(["--env", "dev", "--site-url", SITE])


API_URL = "https://abc123.execute-api.eu-west-2.amazonaws.com/dev"
PLACEHOLDER = {"api_key": API_KEY, "webhook_secret": "GeneratedByTheTemplate0123456789"}


@pytest.fixture
def deployed(fake: FakeStripe, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A deployed dev environment on moto: the stack's outputs and the template's Stripe secret
    (its webhook_secret the generated placeholder)."""
    import json

    import boto3
    from moto import mock_aws

    for name, value in (
        ("AWS_ACCESS_KEY_ID", "test"),
        ("AWS_SECRET_ACCESS_KEY", "test"),
        ("AWS_DEFAULT_REGION", "eu-west-2"),
        ("AWS_REGION", "eu-west-2"),
        ("STRIPE_API_KEY", API_KEY),
        ("STRIPE_API_BASE", fake.base_url),
    ):
        monkeypatch.setenv(name, value)
    for name in ("SITE_URL", "API_URL"):
        monkeypatch.delenv(name, raising=False)
    with mock_aws():
        template = {
            "Resources": {"Topic": {"Type": "AWS::SNS::Topic"}},
            "Outputs": {"SiteUrl": {"Value": SITE}, "ApiUrl": {"Value": API_URL}},
        }
        boto3.client("cloudformation").create_stack(StackName="tandem-dev", TemplateBody=json.dumps(template))
        sm = boto3.client("secretsmanager")
        sm.create_secret(Name="tandem/dev/stripe", SecretString=json.dumps(PLACEHOLDER))
        yield sm


def stored(sm: Any) -> dict[str, Any]:
    import json

    return json.loads(sm.get_secret_value(SecretId="tandem/dev/stripe")["SecretString"])


def test_the_webhook_endpoint_is_made_once_at_the_stacks_api_with_its_secret_stored_unprinted(
    fake: FakeStripe, stripe_client: Any, deployed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from tandem.services.stripe_events import BILLING_EVENTS

    assert stripe_sync.main(["--env", "dev"]) == 0
    out = capsys.readouterr().out
    url = f"{API_URL}/api/stripe/webhook"
    (endpoint,) = stripe_client.v1.webhook_endpoints.list().data
    assert (endpoint.url, sorted(endpoint.enabled_events), endpoint.status) == (
        url,
        sorted(BILLING_EVENTS),
        "enabled",
    )
    secret = fake.webhook_secret(endpoint.id)
    assert secret.startswith("whsec_") and secret not in out
    assert stored(deployed) == {"api_key": API_KEY, "webhook_secret": secret}  # the api_key kept
    assert f"created webhook endpoint for {url} ({len(BILLING_EVENTS)} events)" in out
    assert "its signing secret is stored in Secrets Manager tandem/dev/stripe (webhook_secret)" in out

    assert stripe_sync.main(["--env", "dev"]) == 0  # again: nothing changes
    out = capsys.readouterr().out
    assert "Stripe is up to date" in out and f"the webhook endpoint ({len(BILLING_EVENTS)} events)" in out
    assert [e.id for e in stripe_client.v1.webhook_endpoints.list().data] == [endpoint.id]
    assert stored(deployed)["webhook_secret"] == secret


def test_a_changed_endpoint_is_put_back_and_a_new_api_address_moves_it(
    fake: FakeStripe, stripe_client: Any, deployed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from tandem.services.stripe_events import BILLING_EVENTS

    assert stripe_sync.main(["--env", "dev"]) == 0
    (endpoint,) = stripe_client.v1.webhook_endpoints.list().data
    secret = stored(deployed)["webhook_secret"]
    stripe_client.v1.webhook_endpoints.update(
        endpoint.id, {"enabled_events": ["charge.succeeded", "invoice.paid"], "disabled": True}
    )
    capsys.readouterr()
    assert stripe_sync.main(["--env", "dev"]) == 0
    assert f"updated webhook endpoint {endpoint.id}: disabled, enabled_events" in capsys.readouterr().out
    again = stripe_client.v1.webhook_endpoints.retrieve(endpoint.id)
    assert (sorted(again.enabled_events), again.status) == (sorted(BILLING_EVENTS), "enabled")

    moved = "https://new.execute-api.eu-west-2.amazonaws.com/dev"
    assert stripe_sync.main(["--env", "dev", "--api-url", moved]) == 0
    (same,) = stripe_client.v1.webhook_endpoints.list().data
    assert (same.id, same.url) == (endpoint.id, f"{moved}/api/stripe/webhook")
    assert stored(deployed)["webhook_secret"] == secret == fake.webhook_secret(endpoint.id)


def test_an_endpoint_whose_secret_is_not_stored_is_replaced_and_local_makes_none(
    fake: FakeStripe, stripe_client: Any, deployed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    old = stripe_client.v1.webhook_endpoints.create(
        {"url": f"{API_URL}/api/stripe/webhook", "enabled_events": ["invoice.paid"]}
    )
    assert stripe_sync.main(["--env", "dev"]) == 0
    out = capsys.readouterr().out
    assert f"deleted webhook endpoint {old.id}" in out and "created webhook endpoint" in out
    (endpoint,) = stripe_client.v1.webhook_endpoints.list().data
    assert endpoint.id != old.id
    assert stored(deployed)["webhook_secret"] == fake.webhook_secret(endpoint.id)

    deployed.put_secret_value(SecretId="tandem/dev/stripe", SecretString=json.dumps(PLACEHOLDER))
    assert stripe_sync.main(["--env", "dev", "--dry-run"]) == 0  # a dry run only says so
    assert "would: deleted webhook endpoint" in capsys.readouterr().out
    assert stored(deployed) == PLACEHOLDER
    assert [e.id for e in stripe_client.v1.webhook_endpoints.list().data] == [endpoint.id]

    assert stripe_sync.main(["--env", "local"]) == 0
    assert "webhook none (the local stack signs its own)" in capsys.readouterr().out
    assert [e.id for e in stripe_client.v1.webhook_endpoints.list().data] == [endpoint.id]
