"""The phone keeps a seat: with every connection taken by sockets that never finish their request
head (from many addresses, each within its own cap), the one that has waited longest is dropped for
a new connection, and the scorekeeper's deal is recorded."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from boston_ledger.serve import server
from boston_ledger.serve.server import Served
from serving import ENTRY, VIEW, Phone

TOTAL, EACH = 12, 3  # the caps, small for the test: 5 addresses fill them as 13 fill the real ones


def test_half_open_sockets_from_many_addresses_leave_the_scorekeeper_served(
        table, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "MAX_CLIENTS", TOTAL)
    monkeypatch.setattr(server, "PER_ADDRESS", EACH)
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    held: list[socket.socket] = []
    try:
        phone = Phone(running).tap("pass")  # the scorekeeper's page, opened before
        for n in range(TOTAL // EACH + 1):  # one address more than it takes to fill them
            for __ in range(EACH):
                s = socket.socket()
                s.bind((f"127.0.0.{10 + n}", 0))
                s.connect(("127.0.0.1", running.port))
                s.sendall(b"GET /?t=")  # a head begun, never finished
                held.append(s)
        assert running.server.counts()["connections"] <= TOTAL
        phone.tap("Record this deal")  # a new connection: the oldest half-open one gives it its place
        assert phone.status == 200 and "Deal 1 recorded." in phone.html
        assert table.json("status")["deals"] == 1
        held[0].settimeout(60)  # a hang, not a timing: it was closed before the deal was answered
        assert held[0].recv(1) == b""  # the oldest half-open one was dropped, not answered
    finally:
        for s in held:
            s.close()
        running.close()
