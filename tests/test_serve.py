"""`boston-ledger serve`: the evening page and its API, what it refuses, and the program itself.

Nothing here measures time: a test waits for the server's own signal (a new version of the
ledger, the next event of a stream) with a bound that only catches a hang."""

from __future__ import annotations

import hashlib
import json
import queue
import re
import threading
from pathlib import Path

import pytest

from boston_ledger.serve import page, routes, tokens
from boston_ledger.serve.routes import App, Request, chosen_language
from boston_ledger.serve.server import Served
from boston_ledger.store.db import open_read_only
from conftest import PLAYERS
from serving import HANG, JUNIOR, PASS, Events, balance_in, deals_in, get, play, raw, serve

TOKEN = "a-token-of-the-test-0123456789"
URL_SAID = re.compile(r"Session 1 on the phones: http://(?P<host>[0-9.]+|\[[0-9a-f:]+\]):\d+/\?t=[A-Za-z0-9_-]+$")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


@pytest.fixture
def evening(table, isolated: Path) -> Path:
    """A classic evening of three deals."""
    play(isolated, [JUNIOR, PASS, {"contract": "solo", "declarer": "Vera", "tricks": "4"}])
    return isolated


@pytest.fixture
def served(evening: Path):
    running = Served(evening, None, "127.0.0.1", 0, TOKEN).in_thread()
    yield running
    running.close()


def changed(served: Served, seen: int) -> int:
    """Wait until the server's watcher has noticed a change of the ledger."""
    version = served.evening.wait(seen, HANG)
    assert version != seen, "the watcher did not notice the deal"
    return version


# ---- the API is the command line's JSON ---------------------------------------------------------


def test_api_status_is_status_json(served, cli) -> None:
    status, headers, body = get(served.port, f"/api/status?t={TOKEN}")
    assert status == 200 and headers["content-type"] == "application/json; charset=utf-8"
    assert body.decode() == cli("status", "--json").stdout
    assert json.loads(body)["balances"] == cli.json("status")["balances"]


