"""The local web server for dist/, for playing here and for the browser tests.

This module owns serving one folder under a URL prefix, with the MIME types the
site needs and no HTTP caching, and finding a free port.
"""

from __future__ import annotations

import functools
import http.server
import socket
import sys
import threading
from pathlib import Path

from .steps import DIST, BuildError

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves one folder under a URL prefix; anything outside the prefix is 404.

    The 404 outside the prefix is what lets the tests prove the site uses only
    relative URLs. no-cache makes the browser revalidate, so a rebuilt file
    shows up at once (offline play is the service worker's job, not HTTP's).
    """

    prefix = "/"
    quiet = True
    extensions_map = {  # noqa: RUF012 (the base class declares it so)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_head(self):  # type: ignore[no-untyped-def]
        self.server.served.append(self.path)  # type: ignore[attr-defined]
        if not self.path.startswith(self.prefix):
            if self.path == self.prefix.rstrip("/"):
                self.send_response(301)
                self.send_header("Location", self.prefix)
                self.end_headers()
                return None
            self.send_error(404, "outside the site's prefix")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """The threaded server, quiet about a browser that closed a connection mid-file
    (a page closed while it was still downloading)."""

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: object
    ) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    directory: Path = DIST,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "/",
    quiet: bool = True,
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for directory at http://host:port{prefix}; port 0 picks a free one."""
    if not (prefix.startswith("/") and prefix.endswith("/")):
        raise ValueError(f"prefix must start and end with '/': {prefix!r}")
    handler = type("Handler", (SiteHandler,), {"prefix": prefix, "quiet": quiet})
    server = SiteServer((host, port), functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    # Every path asked for, in order: the tests read it to see what the
    # service worker fetched.
    server.served = []  # type: ignore[attr-defined]
    return server


def serve_in_thread(
    directory: Path = DIST, prefix: str = "/"
) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a quiet server on a free port in a daemon thread; returns it and its URL."""
    server = make_server(directory, prefix=prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host!s}:{port}{prefix}"


def free_port(host: str, start: int) -> int:
    for port in range(start, start + 50):
        with socket.socket() as s:
            if s.connect_ex((host, port)) != 0:
                return port
    raise BuildError(f"no free port on {host} from {start} to {start + 49}")
