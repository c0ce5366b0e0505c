"""The API's door: a route names the reads its use case declares (tandem.services.viewer.Reads)
and gets the caller as a Viewer, made once here (chalicelib.auth.viewer_for: the token checked,
the user and the brand read with the declared items in one BatchGetItem). The view is then one
call: `return requests.send(viewer, body)`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chalice import Blueprint

from chalicelib import http
from chalicelib.auth import pending_for, viewer_for
from tandem.services.viewer import Reads


def route(
    blueprint: Blueprint,
    path: str,
    reads: Reads | None = None,
    brand_param: str | None = None,
    brand_query: str | None = None,
    **options: Any,
) -> Callable[..., Any]:
    """chalicelib.http.route; with `reads`, the view is called as `view(viewer, **path params)`
    (with `reads.late`, `view(pending, ...)`: a tandem.services.viewer.Pending the screen turns
    into its Viewer with its own second read). `brand_param` / `brand_query`: the path or query
    parameter that names the brand acted as (it must match the header)."""

    def register(view: Callable[..., Any]) -> Callable[..., Any]:
        if reads is None:
            return http.route(blueprint, path, **options)(view)

        @functools.wraps(view)
        def at_the_door(**params: str) -> Any:
            request = blueprint.current_request
            brand = params.get(brand_param) if brand_param else None
            if brand_query:
                brand = (request.query_params or {}).get(brand_query) or None
            if reads.late:
                return view(pending_for(request, path_brand=brand), **params)
            return view(viewer_for(request, reads, params, path_brand=brand), **params)

        http.route(blueprint, path, **options)(at_the_door)
        return view

    return register
