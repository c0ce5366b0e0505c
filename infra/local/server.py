"""One local port that behaves like CloudFront: /api/* to the API, the rest to the SPA.

Served by waitress (a production WSGI server: its own HTTP parser, a listen backlog of
BACKLOG, a fixed pool of worker threads, bodies buffered before the app sees them), so a burst
of parallel requests queues instead of being reset, and malformed requests (a Content-Length
that is not a number, an oversized body) get a 4xx JSON answer from the server itself.

Every answer carries the headers of CloudFront's response headers policy, read from template.yaml
(`infra.local.template.security_headers`: CSP, HSTS, Permissions-Policy, ...), so the app and
the e2e journeys run under the real policy. Static files come from web/dist (never a source
map: what `make deploy` never uploads is not served here either). Which paths are files is one
rule, read from the SpaFallbackFunction in template.yaml (`infra.local.template.spa_file_pattern`):
the bundle under /assets/ and known file types at the root; every other path gets index.html, as
in CloudFront.
"""

from __future__ import annotations

import json
import mimetypes
import os
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from infra.deploy_web import is_public
from infra.local.gateway import LocalApiGateway
from infra.local.template import with_security_headers

MAX_BODY = 6 * 1024 * 1024  # API Gateway / Lambda payload limit
BACKLOG = 1024  # pending connections the kernel keeps while every worker is busy
THREADS = 8  # requests handled at once; more wait in waitress's queue, never reset
NO_STORE, NO_CACHE = ("Cache-Control", "no-store"), ("Cache-Control", "no-cache")
SERVER_ERROR = b'{"error": "Something went wrong on our side. Please try again."}'

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def _status_line(status: int) -> str:
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status} Status"


def _json_error(status: int, message: str) -> tuple[int, list[tuple[str, str]], bytes]:
    return status, [("Content-Type", "application/json")], json.dumps({"error": message}).encode()


