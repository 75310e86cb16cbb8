"""The load requirement of the evening page, run through the reusable benchmark script: 20
clients follow the page for 60 s while a deal is entered every second. Only what does not depend
on the machine's speed is asserted (no error, every deal reached every client, memory did not
grow beyond a generous bound); the response times and delays are figures for the report
(`python benchmarks/serve_load.py`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from serve_load import run  # noqa: E402


@pytest.mark.slow
def test_twenty_clients_follow_an_evening_of_sixty_deals() -> None:
    found = run(clients=20, seconds=60)
    assert found["errors"] == []
    assert found["deals"] == 60
    assert found["missed"] == {} and found["never_arrived"] == {}  # every client saw every deal
    assert found["requests"] > 20
    assert found["rss_kib"]["end"] - found["rss_kib"]["start"] < 64 * 1024  # flat, with room for a busy box
    assert found["server_exit"] == 0 and found["server_stderr"] == ""
    print(found)
