"""Helpers of the server's tests: an evening played through the app layer, `boston-ledger serve`
run as a program, raw HTTP on the loopback, an event stream read event by event."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

from boston_ledger.app import deals as deals_app
from boston_ledger.serve import server
from boston_ledger.serve.server import Served
from boston_ledger.store.db import open_db
from conftest import PROGRAM, interruptible

# A server run in a thread by a test stops when its serve_forever() next looks at the stop flag:
# every 0.5 s in the program (where nobody waits for it), which made each such test half a second
# longer. The tests' servers look every 20 ms; what they serve is the same.
server.Served.serve_forever = lambda self: self.server.serve_forever(poll_interval=0.02)

URL = re.compile(r"http://(?P<host>[0-9.]+|\[[0-9a-f:]+\]):(?P<port>\d+)/\?t=(?P<token>[A-Za-z0-9_-]+)")
HANG = 60  # seconds after which a test that waits for the server gives up: a hang, not a timing


def play(db: Path, deals: list[dict]) -> None:
    """Enter deals into the current session, as `boston-ledger deal` does."""
    conn = open_db(db)
    try:
        session = deals_app.current(conn)
        for d in deals:
            deals_app.enter(conn, deals_app.typed_deal(session, **d), session.id)
    finally:
        conn.close()


JUNIOR = {"contract": "junior", "declarer": "Boris", "partner": "Gleb", "tricks": "5", "partner_tricks": "3"}
PASS = {"contract": "pass"}


@dataclass
class Program:
    """`boston-ledger serve` running as a program; its first line told where."""

    proc: subprocess.Popen
    url: str
    host: str
    port: int
    token: str
    first: str

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C, as at the keyboard; its exit status and the rest of its output."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        out, err = self.proc.stdout.read(), self.proc.stderr.read()  # what readline() read ahead too
        self.proc.wait(timeout=HANG)
        return self.proc.returncode, out, err


def serve(db: Path, *args: str, env: dict[str, str] | None = None) -> Program:
    """Start `boston-ledger serve` on a free port of 127.0.0.1 and read its link."""
    environ = {**os.environ, "BOSTON_LEDGER_DB": str(db), "PYTHONUNBUFFERED": "1", **(env or {})}
    proc = subprocess.Popen([*PROGRAM, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8", env=environ,
                            preexec_fn=interruptible)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    found = URL.search(first)
    if found is None:
        proc.kill()
        out, err = proc.communicate(timeout=HANG)
        raise AssertionError(f"no link in {first!r}; {out} {err}")
    return Program(proc, found.group(0), found["host"], int(found["port"]), found["token"], first)


def view(db: Path, lang: str = "en"):
    """The phone page's views of the ledger `db` in `lang`, made as `serve` makes them (no server)."""
    from boston_ledger.serve.evening import Evening

    evening = Evening(db)
    try:
        return evening.view(lang)
    finally:
        evening.stop()


