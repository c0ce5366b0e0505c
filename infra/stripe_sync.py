"""Make an environment's Stripe account match the catalogue (`make stripe-sync ENV=dev`).

    python -m infra.stripe_sync --env dev [--site-url https://...] [--dry-run]

Creates or updates, idempotently: the products (our own stable ids), their prices (found by
lookup key; Stripe prices are immutable, so a changed amount, currency or interval is a new
price that takes over the lookup key while the old one is archived, and members already on it
keep it), the customer-portal configuration (cancel at period end, switch monthly/yearly,
invoices) and the payment links (monthly, yearly, one_off, 3month, 6month), and (for a
deployed environment) the webhook endpoint: `<ApiUrl>/api/stripe/webhook`, subscribed to
exactly `stripe_events.BILLING_EVENTS`, on our pinned API version. Running it again changes
nothing and says so. Every change is printed; the endpoint's signing secret never is.

Stripe shows a signing secret once, when the endpoint is made: the command writes it into
`webhook_secret` of the environment's Stripe secret (the JSON template.yaml's StripeSecret
holds; the webhook function reads it, cached 5 minutes) and says where it went. An endpoint
whose secret the store does not hold (the template's generated placeholder) cannot be
verified against: it is replaced by a new one whose secret is stored.

The API key is the environment's Stripe secret (Secrets Manager `tandem/<env>/stripe`, JSON
with `api_key`), or `STRIPE_API_KEY` for local use; `STRIPE_API_BASE` points at the local fake.
The site address (payment links and the portal return there) is `--site-url`, else `SITE_URL`,
else the stack's `SiteUrl` output; the API address (the webhook) `--api-url`, else `API_URL`,
else the stack's `ApiUrl` output (the stack named in samconfig.toml, `tandem-<env>`). The
local stack (`--env local`) signs its own webhooks: no endpoint is made there.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from tandem.domain import catalogue
from tandem.domain.formats import format_money
from tandem.integrations.stripe_client import API_VERSION, LINK_METADATA, PORTAL_METADATA, make_client
from tandem.services.stripe_events import BILLING_EVENTS

REGION = "eu-west-2"
LOCAL_SITE = "http://127.0.0.1:8080"
PAYMENT_PROCESSING = "/account/subscriptions/payment-processing/{CHECKOUT_SESSION_ID}"
PORTAL_RETURN = "/account/subscriptions/"
PORTAL_HEADLINE = "Manage your Tandem plan"
WEBHOOK_PATH = "/api/stripe/webhook"
WEBHOOK_METADATA = "tandem_webhook"
WEBHOOK_DESCRIPTION = "Tandem billing (made by make stripe-sync)"


def _plain(obj: Any) -> dict[str, Any]:
    return obj.to_dict() if hasattr(obj, "to_dict") else dict(obj)


def _metadata(obj: Any) -> dict[str, Any]:
    return _plain(obj).get("metadata") or {}


def _money(spec: catalogue.PriceSpec) -> str:
    text = format_money(spec.unit_amount, spec.currency)
    return f"{text}/{spec.interval}" if spec.interval else text


class SecretStore:
    """The environment's Stripe secret in Secrets Manager (JSON: api_key, webhook_secret): the
    signing secret is written into it, keeping the other keys, and never shown."""

    def __init__(self, name: str, secrets_client: Any) -> None:
        self.name, self.sm = name, secrets_client

    def _value(self) -> dict[str, Any]:
        raw = self.sm.get_secret_value(SecretId=self.name)["SecretString"]
        value = json.loads(raw)
        return value if isinstance(value, dict) else {}

    def holds_signing_secret(self) -> bool:
        """A Stripe signing secret, not the template's generated placeholder."""
        return str(self._value().get("webhook_secret", "")).startswith("whsec_")

    def store_signing_secret(self, secret: str) -> None:
        value = self._value()
        value["webhook_secret"] = secret
        self.sm.put_secret_value(SecretId=self.name, SecretString=json.dumps(value))


