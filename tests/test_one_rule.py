"""Each rule of a deal is written once, in the engine: what a deal is paid as is what every view
says it was, the engine's refusals speak the game and never the command line, and each way
into the program says the field a refusal names in its own terms."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import tomli_w

from boston_ledger.core import engine
from boston_ledger.core.engine import Deal
from boston_ledger.core.errors import DROP, GIVE, MEND
from boston_ledger.core.tariff_files import load
from conftest import PLAYERS, described
from serving import view

CORE = Path(__file__).resolve().parent.parent / "boston_ledger" / "core"
A, B, V, G = range(4)


def senior_by_default(tmp_path: Path) -> Path:
    """A house tariff whose solo is played senior unless said otherwise: its default is not its
    first rank, as in no shipped tariff."""
    data = tomllib.loads((CORE.parent.parent / "tariffs" / "classic.toml").read_text(encoding="utf-8"))
    data["tariff"]["name"] = "senior-solo"
    data["contracts"]["solo"]["default_rank"] = "senior"
    path = tmp_path / "senior-solo.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


def test_a_deal_is_described_as_it_is_paid_everywhere(cli, tmp_path: Path, isolated: Path) -> None:
    tariff = senior_by_default(tmp_path)
    assert load(str(tariff)).contracts["solo"].ranks[0] == "junior"  # the default is not the first rank
    cli("new", *PLAYERS, "--tariff", str(tariff))
    shown = cli("deal", "solo", "--declarer", "Anna", "--tricks", "8").stdout
    # played senior: the consolation of a senior solo, and the deal's words say so
    junior, senior = (engine.play(load(str(tariff)), engine.State.start(4), Deal("solo", A, tricks=8, rank=r))
                      for r in ("junior", "senior"))
    assert engine.moves(senior.transfers, 4) != engine.moves(junior.transfers, 4)
    assert cli.json("status")["balances"]["Anna"] == engine.moves(senior.transfers, 4)[A]
    assert "solo senior Anna 8" in shown
    assert described(cli) == "solo senior Anna 8"
    assert "solo senior Anna 8" in cli("history").stdout
    assert "solo senior Anna 8" in cli("sheet").stdout
    html = tmp_path / "sheet.html"
    cli("sheet", "--html", str(html))
    # the HTML keeps a name and its number on one line (a no-break space), the file and the phone alike
    assert "solo senior Anna\u00a08" in html.read_text(encoding="utf-8")
    assert "solo senior Anna\u00a08" in view(isolated).sheet
    cli("edit", "1", "--tricks", "9", "--reason", "one more")
    assert "solo senior Anna 9" in cli("history", "--corrections").stdout


def test_the_core_spells_no_command_line_option() -> None:
    spelled = [f"{path.name}:{n}: {line.strip()}" for path in sorted(CORE.glob("*.py"))
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"--[a-z]", line)]
    assert not spelled, "\n".join(spelled)


def refusal(deal: Deal, *conditions: str) -> engine.DealError:
    try:
        engine.validate(load("classic", conditions), deal)
    except engine.DealError as e:
        return e
    raise AssertionError(f"{deal} was not refused")


def test_the_engine_names_the_field_and_what_it_needs() -> None:
    cases = [
        (Deal("solo", tricks=8), "declarer", GIVE, "solo needs its declarer"),
        (Deal("solo", A), "tricks", GIVE, "solo needs the declarer's tricks"),
        (Deal("misere", A, B, 0, 0), "partner", DROP, "misere is played alone"),
        (Deal("junior", A, A, 5, 3), "partner", MEND, "the partner cannot be the declarer"),
        (Deal("junior", A, B, 5), "partner_tricks", GIVE, "needs the partner's own tricks"),
        (Deal("junior", A, B, team_tricks=6), "tricks", GIVE, "give the declarer's own tricks"),
        (Deal("junior", A, B, 7, team_tricks=6), "tricks", MEND, "cannot have taken 7 of the pair's 6"),
        (Deal("junior", A, B, 2, 7, team_tricks=6), "team_tricks", MEND, "are not the pair's 6 tricks together"),
        (Deal("solo", A, tricks=14), "tricks", MEND, "14 is not a number of tricks from 0 to 13"),
        (Deal("solo", A, tricks=8, rank="first"), "rank", MEND, "solo has no rank"),
        (Deal("pass", A), "declarer", DROP, "an all-pass is not played"),
        (Deal("misdeal", A), "declarer", DROP, "a misdeal is not played"),
        (Deal("pass", tricks_each=(3, 4, 2, 4)), "tricks_each", DROP, "misère partout condition"),
        (Deal("solo", A, tricks=8, honours=2), "honours", DROP, "scores no honours"),
        (Deal("solo", 7, tricks=8), "declarer", MEND, "seat 7 is not at this table of 4"),
    ]
    for deal, field, remedy, words in cases:
        e = refusal(deal)
        assert (e.field, e.remedy) == (field, remedy) and words in str(e), (deal, e.field, e.remedy, str(e))
        assert "--" not in str(e), str(e)
    partout = refusal(Deal("pass", tricks_each=(3, 4, 2, 5)), "misere-partout")
    assert (partout.field, str(partout)) == ("tricks_each", "every player's tricks must add up to the 13 tricks "
                                                            "of a deal, not 14")


def test_the_command_line_says_the_field_as_its_option(table) -> None:
    for args, said in [
        (("solo", "--tricks", "8"), "solo needs its declarer (--declarer NAME)"),
        (("misere", "--declarer", "Anna", "--partner", "Boris", "--tricks", "0"),
         "misere is played alone; drop --partner"),
        (("solo", "--declarer", "Anna", "--tricks", "14"), "--tricks: 14 is not a whole number from 0 to 13"),
        (("junior", "--declarer", "Anna", "--partner", "Anna", "--tricks", "5", "--partner-tricks", "3"),
         "--partner: the partner cannot be the declarer; choose another player"),
    ]:
        assert table("deal", *args, code=2).stderr == f"boston-ledger: error: {said}\n"
    assert table.json("status")["deals"] == 0


def test_a_replay_says_which_deal_no_longer_scores(tmp_path: Path) -> None:
    t = load("classic")
    deals = [Deal("pass"), Deal("solo", A, tricks=8), Deal("solo", B)]
    try:
        list(engine.replaying(t, deals))
    except engine.DealError as e:
        assert (e.number, e.field) == (3, "tricks")
    else:
        raise AssertionError("the third deal scored")
    steps = list(engine.replaying(t, deals[:2]))
    assert [s.number for s in steps] == [1, 2] and steps[1].before == steps[0].after
    assert engine.replayed(t, deals[:2]) == steps[-1].after