class _JsonErrorTask(ErrorTask):
    """waitress's own answers to requests it cannot parse (a malformed Content-Length, a body
    over the size limit, bad chunking), as JSON like every other error here."""

    def execute(self) -> None:
        error = self.request.error
        message = "Request too large" if error.code == 413 else f"{error.reason}: {error.body}"
        body = json.dumps({"error": message}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend(with_security_headers([("Content-Type", "application/json")]))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class _Channel(HTTPChannel):
    error_task_class = _JsonErrorTask


def bind(address: tuple[str, int]) -> socket.socket:
    """The site's listening socket (port 0: any free port); the stack binds it first, so a
    port in use fails at once and a test reads the real port from the stack's first line."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    return sock


def runtime_config() -> bytes:
    """`/config.json` as `make deploy` writes it (infra/deploy_web.py) for a stack without
    analytics, so the app reads "not configured" instead of logging a 404 on every load."""
    from infra.deploy_web import runtime_config as build

    return json.dumps(build({}, region=None)).encode()


def is_file_path(path: str) -> bool:
    """The SPA fallback rule of template.yaml's SpaFallbackFunction: True for paths served as
    files, False for the app's own routes (which get index.html)."""
    from infra.local.template import spa_file_pattern

    return spa_file_pattern().search(path) is not None


class LocalSite:
    """The WSGI app plus its waitress server, bound to `address` (port 0 picks a free one)."""

    def __init__(
        self,
        address: tuple[str, int],
        gateway: LocalApiGateway,
        web_root: Path,
        sock: socket.socket | None = None,
        jobs: Any = None,
    ) -> None:
        self.gateway = gateway
        self.jobs = jobs  # infra.local.scheduler.LocalScheduler: /__local/jobs
        self.web_root = web_root.resolve()
        sock = sock or bind(address)
        self.server_address: tuple[str, int] = sock.getsockname()[:2]
        self._server = create_server(
            self,
            sockets=[sock],
            threads=THREADS,
            backlog=BACKLOG,
            connection_limit=BACKLOG,
            max_request_body_size=max(MAX_BODY, _assets_limit()),
            expose_tracebacks=False,
            ident="tandem-local",
            clear_untrusted_proxy_headers=False,
        )
        self._server.channel_class = _Channel
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()

    # ------------------------------------------------------------ serving

    def serve_forever(self, poll_interval: float = 1.0) -> None:
        """Serve until `shutdown()`; `shutdown` wakes the loop at once (no polling delay)."""
        self._stopped.clear()
        try:
            while not self._stopping.is_set():
                wasyncore.loop(timeout=poll_interval, map=self._server._map, use_poll=True, count=1)
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop serving: wakes serve_forever at once and waits until it has returned. Call it
        from another thread than the one serving (not from a signal handler of that thread)."""
        self._stopping.set()
        self._server.pull_trigger()
        self._stopped.wait()

    def server_close(self, grace: float = 3.0) -> None:
        """Close every connection and let requests in progress finish (at most `grace` s)."""
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=grace)
        for channel in list(self._server._map.values()):
            try:
                channel.close()
            except OSError:
                pass
        self._server._map.clear()

    # ------------------------------------------------------------ WSGI

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = environ["REQUEST_METHOD"]
        try:
            status, headers, body = self._dispatch(method, environ)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            status, headers, body = 500, [("Content-Type", "application/json")], SERVER_ERROR
        out = [(n, v) for n, v in headers if n.lower() not in ("content-length", "connection")]
        out = with_security_headers(out)  # CloudFront's response headers policy, from template.yaml
        out.append(("Content-Length", str(len(body))))
        start_response(_status_line(status), out)
        return [b""] if method == "HEAD" else [body]

    def _dispatch(self, method: str, environ: dict[str, Any]) -> tuple[int, list[tuple[str, str]], bytes]:
        # The request target exactly as the client sent it (waitress keeps it as latin-1 text).
        try:
            target = environ.get("REQUEST_URI", "").encode("latin-1").decode("utf-8")
        except UnicodeError:
            return _json_error(400, "The address must be UTF-8")
        split = urlsplit(target)
        raw_path = split.path or "/"
        if raw_path == "/api" or raw_path.startswith("/api/"):
            return self._api(method, environ, raw_path, split.query)
        path = unquote(raw_path)
        if path == "/__local/assets-upload" and method == "POST":
            return self._assets_upload(environ)
        if path.startswith(("/assets/logos/", "/assets/guides/")) and method in ("GET", "HEAD"):
            from infra.local import assets

            answer = assets.serve(path, environ.get("HTTP_RANGE", ""))
            return answer.status, answer.headers, answer.body
        if path.rstrip("/") == "/__local/outbox" and method == "GET":
            from infra.local.outbox import render

            return 200, [("Content-Type", "text/html; charset=utf-8"), NO_STORE], render()
        if path == "/__local/services" and method == "GET":  # where the Slack and push stand-ins are
            services = {
                "slack": os.environ.get("LOCAL_FAKE_SLACK_URL"),
                "push": os.environ.get("LOCAL_FAKE_PUSH_URL"),
            }
            return 200, [("Content-Type", "application/json"), NO_STORE], json.dumps(services).encode()
        if path.rstrip("/") == "/__local/jobs" or path.startswith("/__local/jobs/"):
            return self._jobs(method, path)
        if path == "/__local/clock":
            return self._clock(method, environ)
        if path.rstrip("/") in ("/__local/faults", "/__local/faults/clock"):
            return self._faults(method, path.rstrip("/"), environ)
        if path == "/__local/modules" and method == "GET":  # where our code came from (artifact.py)
            from infra.local import artifact

            body = json.dumps(artifact.report(artifact.build_dir())).encode()
            return 200, [("Content-Type", "application/json"), NO_STORE], body
        if path.startswith("/__local/meter") or path == "/__local/seed-members":
            return self._meter(method, path, environ)
        if path == "/config.json" and method in ("GET", "HEAD"):
            return 200, [("Content-Type", "application/json"), NO_CACHE], runtime_config()
        if method in ("GET", "HEAD"):
            return self._static(path)
        return 405, [("Content-Type", "text/plain")], b"Method not allowed"

    @staticmethod
    def _read_body(environ: dict[str, Any], limit: int) -> bytes | None:
        """The request body, or None when it is over `limit` (waitress has buffered it whole,
        and has already refused a Content-Length that is not a number)."""
        length = int(environ.get("CONTENT_LENGTH") or 0)
        if length > limit:
            return None
        return environ["wsgi.input"].read(length) if length else b""

    def _api(self, method: str, environ: dict[str, Any], path: str, query: str):
        body = self._read_body(environ, MAX_BODY)
        if body is None:
            return _json_error(413, "Request too large")
        headers = {
            key[5:].replace("_", "-").lower(): value
            for key, value in environ.items()
            if key.startswith("HTTP_")
        }
        if environ.get("CONTENT_TYPE"):
            headers["content-type"] = environ["CONTENT_TYPE"]
        if body:
            headers["content-length"] = str(len(body))
        target = f"{path}?{query}" if query else path
        response = self.gateway.handle(method, target, headers, body, environ.get("REMOTE_ADDR", ""))
        return response.status, response.headers, response.body

    def _meter(self, method: str, path: str, environ: dict[str, Any]):
        """The day replay's (tests/bench/day_replay.py), on a stack started with LOCAL_METER=1:
        GET /__local/meter what infra/local/meter.py recorded, POST /__local/meter/reset, and
        POST /__local/seed-members {"count": n} members seeded in bulk (infra/local/seed.py),
        answered with their brand ids and access tokens."""
        from infra.local import meter

        if meter.METER is None:
            return _json_error(404, "This stack was started without LOCAL_METER=1")
        if path == "/__local/meter" and method == "GET":
            # ?leave_out=SchedulerFunction: the partitions' writes without the scheduled jobs'
            leave_out = tuple(parse_qs(environ.get("QUERY_STRING", "")).get("leave_out", []))
            body = json.dumps(meter.report(leave_out=leave_out)).encode()
        elif path == "/__local/meter/reset" and method == "POST":
            meter.reset()
            body = b'{"reset": true}'
        elif path == "/__local/seed-members" and method == "POST":
            from infra.local.seed import seed_members

            asked = json.loads(self._read_body(environ, MAX_BODY) or b"{}")
            body = json.dumps(seed_members(int(asked["count"]), int(asked.get("seed", 1)))).encode()
        else:
            return _json_error(405, "Method not allowed")
        return 200, [("Content-Type", "application/json"), NO_STORE], body

    def _jobs(self, method: str, path: str):
        """GET /__local/jobs: the scheduled jobs (schedule, next and last run); POST
        /__local/jobs/<job>: run one now and answer {job, result} (a failed job: 500)."""
        if self.jobs is None:
            return _json_error(404, "This server runs no scheduled jobs")
        name = path.rstrip("/")[len("/__local/jobs") :].lstrip("/")
        if not name and method in ("GET", "HEAD"):
            body = json.dumps({"jobs": self.jobs.status()}, default=str).encode()
            return 200, [("Content-Type", "application/json"), NO_STORE], body
        if not name or "/" in name:
            return _json_error(404, "Not found")
        if method != "POST":
            return 405, [("Content-Type", "application/json"), ("Allow", "POST")], b'{"error": "Use POST"}'
        from infra.local.scheduler import UnknownJob

        try:
            result, errored = self.jobs.run_now(name)
        except UnknownJob:
            return _json_error(
                404, f"Unknown job {name!r}; known: {', '.join(sorted(self.jobs.known_jobs()))}"
            )
        body = json.dumps({"job": name, "result": result}, default=str).encode()
        return 500 if errored else 200, [("Content-Type", "application/json"), NO_STORE], body

    def _clock(self, method: str, environ: dict[str, Any]):
        """GET /__local/clock: the jobs' clock ({offsetSeconds, now}); POST {"advanceSeconds": n}
        moves it ahead (or {"reset": true} back to the wall clock). Scheduled jobs run as if
        then (infra/local/scheduler.py), and so do the collaborations' date rules (a journey
        moves past a collaboration's end to record its results); there is no such route in AWS."""
        if self.jobs is None:
            return _json_error(404, "This server runs no scheduled jobs")
        if method == "POST":
            body = self._read_body(environ, 1024)
            try:
                asked = json.loads(body or b"{}")
                advance = 0.0 if asked.get("reset") else float(asked.get("advanceSeconds", 0))
            except (ValueError, TypeError, AttributeError):
                return _json_error(400, 'Send {"advanceSeconds": <seconds>} or {"reset": true}')
            if advance < 0:
                return _json_error(400, "The clock only moves ahead")
            self.jobs.offset = 0.0 if asked.get("reset") else self.jobs.offset + advance
            _collaborations_clock(self.jobs.offset)
        elif method not in ("GET", "HEAD"):
            allow = [("Content-Type", "application/json"), ("Allow", "GET, POST")]
            return 405, allow, b'{"error": "Use GET or POST"}'
        answer = {"offsetSeconds": self.jobs.offset, "now": int(time.time() + self.jobs.offset)}
        return 200, [("Content-Type", "application/json"), NO_STORE], json.dumps(answer).encode()

    def _faults(self, method: str, path: str, environ: dict[str, Any]):
        """Faults on demand in the stand-ins (infra/local/faults.py): GET /__local/faults lists
        them ({faults, now, offsetSeconds}); POST one ({"target", "kind", "share"?,
        "forSeconds"?, ...}: 201 with it); DELETE clears them (?target=stripe: that one's only);
        POST /__local/faults/clock {"advanceSeconds": n} moves the faults' clock ahead (a window
        ends without waiting). There is no such route in AWS."""
        from urllib.parse import parse_qs

        from infra.local.faults import FAULTS, FaultError, from_request

        json_headers = [("Content-Type", "application/json"), NO_STORE]
        try:
            if method == "POST":
                body = self._read_body(environ, 4096)
                try:
                    asked = json.loads(body or b"{}")
                except ValueError:
                    return _json_error(400, "Send a JSON object")
                if path.endswith("/clock"):
                    if not isinstance(asked, dict):
                        return _json_error(400, 'Send {"advanceSeconds": <seconds>}')
                    FAULTS.advance(float(asked.get("advanceSeconds", 0)))
                else:
                    made = from_request(asked)
                    return 201, json_headers, json.dumps(made.public()).encode()
            elif method == "DELETE" and not path.endswith("/clock"):
                target = (parse_qs(environ.get("QUERY_STRING", "")).get("target") or [None])[0]
                return 200, json_headers, json.dumps({"cleared": FAULTS.clear(target)}).encode()
            elif method not in ("GET", "HEAD"):
                allow = [("Content-Type", "application/json"), ("Allow", "GET, POST, DELETE")]
                return 405, allow, b'{"error": "Use GET, POST or DELETE"}'
        except (FaultError, TypeError, ValueError) as error:
            return _json_error(400, str(error))
        answer = {"faults": FAULTS.listed(), "now": FAULTS.now(), "offsetSeconds": FAULTS.offset}
        return 200, json_headers, json.dumps(answer).encode()

    def _assets_upload(self, environ: dict[str, Any]):
        """Brand logos: the presigned POST upload (infra/local/assets.py)."""
        from infra.local import assets

        body = self._read_body(environ, assets.MAX_UPLOAD)
        if body is None:
            return 413, [("Content-Type", "text/plain")], b"Request too large"
        headers = {"content-type": environ.get("CONTENT_TYPE", "")}
        answer = assets.accept_upload(headers, body)
        return answer.status, answer.headers, answer.body

    def _static(self, path: str):
        root = self.web_root
        target = (root / path.lstrip("/")).resolve()
        if root not in target.parents and target != root:
            return 404, [("Content-Type", "text/plain")], b"Not found"
        if not is_file_path(path):
            target = root / "index.html"
        elif not is_public(target.name):  # what `make deploy` never uploads (source maps)
            return 404, [("Content-Type", "text/plain"), NO_STORE], b"Not found"
        if not target.is_file():
            message = (
                b"Not found" if target.name != "index.html" else b"The web app is not built: run make dev."
            )
            return 404, [("Content-Type", "text/plain; charset=utf-8")], message
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
            kind += "; charset=utf-8"
        cache = "public, max-age=31536000, immutable" if path.startswith("/assets/") else "no-cache"
        return 200, [("Content-Type", kind), ("Cache-Control", cache)], target.read_bytes()


def _assets_limit() -> int:
    from infra.local import assets

    return assets.MAX_UPLOAD


def _collaborations_clock(offset: float) -> None:
    """The collaborations' rules read the jobs' clock on the local stack (the API runs in this
    process): their one clock, tandem.services.collaborations.now_s."""
    from tandem.services import collaborations

    collaborations.now_s = (lambda: time.time() + offset) if offset else time.time
