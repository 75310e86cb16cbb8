"""The evening page under hostile clients (issue 23), each case as the tests run it → what the
server does:

- 300 half-open sockets trickling a byte a second + 20 event streams, all from 127.0.0.1 → 24
  connections and 8 streams of theirs kept, the rest answered 503 (429 for streams); a client from
  127.0.0.2 gets the page and /api/status, each within 2 s
- a request head trickled a byte at a time past the head's deadline → closed at the deadline however
  often a byte comes
- a follower that closes its event stream → its thread ends within about a second
- Host: another name (DNS rebinding), another port, none, two → 421, 421, 400, 400, on every path
- `serve --host ::1` → listens on IPv6; its printed link works, another Host gets 421
- Content-Length: ² (byte B2), ٣, ² in UTF-8, -1, +5, 10^22, twice, with chunked → 400, nothing on
  stderr
- a POST without Content-Length → 411
- POST /entry/undo without the deal's number, or with another's → 409, nothing taken back
- a CR, ESC, bidi mark in a stored tariff's word → the page and the event stream show it escaped
  (\\x0d); no bare CR reaches a stream

All traffic is on the loopback. Times are asserted only where the issue asks for a bound (2 s for
the other client), with the design's own figure far below it; everything else polls for an
outcome with a bound that only catches a hang."""

from __future__ import annotations

import re
import select
import socket
import threading
import time
from contextlib import suppress
from decimal import Decimal
from pathlib import Path

import pytest

from boston_ledger.app import deals as deals_app
from boston_ledger.app import sessions as sessions_app
from boston_ledger.core.tariff_files import parse
from boston_ledger.serve import routes
from boston_ledger.serve import server as server_module
from boston_ledger.serve.server import PER_ADDRESS, STREAMS_PER_ADDRESS, Served
from boston_ledger.store.db import open_db
from conftest import PLAYERS, rename_contract
from serving import HANG, JUNIOR, PASS, Events, get, play, raw, serve

TOKEN = "a-token-of-the-test-0123456789"
ENTRY = "the-entry-token-of-the-test-987"
OTHER = "127.0.0.2"  # the legitimate client: another loopback address


def loopback_alias_works() -> bool:
    try:
        with socket.socket() as s:
            s.bind((OTHER, 0))
        return True
    except OSError:
        return False


@pytest.fixture
def evening(table, isolated: Path) -> Path:
    play(isolated, [JUNIOR, PASS])
    return isolated


@pytest.fixture
def served(evening: Path, monkeypatch):
    monkeypatch.setattr(routes, "LOOK", 0.1)  # a stream looks for its client each second in use: the same, sooner
    running = Served(evening, None, "127.0.0.1", 0, TOKEN).in_thread()
    yield running
    running.close()


def wait_for(condition, what: str, bound: float = HANG) -> float:
    """Poll until `condition()` holds; the seconds it took (the bound only catches a hang)."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < bound, f"{what}: not within {bound} s"
        time.sleep(0.02)
    return time.monotonic() - start


def request(port: int, target: str, source: str = OTHER, host: str | None = None) -> tuple[int, bytes, float]:
    """One GET from `source`; its status, body and the seconds it took from connecting."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=HANG, source_address=(source, 0)) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nConnection: close\r\n\r\n"
                  .encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    return int(answer.split(b" ", 2)[1]), answer.partition(b"\r\n\r\n")[2], time.monotonic() - start


# ---- fair serving --------------------------------------------------------------------------------


