"""The HTTP server of the evening page: the standard library's threading server with limits on
what a request may be, every response carrying the security headers. The routes say what is
answered (routes.py); here are only sockets, limits and streams.

Fair to every client: a request's head (and an entry form) must arrive whole within HEAD_TIME
however slowly it trickles in; one address holds at most PER_ADDRESS connections and
STREAMS_PER_ADDRESS event streams, well below the totals, so that one client (or one machine)
cannot keep the others out; a response left unread is given up after SEND_TIME; and an event
stream whose client went away ends within a second."""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import io
import ipaddress
import re
import select
import socket
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..app.opening import failure
from ..core.errors import LedgerError
from ..core.i18n import N_, SOURCE, _, in_language
from .entry import Entry
from .evening import Evening
from .routes import FORM, MAX_FORM, SECURITY_HEADERS, App, Request, Response, query_of

MAX_LINE = 2048  # bytes of the request line (the URL with its token fits many times over)
MAX_HEAD = 8192  # bytes of the request line and headers together
MAX_HEADERS = 40
MAX_CLIENTS = 256  # connections at once from every address together
PER_ADDRESS = 24  # connections at once from one address (a phone's browser opens six or so)
MAX_STREAMS = 128  # event streams at once (each holds its connection): the rest is left to requests
STREAMS_PER_ADDRESS = 8  # event streams at once from one address (a page open in a few tabs)
HEAD_TIME = 10.0  # seconds for a request's head (and an entry form) to arrive whole, from when it is awaited
SEND_TIME = 10.0  # seconds a client may leave a response unread before it is given up
LENGTH = re.compile(r"[0-9]{1,18}", re.ASCII)  # a Content-Length as it may be written


