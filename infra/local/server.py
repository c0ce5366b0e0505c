"""One local port that behaves like CloudFront: /api/* to the API, the rest to the SPA.

Static files come from web/dist; a path whose last segment has no dot gets index.html (the
same rule as the SpaFallbackFunction in template.yaml), a missing file with a dot is a 404.
"""

from __future__ import annotations

import mimetypes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from infra.local.gateway import LocalApiGateway

SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
)
MAX_BODY = 6 * 1024 * 1024  # API Gateway / Lambda payload limit


class LocalSite(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], gateway: LocalApiGateway, web_root: Path) -> None:
        super().__init__(address, _Handler)
        self.gateway = gateway
        self.web_root = web_root.resolve()


class _Handler(BaseHTTPRequestHandler):
    server: LocalSite
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return  # the stack prints its own one-line summary per API call

    def _send(self, status: int, headers: list[tuple[str, str]], body: bytes, head: bool = False) -> None:
        self.send_response(status)
        names = {name.lower() for name, _ in headers}
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        for name, value in SECURITY_HEADERS:
            if name.lower() not in names:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        try:
            self.end_headers()
            if not head:
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the browser went away (navigation, reload)

    def _api(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._send(413, [("Content-Type", "application/json")], b'{"error": "Request too large"}')
            return
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        response = self.server.gateway.handle(self.command, self.path, headers, body, self.client_address[0])
        self._send(response.status, response.headers, response.body)

    def _static(self, head: bool = False) -> None:
        path = unquote(urlsplit(self.path).path)
        root = self.server.web_root
        target = (root / path.lstrip("/")).resolve()
        if root not in target.parents and target != root:
            self._send(404, [("Content-Type", "text/plain")], b"Not found", head)
            return
        if target.is_dir() or "." not in path.rsplit("/", 1)[-1]:
            target = root / "index.html"
        if not target.is_file():
            message = (
                b"Not found" if target.name != "index.html" else b"The web app is not built: run make dev."
            )
            self._send(404, [("Content-Type", "text/plain; charset=utf-8")], message, head)
            return
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        cache = "public, max-age=31536000, immutable" if "/assets/" in path else "no-cache"
        self._send(200, [("Content-Type", kind), ("Cache-Control", cache)], target.read_bytes(), head)

    def _assets(self, upload: bool) -> None:
        """Brand logos: the presigned POST upload, and serving /assets/logos/* (infra/local/assets.py)."""
        from infra.local import assets

        if upload:
            length = int(self.headers.get("Content-Length") or 0)
            if length > assets.MAX_UPLOAD:
                self._send(413, [("Content-Type", "text/plain")], b"Request too large")
                return
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            answer = assets.accept_upload(headers, body)
        else:
            answer = assets.serve(unquote(urlsplit(self.path).path))
        self._send(answer.status, answer.headers, answer.body, head=self.command == "HEAD")

    def _dispatch(self) -> None:
        if self.path == "/api" or self.path.startswith(("/api/", "/api?")):
            self._api()
        elif urlsplit(self.path).path == "/__local/assets-upload" and self.command == "POST":
            self._assets(upload=True)
        elif self.path.startswith("/assets/logos/") and self.command in ("GET", "HEAD"):
            self._assets(upload=False)
        elif self.path.rstrip("/") == "/__local/outbox" and self.command == "GET":
            from infra.local.outbox import render

            self._send(
                200, [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")], render()
            )
        elif self.command in ("GET", "HEAD"):
            self._static(head=self.command == "HEAD")
        else:
            self._send(405, [("Content-Type", "text/plain")], b"Method not allowed")

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD = _dispatch  # noqa: N815