class Sync:
    """One run against one Stripe account. `actions` lists what it changed (or would change).
    With `webhook_url` (and the `secrets` the signing secret goes to) it also keeps the
    webhook endpoint."""

    def __init__(
        self,
        client: Any,
        site_url: str,
        *,
        dry_run: bool = False,
        log: Callable[[str], None] = print,
        webhook_url: str | None = None,
        secrets: SecretStore | None = None,
    ) -> None:
        self.c = client
        self.site = site_url.rstrip("/")
        self.dry_run = dry_run
        self.log = log
        self.actions: list[str] = []
        self.price_ids: dict[str, str] = {}
        self.webhook_url = webhook_url
        self.secrets = secrets
        if webhook_url is not None and secrets is None:
            raise ValueError("A webhook endpoint needs the secret store its signing secret goes to")

    def _did(self, text: str) -> None:
        self.actions.append(text)
        self.log(("would: " if self.dry_run else "") + text)

    def run(self) -> list[str]:
        catalogue.check()
        self.products()
        self.prices()
        self.portal()
        self.payment_links()
        if self.webhook_url is not None:
            self.webhook()
        if not self.actions:
            self.log(
                f"Stripe is up to date: {len(catalogue.PRODUCTS)} products, {len(catalogue.PRICES)} prices, "
                f"{len(catalogue.LINK_KINDS)} payment links, the portal configuration"
                + (f", the webhook endpoint ({len(BILLING_EVENTS)} events)." if self.webhook_url else ".")
            )
        return self.actions

    # --- webhook endpoint ----------------------------------------------------------------------

    def _endpoints(self) -> list[dict[str, Any]]:
        return [_plain(e) for e in self.c.v1.webhook_endpoints.list({"limit": 100}).auto_paging_iter()]

    def webhook(self) -> None:
        """Ours is the endpoint at the URL, else the one we tagged (the API's address moved)."""
        assert self.webhook_url is not None and self.secrets is not None
        url = self.webhook_url
        events = sorted(BILLING_EVENTS)
        endpoints = self._endpoints()
        ours = [e for e in endpoints if e.get("url") == url] or [
            e for e in endpoints if (e.get("metadata") or {}).get(WEBHOOK_METADATA) == "1"
        ]
        where = f"Secrets Manager {self.secrets.name} (webhook_secret)"
        if ours and not self.secrets.holds_signing_secret():
            for endpoint in ours:
                self._did(
                    f"deleted webhook endpoint {endpoint['id']} ({endpoint.get('url')}): "
                    f"its signing secret is not in {where}"
                )
                if not self.dry_run:
                    self.c.v1.webhook_endpoints.delete(endpoint["id"])
            ours = []
        if not ours:
            self._did(f"created webhook endpoint for {url} ({len(events)} events)")
            if not self.dry_run:
                made = self.c.v1.webhook_endpoints.create(
                    {
                        "url": url,
                        "enabled_events": events,
                        "api_version": API_VERSION,
                        "description": WEBHOOK_DESCRIPTION,
                        "metadata": {WEBHOOK_METADATA: "1"},
                    }
                )
                self.secrets.store_signing_secret(made.secret)
            self.log(
                f"its signing secret {'would go' if self.dry_run else 'is stored'} in {where}; "
                "the webhook reads it within 5 minutes"
            )
            return
        endpoint, *extra = ours
        for other in extra:  # two of ours: one would deliver every event twice
            self._did(f"deleted duplicate webhook endpoint {other['id']} ({other.get('url')})")
            if not self.dry_run:
                self.c.v1.webhook_endpoints.delete(other["id"])
        changes: dict[str, Any] = {}
        if endpoint.get("url") != url:
            changes["url"] = url
        if sorted(endpoint.get("enabled_events") or []) != events:
            changes["enabled_events"] = events
        if endpoint.get("status") == "disabled":
            changes["disabled"] = False
        if (endpoint.get("metadata") or {}).get(WEBHOOK_METADATA) != "1":
            changes["metadata"] = {WEBHOOK_METADATA: "1"}
        if changes:
            self._did(f"updated webhook endpoint {endpoint['id']}: {', '.join(sorted(changes))}")
            if not self.dry_run:
                self.c.v1.webhook_endpoints.update(endpoint["id"], changes)

    # --- products ------------------------------------------------------------------------------

    def products(self) -> None:
        import stripe

        for spec in catalogue.PRODUCTS:
            wanted = {
                "name": spec.name,
                "description": spec.description,
                "metadata": catalogue.product_metadata(spec),
            }
            try:
                current = _plain(self.c.v1.products.retrieve(spec.id))
            except stripe.InvalidRequestError as error:
                if error.http_status != 404:
                    raise
                self._did(f"created product {spec.id} ({spec.name})")
                if not self.dry_run:
                    self.c.v1.products.create({"id": spec.id, **wanted})
                continue
            changes: dict[str, Any] = {}
            if current.get("name") != spec.name:
                changes["name"] = spec.name
            if current.get("description") != spec.description:
                changes["description"] = spec.description
            metadata = current.get("metadata") or {}
            if any(metadata.get(k) != v for k, v in wanted["metadata"].items()):
                changes["metadata"] = wanted["metadata"]
            if not current.get("active", True):
                changes["active"] = True
            if changes:
                self._did(f"updated product {spec.id}: {', '.join(sorted(changes))}")
                if not self.dry_run:
                    self.c.v1.products.update(spec.id, changes)

    # --- prices --------------------------------------------------------------------------------

    def _existing_prices(self) -> dict[str, dict[str, Any]]:
        keys = [spec.lookup_key for spec in catalogue.PRICES]
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), 10):  # at most 10 lookup keys a call
            listed = self.c.v1.prices.list({"lookup_keys": keys[start : start + 10], "limit": 100})
            for price in listed.auto_paging_iter():
                found[price.lookup_key] = _plain(price)
        return found

    @staticmethod
    def _same_terms(spec: catalogue.PriceSpec, price: dict[str, Any]) -> bool:
        recurring = price.get("recurring") or {}
        return (
            price.get("unit_amount") == spec.unit_amount
            and price.get("currency") == spec.currency
            and price.get("product") == spec.product
            and recurring.get("interval") == spec.interval
            and (spec.interval is None or recurring.get("interval_count") == 1)
        )

    @staticmethod
    def _nickname(spec: catalogue.PriceSpec) -> str:
        return f"{catalogue.product(spec.product).name}: {spec.label}"

    def _create_price(self, spec: catalogue.PriceSpec, transfer: bool) -> str:
        params: dict[str, Any] = {
            "product": spec.product,
            "currency": spec.currency,
            "unit_amount": spec.unit_amount,
            "lookup_key": spec.lookup_key,
            "nickname": self._nickname(spec),
            "metadata": catalogue.price_metadata(spec),
        }
        if spec.interval:
            params["recurring"] = {"interval": spec.interval, "interval_count": 1}
        if transfer:
            params["transfer_lookup_key"] = True
        if self.dry_run:
            return f"(new {spec.lookup_key})"
        return self.c.v1.prices.create(params).id

    def prices(self) -> None:
        existing = self._existing_prices()
        for spec in catalogue.PRICES:
            current = existing.get(spec.lookup_key)
            if current is None:
                self._did(f"created price {spec.lookup_key} ({_money(spec)})")
                self.price_ids[spec.lookup_key] = self._create_price(spec, transfer=False)
                continue
            if not self._same_terms(spec, current):
                # Prices are immutable: a new one takes the lookup key, the old one is archived.
                old = current.get("unit_amount")
                self._did(
                    f"replaced price {spec.lookup_key}: {format_money(old or 0, current.get('currency'))}"
                    f" -> {_money(spec)} (archived {current['id']}; its members keep it)"
                )
                self.price_ids[spec.lookup_key] = self._create_price(spec, transfer=True)
                if not self.dry_run:
                    self.c.v1.prices.update(current["id"], {"active": False})
                continue
            self.price_ids[spec.lookup_key] = current["id"]
            changes: dict[str, Any] = {}
            if not current.get("active"):
                changes["active"] = True
            wanted = catalogue.price_metadata(spec)
            metadata = current.get("metadata") or {}
            if any(metadata.get(k) != v for k, v in wanted.items()):
                changes["metadata"] = wanted
            if current.get("nickname") != self._nickname(spec):
                changes["nickname"] = self._nickname(spec)
            if changes:
                self._did(f"updated price {spec.lookup_key}: {', '.join(sorted(changes))}")
                if not self.dry_run:
                    self.c.v1.prices.update(current["id"], changes)

    # --- the customer portal -------------------------------------------------------------------

    def _portal_features(self) -> dict[str, Any]:
        main = catalogue.prices_of("tandem_main")
        return {
            "subscription_cancel": {"enabled": True, "mode": "at_period_end", "proration_behavior": "none"},
            "subscription_update": {
                "enabled": True,
                "default_allowed_updates": ["price"],
                "proration_behavior": "always_invoice",
                "products": [
                    {"product": "tandem_main", "prices": [self.price_ids[s.lookup_key] for s in main]}
                ],
            },
            "invoice_history": {"enabled": True},
            "payment_method_update": {"enabled": True},
        }

    def _portal_matches(self, config: dict[str, Any], features: dict[str, Any], return_url: str) -> bool:
        have = config.get("features") or {}
        cancel, update = have.get("subscription_cancel") or {}, have.get("subscription_update") or {}
        want_update = features["subscription_update"]
        products = {
            (p.get("product"), tuple(sorted(p.get("prices") or []))) for p in update.get("products") or []
        }
        wanted_products = {(p["product"], tuple(sorted(p["prices"]))) for p in want_update["products"]}
        return (
            config.get("active", True)
            and config.get("default_return_url") == return_url
            and (config.get("business_profile") or {}).get("headline") == PORTAL_HEADLINE
            and cancel.get("enabled") is True
            and cancel.get("mode") == "at_period_end"
            and update.get("enabled") is True
            and update.get("proration_behavior") == want_update["proration_behavior"]
            and products == wanted_products
            and (have.get("invoice_history") or {}).get("enabled") is True
        )

    def portal(self) -> None:
        if self.dry_run and any(v.startswith("(new") for v in self.price_ids.values()):
            self._did("configured the customer portal")
            return
        return_url = self.site + PORTAL_RETURN
        features = self._portal_features()
        ours = [
            _plain(c)
            for c in self.c.v1.billing_portal.configurations.list({"limit": 100}).auto_paging_iter()
            if _metadata(c).get(PORTAL_METADATA) == "main"
        ]
        params = {
            "features": features,
            "default_return_url": return_url,
            "business_profile": {"headline": PORTAL_HEADLINE},
            "metadata": {PORTAL_METADATA: "main"},
        }
        if not ours:
            self._did("created the customer portal configuration")
            if not self.dry_run:
                self.c.v1.billing_portal.configurations.create(params)
            return
        if not self._portal_matches(ours[0], features, return_url):
            self._did("updated the customer portal configuration")
            if not self.dry_run:
                self.c.v1.billing_portal.configurations.update(ours[0]["id"], {**params, "active": True})

    # --- payment links -------------------------------------------------------------------------

    def payment_links(self) -> None:
        redirect = self.site + PAYMENT_PROCESSING
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for link in self.c.v1.payment_links.list({"active": True, "limit": 100}).auto_paging_iter():
            kind = _metadata(link).get(LINK_METADATA)
            if kind:
                by_kind.setdefault(kind, []).append(_plain(link))
        for kind in catalogue.LINK_KINDS:
            spec = catalogue.BY_LINK[kind]
            price_id = self.price_ids[spec.lookup_key]
            links = by_kind.get(kind, [])
            keep = next(
                (link for link in links if (link.get("metadata") or {}).get("tandem_price") == price_id), None
            )
            for link in links:
                if link is not keep:  # an older price's link (or a duplicate) goes out of use
                    self._did(f"archived payment link {kind} ({link['id']})")
                    if not self.dry_run:
                        self.c.v1.payment_links.update(link["id"], {"active": False})
            if keep is None:
                self._did(f"created payment link {kind} ({spec.lookup_key}, {_money(spec)})")
                if not self.dry_run:
                    self.c.v1.payment_links.create(self._link_params(kind, spec, price_id, redirect))
                continue
            after = keep.get("after_completion") or {}
            if after.get("type") != "redirect" or (after.get("redirect") or {}).get("url") != redirect:
                self._did(f"updated payment link {kind}: after_completion")
                if not self.dry_run:
                    self.c.v1.payment_links.update(
                        keep["id"], {"after_completion": {"type": "redirect", "redirect": {"url": redirect}}}
                    )

    @staticmethod
    def _link_params(kind: str, spec: catalogue.PriceSpec, price_id: str, redirect: str) -> dict[str, Any]:
        metadata = {
            LINK_METADATA: kind,
            "tandem_price": price_id,
            "lookup_key": spec.lookup_key,
            "kind": spec.kind,
        }
        params: dict[str, Any] = {
            "line_items": [{"price": price_id, "quantity": 1}],
            "metadata": metadata,
            "after_completion": {"type": "redirect", "redirect": {"url": redirect}},
        }
        if spec.interval:
            params["subscription_data"] = {"metadata": metadata}
        else:
            # A one-off payment makes a customer (so the account's billing can find it) and an invoice.
            params["customer_creation"] = "always"
            params["payment_intent_data"] = {"metadata": metadata}
            params["invoice_creation"] = {"enabled": True, "invoice_data": {"metadata": metadata}}
        return params