class _Timed(io.RawIOBase):
    """The connection's input with a deadline: each read waits only for what is left of the time
    the whole request has (a client trickling a byte at a time cannot stretch it)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline: float | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError()  # the request did not arrive in time
            self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


class _Head(io.BufferedIOBase):
    """The connection's input as http.server reads it (its `rfile`: lines, a body, closed at the
    end), counting what a request's head takes: past MAX_HEAD the header parser is stopped
    (http.server answers 431)."""

    def __init__(self, timed: _Timed) -> None:
        super().__init__()
        self.buffered, self.left = io.BufferedReader(timed), MAX_HEAD

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> bytes:
        limit = self.left + 1 if size is None or size < 0 else min(size, self.left + 1)
        line = self.buffered.readline(limit)
        self.left -= len(line)
        if self.left < 0:
            raise http.client.LineTooLong("header line")
        return line

    def read(self, size: int | None = -1) -> bytes:
        return self.buffered.read(size)

    def close(self) -> None:
        self.buffered.close()
        super().close()


class Handler(BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"
    server_version = "boston-ledger"
    sys_version = ""
    timeout = HEAD_TIME
    default_request_version = "HTTP/1.0"  # what an unreadable request line is answered in: with headers
    _own: frozenset[str] = frozenset()  # the security headers the response being sent sets itself

    def setup(self) -> None:
        super().setup()
        made, self._timed = self.rfile, _Timed(self.connection)
        self._head = _Head(self._timed)
        self.rfile = self._head
        made.close()  # the file http.server made: it would hold the socket open after close

    def handle_one_request(self) -> None:
        """One request, as http.server reads it, with our limits on its line and headers and on
        the time its head may take."""
        try:
            self.server.awaiting(self.connection, self.client_address[0])
            self._timed.deadline = time.monotonic() + HEAD_TIME
            self._head.left = MAX_HEAD
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                self.requestline, self.request_version, self.command = "", "", ""
                self.close_connection = True
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if len(self.raw_requestline.split()) == 2:  # HTTP/0.9, `GET /path`: its answer would have no headers
                self.requestline, self.request_version, self.command = "", "", ""
                self.close_connection = True
                self.send_error(505)
                return
            if not self.parse_request():
                return
            if len(self.headers) > MAX_HEADERS:
                self.close_connection = True
                self.send_error(431, "Too many headers")
                return
            self.server.heard(self.connection)  # its head arrived: no longer to be dropped for another
            self.answer()  # every method goes to the routes: they say 405 or 404
            self.wfile.flush()
        except (TimeoutError, ConnectionError, http.client.LineTooLong):
            self.close_connection = True

    def answer(self) -> None:
        target = urlsplit(self.path)
        app = self.server.app
        req = Request(self.command, target.path, query_of(target.query), self.headers, self.client_address[0])
        hosts = self.headers.get_all("Host") or []
        refusal = app.misdirected(req, hosts[0] if len(hosts) == 1 else None)
        if refusal is not None:
            self.close_connection = True  # whatever it sent after its head is not read
            self.respond(refusal)
            return
        lengths = self.headers.get_all("Content-Length") or []
        length = lengths[0].strip(" \t") if lengths else None
        chunked = self.headers.get("Transfer-Encoding") is not None
        if len(lengths) > 1 or (length is not None and (chunked or not LENGTH.fullmatch(length))):
            # two lengths, or a length that is not plain ASCII digits (negative, ², huge): how much
            # body follows is not known, so the connection ends with the answer
            self.close_connection = True
            self.respond(app.refused(req, 400, N_("This request's Content-Length cannot be read.")))
            return
        form: dict[str, list[str]] = {}
        if app.takes_form(self.command, target.path):
            # an entry form: its length said, small, urlencoded; read whole within the request's time
            kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if chunked or length is None:
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
        elif chunked or int(length or "0") != 0:
            self.close_connection = True  # nothing else takes a body, and it is not read
            self.send_error(413)
            return
        req = dataclasses.replace(req, form=form)
        try:
            response = app(req)
        except Exception as e:  # a full disk at write time, a damaged ledger: said as the command line says it
            if app.evening.stopping.is_set():
                raise
            response = app.failed(req, e)
        self.respond(response, req)

    def respond(self, response: Response, req: Request | None = None) -> None:
        self._timed.deadline = None
        self.connection.settimeout(SEND_TIME)  # an answer left unread is given up
        address = self.client_address[0]
        streaming = response.stream is not None and self.command != "HEAD"
        if streaming and req is not None and not self.server.stream_begins(address):
            self.close_connection = True
            streaming, response = False, self.server.app.refused(
                req, 429, N_("Too many pages of this evening are open from here; close one and reload this one."))
            response.headers["Retry-After"] = "10"
        try:
            self._respond(response, streaming)
        finally:
            if streaming:
                self.server.stream_ends(address)

    def _respond(self, response: Response, streaming: bool) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.type)
        self._own = frozenset(response.headers)  # a route's own security header stands in for the common one
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.stream is None:
            self.send_header("Content-Length", str(len(response.body)))
            if self.close_connection:
                self.send_header("Connection", "close")
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

        assert response.stream is not None
        response.stream(write, lambda: _gone(self.connection))

    def end_headers(self) -> None:
        own, self._own = self._own, frozenset()
        for name, value in SECURITY_HEADERS.items():
            if name not in own:
                self.send_header(name, value)
        super().end_headers()

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged: their URLs carry the token."""


def _gone(sock: socket.socket) -> bool:
    """Whether an event stream's client has gone: its side closed, reset, or anything sent (the
    client of a stream sends nothing after its request)."""
    try:
        poll = select.poll()
        poll.register(sock, select.POLLIN | select.POLLPRI)
        return bool(poll.poll(0))
    except (OSError, ValueError):
        return True


