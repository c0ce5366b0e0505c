"""/v1/events and /v1/webhook_endpoints."""

from __future__ import annotations

from typing import Any

from infra.local.fake_stripe.api.base import ApiBase, Listing, Params, RawParams, created, one_of
from infra.local.fake_stripe.store import public
from infra.local.fake_stripe.util import invalid


def _type(params: Params, name: str) -> Any:
    """`type=invoice.paid` or a prefix `type=invoice.*`."""
    if params.has(name) and params.has("types"):
        raise invalid("You may only specify one of these parameters: type, types.", "types")
    wanted = params.str(name)
    if wanted is None:
        return None
    if wanted.endswith("*"):
        return lambda e: e["type"].startswith(wanted[:-1])
    return lambda e: e["type"] == wanted


ROUTES = [
    ("/v1/webhook_endpoints", "POST", "create_webhook_endpoint"),
    ("/v1/webhook_endpoints/<id>", "POST", "update_webhook_endpoint"),
    ("/v1/webhook_endpoints/<id>", "DELETE", "delete_webhook_endpoint"),
]
RETRIEVE = {"/v1/events/<id>": "event", "/v1/webhook_endpoints/<id>": "webhook_endpoint"}
LISTINGS = {
    "events": Listing(
        "event",
        "/v1/events",
        {"type": _type, "types": one_of("type"), "created": created},
        accepted=("delivery_success",),
    ),
    "webhook_endpoints": Listing("webhook_endpoint", "/v1/webhook_endpoints"),
}


class EventsApi(ApiBase):
    def create_webhook_endpoint(self, raw: RawParams) -> dict[str, Any]:
        params = raw.allow(
            ("url", "enabled_events", "api_version", "description", "metadata"), ("url", "enabled_events")
        )
        url = params.str("url")
        if not url.startswith(("http://", "https://")):
            raise invalid(
                "Invalid URL: URL must be publicly accessible or a local address.", "url", "url_invalid"
            )
        endpoint = self.webhooks.add_endpoint(
            url,
            enabled_events=[str(e) for e in params.list("enabled_events")],
            api_version=params.str("api_version"),
            description=params.str("description"),
            metadata=self._metadata(params) if params.has("metadata") else {},
        )
        return {**public(endpoint), "secret": endpoint["_secret"]}

    def update_webhook_endpoint(self, raw: RawParams, id: str) -> dict[str, Any]:
        params = raw.allow(("url", "enabled_events", "description", "metadata", "disabled"))
        endpoint = self.engine.get("webhook_endpoint", id)
        if params.has("url"):
            url = params.str("url")
            if not url or not url.startswith(("http://", "https://")):
                raise invalid("Invalid URL: URL must be an http(s) address.", "url", "url_invalid")
            endpoint["url"] = url
        if params.has("enabled_events"):
            endpoint["enabled_events"] = [str(e) for e in params.list("enabled_events")]
        if params.has("description"):
            endpoint["description"] = params.str("description")
        if params.has("metadata"):
            endpoint["metadata"] = self._metadata(params, endpoint["metadata"])
        if params.has("disabled"):
            endpoint["status"] = "disabled" if params.bool("disabled") else "enabled"
        return self._render("webhook_endpoint", endpoint, params)

    def delete_webhook_endpoint(self, raw: RawParams, id: str) -> dict[str, Any]:
        raw.allow(())
        self.engine.get("webhook_endpoint", id)
        self.webhooks.remove_endpoint(id)
        return {"id": id, "object": "webhook_endpoint", "deleted": True}
