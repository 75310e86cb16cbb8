"""The HTTP server of the evening page: the standard library's threading server with limits on
what a request may be, every response carrying the security headers. The routes say what is
answered (routes.py); here are only sockets, limits and streams."""

from __future__ import annotations

import http.client
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..core.i18n import SOURCE
from .entry import Entry
from .evening import Evening
from .routes import FORM, MAX_FORM, SECURITY_HEADERS, App, Request, Response, query_of

MAX_LINE = 2048  # bytes of the request line (the URL with its token fits many times over)
MAX_HEAD = 8192  # bytes of the request line and headers together
MAX_HEADERS = 40
MAX_CLIENTS = 100  # connections at once; more are closed at once
IDLE = 30  # seconds a connection may stay silent while we wait for its request


class _Head:
    """The connection's input, counting what a request's head takes: past MAX_HEAD the header
    parser is stopped (http.server answers 431)."""

    def __init__(self, raw: Any) -> None:
        self.raw, self.left = raw, MAX_HEAD

    def readline(self, size: int = -1) -> bytes:
        limit = self.left + 1 if size < 0 else min(size, self.left + 1)
        line = self.raw.readline(limit)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong("header line")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class Handler(BaseHTTPRequestHandler):
    server: "Server"
    protocol_version = "HTTP/1.1"
    server_version = "boston-ledger"
    sys_version = ""
    timeout = IDLE

    def setup(self) -> None:
        super().setup()
        self.rfile = _Head(self.rfile)  # type: ignore[assignment]

    def handle_one_request(self) -> None:
        """One request, as http.server reads it, with our limits on its line and headers."""
        try:
            self.rfile.left = MAX_HEAD  # type: ignore[attr-defined]
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                self.requestline, self.request_version, self.command = "", "", ""
                self.close_connection = True
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            if len(self.headers) > MAX_HEADERS:
                self.close_connection = True
                self.send_error(431, "Too many headers")
                return
            self.answer()  # every method goes to the routes: they say 405 or 404
            self.wfile.flush()
        except (TimeoutError, ConnectionError, http.client.LineTooLong):
            self.close_connection = True

    def answer(self) -> None:
        target = urlsplit(self.path)
        length = (self.headers.get("Content-Length") or "").strip()
        form: dict[str, list[str]] = {}
        if self.server.app.takes_form(self.command, target.path):
            # an entry form: its length said, small, urlencoded; read whole (the socket's timeout bounds it)
            kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if self.headers.get("Transfer-Encoding") or not length.isdigit():
                self.close_connection = True
                self.send_error(411)
                return
            if int(length) > MAX_FORM or kind != FORM:
                self.close_connection = True
                self.send_error(413 if int(length) > MAX_FORM else 415)
                return
            body = self.rfile.read(int(length))
            if len(body) != int(length):
                self.close_connection = True
                return
            form = query_of(body.decode("utf-8", "replace"), fields=64)
        elif self.headers.get("Transfer-Encoding") or (length or "0") != "0":
            self.close_connection = True  # nothing else takes a body, and it is not read
            self.send_error(413)
            return
        req = Request(self.command, target.path, query_of(target.query), self.headers, self.client_address[0], form)
        self.respond(self.server.app(req))

    def respond(self, response: Response) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.type)
        self._own = set(response.headers)  # a route's own security header stands in for the common one
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.stream is None:
            self.send_header("Content-Length", str(len(response.body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(response.body)
            return
        self.close_connection = True
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        if self.command == "HEAD":
            return

        def write(chunk: bytes) -> None:
            self.wfile.write(chunk)
            self.wfile.flush()

        response.stream(write)

    def end_headers(self) -> None:
        own, self._own = getattr(self, "_own", set()), set()
        for name, value in SECURITY_HEADERS.items():
            if name not in own:
                self.send_header(name, value)
        super().end_headers()

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: their URLs carry the token."""


class Server(ThreadingHTTPServer):
    """Threads, one per connection, at most MAX_CLIENTS at once; daemon threads, so that
    Ctrl-C stops the server at once whatever its event streams are doing."""

    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], app: App) -> None:
        self.app = app
        self._active = 0
        self._count = threading.Lock()
        super().__init__(address, Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._count:
            full = self._active >= MAX_CLIENTS
            if not full:
                self._active += 1
        if full:
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count:
                self._active -= 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed in a way of ours: one line on stderr, never a traceback."""
        kind, error, __ = sys.exc_info()
        if self.app.evening.stopping.is_set():  # a request caught by Ctrl-C on its way: let it go
            return
        if kind is not None and not issubclass(kind, (ConnectionError, TimeoutError)):
            print(f"boston-ledger serve: {kind.__name__}: {error}", file=sys.stderr)


class Served:
    """A running server of one evening: its address, and how to stop it."""

    def __init__(self, path: Path, session_id: int | None, host: str, port: int, token: str,
                 default_lang: str = SOURCE, watch_every: float = 0.1, entry_token: str | None = None) -> None:
        self.evening = Evening(path, session_id)
        entry = Entry(path, self.evening.session_id, entry_token, token) if entry_token else None
        self.app = App(self.evening, token, default_lang, entry=entry)
        try:
            self.server = Server((host, port), self.app)
        except BaseException:
            self.evening.stop()
            raise
        self.evening.watch(watch_every)
        self.host, self.token, self.entry_token = host, token, entry_token
        self.app.origins = {self.origin} | ({f"http://localhost:{self.port}"} if host == "127.0.0.1" else set())

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?t={self.token}"

    @property
    def entry_url(self) -> str | None:
        """The entry page's link (with `--entry`), behind its own token."""
        return f"{self.origin}/entry?t={self.entry_token}" if self.entry_token else None

    def serve_forever(self) -> None:
        self.server.serve_forever(poll_interval=0.5)

    def in_thread(self) -> "Served":
        """Serve from a thread of its own (for a program that goes on meanwhile, and for tests)."""
        self._thread = threading.Thread(target=self.serve_forever, name="serve", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop listening and wake every event stream so that it ends."""
        if getattr(self, "_thread", None) is not None:
            self.server.shutdown()
            self._thread.join()
        self.server.server_close()
        self.evening.stop()


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network (the first interface that is not the
    loopback), found without sending anything."""
    found = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for __, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))  # SIOCGIFADDR
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    return next((a for a in found if not a.startswith("127.") and a != "0.0.0.0"), None)
