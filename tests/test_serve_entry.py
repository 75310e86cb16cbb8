"""`serve --entry`: deals entered from a phone through guided entry's questions, behind a second
token; the same deal as at the terminal, the same refusals in the same words, undo, and the
security of a server that now writes."""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import threading
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from typer.testing import CliRunner

from boston_ledger.app import deals as deals_app
from boston_ledger.cli.declarations import app
from boston_ledger.serve.server import Served
from boston_ledger.store import db as storage
from conftest import GUIDED, PLAYERS
from serving import ENTRY, HANG, JUNIOR, VIEW, Form, Phone, get, play, raw, serve

@pytest.fixture
def entering(table, isolated: Path):
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    yield running
    running.close()


def history(cli, db: Path) -> list[dict]:
    out = json.loads(cli("history", "--json", "--db", str(db)).stdout)
    for d in out:
        d.pop("entered_at", None)
    return out


def status(cli, db: Path) -> dict:
    return json.loads(cli("status", "--json", "--db", str(db)).stdout)


# ---- the same deal as at the terminal ----------------------------------------------------------


def test_a_deal_from_the_phone_is_the_deal_from_the_terminal(cli, tmp_path: Path, isolated: Path) -> None:
    terminal = tmp_path / "terminal.db"
    for db in (isolated, terminal):
        cli("new", *PLAYERS, "--chip-value", "0.10", "--db", str(db))
    answers = "junior\n2\n4\n6\n4\n3\n\n"  # Boris and Gleb 6 together, Boris 4 of them, boston Vera
    done = CliRunner().invoke(app, ["deal", "--db", str(terminal)], input=answers, env=GUIDED)
    assert done.exit_code == 0, done.output
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running)
        assert phone.status == 200 and phone.question() == "Contract"
        assert phone.buttons()[:3] == ["junior", "senior", "solo"] and "pass" in phone.buttons()
        phone.tap("junior").tap("Boris")
        assert phone.question() == "Partner" and "Boris" not in phone.buttons()  # not his own partner
        phone.tap("Gleb")
        assert phone.question() == "Tricks taken by Boris and Gleb together"
        assert phone.buttons()[:14] == [str(n) for n in range(14)]
        phone.tap("6")
        assert phone.question() == "Of the 6 tricks, how many did Boris take?"
        phone.tap("4").tap("Vera")
        assert "Record this deal" in phone.buttons() and "junior Boris 4 + Gleb 2, boston Vera" in phone.html
        assert "labet" in phone.html and "Tricks of Boris and Gleb together 6" in " ".join(phone.buttons())
        phone.tap("Record this deal")
        assert phone.status == 200 and "Deal 1 recorded." in phone.html
        assert "Next: deal 2, dealt by Boris." in phone.html
        assert phone.question() == "Contract"  # ready for the next deal
    finally:
        running.close()
    assert history(cli, isolated) == history(cli, terminal)
    assert status(cli, isolated) == status(cli, terminal)


def test_every_kind_of_deal_from_the_phone(entering, cli) -> None:
    phone = Phone(entering)
    phone.tap("pass").tap("Record this deal")  # an all-pass: no other question
    phone.tap("solo").tap("Anna").tap("senior").tap("9").tap("no one").tap("Record this deal")
    phone.tap("misere").tap("Vera").tap("1").tap("no one").tap("Record this deal")  # failed: who held the boston
    phone.tap("junior").tap("Gleb").tap("no partner").tap("5").tap("Anna").tap("Record this deal")
    assert [d["description"] for d in cli.json("history")] == [
        "all pass", "solo senior Anna 9", "misere Vera 1", "junior Gleb 5 alone, boston Anna"]
    assert "boston: paid by the declarer, who failed" in get(entering.port, f"/?t={VIEW}")[2].decode()


