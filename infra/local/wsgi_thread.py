"""A werkzeug WSGI app served on a background thread, on 127.0.0.1 only: the base of the local
stand-ins for outside services (infra/local/fake_push.py, infra/local/fake_slack.py)."""

from __future__ import annotations

import threading
from typing import Any

from werkzeug.serving import BaseWSGIServer, make_server


class WsgiThread:
    host = "127.0.0.1"

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
        return self._server.server_port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, port: int = 0) -> str:
        """Serve on `port` (0: a free one the system picks) and return the base URL."""
        if self._server is not None:
            raise RuntimeError(f"{type(self).__name__} is already running on {self.url}")
        self._server = make_server(self.host, port, self, threaded=True)
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
