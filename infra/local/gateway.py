"""API Gateway for the local stack: routes from template.yaml, proxy events, in-process Lambdas.

Every `Api` event in the template becomes a route here; the request is turned into the REST
API proxy event API Gateway would send (resourcePath = the template's path, which is what
Chalice dispatches on) and the function's handler is called in-process.

As API Gateway (REST) does, `path` and `pathParameters` carry the path exactly as the client
sent it, still percent-encoded (a browser sends `@` as %40; handlers decode text parameters
with `chalicelib.http.path_text`), while query string parameters arrive decoded. A body that
is not UTF-8 travels base64-encoded, byte for byte, and the API refuses it with a 400.
"""

from __future__ import annotations

import base64
import json
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from chalice.local import RouteMatcher

from infra.local import lambda_inprocess, meter
from infra.local.template import LocalPlan, gateway_response_headers

NOT_FOUND = {"error": "Not found"}
NO_ROUTE, FUNCTION_FAILED = "MISSING_AUTHENTICATION_TOKEN", "DEFAULT_5XX"  # GatewayResponses types
GATEWAY_ERROR = {"error": "Something went wrong on our side. Please try again."}
TEXT_TYPES = ("application/json", "text/", "application/x-www-form-urlencoded")


@dataclass
class GatewayResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def _is_utf8(body: bytes) -> bool:
    """A body that claims to be text but is not UTF-8 travels base64-encoded, byte for byte,
    and the function refuses it with a 400 (text would have to lose or invent characters)."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _json(status: int, payload: dict[str, Any], response_type: str) -> GatewayResponse:
    """One of API Gateway's own answers, with the headers template.yaml gives that type."""
    headers = [("Content-Type", "application/json"), *gateway_response_headers(response_type)]
    return GatewayResponse(status, headers, json.dumps(payload).encode())


class LocalApiGateway:
    def __init__(self, plan: LocalPlan, stage: str = "local") -> None:
        self.plan = plan
        self.stage = stage
        self.routes: dict[str, dict[str, str]] = {}
        for route in plan.routes:
            self.routes.setdefault(route.path, {})[route.method] = route.function
        self.matcher = RouteMatcher(list(self.routes))

    def handle(
        self, method: str, raw_path: str, headers: dict[str, str], body: bytes, source_ip: str
    ) -> GatewayResponse:
        split = urlsplit(raw_path)
        try:
            match = self.matcher.match_route(split.path)
        except ValueError:
            return _json(404, NOT_FOUND, NO_ROUTE)
        function = self.routes[match.route].get(method)
        if function is None:
            return _json(404, NOT_FOUND, NO_ROUTE)
        event = self._event(method, split.path, split.query, match, headers, body, source_ip)
        with meter.request(f"{method} {match.route}") as measured:  # LOCAL_METER=1 only
            result, errored, _logs = lambda_inprocess.invoke(self.plan.functions[function], event)
            if errored or not isinstance(result, dict) or "statusCode" not in result:
                measured["status"] = 502
                return _json(502, GATEWAY_ERROR, FUNCTION_FAILED)
            measured["status"] = int(result["statusCode"])
        return self._response(result)

    def _event(self, method, path, query, match, headers, body, source_ip) -> dict[str, Any]:
        content_type = headers.get("content-type", "")
        is_text = not body or (content_type.startswith(TEXT_TYPES) and _is_utf8(body))
        multi_query = parse_qs(query, keep_blank_values=True) or None
        return {
            "resource": match.route,
            "path": path,
            "httpMethod": method,
            "headers": dict(headers),
            "multiValueHeaders": {k: [v] for k, v in headers.items()},
            "queryStringParameters": {k: v[-1] for k, v in multi_query.items()} if multi_query else None,
            "multiValueQueryStringParameters": multi_query,
            "pathParameters": match.captured or None,
            "stageVariables": None,
            "requestContext": {
                "resourcePath": match.route,
                "httpMethod": method,
                "path": f"/{self.stage}{path}",
                "stage": self.stage,
                "requestId": str(uuid.uuid4()),
                "identity": {"sourceIp": source_ip},
            },
            "body": (body.decode("utf-8") if is_text else base64.b64encode(body).decode()) if body else None,
            "isBase64Encoded": not is_text,
        }

    @staticmethod
    def _response(result: dict[str, Any]) -> GatewayResponse:
        headers: list[tuple[str, str]] = []
        for name, value in (result.get("headers") or {}).items():
            headers.append((name, str(value)))
        for name, values in (result.get("multiValueHeaders") or {}).items():
            headers.extend((name, str(v)) for v in values)
        body = result.get("body") or ""
        raw = base64.b64decode(body) if result.get("isBase64Encoded") else str(body).encode()
        return GatewayResponse(int(result["statusCode"]), headers, raw)
