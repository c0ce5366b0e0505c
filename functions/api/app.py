"""Tandem HTTP API: one Chalice app, one blueprint per area, every route under /api.

API Gateway has one resource per route here (template.yaml); tests/unit/test_template_routes.py
fails when the two differ.
"""

from __future__ import annotations

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
def json_errors(event, get_response):  # noqa: ANN001, ANN201
    return normalise_chalice_error(get_response(event))