def raw(port: int, data: bytes, host: str = "127.0.0.1") -> bytes:
    """Send bytes as they are and read the whole answer (the server closes or answers once)."""
    with socket.create_connection((host, port), timeout=HANG) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def get(port: int, target: str, headers: dict[str, str] | None = None, method: str = "GET",
        host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """One request: status, headers (lower-case names), body."""
    conn = http.client.HTTPConnection(host, port, timeout=HANG)
    try:
        conn.request(method, target, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


class Events:
    """An event stream of the server, read one event at a time."""

    def __init__(self, port: int, target: str, host: str = "127.0.0.1") -> None:
        self.sock = socket.create_connection((host, port), timeout=HANG)
        self.sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        head = []
        while True:
            line = self.file.readline()
            if line in (b"\r\n", b""):
                break
            head.append(line.decode("latin-1").strip())
        self.status = int(head[0].split()[1])
        self.headers = {k.lower(): v.strip() for k, __, v in (h.partition(":") for h in head[1:])}

    def next(self) -> tuple[str | None, str]:
        """The next event that carries data: its id and data (comments and retry skipped)."""
        ident, data = None, []
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode("utf-8").rstrip("\n")
            if text == "":
                if data:
                    return ident, "\n".join(data)
                continue
            field, __, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "id":
                ident = value
            elif field == "data":
                data.append(value)

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def deals_in(sheet: str) -> int:
    return int(re.search(r'data-deals="(\d+)"', sheet).group(1))


def balance_in(sheet: str, name: str) -> int:
    return int(re.search(rf'data-player="{re.escape(name)}" data-balance="(-?\d+)"', sheet).group(1))


ENTRY_URL = re.compile(r"http://(?P<host>[0-9.]+):(?P<port>\d+)/entry\?t=(?P<token>[A-Za-z0-9_-]+)")


def entry_link(program: Program) -> str:
    """The entry link that `serve --entry` prints after the view link and its code."""
    assert program.proc.stdout is not None
    while True:
        line = program.proc.stdout.readline()
        if not line:
            raise AssertionError("the program ended before it printed the entry link")
        found = ENTRY_URL.search(line)
        if found is not None:
            return found.group(0)


# ---- a phone on the entry page (`serve --entry`) ------------------------------------------------

VIEW = "the-view-token-of-the-test-0123"
ENTRY = "the-entry-token-of-the-test-456"


class Form(HTMLParser):
    """The forms of a page: each one's action, hidden fields and buttons (name, value, text)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._button: dict | None = None
        self.links: list[tuple[str, str]] = []
        self._link: list | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a["action"], "method": a.get("method"), "hidden": [], "buttons": []})
        elif tag == "input" and a.get("type") == "hidden":
            self.forms[-1]["hidden"].append((a["name"], a["value"]))
        elif tag == "button":
            self._button = {"name": a.get("name"), "value": a.get("value", ""), "text": ""}
        elif tag == "a":
            self._link = [a["href"], ""]

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button["text"] += data
        if self._link is not None:
            self._link[1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._button is not None:
            self._button["text"] = " ".join(self._button["text"].split())
            self.forms[-1]["buttons"].append(self._button)
            self._button = None
        elif tag == "a" and self._link is not None:
            self.links.append((self._link[0], " ".join(self._link[1].split())))
            self._link = None


class Phone:
    """A phone's browser on the entry page, as plain HTTP: it taps buttons by their words."""

    def __init__(self, served: Served, lang: str = "en", token: str = ENTRY) -> None:
        self.served, self.lang = served, lang
        self.status, self.html = self.request("GET", f"/entry?{urlencode({'t': token, 'lang': lang})}")

    def request(self, method: str, target: str, form: list[tuple[str, str]] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.served.port, timeout=HANG)
        try:
            sent = {"Origin": self.served.origin, "Content-Type": "application/x-www-form-urlencoded"} \
                if method == "POST" else {}
            conn.request(method, target, body=urlencode(form or []) if method == "POST" else None,
                         headers={**sent, **(headers or {})})
            r = conn.getresponse()
            status, body, location = r.status, r.read().decode(), r.getheader("Location")
        finally:
            conn.close()
        if status == 303:  # after a write: the page it points to, as a browser follows it
            assert location is not None and location.startswith("/entry?")
            return self.request("GET", location)
        return status, body.replace("\u00a0", " ")  # the words as read (a no-break space keeps a name with its tricks)

    def buttons(self) -> list[str]:
        return [b["text"] for f in Form(self.html).forms for b in f["buttons"]]

    def tap(self, words: str) -> Phone:
        """Tap the button that says `words` (exactly, else beginning so)."""
        for exact in (True, False):
            for form in Form(self.html).forms:
                for b in form["buttons"]:
                    if b["text"] == words if exact else b["text"].startswith(words):
                        fields = list(form["hidden"]) + ([(b["name"], b["value"])] if b["name"] else [])
                        self.status, self.html = self.request("POST", form["action"], fields)
                        return self
        raise AssertionError(f"no button {words!r} among {self.buttons()}")

    def answer(self, text: str) -> Phone:
        """Send an answer the buttons do not offer (a phone's form can be made to say anything)."""
        form = next(f for f in Form(self.html).forms if f["action"].startswith("/entry/step"))
        self.status, self.html = self.request("POST", form["action"], [*form["hidden"], ("answer", text)])
        return self

    def question(self) -> str:
        found = re.search(r'<h2 class="question">(.*?)</h2>', self.html)
        return found.group(1) if found else ""

    def error(self) -> str | None:
        found = re.search(r'<p class="error" role="alert">(.*?)</p>', self.html)
        return found.group(1) if found else None