def test_api_history_is_history_json_with_its_options(served, cli) -> None:
    assert get(served.port, f"/api/history?t={TOKEN}")[2].decode() == cli("history", "--json").stdout
    assert (get(served.port, f"/api/history?t={TOKEN}&last=2")[2].decode()
            == cli("history", "--json", "--last", "2").stdout)
    assert get(served.port, f"/api/history?t={TOKEN}&all=1")[2].decode() == cli("history", "--json", "--all").stdout
    russian = get(served.port, f"/api/history?t={TOKEN}", {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"})[2]
    assert russian.decode() == cli("--lang", "ru", "history", "--json").stdout
    assert "младшая" in russian.decode() and "все спасовали" in russian.decode()
    status, __, body = get(served.port, f"/api/history?t={TOKEN}&last=zero")
    assert status == 400 and body == b"?last= takes a whole number of deals, 1 or more.\n"


@pytest.mark.slow
def test_the_program_serves_exactly_what_the_commands_print(evening: Path, cli) -> None:
    """The program, byte for byte: `serve` against `status --json` and `history --json`."""
    program = serve(evening)
    try:
        for path, command in (("/api/status", "status"), ("/api/history", "history")):
            printed = cli.main(command, "--json").stdout_bytes
            assert get(program.port, f"{path}?t={program.token}")[2] == printed, path
    finally:
        assert program.stop()[0] == 0


def test_the_served_session_is_the_one_asked_for(table, cli, isolated: Path) -> None:
    play(isolated, [JUNIOR])
    cli("new", "Dasha", "Egor", "Fima", "Zoya", "--yes")  # session 2 is current now
    running = Served(isolated, 1, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        served_status = get(running.port, f"/api/status?t={TOKEN}")[2].decode()
        served_history = get(running.port, f"/api/history?t={TOKEN}")[2].decode()
    finally:
        running.close()
    cli("use", "1")
    assert served_status == cli("status", "--json").stdout
    assert served_history == cli("history", "--json").stdout
    assert '"Anna"' in served_status


def test_the_why_lines_add_up_to_each_deal(served, cli) -> None:
    deals = json.loads(get(served.port, f"/api/history?t={TOKEN}&all=1")[2])
    before = dict.fromkeys(PLAYERS, 0)
    basket = 0
    for d in deals:
        summed = {party: sum(row[party] for row in d["why"].values()) for party in [*PLAYERS, "basket"]}
        assert summed == {**d["changes"], "basket": d["basket_change"]}, d["deal"]
        assert {p: before[p] + d["changes"][p] for p in PLAYERS} == d["balances"]
        assert basket + d["basket_change"] == d["basket"]
        before, basket = d["balances"], d["basket"]
    assert deals[-1]["why"]["labet"] == {"Anna": 0, "Boris": 0, "Vera": -80, "Gleb": 0, "basket": 80}


# ---- the page --------------------------------------------------------------------------------


def test_the_page_is_the_sheet(served, cli) -> None:
    status, headers, body = get(served.port, f"/?t={TOKEN}")
    html = body.decode()
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    data = cli.json("status")
    for name, value in data["balances"].items():
        assert balance_in(html, name) == value
    assert f'data-basket="{data["basket"]}"' in html
    assert deals_in(html) == 3
    assert re.search(r'class="player dealing" data-player="Gleb"', html)  # deal 4: the fourth seat deals
    assert '<p class="now">Deal 4</p><p class="where">partie 1, tour 1 (simple tour)</p>' in html
    assert html.count('<article class="deal"') == 3
    assert "<th scope=\"row\">labet</th>" in html and "solo junior Vera\u00a04" in html  # a name kept with its tricks
    assert '<script src="/static/serve.js" defer></script>' in html
    assert "<script>" not in html and "style=" not in html  # nothing inline: the policy forbids it
    assert f'data-events="/events?t={TOKEN}&amp;lang=en"' in html


def test_the_page_in_russian_by_the_browser_or_by_lang(served) -> None:
    html = get(served.port, f"/?t={TOKEN}", {"Accept-Language": "ru,en;q=0.5"})[2].decode()
    assert '<html lang="ru">' in html and "Последние сдачи" in html and "Сдача 4" in html and "корзина" in html
    english = get(served.port, f"/?t={TOKEN}&lang=en", {"Accept-Language": "ru"})[2].decode()
    assert '<html lang="en">' in english and "Last deals" in english


@pytest.mark.parametrize("accept, query, expected", [
    ("ru-RU,ru;q=0.9,en-US;q=0.8", {}, "ru"), ("en-GB,ru;q=0.5", {}, "en"), ("de-DE,ru;q=0.3,en;q=0.2", {}, "ru"),
    ("ru;q=0,en;q=0.1", {}, "en"), ("fr", {}, "en"), (None, {}, "en"), ("en", {"lang": ["ru"]}, "ru"),
    ("ru", {"lang": ["xx"]}, "ru"), ("ru;q=abc,en;q=0.5", {}, "en"),
])
def test_the_language_chosen(accept, query, expected) -> None:
    assert chosen_language(query, accept, "en") == expected


def test_every_value_is_escaped(cli, isolated: Path) -> None:
    evil = ['<script>alert(1)</script>', 'Bo"ris', "Ve'ra", "G&leb"]
    cli("new", *evil, "--name", '<img src=x onerror=alert(1)>')
    play(isolated, [{"contract": "junior", "declarer": evil[1], "partner": evil[3], "tricks": "5",
                     "partner_tricks": "3"}])
    running = Served(isolated, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        html = get(running.port, f"/?t={TOKEN}")[2].decode()
    finally:
        running.close()
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'data-player="Bo&quot;ris"' in html and "Ve&#x27;ra" in html and "G&amp;leb" in html


def test_double_tours_are_marked(table, isolated: Path) -> None:
    play(isolated, [PASS] * 32)  # eight simple tours of four deals; the ninth is double
    running = Served(isolated, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        before = get(running.port, f"/?t={TOKEN}")[2].decode()
        play(isolated, [JUNIOR])
        changed(running, 0)
        after = get(running.port, f"/?t={TOKEN}")[2].decode()
    finally:
        running.close()
    assert '<p class="where double">partie 1, tour 9 (double tour ×2)</p>' in before
    assert '<article class="deal in-double" data-deal="33">' in after
    assert "partie 1, tour 9 (double tour ×2) · dealer Anna" in after
    assert '<article class="deal" data-deal="32">' in after


def test_the_settlement_when_settled(served, cli) -> None:
    seen = served.evening.version
    printed = cli("settle").stdout
    changed(served, seen)
    html = get(served.port, f"/?t={TOKEN}")[2].decode()
    assert 'data-settled="1"' in html and '<section class="settlement">' in html
    for line in printed.splitlines():
        if " pays " in line:
            assert f"<li>{line.strip()}</li>" in html
    assert "deals next" not in html


def test_a_points_session_shows_its_score_sheet(cli, isolated: Path) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel", "--deals", "8")
    play(isolated, [{"contract": "6", "rank": "first", "declarer": "Boris", "partner": "Gleb", "tricks": "4",
                     "partner_tricks": "3"}])
    running = Served(isolated, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        html = get(running.port, f"/?t={TOKEN}")[2].decode()
        deals = json.loads(get(running.port, f"/api/history?t={TOKEN}")[2])
    finally:
        running.close()
    assert ([balance_in(html, name) for name in PLAYERS] == list(cli.json("status")["balances"].values())
            == [0, -8, 0, -8])
    assert '<p class="now">Deal 2 of 8</p>' in html and "7 of the 8 agreed deals left" in html
    assert "data-basket" not in html and "<tbody></tbody>" in html  # no reasons on points: the deal's score
    assert deals[-1]["why"] == {} and deals[-1]["changes"] == {"Anna": 0, "Boris": -8, "Vera": 0, "Gleb": -8}


def test_a_session_without_deals(table, isolated: Path) -> None:
    running = Served(isolated, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        html = get(running.port, f"/?t={TOKEN}")[2].decode()
    finally:
        running.close()
    assert "Session 1 has no deals yet." in html and deals_in(html) == 0


# ---- updates ---------------------------------------------------------------------------------


def test_the_watcher_notices_a_deal_from_another_connection(served, cli) -> None:
    seen = served.evening.version
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
    changed(served, seen)
    assert get(served.port, f"/api/status?t={TOKEN}")[2].decode() == cli("status", "--json").stdout


def test_the_event_stream_sends_the_sheet_after_each_deal(served, cli) -> None:
    stream = Events(served.port, f"/events?t={TOKEN}")
    try:
        assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert stream.headers["content-security-policy"] == CSP
        __, first = stream.next()
        assert deals_in(first) == 3 and first == get(served.port, f"/?t={TOKEN}")[2].decode().split(
            '<main id="sheet" aria-live="polite">')[1].split("</main>")[0]
        for n in (4, 5):
            cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
            ident, sheet = stream.next()
            assert deals_in(sheet) == n and int(ident) >= n - 3  # the next event is this deal's
            assert balance_in(sheet, "Anna") == cli.json("status")["balances"]["Anna"]
    finally:
        stream.close()


def test_several_clients_at_once_each_see_each_deal(served, cli) -> None:
    """Five phones follow the evening at once, each on its event stream while it also asks for the
    status: each sees each deal, in order, and nobody gets an error. (The load of a whole evening,
    20 phones for 60 s, is a benchmark: benchmarks/serve_load.py.) The deals are entered in
    step with the phones, each once every phone has the one before, so nothing depends on speed."""
    clients, deals = 5, 4
    seen: list[list[int]] = [[] for __ in range(clients)]
    errors: list[str] = []
    news: queue.Queue = queue.Queue()  # (client, deals it shows) after each event

    def phone(i: int) -> None:
        stream = None
        try:
            stream = Events(served.port, f"/events?t={TOKEN}")
            assert stream.status == 200, stream.status
            while not seen[i] or seen[i][-1] < 3 + deals:
                __, sheet = stream.next()
                seen[i].append(deals_in(sheet))
                status, __, body = get(served.port, f"/api/status?t={TOKEN}")
                assert status == 200 and json.loads(body)["deals"] >= seen[i][-1], (status, body[:200])
                news.put((i, seen[i][-1]))
        except Exception as e:  # said in the test's thread
            errors.append(f"client {i}: {type(e).__name__}: {e}")
            news.put((i, None))
        finally:
            if stream is not None:
                stream.close()

    def everyone_has(n: int) -> None:
        waiting = {i for i in range(clients) if not seen[i] or seen[i][-1] < n}
        while waiting:
            i, shown = news.get(timeout=HANG)
            assert shown is not None, errors
            if shown >= n:
                waiting.discard(i)

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    everyone_has(3)
    for n in range(4, 4 + deals):
        cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
        everyone_has(n)
    for t in threads:
        t.join(HANG)
    assert errors == [] and not any(t.is_alive() for t in threads)
    assert seen == [list(range(3, 4 + deals))] * clients


def test_the_event_stream_needs_the_token(served) -> None:
    assert get(served.port, "/events")[0] == 401
    assert get(served.port, "/events?t=wrong-token-wrong-token")[0] == 403


# ---- security --------------------------------------------------------------------------------


def test_no_token_401_wrong_token_403_and_nothing_else(served) -> None:
    for path in ("/", "/api/status", "/api/history"):
        status, headers, body = get(served.port, path)
        assert status == 401 and headers["www-authenticate"] == 'Bearer realm="boston-ledger"', path
        assert not any(name.encode() in body for name in PLAYERS)
        status, headers, body = get(served.port, path + "?t=" + "x" * 24)
        assert status == 403 and not any(name.encode() in body for name in PLAYERS)
    status, __, body = get(served.port, "/api/status")
    assert body == (b"This page needs the link's token: open the link that `boston-ledger serve` shows,"
                    b" or scan its code.\n")


def test_the_token_as_a_bearer_header(served) -> None:
    assert get(served.port, "/api/status", {"Authorization": f"Bearer {TOKEN}"})[0] == 200
    assert get(served.port, "/api/status", {"Authorization": "Bearer nope-nope-nope-nope"})[0] == 403
    assert get(served.port, "/api/status", {"Authorization": f"Basic {TOKEN}"})[0] == 401


def test_only_the_token_itself_opens_the_page(served) -> None:
    """Whatever a client sends in the token's place (a prefix, one more letter, one letter off at
    either end, its case changed, bytes no URL should hold) is a wrong token: 403, never an error.
    (It is compared with hmac.compare_digest, whose time does not depend on where it differs.)"""
    app = App(served.evening, TOKEN, limiter=tokens.Limiter(burst=100))  # this tests the tokens, not the limit

    def ask(token: str) -> int:
        return app(Request("GET", "/api/status", {"t": [token]}, {}, "10.0.0.7")).status

    assert ask(TOKEN) == 200
    for wrong in (TOKEN[:-1], TOKEN + "x", "x" + TOKEN[1:], TOKEN[:-1] + "x", TOKEN.upper(), "", " " + TOKEN,
                  "é\udcff", "\x00" * len(TOKEN), "%41" + TOKEN[1:]):
        assert ask(wrong) == 403, wrong
    status, __, body = get(served.port, "/api/status?t=%C3%A9%FF%00")  # as a URL sends them
    assert status == 403 and b"Anna" not in body


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_few_wrong_tokens_per_second_per_client(served) -> None:
    clock = Clock()
    app = App(served.evening, TOKEN, limiter=tokens.Limiter(burst=3, per_second=1.0, clock=clock))

    def ask(token: str, client: str = "10.0.0.7") -> int:
        return app(Request("GET", "/api/status", {"t": [token]}, {}, client)).status

    assert [ask("wrong-" * 4) for __ in range(3)] == [403, 403, 403]
    assert ask("wrong-" * 4) == 429 and ask(TOKEN) == 429  # out of tries: not even the right one is looked at
    refused = app(Request("GET", "/api/status", {"t": [TOKEN]}, {}, "10.0.0.7"))
    assert refused.headers["Retry-After"] == "1"
    assert ask(TOKEN, client="10.0.0.8") == 200  # another client is not held back
    clock.now += 1.0
    assert ask(TOKEN) == 200 and ask("wrong-" * 4) == 403 and ask(TOKEN) == 429
    clock.now += 3.0
    assert [ask("wrong-" * 4) for __ in range(4)] == [403, 403, 403, 429]


def test_the_limiter_forgets_clients_with_their_tries_back_and_stays_small(served) -> None:
    """The limiter remembers at most `clients` addresses. Full, it forgets those that have all
    their tries back (a client held back stays held back); full of clients held back, it forgets
    them all (so that a flood of addresses cannot make it grow), and they may try again."""
    clock = Clock()

    def asker(clients: int):
        app = App(served.evening, TOKEN, limiter=tokens.Limiter(burst=2, per_second=0.1, clock=clock, clients=clients))
        return lambda client, token="wrong-" * 4: app(Request("GET", "/api/status", {"t": [token]}, {}, client)).status

    ask = asker(10)
    assert [ask(f"10.0.0.{i}") for i in range(9)] == [403] * 9  # nine clients, one wrong try each
    clock.now += 10  # their tries are all back
    assert [ask("10.0.1.1") for __ in range(3)] == [403, 403, 429]  # the tenth is held back
    assert ask("10.0.2.1") == 403  # an eleventh: the nine are forgotten, not the tenth
    assert ask("10.0.1.1", TOKEN) == 429

    ask = asker(10)
    for i in range(10):  # ten clients, all held back
        assert [ask(f"10.0.3.{i}") for __ in range(3)] == [403, 403, 429]
    assert ask("10.0.4.1") == 403  # one more: they are all forgotten
    assert ask("10.0.3.0", TOKEN) == 200 and ask("10.0.3.9", TOKEN) == 200


@pytest.mark.parametrize("path", [
    "/..%2f..", "/..%2f..%2fetc%2fpasswd", "/static/../routes.py", "/static/%2e%2e/routes.py", "/static/",
    "/static", "/static/serve.css/", "/static/SERVE.CSS", "//etc/passwd", "/api", "/api/", "/index.html",
    "/%2e%2e/%2e%2e/etc/passwd", "/static/serve.css%00",
])
def test_no_traversal_no_listing(served, path) -> None:
    for target in (path, f"{path}?t={TOKEN}"):
        status, headers, body = get(served.port, target)
        assert status == 404, target
        assert body == b"Not found.\n" and headers["content-security-policy"] == CSP


def test_traversal_as_sent_by_hand(served) -> None:
    answer = raw(served.port, b"GET /static/../../../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              b"Connection: close\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 404") and b"root:" not in answer


def test_every_response_carries_the_security_headers(served) -> None:
    for target, expected in ((f"/?t={TOKEN}", 200), ("/", 401), ("/static/serve.css", 200), ("/nothing", 404),
                             ("/static/serve.js", 200), (f"/api/status?t={TOKEN}", 200)):
        status, headers, __ = get(served.port, target)
        assert status == expected, target
        assert headers["content-security-policy"] == CSP, target
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY" and headers["server"] == "boston-ledger"
    assert get(served.port, f"/?t={TOKEN}")[1]["cache-control"] == "no-store"
    raw_error = raw(served.port, b"GET /" + b"a" * 3000 + b" HTTP/1.1\r\n\r\n")  # http.server's own error page
    assert b"Content-Security-Policy: default-src 'none'" in raw_error and b"nosniff" in raw_error


@pytest.mark.parametrize("line, expected", [
    (f"GET /api/status?t={TOKEN}".encode(), b"505"),  # HTTP/0.9: no version, which would mean no headers
    (f"GET /?t={TOKEN}".encode(), b"505"), (b"POST /entry", b"505"), (b"HELLO", b"400"),
    (b"GET / HTTP/2.0", b"505"), (b"GET / HTTP/x.y", b"400"), (b"GET / HTTP/1.1 more", b"400"),
])
def test_a_request_line_it_cannot_answer_is_an_error_with_the_security_headers(served, line, expected) -> None:
    answer = raw(served.port, line + b"\r\nHost: 127.0.0.1\r\n\r\n")
    head, __, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 " + expected), answer[:200]
    assert f"\r\nContent-Security-Policy: {CSP}\r\n".encode() in head
    assert b"X-Content-Type-Options: nosniff" in head and b"X-Frame-Options: DENY" in head
    assert b"Anna" not in body and b"balances" not in body  # nothing of the evening


def test_the_assets_are_the_programs_own(served) -> None:
    status, headers, css = get(served.port, "/static/serve.css")
    assert status == 200 and headers["content-type"] == "text/css; charset=utf-8"
    assert b"prefers-color-scheme: dark" in css and b"@import" not in css and b"url(" not in css
    status, headers, js = get(served.port, "/static/serve.js")
    assert status == 200 and headers["content-type"] == "text/javascript; charset=utf-8"
    assert b"EventSource" in js and b"http" not in js  # no other origin
    assert get(served.port, "/static/icon.svg")[1]["content-type"] == "image/svg+xml"
    html = get(served.port, f"/?t={TOKEN}")[2]
    assert not re.search(rb'(src|href)="(https?:)?//', html)


def test_request_line_and_header_limits(served) -> None:
    long_line = b"GET /?t=" + b"a" * 3000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    assert raw(served.port, long_line).startswith(b"HTTP/1.1 414")
    big_header = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n"
    assert raw(served.port, big_header).startswith(b"HTTP/1.1 431")
    many = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(50)) + b"\r\n"
    assert raw(served.port, many).startswith(b"HTTP/1.1 431")
    within = b"GET /api/status?t=" + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + \
        b"".join(b"X-H%d: 1\r\n" % i for i in range(30)) + b"\r\n"
    assert raw(served.port, within).startswith(b"HTTP/1.1 200")


def test_no_request_body_is_taken(served) -> None:
    body = b"x" * 10_000_000
    answer = raw(served.port, b"GET /api/status?t=" + TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:1000])
    assert answer.startswith(b"HTTP/1.1 413")
    chunked = raw(served.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                               b"5\r\nhello\r\n0\r\n\r\n")
    assert chunked.startswith(b"HTTP/1.1 413")


def test_nothing_but_get_and_head(served) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        status, headers, __ = get(served.port, f"/api/status?t={TOKEN}", method=method)
        assert status == 405 and headers["allow"] == "GET, HEAD", method
        assert get(served.port, "/elsewhere", method=method)[0] == 404
    assert raw(served.port, b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(b"HTTP/1.1 405")
    assert raw(served.port, b"BREW /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(b"HTTP/1.1 404")
    status, headers, body = get(served.port, f"/api/status?t={TOKEN}", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 100


def test_the_server_never_writes(evening: Path, cli) -> None:
    before = hashlib.sha256(evening.read_bytes()).hexdigest()
    running = Served(evening, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        for target in ("/", "/api/status", "/api/history?all=1"):
            assert get(running.port, f"{target}{'&' if '?' in target else '?'}t={TOKEN}")[0] == 200
    finally:
        running.close()
    assert hashlib.sha256(evening.read_bytes()).hexdigest() == before
    conn = open_read_only(evening)
    try:
        with pytest.raises(Exception, match="readonly"):
            conn.execute("INSERT INTO settings (key, value) VALUES ('x', 'y')")
    finally:
        conn.close()


def test_read_only_opening_refuses_what_is_not_a_ledger(tmp_path: Path) -> None:
    from boston_ledger.store.db import StorageError

    with pytest.raises(StorageError, match="no ledger at"):
        open_read_only(tmp_path / "none.db")
    (tmp_path / "text.db").write_text("not a database at all, just some text" * 100)
    with pytest.raises(StorageError, match="not a boston-ledger database"):
        open_read_only(tmp_path / "text.db")


def test_the_refusal_page_is_plain(served) -> None:
    status, headers, body = get(served.port, "/", {"Accept-Language": "ru"})
    assert status == 401 and headers["content-type"] == "text/html; charset=utf-8"
    assert "Этой странице нужен ключ" in body.decode() and "<script" not in body.decode()


def test_page_helpers_escape() -> None:
    assert page.e('<a href="x">&\'') == "&lt;a href=&quot;x&quot;&gt;&amp;&#x27;"
    assert page.signed(3) == '<span class="up">+3</span>' and page.signed(-2) == '<span class="down">-2</span>'
    assert routes.query_of("&".join(f"a{i}=1" for i in range(50))) == {}


# ---- the program -----------------------------------------------------------------------------


def test_serve_prints_its_link_and_code_and_stops_on_ctrl_c(evening: Path) -> None:
    program = serve(evening)
    try:
        assert program.host == "127.0.0.1" and len(program.token) >= 16
        assert program.first == f"Session 1 on the phones: {program.url}\n"
        assert re.fullmatch(r"[A-Za-z0-9_-]{16,}", program.token)
        stream = Events(program.port, f"/events?t={program.token}")  # a follower still connected at Ctrl-C
        stream.next()
    finally:
        code, out, err = program.stop()
    stream.close()
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert not any("█" in line or "▀" in line for line in lines)  # no code to scan: no phone reaches 127.0.0.1
    assert "This machine only: for the phones at the table, start it with --lan." in lines
    assert lines[-2:] == ["Read-only; Ctrl-C stops it.", "Stopped."]


def test_the_two_codes_fit_one_screen_of_80_by_40() -> None:
    from boston_ledger.ui.qr import codes

    drawn = codes([("the sheet", "http://192.168.100.200:8765/?t=" + "q" * 24),  # secrets.token_urlsafe(18)
                   ("entering deals", "http://192.168.100.200:8765/entry?t=" + "e" * 24)], utf8=True)
    lines = drawn.splitlines()
    assert lines[0].split() == ["the", "sheet", "entering", "deals"]  # side by side
    assert max(map(len, lines)) <= 80 and len(lines) + 6 <= 40  # the links' lines, the warnings, Ctrl-C


@pytest.mark.slow
def test_the_token_is_new_each_start_unless_kept(evening: Path, tmp_path: Path) -> None:
    kept = tmp_path / "tok" / "token"
    a = serve(evening)
    a.stop()
    c = serve(evening, "--token-file", str(kept))  # no file yet: a new token, kept there
    c.stop()
    d = serve(evening, "--token-file", str(kept))
    d.stop()
    assert a.token != c.token
    assert c.token == d.token == kept.read_text().strip() and kept.stat().st_mode & 0o777 == 0o600


def test_serve_errors_are_one_line(evening: Path, tmp_path: Path, cli) -> None:
    bad = tmp_path / "bad-token"
    bad.write_text("short\n")
    result = cli("serve", "--token-file", str(bad), code=2)
    assert result.stderr.count("\n") == 1 and "does not hold a token" in result.stderr
    assert "must be a whole number from 0 to 65535" in cli("serve", "--port", "70000", code=2).stderr
    assert "no session 9 in this ledger" in cli("serve", "--session", "9", code=2).stderr
    assert "no ledger at" in cli("serve", "--db", str(tmp_path / "nothing.db"), code=2).stderr
    assert cli("serve", "--host", "my-laptop", code=2).stderr == (
        "boston-ledger: error: --host takes an address of this machine such as 127.0.0.1 or ::1, not 'my-laptop'\n")
    assert "give one of them" in cli("serve", "--host", "::1", "--lan", code=2).stderr
    running = Served(evening, None, "127.0.0.1", 0, TOKEN).in_thread()
    try:
        busy = cli("serve", "--port", str(running.port), code=2).stderr
        assert busy.count("\n") == 1 and f"cannot listen on 127.0.0.1:{running.port}" in busy
    finally:
        running.close()


def test_a_token_file_that_is_not_an_ordinary_file_is_refused_at_once(table, tmp_path: Path, cli) -> None:
    """A FIFO, or a link to a pipe (as /dev/stdout is one when the output is piped), would wait
    for a writer for ever: they are refused as the export targets refuse them."""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    read_end, write_end = os.pipe()  # a pipe of this process, as its standard output may be
    piped = tmp_path / "to-stdout"
    piped.symlink_to(f"/proc/self/fd/{write_end}")
    device = tmp_path / "to-null"
    device.symlink_to(os.devnull)
    try:
        for path in (fifo, piped, device):
            if path is piped and not Path(f"/proc/self/fd/{write_end}").exists():
                continue  # no /proc here
            said = cli("serve", "--token-file", str(path), code=2).stderr
            assert said == (f"boston-ledger: error: {path} is not an ordinary file (a pipe, a device or a socket, or "
                            "a link to one); boston-ledger writes only ordinary files: give another path\n"), said
        assert "is a folder" in cli("serve", "--token-file", str(tmp_path), code=2).stderr
    finally:
        os.close(read_end)
        os.close(write_end)


def test_serve_without_its_extra_says_how_to_install_it(table, cli, monkeypatch) -> None:
    import boston_ledger.serve

    monkeypatch.setattr(boston_ledger.serve, "EXTRA", "segno_is_not_installed_here")
    result = cli("serve", code=2)
    assert result.stderr == "boston-ledger: error: serve needs its extra: pip install 'boston-ledger[serve]'\n"


@pytest.mark.parametrize("everywhere", ["0.0.0.0", "::"])
def test_every_address_warns_as_lan_does_and_links_the_network_s(evening: Path, cli, monkeypatch, everywhere) -> None:
    """`--host 0.0.0.0` (or `::`) listens on every address: the --lan warning, and a link (and its
    code) with the address a phone on the network opens, as --lan finds it. A phone opens it,
    then Ctrl-C."""
    import socket
    from urllib.parse import urlsplit

    from boston_ledger.serve.server import lan_address

    if everywhere == "::":
        try:
            with socket.socket(socket.AF_INET6) as s:
                s.bind(("::", 0))
        except OSError:
            pytest.skip("no IPv6 here")
    phone: list = []
    serving = Served.serve_forever

    def a_phone_then_ctrl_c(self: Served) -> None:
        answering = threading.Thread(target=serving, args=(self,), daemon=True)
        answering.start()
        link = urlsplit(self.url)
        try:
            phone.append(get(link.port, f"{link.path}?{link.query}", host=link.hostname))
        finally:
            self.server.shutdown()
            answering.join()
        raise KeyboardInterrupt

    monkeypatch.setattr(Served, "serve_forever", a_phone_then_ctrl_c)
    result = cli("serve", "--host", everywhere, "--port", "0")
    network = lan_address()
    expected = network or ("127.0.0.1" if everywhere == "0.0.0.0" else "[::1]")
    assert result.stderr == "Anyone on this network who has the link can read the evening.\n"
    link = URL_SAID.match(result.stdout.splitlines()[0])
    assert link is not None and link["host"] == expected, result.stdout
    assert phone[0][0] == 200 and 'data-player="Anna"' in phone[0][2].decode()
    assert any("█" in line or "▀" in line for line in result.stdout.splitlines()) == (network is not None)
    assert result.stdout.splitlines()[-1] == "Stopped."


@pytest.mark.slow
def test_lan_warns_and_binds_the_network_address(evening: Path) -> None:
    from boston_ledger.serve.server import lan_address

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network address but the loopback")
    program = serve(evening, "--lan")  # nothing is sent to it: only the line is read
    code, __, err = program.stop()
    assert program.host == address and not address.startswith("127.")
    assert err == "Anyone on this network who has the link can read the evening.\n" and code == 0
