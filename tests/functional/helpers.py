"""Call the API the way API Gateway does: through the local gateway built from template.yaml."""

from __future__ import annotations

import json
from typing import Any

from infra.local.gateway import LocalApiGateway


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