def test_refused_answers_say_what_the_terminal_says(entering, cli) -> None:
    terminal = CliRunner().invoke(app, ["deal"], input="junoir\njunior\nZed\nBoris\nBoris\n\n77\n5\n\nn\n\n",
                                  env=GUIDED).output
    phone = Phone(entering)
    said = []
    for answer in ("junoir", "junior", "Zed", "Boris", "Boris", "", "77"):
        phone.answer(answer)
        if phone.error():
            said.append(phone.error())
    assert said == ["the classic tariff has no contract &#x27;junoir&#x27;; did you mean junior?",
                    "choose 1, 2, 3 or 4, or a name (Anna, Boris, Vera, Gleb)",
                    "the partner cannot be the declarer; choose another player", "a whole number from 0 to 13"]
    for message in said:
        assert message.replace("&#x27;", "'") in terminal
    assert cli.json("status")["deals"] == 0


def test_7_and_7_asks_again_only_the_partner_s_tricks(entering, cli) -> None:
    phone = Phone(entering)
    form = [("a.contract", "junior"), ("a.declarer", "Boris"), ("a.partner", "Gleb"), ("a.tricks", "7"),
            ("q", "partner_tricks"), ("answer", "7")]
    phone.status, phone.html = phone.request("POST", f"/entry/step?t={ENTRY}", form)
    assert phone.question() == "Tricks taken by Gleb"
    assert phone.error() == "declarer and partner took 7 + 7 tricks, more than the 13 of a deal"
    phone.tap("4").tap("no one").tap("Record this deal")
    assert cli.json("history")[0]["description"] == "junior Boris 7 + Gleb 4"


def test_back_and_change_on_the_phone(entering, cli) -> None:
    phone = Phone(entering).tap("junior").tap("Boris").tap("← Back")
    assert phone.question() == "Declarer" and 'class="choice chosen">Boris' in phone.html  # his answer, offered
    phone.tap("Vera").tap("no partner").tap("5").tap("no one")
    phone.tap("5) Boston")  # the answers at the end, each a button that asks it again
    assert phone.question() == "Who held the boston"
    phone.tap("Anna")
    assert "junior Vera 5 alone, boston Anna" in phone.html
    assert 'href="/entry?t=' in phone.html  # record nothing: back to the first question
    phone.tap("Record this deal")
    assert cli.json("history")[0]["description"] == "junior Vera 5 alone, boston Anna"


def test_the_phone_speaks_russian_as_the_terminal_does(cli, isolated: Path) -> None:
    cli("new", "Анна", "Борис", "Вера", "Глеб")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running, "ru")
        assert phone.question() == "Игра" and "младшая" in phone.buttons() and "пас" in phone.buttons()
        phone.tap("младшая").tap("Борис").tap("Глеб")
        assert phone.question() == "Борис и Глеб, сколько взяток вместе?"
        phone.answer("14")
        assert phone.error() == "целое число от 0 до 13"
        phone.tap("9").tap("ни у кого").tap("Записать эту сдачу")
        assert "Сдача 1 записана." in phone.html and "Следующая: сдача 2, сдаёт Борис." in phone.html
    finally:
        running.close()


# ---- taking turns, undo --------------------------------------------------------------------------


def test_a_deal_entered_meanwhile_at_the_terminal_is_not_overwritten(entering, cli) -> None:
    phone = Phone(entering).tap("solo").tap("Anna").tap("junior").tap("9").tap("no one")
    assert "Record this deal" in phone.buttons() and "Deal 1 ·" not in phone.html
    cli("deal", "pass")  # the terminal, while the phone shows deal 1
    phone.tap("Record this deal")
    assert phone.status == 409 and "deal 1 was entered meanwhile; nothing was recorded" in phone.html
    assert "Deal 2" in phone.html and cli.json("status")["deals"] == 1  # shown again as deal 2
    phone.tap("Record this deal")
    assert [d["description"] for d in cli.json("history")] == ["all pass", "solo junior Anna 9"]


def test_the_same_form_sent_twice_records_once(entering, cli) -> None:
    phone = Phone(entering).tap("pass")
    form = next(f for f in Form(phone.html).forms if f["action"].startswith("/entry/deal"))
    first = phone.request("POST", form["action"], form["hidden"])
    second = phone.request("POST", form["action"], form["hidden"])
    assert first[0] == 200 and second[0] == 409 and cli.json("status")["deals"] == 1