@pytest.mark.slow  # waits on the server's clock (its looks at the streams), 400 sockets
@pytest.mark.skipif(not loopback_alias_works(), reason="127.0.0.2 is not a loopback address here")
def test_one_address_cannot_lock_out_another(served) -> None:
    port, threads_before = served.port, threading.active_count()
    half_open, streams, stop = [], [], threading.Event()
    try:
        for __ in range(300):  # half a request each, then a byte a second
            s = socket.create_connection(("127.0.0.1", port), timeout=HANG)
            s.sendall(b"GET /?t=" + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            half_open.append(s)

        def trickle() -> None:
            while not stop.wait(1.0):
                for s in half_open:
                    with suppress(OSError):
                        s.send(b"a")

        threading.Thread(target=trickle, daemon=True).start()
        # the server takes PER_ADDRESS of them and answers every other one 503 at once
        poll = select.poll()
        for s in half_open:
            poll.register(s, select.POLLIN)
        wait_for(lambda: len(poll.poll(0)) >= len(half_open) - PER_ADDRESS, "the others answered")
        answered = {fd for fd, __ in poll.poll(0)}
        kept = [s for s in half_open if s.fileno() not in answered]
        assert len(kept) == PER_ADDRESS and served.server.counts()["connections"] == PER_ADDRESS
        assert all(s.recv(64).startswith(b"HTTP/1.1 503") for s in half_open if s.fileno() in answered)
        # event streams with the token, from the same address: STREAMS_PER_ADDRESS at most
        for s in kept:  # make room for them: the slow ones go
            s.close()
        wait_for(lambda: served.server.counts()["connections"] == 0, "room made")
        answers = []
        for __ in range(20):
            stream = Events(port, f"/events?t={TOKEN}")
            streams.append(stream)
            answers.append(stream.status)
        assert answers.count(200) == STREAMS_PER_ADDRESS and set(answers) == {200, 429}
        for s in half_open:  # and slow ones again, as many as it takes
            s.close()
        half_open[:] = []
        for __ in range(100):
            s = socket.create_connection(("127.0.0.1", port), timeout=HANG)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            half_open.append(s)
        wait_for(lambda: served.server.counts("127.0.0.1")["connections"] >= PER_ADDRESS,
                 "the slow sockets taken again")

        for __ in range(3):  # meanwhile another client gets the page and the status, each within 2 s
            for target in (f"/?t={TOKEN}", f"/api/status?t={TOKEN}"):
                status, body, took = request(port, target)
                assert status == 200 and body, target
                assert took < 2.0, (target, took)
        assert served.server.counts("127.0.0.1")["connections"] <= PER_ADDRESS
        assert served.server.counts("127.0.0.1")["streams"] == STREAMS_PER_ADDRESS
        assert threading.active_count() - threads_before <= PER_ADDRESS + 4  # bounded by the caps
    finally:
        stop.set()
        for s in half_open:
            s.close()
        for stream in streams:
            stream.close()
    # and it recovers once they go: nothing held, and 127.0.0.1 is served again
    wait_for(lambda: served.server.counts() == {"connections": 0, "streams": 0}, "everything let go")
    assert request(port, f"/api/status?t={TOKEN}", source="127.0.0.1")[0] == 200


@pytest.mark.slow  # a wait on the server's clock (the head's deadline)
def test_a_request_head_has_a_deadline_however_it_trickles(served, monkeypatch) -> None:
    monkeypatch.setattr(server_module, "HEAD_TIME", 0.4)  # 10 s in use; the mechanism is the same
    with socket.create_connection(("127.0.0.1", served.port), timeout=HANG) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.settimeout(0.2)
        started, closed = time.monotonic(), False
        while time.monotonic() - started < HANG:
            try:
                s.send(b"X")  # a byte every 0.2 s: every single read is quick
                if s.recv(1) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed and time.monotonic() - started < HANG
    wait_for(lambda: served.server.counts()["connections"] == 0, "the slow connection let go")


@pytest.mark.slow  # a wait on the server's clock (its looks at the streams)
def test_the_thread_of_a_closed_stream_ends_at_once(served) -> None:
    streams = [Events(served.port, f"/events?t={TOKEN}") for __ in range(4)]
    for stream in streams:
        stream.next()
    assert served.server.counts()["streams"] == 4
    for stream in streams:
        stream.close()
    took = wait_for(lambda: served.server.counts() == {"connections": 0, "streams": 0}, "the streams let go")
    assert took < 4.0  # a look every tenth of a second here (LOOK); the rest is margin for a busy machine


# ---- the Host header -------------------------------------------------------------------------------


def test_only_the_hosts_it_printed_are_answered(served) -> None:
    port = served.port
    cases = [(f"127.0.0.1:{port}", 200), ("127.0.0.1", 200), (f"localhost:{port}", 200), (f"LocalHost:{port}", 200),
             (f"[::1]:{port}", 200), ("evil.example", 421), (f"evil.example:{port}", 421),
             (f"127.0.0.1.evil.example:{port}", 421), (f"localhost.:{port}", 421), ("127.0.0.1:1", 421),
             (f"127.0.0.1:{port}x", 421), (f"[::1]x:{port}", 421), ("", 400)]
    for host, expected in cases:
        for target in (f"/?t={TOKEN}", "/static/serve.css", "/nowhere"):
            answer = raw(port, f"GET {target} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            status = int(answer.split(b" ", 2)[1])
            assert status == (expected if expected != 200 or target != "/nowhere" else 404), (host, target)
            if status in (400, 421):
                assert b"Test evening" not in answer and b"Anna" not in answer
    for head in (b"GET / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.0\r\n\r\n",
                 b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"):
        assert raw(port, head).startswith(b"HTTP/1.1 400"), head
    answer = raw(port, b"GET /?t=" + TOKEN.encode() + b" HTTP/1.1\r\nHost: evil.example\r\nAccept-Language: ru\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 421") and b"boston-ledger serve" in answer
    assert b"Content-Security-Policy" in answer


@pytest.mark.slow  # a server's process
def test_serve_listens_on_ipv6_with_host(evening: Path) -> None:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    running = serve(evening, "--host", "::1")
    try:
        assert running.host == "[::1]", "no IPv6 link"
        port, token = running.port, running.token
        answer = raw(port, f"GET /api/status?t={token} HTTP/1.1\r\nHost: [::1]:{port}\r\n\r\n".encode(), "::1")
        assert answer.startswith(b"HTTP/1.1 200") and b'"Anna"' in answer
        answer = raw(port, f"GET /api/status?t={token} HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n".encode(), "::1")
        assert answer.startswith(b"HTTP/1.1 421")
    finally:
        code, __, err = running.stop()
    assert code == 0 and err == ""


# ---- malformed requests ------------------------------------------------------------------------------


@pytest.mark.slow  # a server's process
def test_malformed_lengths_are_refused_quietly(evening: Path) -> None:
    running = serve(evening, "--entry")
    try:
        port = running.port
        form = b"Content-Type: application/x-www-form-urlencoded\r\n"
        post = b"POST /entry/step HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:%d\r\n" % port + form
        cases = [
            (post + b"Content-Length: \xb2\r\n\r\nab", 400),  # the red team's: a superscript two (Latin-1)
            (post + "Content-Length: ²\r\n\r\nab".encode(), 400),  # the same in UTF-8
            (post + "Content-Length: ٣\r\n\r\nabc".encode(), 400),  # an Arabic-Indic three
            (post + b"Content-Length: -1\r\n\r\n", 400),
            (post + b"Content-Length: +5\r\n\r\nhello", 400),
            (post + b"Content-Length: 1 0\r\n\r\nhello", 400),
            (post + b"Content-Length: 0x10\r\n\r\nhello", 400),
            (post + b"Content-Length: 10000000000000000000000\r\n\r\nhello", 400),
            (post + b"Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
            (post + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
            (post + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello", 400),
            (post + b"\r\n", 411),
            (post + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 411),
            (post + b"Content-Length: 5000\r\n\r\n", 413),
            (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \xb2\r\n\r\n", 400),
            (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -0\r\n\r\n", 400),
        ]
        for data, expected in cases:
            answer = raw(port, data)
            assert answer.startswith(b"HTTP/1.1 %d" % expected), (data, answer[:80])
            assert b"Connection: close" in answer
    finally:
        code, __, err = running.stop()
    assert code == 0
    assert err == "", err  # no traceback, no line at all: requests are not logged


# ---- undo from the phone -------------------------------------------------------------------------------


def test_undo_takes_back_only_the_deal_it_names(evening: Path, cli) -> None:
    running = Served(evening, None, "127.0.0.1", 0, TOKEN, entry_token=ENTRY).in_thread()
    try:
        def undo(fields: str) -> int:
            body = fields.encode()
            answer = raw(running.port, (f"POST /entry/undo?t={ENTRY} HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n"
                                        f"Origin: {running.origin}\r\n"
                                        "Content-Type: application/x-www-form-urlencoded\r\n"
                                        f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
            return int(answer.split(b" ", 2)[1])

        for fields in ("", "number=", "number=x", "number=1", "number=3", "numbers=2"):
            assert undo(fields) == 409, fields
            assert cli.json("status")["deals"] == 2  # nothing taken back
        assert undo("number=2") == 303 and cli.json("status")["deals"] == 1
    finally:
        running.close()


# ---- control characters already in a ledger ----------------------------------------------------------------


def test_control_characters_of_a_stored_tariff_are_shown_escaped(isolated: Path) -> None:
    """A ledger of an earlier version may hold a tariff that today's `tariffs check` refuses: a CR in
    a contract's key. The page and the event stream show it as \\x0d."""
    import tomllib

    import tomli_w

    data = tomllib.loads((Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml").read_text())
    rename_contract(data, "ju\rnior\x1b[2J\u202e")
    tariff = parse(tomli_w.dumps(data), "an earlier ledger's tariff")  # read as stored: not refused
    conn = open_db(isolated, create=True)
    try:
        session = sessions_app.new(conn, PLAYERS, tariff, Decimal("1"), "")
        deal = deals_app.typed_deal(session, contract="ju\rnior\x1b[2J\u202e", declarer="Boris", partner="Gleb",
                                    tricks="5", partner_tricks="3")
        deals_app.enter(conn, deal, session.id)
    finally:
        conn.close()
    running = Served(isolated, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        status, __, page = get(running.port, f"/?t={TOKEN}")
        assert status == 200 and b"ju\\x0dnior\\x1b[2J\\u202e" in page
        assert not re.search(rb"[\r\x1b]|\xe2\x80\xae", page)
        with socket.create_connection(("127.0.0.1", running.port), timeout=HANG) as s:
            s.sendall(f"GET /events?t={TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            got = b""
            while b"ju\\x0dnior" not in got or not got.endswith(b"\n\n"):
                chunk = s.recv(65536)
                assert chunk, "the stream ended"
                got += chunk
        stream = got.partition(b"\r\n\r\n")[2]
        assert b"\r" not in stream and b"\x1b" not in stream
        lines = stream.split(b"\n")
        assert all(line == b"" or line.startswith((b"data: ", b"id: ", b"retry: ", b":")) for line in lines)
    finally:
        running.close()