# ---------------------------------------------------------------- command line


def api_key_for(env: str) -> str:
    key = os.environ.get("STRIPE_API_KEY", "").strip()
    if key:
        return key
    import boto3

    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or REGION
    name = f"tandem/{env}/stripe"
    raw = boto3.client("secretsmanager", region_name=region).get_secret_value(SecretId=name)["SecretString"]
    key = json.loads(raw).get("api_key", "")
    if not key or key == "set-me":
        raise SystemExit(f"The secret {name} has no api_key yet: store the Stripe secret key there first.")
    return key


def site_url_for(env: str, given: str | None) -> str:
    if given:
        return given
    if os.environ.get("SITE_URL"):
        return os.environ["SITE_URL"]
    if env == "local":
        return LOCAL_SITE
    outputs = _stack_outputs(env)
    if "SiteUrl" not in outputs:
        raise SystemExit(f"The stack tandem-{env} has no SiteUrl output; pass --site-url.")
    return outputs["SiteUrl"]


def _stack_outputs(env: str) -> dict[str, str]:
    import boto3

    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or REGION
    stack = boto3.client("cloudformation", region_name=region).describe_stacks(StackName=f"tandem-{env}")
    return {o["OutputKey"]: o["OutputValue"] for o in stack["Stacks"][0].get("Outputs", [])}