def test_undo_from_the_phone(entering, cli) -> None:
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "9")
    phone = Phone(entering)
    undo = next(href for href, words in Form(phone.html).links if words == "Take back the last deal")
    phone.status, phone.html = phone.request("GET", undo.replace("&amp;", "&"))
    assert "Take back deal 1 (junior Boris + Gleb: 9)?" in phone.html
    form = Form(phone.html).forms[0]
    cli("deal", "pass")  # meanwhile at the terminal: the last deal is another one now
    stale = phone.request("POST", form["action"], form["hidden"])
    assert stale[0] == 409 and "the last deal is deal 2 now, not 1; nothing was taken back" in stale[1]
    assert cli.json("status")["deals"] == 2
    phone.status, phone.html = phone.request("GET", undo.replace("&amp;", "&"))
    phone.tap("Take it back")
    assert "Deal 2 taken back; it stays on record as undone." in phone.html and cli.json("status")["deals"] == 1
    assert "Next: deal 2, dealt by Boris." in phone.html  # who deals next, as after a deal
    phone.status, phone.html = phone.request("GET", undo.replace("&amp;", "&"))
    phone.tap("Take it back")
    phone.status, phone.html = phone.request("GET", undo.replace("&amp;", "&"))
    assert "there is no deal to take back in this session" in phone.html


def test_a_settled_or_finished_session_takes_nothing_from_the_phone(cli, isolated: Path) -> None:
    cli("new", *PLAYERS, "--deals", "1")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running).tap("pass").tap("Record this deal")
        assert "That was the last of the 1 agreed deal:" in phone.html
        assert "the 1 agreed deal of session 1 is played" in phone.html and "Contract" not in phone.buttons()
    finally:
        running.close()


# ---- a phone waiting to write holds up nothing else ------------------------------------------------


class Writer:
    """Another writer (a `deal` at the terminal) in the middle of its transaction: the ledger's write
    lock held by the test until `done()`. `waited` is set once a write of the server has begun to
    wait for it (store.db.begin is watched for that alone: without it the test could not know that
    the phone's request is waiting, and would depend on timing)."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.waited = threading.Event()
        begin = storage.begin

        def watched(conn) -> None:
            self.waited.set()
            begin(conn)

        monkeypatch.setattr(storage, "begin", watched)
        self.conn = storage.open_db(path)
        self.conn.execute("BEGIN IMMEDIATE")

    def deal(self, **fields: str) -> None:
        """A deal recorded in this writer's transaction."""
        session = deals_app.current(self.conn)
        deals_app.enter(self.conn, deals_app.typed_deal(session, **fields), session.id)

    def done(self) -> None:
        self.conn.execute("COMMIT")
        self.conn.close()


