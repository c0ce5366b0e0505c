"""A werkzeug WSGI app served on a background thread, on 127.0.0.1 by default: the base of the
local stand-ins for outside services (infra/local/fake_push.py, infra/local/fake_slack.py,
infra/local/fake_stripe)."""

from __future__ import annotations

import errno
import socket
import threading
import time
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server


def listening_socket(host: str, port: int, patience: float = 2.0) -> socket.socket:
    """A bound, listening socket. Right after a server on the same port closed, Linux may
    refuse the bind for a moment (seen here for ~0.1 ms while the old connections move to
    TIME_WAIT) even with SO_REUSEADDR; such a refusal is retried for up to `patience` seconds
    (werkzeug's own bind would exit the process instead)."""
    deadline = time.monotonic() + patience
    while True:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            sock.listen(128)
            return sock
        except OSError as error:
            sock.close()
            if error.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


class QuietHandler(WSGIRequestHandler):
    # One request per connection: a kept-alive connection would hold the port after stop(), so
    # a restart on the same port (local stack, tests) could fail with 'address in use'.
    protocol_version = "HTTP/1.0"

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return  # one line per request would drown the local stack's own log


class WsgiThread:
    host = "127.0.0.1"
    request_handler: type[WSGIRequestHandler] | None = None  # werkzeug's own unless a subclass says
    finish_requests_on_stop = False  # True: stop() waits for requests in progress (the port is free after it)

    def __init__(self) -> None:
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    def wsgi_app(self, environ: dict[str, Any], start_response: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        return self.wsgi_app(environ, start_response)

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return self._server.port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, port: int = 0) -> str:
        """Serve on `port` (0: a free one the system picks) and return the base URL."""
        if self._server is not None:
            raise RuntimeError(f"{type(self).__name__} is already running on {self.url}")
        sock = listening_socket(self.host, port)
        try:
            self._server = make_server(
                self.host, port, self, threaded=True, request_handler=self.request_handler, fd=sock.fileno()
            )
        finally:
            sock.close()  # the server works on its own duplicate of the descriptor
        self._server.daemon_threads = not self.finish_requests_on_stop
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},  # how long stop() waits for the loop to notice
            name=type(self).__name__,
            daemon=True,
        )
        self._thread.start()
        return self.url

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> WsgiThread:
        if self._server is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