class Server(ThreadingHTTPServer):
    """Threads, one per connection: at most MAX_CLIENTS at once, PER_ADDRESS of them from one
    address; daemon threads, so that Ctrl-C stops the server at once whatever its event streams
    are doing. When all MAX_CLIENTS are taken, the connection that has waited longest for a
    request's head is dropped for a new one (a phone with a token is then served, whoever holds
    idle sockets); a connection beyond the limits otherwise is answered 503 and closed at once."""

    daemon_threads = True
    request_queue_size = 1024  # connections the kernel keeps waiting for accept(): a burst of them is not dropped

    def __init__(self, address: tuple[str, int], app: App) -> None:
        self.app = app
        self._connections = _Tally(MAX_CLIENTS, PER_ADDRESS)  # connections open
        self._streams = _Tally(MAX_STREAMS, STREAMS_PER_ADDRESS)  # event streams open
        self._count = threading.Lock()  # over both tallies and the connections awaiting a head
        self._awaiting: dict[socket.socket, str] = {}  # waiting for a request's head, the longest first
        self._dropped: set[socket.socket] = set()  # dropped for another: their place already given
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)

    def server_bind(self) -> None:
        """Bind without asking any name service for this host's name (http.server would); on every
        address of IPv6 (::), IPv4's too, so that the link with the network's IPv4 address opens."""
        if self.address_family == socket.AF_INET6 and ipaddress.ip_address(str(self.server_address[0])).is_unspecified:
            with contextlib.suppress(OSError, AttributeError):  # a system without dual stack: IPv6 only
                self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), self.server_address[1]

    def counts(self, address: str | None = None) -> dict[str, int]:
        """Connections and event streams open now, of one address or of all (for tests and benchmarks)."""
        with self._count:
            return {"connections": self._connections.of(address), "streams": self._streams.of(address)}

    def process_request(self, request: Any, client_address: Any) -> None:
        address = client_address[0]
        with self._count:
            full = not (self._connections.take(address) or self._make_room(address))
            if not full:
                self._awaiting[request] = address
        if full:
            self._turn_away(request)
            return
        thread = threading.Thread(target=self.process_request_thread, args=(request, client_address), daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread for it (the machine out of them): the connection goes
            self._closed(request, address)
            self.shutdown_request(request)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._closed(request, client_address[0])

    def _closed(self, request: socket.socket, address: str) -> None:
        with self._count:
            self._awaiting.pop(request, None)
            if request in self._dropped:
                self._dropped.discard(request)
            else:
                self._connections.give(address)

    def _make_room(self, address: str) -> bool:
        """When every connection is taken (and `address` holds fewer than its share): the one that
        has waited longest for a request's head is dropped, and its place is `address`'s. The
        caller holds the lock."""
        if self._connections.of() < self._connections.total or self._connections.of(address) >= self._connections.each:
            return False
        for oldest, held_by in self._awaiting.items():
            del self._awaiting[oldest]
            self._dropped.add(oldest)
            self._connections.give(held_by)
            with contextlib.suppress(OSError):
                oldest.shutdown(socket.SHUT_RDWR)  # its thread's read ends at once
            return self._connections.take(address)
        return False

    def awaiting(self, request: socket.socket, address: str) -> None:
        """The connection waits for a request's head (again, on a kept-alive one): it may be dropped."""
        with self._count:
            if request not in self._dropped:
                self._awaiting[request] = address

    def heard(self, request: socket.socket) -> None:
        """The connection's request head arrived: it is not dropped for another."""
        with self._count:
            self._awaiting.pop(request, None)

    def _turn_away(self, request: socket.socket) -> None:
        """503 and close, without waiting for anything: the answer fits the socket's buffer, and
        is dropped if it does not."""
        with in_language(self.app.default_lang):
            text = (_("The evening's page is busy; try again in a moment.") + "\n").encode()
        head = "".join(f"{k}: {v}\r\n" for k, v in {
            "Content-Type": "text/plain; charset=utf-8", "Content-Length": str(len(text)), "Retry-After": "5",
            "Connection": "close", **SECURITY_HEADERS}.items())
        try:
            request.setblocking(False)
            request.send(f"HTTP/1.1 503 Service Unavailable\r\n{head}\r\n".encode() + text)
        except OSError:
            pass
        self.shutdown_request(request)

    def stream_begins(self, address: str) -> bool:
        """Whether an event stream may begin for this address now (it is then counted)."""
        with self._count:
            return self._streams.take(address)

    def stream_ends(self, address: str) -> None:
        with self._count:
            self._streams.give(address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed in a way of ours: one line on stderr, never a traceback."""
        kind, error, __ = sys.exc_info()
        if self.app.evening.stopping.is_set():  # a request caught by Ctrl-C on its way: let it go
            return
        if kind is not None and not issubclass(kind, (ConnectionError, TimeoutError)):
            print(f"boston-ledger serve: {kind.__name__}: {error}", file=sys.stderr)


class _Tally:
    """How many of something (connections, event streams) each client address holds, within a cap
    for each address and one for all; the caller holds the lock."""

    def __init__(self, total: int, each: int) -> None:
        self.total, self.each, self.held = total, each, 0
        self.by: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """One more for `address`, when both caps allow it."""
        mine = self.by.get(address, 0)
        if self.held >= self.total or mine >= self.each:
            return False
        self.held, self.by[address] = self.held + 1, mine + 1
        return True

    def give(self, address: str) -> None:
        self.held -= 1
        left = self.by[address] - 1
        if left:
            self.by[address] = left
        else:
            del self.by[address]

    def of(self, address: str | None = None) -> int:
        """How many one address holds, or all of them."""
        return self.held if address is None else self.by.get(address, 0)


def _refusal(error: Exception, path: Path) -> LedgerError:
    """Why `serve` does not start, as the command line says it of the same ledger."""
    return error if isinstance(error, LedgerError) else LedgerError(failure(error, path))


LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")  # what a Host header may also name: this machine


class Served:
    """A running server of one evening: where it listens, the address its links name, and how to
    stop it."""

    def __init__(self, path: Path, session_id: int | None, host: str, port: int, token: str,
                 default_lang: str = SOURCE, watch_every: float = 0.1, entry_token: str | None = None) -> None:
        try:
            self.evening = Evening(path, session_id)
        except Exception as e:
            raise _refusal(e, path) from None
        try:  # the page read once: a ledger the command line refuses is refused here, before any link is shown
            self.evening.view(default_lang)
        except Exception as e:
            self.evening.stop()
            raise _refusal(e, path) from None
        entry = Entry(path, self.evening.session_id, entry_token, token, self.evening.changed) if entry_token else None
        self.app = App(self.evening, token, default_lang, entry=entry)
        try:
            self.server = Server((host, port), self.app)
        except BaseException:
            self.evening.stop()
            raise
        self.evening.watch(watch_every)
        self.listening, self.token, self.entry_token = host, token, entry_token
        self.host = link_address(host)  # what its links name (and the Host they send)
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.app.hosts, self.app.port = {shown.lower(), *LOCAL_HOSTS}, self.port
        loopback = self.host == "127.0.0.1" or self.host == "::1"
        self.app.origins = {self.origin} | ({f"http://localhost:{self.port}"} if loopback else set())

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def networked(self) -> bool:
        """Whether it listens beyond this machine (--lan, or a --host that is not the loopback):
        anyone on the network who has a link can open it."""
        return not ipaddress.ip_address(self.listening).is_loopback

    @property
    def scannable(self) -> bool:
        """Whether its links name an address a phone at the table can open (not the loopback)."""
        return not ipaddress.ip_address(self.host).is_loopback

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

    def in_thread(self) -> Served:
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


def listen_address(host: str | None, lan: bool) -> str:
    """Where `serve` listens: the address `--host` gives (checked, written as `ipaddress` writes it),
    this machine's on its local network with `--lan`, else the loopback. LedgerError for an
    address that is not one, for both options, or for --lan on a machine with no network."""
    if host is not None:
        try:
            host = str(ipaddress.ip_address(host.strip("[]")))
        except ValueError:
            raise LedgerError(_("--host takes an address of this machine such as 127.0.0.1 or ::1, not {value!r}",
                                value=host)) from None
        if lan:
            raise LedgerError(_("--host and --lan each choose where to listen; give one of them"))
        return host
    if lan:
        found = lan_address()
        if found is None:
            raise LedgerError(_("no local network address found for --lan; is this machine on a network?"))
        return found
    return "127.0.0.1"


def link_address(listening: str) -> str:
    """The address that the links of a server listening at `listening` name: that one; for every
    address of the machine (0.0.0.0, ::), its address on the local network as --lan finds it,
    else the loopback's."""
    if not ipaddress.ip_address(listening).is_unspecified:
        return listening
    return lan_address() or ("::1" if ":" in listening else "127.0.0.1")


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
    with contextlib.suppress(OSError):
        found += [str(info[4][0])  # AF_INET: (address, port)
                  for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return next((a for a in found if not a.startswith("127.") and a != "0.0.0.0"), None)