def in_thread(call) -> tuple[threading.Thread, list]:
    """`call()` started in a thread of its own (a phone's request); its result in the list once done."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    return thread, result


def test_a_phone_waiting_to_record_holds_up_no_page_in_another_language(entering, cli, isolated: Path,
                                                                       monkeypatch) -> None:
    """A Russian phone's deal waits for another writer; meanwhile English pages are made and sent,
    each in English, and the Russian answer, made after them, is Russian."""
    russian = Phone(entering, "ru").tap("пас")
    form = next(f for f in Form(russian.html).forms if f["action"].startswith("/entry/deal"))
    writer = Writer(isolated, monkeypatch)
    try:
        waiting, answer = in_thread(lambda: russian.request("POST", form["action"], form["hidden"]))
        assert writer.waited.wait(HANG), "the phone's deal did not reach the write"
        status, __, page = get(entering.port, f"/?t={VIEW}&lang=en")  # a view made now, in English
        assert status == 200 and '<html lang="en">' in page.decode() and "Session 1 has no deals yet." in page.decode()
        english = Phone(entering, "en")
        assert english.status == 200 and english.question() == "Contract" and '<html lang="en">' in english.html
        assert waiting.is_alive() and answer == []  # still waiting: the write lock is the test's
        writer.deal(contract="solo", declarer="Anna", tricks="8")  # the terminal's deal 1
    finally:
        writer.done()
    waiting.join(HANG)
    status, html = answer[0]
    assert status == 409 and '<html lang="ru">' in html
    assert "тем временем записана сдача 1; ничего не записано" in html
    assert [d["description"] for d in cli.json("history")] == ["solo junior Anna 8"]


def test_a_correction_lands_only_on_the_deal_that_is_still_the_last(entering, cli, isolated: Path,
                                                                    monkeypatch) -> None:
    """The red team's F-12: the phone's correction of deal 1 waits for another writer, which enters
    deal 2; then nothing is corrected (409), not deal 1 with deal 2 replayed."""
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    phone = Phone(entering)
    phone.status, phone.html = phone.request("GET", f"/entry/correct?t={ENTRY}&number=1")
    phone.tap("4) Tricks of Anna").tap("9")
    assert "Deal 1: solo junior Anna 8 → solo junior Anna 9" in phone.html
    writer = Writer(isolated, monkeypatch)
    try:
        waiting, __ = in_thread(lambda: phone.tap("Record this correction"))
        assert writer.waited.wait(HANG), "the correction did not reach the write"
        writer.deal(contract="pass")  # the terminal's deal 2, while the phone waits
    finally:
        writer.done()
    waiting.join(HANG)
    assert phone.status == 409 and "deal 1 is no longer the last deal; nothing was corrected" in phone.html
    assert "Take back deal 2 (all pass)?" in phone.html  # the page of the deal that is last now
    assert [d["description"] for d in cli.json("history")] == ["solo junior Anna 8", "all pass"]
    assert cli.json("history", "--corrections") == []


# ---- security ----------------------------------------------------------------------------------


def test_the_entry_routes_refuse_the_view_token_and_no_token(entering, cli) -> None:
    for path, method in (("/entry", "GET"), ("/entry/step", "POST"), ("/entry/deal", "POST"), ("/entry/undo", "POST")):
        for query, expected in (("", 401), (f"?t={VIEW}", 403), (f"?t={ENTRY}x", 403)):
            headers = {"Origin": entering.origin, "Content-Type": "application/x-www-form-urlencoded"}
            status, __, body = get(entering.port, path + query, headers=headers, method=method)
            assert status == expected, (path, query)
            assert b"Contract" not in body and b"Anna" not in body
            entering.app.limiter = type(entering.app.limiter)()  # a fresh limit: this tests the tokens
    assert get(entering.port, f"/?t={ENTRY}")[0] == 403  # nor does the entry token show the sheet
    assert get(entering.port, f"/?t={VIEW}")[0] == 200
    assert cli.json("status")["deals"] == 0


def test_a_post_from_elsewhere_is_refused(entering, cli) -> None:
    form = urlencode([("q", "contract"), ("answer", "pass")])
    base = {"Content-Type": "application/x-www-form-urlencoded", "Content-Length": str(len(form))}
    for extra in ({}, {"Origin": "http://evil.example"}, {"Origin": "null"},
                  {"Origin": entering.origin, "Sec-Fetch-Site": "cross-site"}):
        conn = http.client.HTTPConnection("127.0.0.1", entering.port, timeout=HANG)
        conn.request("POST", f"/entry/deal?t={ENTRY}", body=form, headers={**base, **extra})
        r = conn.getresponse()
        assert r.status == 403 and b"entered only from this server&#x27;s own entry page" in r.read(), extra
        conn.close()
    assert cli.json("status")["deals"] == 0
    for extra in ({"Origin": entering.origin}, {"Origin": entering.origin, "Sec-Fetch-Site": "same-origin"},
                  {"Origin": "null", "Sec-Fetch-Site": "same-origin"}):  # as browsers send a page's own form
        conn = http.client.HTTPConnection("127.0.0.1", entering.port, timeout=HANG)
        conn.request("POST", f"/entry/step?t={ENTRY}", body=form, headers={**base, **extra})
        r = conn.getresponse()
        assert r.status == 200 and b"Record this deal" in r.read(), extra
        conn.close()


def test_the_entry_forms_are_small_and_urlencoded(entering) -> None:
    head = f"POST /entry/step?t={ENTRY} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: {entering.origin}\r\n"
    big = "a=" + "x" * 5000
    assert raw(entering.port, (head + "Content-Type: application/x-www-form-urlencoded\r\n"
                               f"Content-Length: {len(big)}\r\n\r\n{big}").encode()).startswith(b"HTTP/1.1 413")
    assert raw(entering.port, (head + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}").encode()
               ).startswith(b"HTTP/1.1 415")
    assert raw(entering.port, (head + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n").encode()
               ).startswith(b"HTTP/1.1 411")
    assert raw(entering.port, (head + "Content-Type: application/x-www-form-urlencoded\r\n\r\n").encode()
               ).startswith(b"HTTP/1.1 411")
    assert raw(entering.port, (f"GET /entry?t={ENTRY} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello"
                               ).encode()).startswith(b"HTTP/1.1 413")  # a GET takes no body
    status, headers, __ = get(entering.port, f"/api/status?t={VIEW}", method="POST")
    assert status == 405 and headers["allow"] == "GET, HEAD"  # POST only on the entry routes
    status, headers, __ = get(entering.port, f"/entry/deal?t={ENTRY}")
    assert status == 405 and headers["allow"] == "POST"


def test_the_entry_pages_may_send_forms_only_to_this_server(entering) -> None:
    status, headers, body = get(entering.port, f"/entry?t={ENTRY}")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-security-policy"] == ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                                  "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                                                  "form-action 'self'; frame-ancestors 'none'")
    # the token goes to no other origin, and a browser's form then says where it comes from
    assert headers["cache-control"] == "no-store" and headers["referrer-policy"] == "same-origin"
    assert b'<meta name="referrer" content="same-origin">' in body
    assert get(entering.port, f"/?t={VIEW}")[1]["referrer-policy"] == "no-referrer"
    assert b"<script>" not in body and b" style=" not in body and b"on" + b"click" not in body
    assert b'<script src="/static/entry.js" defer></script>' in body
    assert "form-action 'none'" in get(entering.port, f"/?t={VIEW}")[1]["content-security-policy"]
    js = get(entering.port, "/static/entry.js")[2]
    assert b"http" not in js and b"innerHTML" not in js


def test_every_value_on_the_entry_page_is_escaped(cli, isolated: Path) -> None:
    cli("new", "<b>A</b>", "Bo\"ris", "V'era", "G&leb")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running).tap("junior")
        assert "<b>A</b>" not in phone.html and "&lt;b&gt;A&lt;/b&gt;" in phone.html
        assert 'value="Bo&quot;ris"' in phone.html and "G&amp;leb" in phone.html
        phone.tap("<b>A</b>").tap("G&leb").tap("9").tap("V'era").tap("Record this deal")
        assert cli.json("history")[0]["description"] == "junior <b>A</b> + G&leb: 9, boston V'era"
    finally:
        running.close()


def test_without_entry_nothing_is_entered_and_nothing_written(table, isolated: Path, cli) -> None:
    play(isolated, [JUNIOR])
    before = hashlib.sha256(isolated.read_bytes()).hexdigest()
    running = Served(isolated, None, "127.0.0.1", 0, VIEW).in_thread()
    try:
        assert running.app.entry is None and running.entry_url is None
        for method in ("GET", "POST"):
            for path in ("/entry", "/entry/deal", "/entry/undo"):
                status = get(running.port, f"{path}?t={VIEW}", method=method,
                             headers={"Origin": running.origin})[0]
                assert status in (404, 405), (method, path)
    finally:
        running.close()
    assert hashlib.sha256(isolated.read_bytes()).hexdigest() == before


@pytest.mark.slow
def test_serve_entry_prints_a_second_link_with_its_own_token(table, isolated: Path) -> None:
    program = serve(isolated, "--entry")
    try:
        out = []
        while not any("/entry?t=" in line for line in out):
            line = program.proc.stdout.readline()
            assert line, "the program ended"
            out.append(line)
        entry = re.search(r"http://[0-9.]+:\d+/entry\?t=([A-Za-z0-9_-]+)", out[-1])
        assert entry is not None and entry.group(1) != program.token and len(entry.group(1)) >= 16
        assert "score-keeper only" in out[-1]
        status, __, body = get(program.port, urlsplit(entry.group(0)).path + "?t=" + entry.group(1))
        assert status == 200 and b"Contract" in body
        assert get(program.port, f"/entry?t={program.token}")[0] == 403
    finally:
        code, __, err = program.stop()
    assert code == 0 and err == ""
