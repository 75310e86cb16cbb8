"""The table as it really is: a substitute on the account of the player he replaces, a player who
leaves on his own account with his share of the basket, a return, and five sharing one table in
turns; each through undo, edit, rescore, check, settle and export."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from boston_ledger.core import engine
from boston_ledger.core.engine import Change, State
from serving import view


def people(cli) -> dict[str, dict]:
    return {p["name"]: p for p in cli.json("status")["people"]}


def zero_sum(cli) -> None:
    """Every person's chips plus the basket: zero; and their money, as settling now gives it, to
    the cent as well."""
    status = cli.json("status")
    assert sum(p["chips"] for p in status["people"]) + status["basket"] == 0
    assert sum(Decimal(p["money"]) for p in status["people"]) == 0


def test_the_engine_reseats_a_substitute_a_leave_and_a_return() -> None:
    state = State(balances=(-40, -10, -10, -23), basket=83, deals=2)
    assert engine.reseat(state, Change(3, 3)) == (state, 0)  # a substitute: the seat's money stays
    left, share = engine.reseat(state, Change(3, 4))  # Gleb (account 3) leaves, Dasha (4) comes in
    assert share == 20 and left.basket == 63  # 83 // 4 in whole chips; 3 stay in the basket
    assert left.balances == (-40, -10, -10, 0) and left.away == ((3, -3),) and left.accounts == (0, 1, 2, 4)
    back, share = engine.reseat(left._replace(balances=(-45, -15, -5, 5)), Change(3, 3))  # Gleb comes back
    assert back.balances == (-45, -15, -5, -3) and back.away == ((4, 20),) and back.seated == ()  # as at the start
    assert share == 15 and back.basket == 48
    for s in (left, back):
        assert sum(s.balances) + s.basket + sum(chips for __, chips in s.away) == 0


def test_a_substitute_plays_on_the_account_of_the_player_he_replaces(table, tmp_path: Path, isolated: Path) -> None:
    table("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "4")
    said = table("seat", "Gleb", "Dasha").stdout
    assert "seat 4 from deal 2: Dasha for Gleb, a substitute (money: Gleb)" in " ".join(said.split())
    table("deal", "solo", "--declarer", "Dasha", "--tricks", "8")
    who = people(table)
    assert who["Dasha"] == {"name": "Dasha", "seat": 4, "playing_for": "Gleb", "away": False, "chips": 0,
                            "money": "0.00"}
    assert who["Gleb"]["seat"] is None and not who["Gleb"]["away"]  # his money is at the table, Dasha plays it
    gleb = who["Gleb"]["chips"]
    assert gleb == table.json("status")["balances"]["Dasha"] > 0  # the seat's balance is Gleb's money
    history = table.json("history")
    assert [d["description"] for d in history] == ["junior Anna 5 + Vera 4", "solo junior Dasha 8"]
    assert list(history[0]["balances"]) == ["Anna", "Boris", "Vera", "Gleb"]  # as they sat at each deal
    assert list(history[1]["balances"]) == ["Anna", "Boris", "Vera", "Dasha"]
    assert history[1]["table"][3] == {"player": "Dasha", "money_of": "Gleb"}
    zero_sum(table)
    # where it happened, on every score sheet
    change = "seat 4 from deal 2: Dasha for Gleb, a substitute (money: Gleb)"
    assert change in " ".join(table("history").stdout.split())
    assert change in " ".join(table("sheet").stdout.split())
    html = tmp_path / "sheet.html"
    table("sheet", "--html", str(html))
    assert change in html.read_text(encoding="utf-8")
    phone = view(isolated).sheet
    assert "seat 4: Dasha, a substitute (money: Gleb)" in phone and "seat 4 from deal 2: Dasha for Gleb" in phone
    # an earlier deal corrected, its players named as they sat: the replay goes through the change
    table("edit", "1", "--boston", "Gleb", "--reason", "Gleb had it", "--yes")
    assert table.json("history")[0]["description"] == "junior Anna 5 + Vera 4, boston Gleb"
    assert people(table)["Gleb"]["chips"] == gleb + 6  # 2 from each of the three others
    gleb += 6
    table("edit", "1", "--tricks", "6", "--reason", "one more", "--yes")
    assert people(table)["Gleb"]["chips"] < gleb and table("check").stdout == ""
    assert table.json("rescore", "1", "--tariff", "tambov")["session"] == 1
    table("settle", "--yes")
    stats = table.json("stats")["players"]
    assert stats["Dasha"]["declared_total"] == 1 and stats["Dasha"]["deals"] == 1  # she played deal 2
    assert stats["Gleb"]["deals"] == 1 and stats["Gleb"]["declared_total"] == 0  # he played deal 1
    assert stats["Dasha"]["money"] == {"": "0.00"} and Decimal(stats["Gleb"]["money"][""]) > 0  # his money
    table("export", str(tmp_path / "out"))
    with (tmp_path / "out" / "deals.csv").open(encoding="utf-8-sig", newline="") as f:
        assert [d["declarer"] for d in csv.DictReader(f)] == ["Anna", "Dasha"]
    with (tmp_path / "out" / "transfers.csv").open(encoding="utf-8-sig", newline="") as f:
        moved = [t for t in csv.DictReader(f) if t["deal"] == "2" and t["reason"] == "consolation"]
    assert {t["to"] for t in moved} == {"Gleb"}  # Dasha's solo paid Gleb's account


def test_a_player_who_leaves_on_his_own_takes_his_share_of_the_basket(table) -> None:
    table("deal", "pass")  # 80 in the basket
    table("deal", "junior", "--declarer", "Anna", "--tricks", "4")  # failed: Anna's labet doubles it... and more
    before = table.json("status")
    basket, gleb = before["basket"], before["balances"]["Gleb"]
    said = " ".join(table("seat", "Gleb", "Dasha", "--own").stdout.split())
    share = basket // 4
    assert f"Gleb leaves the table with {gleb + share} chips (a balance of {gleb} and {share} from the basket)" in said
    assert "Dasha is new to the evening and starts from 0." in said
    now = table.json("status")
    assert now["basket"] == basket - share and now["balances"]["Dasha"] == 0
    who = people(table)
    assert who["Gleb"] == {"name": "Gleb", "seat": None, "playing_for": None, "away": True,
                           "chips": gleb + share, "money": f"{(gleb + share) * Decimal('0.10'):.2f}"}
    zero_sum(table)
    # taken back before the next deal: as it was
    assert "taken back" in table("undo").stdout
    assert table.json("status")["basket"] == basket and "Dasha" not in people(table)
    table("seat", "Gleb", "Dasha", "--own")
    table("deal", "pass")  # a new basket: Gleb's share is not in it, and his money stays as it left
    assert people(table)["Gleb"]["chips"] == gleb + share
    zero_sum(table)
    assert table("check", "--all").stdout == ""
    # an earlier deal corrected changes the basket he took his share of
    table("deal", "pass")
    table("edit", "2", "--tricks", "5", "--reason", "made after all", "--yes")
    assert people(table)["Gleb"]["chips"] != gleb + share
    zero_sum(table)
    assert table("check").stdout == ""
    assert table.json("rescore", "1", "--tariff", "tambov")["session"] == 1  # replayed through the leave
    zero_sum(table)
    settled = table.json("settle", "--yes")
    assert set(settled["money"]) == {"Anna", "Boris", "Vera", "Gleb", "Dasha"}
    assert sum(Decimal(m) for m in settled["money"].values()) == 0  # to the cent


def test_a_player_comes_back_with_what_he_took_away(table, tmp_path: Path) -> None:
    table("deal", "pass")
    table("seat", "Gleb", "Dasha", "--own")
    away = people(table)["Gleb"]["chips"]
    table("deal", "solo", "--declarer", "Dasha", "--tricks", "9")
    dasha = table.json("status")["balances"]["Dasha"]
    said = " ".join(table("seat", "Dasha", "Gleb", "--own").stdout.split())
    assert f"Gleb comes back with {away} chips." in said
    who = people(table)
    assert who["Gleb"]["seat"] == 4 and who["Gleb"]["chips"] == away
    assert who["Dasha"]["away"] and who["Dasha"]["chips"] >= dasha  # her balance, and a share
    zero_sum(table)
    assert table("check").stdout == ""
    # taken back and made again, then everything replayed through the return
    assert "taken back" in table("undo").stdout
    assert people(table)["Gleb"]["away"] and people(table)["Dasha"]["seat"] == 4
    table("seat", "Dasha", "Gleb", "--own")
    table("deal", "solo", "--declarer", "Gleb", "--tricks", "8")
    table("edit", "2", "--tricks", "6", "--reason", "she lost three", "--yes")
    assert people(table)["Dasha"]["chips"] < dasha
    assert table.json("rescore", "1", "--tariff", "tambov")["session"] == 1
    zero_sum(table)
    assert table("check", "--all").stdout == ""
    settled = table.json("settle", "--yes")
    assert set(settled["money"]) == {"Anna", "Boris", "Vera", "Gleb", "Dasha"}
    assert sum(Decimal(m) for m in settled["money"].values()) == 0
    table("export", str(tmp_path / "out"))
    with (tmp_path / "out" / "seatings.csv").open(encoding="utf-8-sig", newline="") as f:
        changes = list(csv.DictReader(f))
    assert [(c["from_deal"], c["player"]) for c in changes] == [("2", "Dasha"), ("3", "Gleb")]


def test_the_table_refuses_what_cannot_be(table) -> None:
    table("deal", "pass")
    assert "sits at the table already" in table("seat", "Gleb", "Anna", code=2).stderr
    assert "no player 'Zed' in this session" in table("seat", "Zed", "Dasha", code=2).stderr
    table("seat", "Gleb", "Dasha")  # on Gleb's money
    err = table("seat", "Anna", "Gleb", "--own", code=2).stderr  # Gleb's money is in seat 4
    assert "Gleb's money is played in seat 4 by Dasha" in err
    assert table("check").stdout == ""


@pytest.mark.slow  # an evening of seat changes through the command line
def test_five_share_one_table_in_turns(cli, tmp_path: Path) -> None:
    """Five friends, four seats: at the end of each game of twelve deals the one who sat out takes
    the seat of one who played, who leaves with his money and comes back with it later."""
    cli("new", "Anna", "Boris", "Vera", "Gleb", "--tariff", "american", "--chip-value", "0.01")
    dealers = []

    def game(seat_out: str, seat_in: str | None) -> None:
        if seat_in is not None:
            cli("seat", seat_out, seat_in, "--own")
        for __ in range(12):
            dealers.append(cli.json("status")["dealer"])
            cli("deal", "five", "--declarer", cli.json("status")["dealer"], "--tricks", "6")

    game("", None)
    game("Anna", "Dasha")  # Dasha takes Anna's seat for the second game
    game("Boris", "Anna")  # Anna comes back in Boris's seat
    who = people(cli)
    assert [who[n]["seat"] for n in ("Anna", "Boris", "Vera", "Gleb", "Dasha")] == [2, None, 3, 4, 1]
    assert who["Boris"]["away"] and not who["Anna"]["away"]
    assert dealers[12] == "Dasha" and dealers[25] == "Anna"  # the deal goes round the seats as before
    zero_sum(cli)
    assert cli("check").stdout == ""
    cli("undo")
    cli("edit", "13", "--tricks", "7", "--reason", "seven")
    zero_sum(cli)
    assert cli("check").stdout == ""
    assert cli.json("rescore", "1", "--tariff", "american-decimal")["session"] == 1
    settled = cli.json("settle", "--yes")
    assert len(settled["money"]) == 5
    cli("export", str(tmp_path / "out"))
    with (tmp_path / "out" / "deals.csv").open(encoding="utf-8-sig", newline="") as f:
        assert {d["declarer"] for d in csv.DictReader(f)} == {"Anna", "Boris", "Vera", "Gleb", "Dasha"}
