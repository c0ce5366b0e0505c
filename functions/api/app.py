"""Tandem HTTP API: one Chalice app, one blueprint per area, every route under /api.

API Gateway has one resource per route here (template.yaml); tests/unit/test_template_routes.py
fails when the two differ.
"""

from __future__ import annotations

from aws_lambda_powertools.logging.lambda_context import build_lambda_context_model
from chalice import Chalice

from chalicelib.http import normalise_chalice_error
from chalicelib.routes import (
    admin,
    brands,
    dashboard,
    health,
    matches,
    matching,
    requests,
    support,
    users,
)
from tandem.observability import logger

app = Chalice(app_name="tandem-api")
app.api.binary_types = []

API_PREFIX = "/api"
for blueprint in (
    health.bp,
    users.bp,
    dashboard.bp,
    matching.bp,
    support.bp,
    admin.bp,
    brands.bp,
    matches.bp,
    requests.bp,
):
    app.register_blueprint(blueprint, url_prefix=API_PREFIX)


@app.middleware("http")
def function_context_in_logs(event, get_response):  # noqa: ANN001, ANN201
    """Log lines carry this function's name and request id and no key an earlier invocation
    appended, as `inject_lambda_context(clear_state=True)` gives the other functions."""
    if event.lambda_context is not None:
        logger.structure_logs(**build_lambda_context_model(event.lambda_context).__dict__)
    return get_response(event)


@app.middleware("http")
def json_errors(event, get_response):  # noqa: ANN001, ANN201
    return normalise_chalice_error(get_response(event))
