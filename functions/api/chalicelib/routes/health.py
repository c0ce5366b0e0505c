"""Liveness: answers without touching any dependency, so it is also the cold-start probe."""

from __future__ import annotations

from chalice import Blueprint

import tandem
from chalicelib.http import route
from tandem.config import settings

bp = Blueprint(__name__)


@route(bp, "/health", public=True, methods=["GET"])
def health() -> dict:
    return {"status": "ok", "version": tandem.__version__, "stage": settings().stage}