def webhook_url_for(env: str, given: str | None) -> str | None:
    """`<API address>/api/stripe/webhook`; None for the local stack (it signs its own)."""
    api = given or os.environ.get("API_URL")
    if not api:
        if env == "local":
            return None
        outputs = _stack_outputs(env)
        if "ApiUrl" not in outputs:
            raise SystemExit(f"The stack tandem-{env} has no ApiUrl output; pass --api-url.")
        api = outputs["ApiUrl"]
    if not api.startswith("https://") and not api.startswith("http://127.0.0.1"):
        raise SystemExit("The API address must be https (Stripe delivers webhooks over https only).")
    return api.rstrip("/") + WEBHOOK_PATH


def secret_store_for(env: str) -> SecretStore:
    import boto3

    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or REGION
    return SecretStore(f"tandem/{env}/stripe", boto3.client("secretsmanager", region_name=region))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.stripe_sync", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True, help="local, dev, staging or prod")
    parser.add_argument("--site-url", help="the app's address (default: SITE_URL, or the stack's SiteUrl)")
    parser.add_argument("--api-url", help="the API's address (default: API_URL, or the stack's ApiUrl)")
    parser.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
    args = parser.parse_args(argv)
    if not args.env.replace("-", "").isalnum():
        parser.error("--env must be a plain name such as dev")
    key = api_key_for(args.env)
    if key.startswith(("sk_live_", "rk_live_")) and args.env != "prod":
        raise SystemExit(f"Refusing a live Stripe key for the {args.env} environment.")
    site = site_url_for(args.env, args.site_url)
    if not site.startswith(("http://", "https://")):
        parser.error("--site-url must be an http(s) address")
    where = os.environ.get("STRIPE_API_BASE") or "api.stripe.com"
    webhook = webhook_url_for(args.env, args.api_url)
    hook = webhook or "none (the local stack signs its own)"
    print(f"Stripe sync for {args.env} ({where}), site {site}, webhook {hook}")
    store = secret_store_for(args.env) if webhook else None
    Sync(make_client(key), site, dry_run=args.dry_run, webhook_url=webhook, secrets=store).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
