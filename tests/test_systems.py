"""Every Boston of the seeds: samouchitel, Fontainebleau, Tambov and the ten conditions."""

from __future__ import annotations

from pathlib import Path

import pytest

from boston_ledger.core import engine
from boston_ledger.core.engine import BASKET, Deal, State
from boston_ledger.core.tariff import TariffError
from boston_ledger.core.tariff_files import check, load
from conftest import PLAYERS

A, B, V, G = range(4)

# Seed 003: «5 взяток 3 2 1 6 „ 8 7 6 7 „ 13 12 11 8 „ 18 17 16 9 „ 23 22 21 13 „ 50 49 48»
SAMOUCHITEL = {"5": (3, 2, 1), "6": (8, 7, 6), "7": (13, 12, 11), "8": (18, 17, 16), "9": (23, 22, 21),
               "13": (50, 49, 48)}
# «М. нуль 15 Б. нуль 25 М. в открытую 35 Б. в открытую 45»
NULLS = {"small-null": 15, "big-null": 25, "small-open": 35, "big-open": 45}


def score(tariff, deal: Deal, state: State | None = None) -> tuple[int, ...]:
    return engine.play(tariff, state or State.start(4), deal).scores


def by_reason(outcome, reason):
    return [(t.payer, t.payee, t.chips) for t in outcome.transfers if t.reason == reason]


# ---- samouchitel ---------------------------------------------------------------------------

SAM = load("samouchitel")


@pytest.mark.parametrize("contract, values", SAMOUCHITEL.items())
def test_samouchitel_trump_table(contract: str, values: tuple[int, int, int]) -> None:
    bar = int(contract)
    for rank, value in zip(("first", "second", "third"), values, strict=True):
        assert score(SAM, Deal(contract, A, None, bar, None, rank))[A] == value
        if bar < 13:  # 2 points for every trick beyond what was owed
            assert score(SAM, Deal(contract, A, None, bar + 1, None, rank))[A] == value + 2
            assert score(SAM, Deal(contract, A, None, 13, None, rank))[A] == value + 2 * (13 - bar)
        for short in (bar - 1, 0):  # the whole declared value is written off
            assert score(SAM, Deal(contract, A, None, short, None, rank)) == (-value, 0, 0, 0)


@pytest.mark.parametrize("contract, value", NULLS.items())
def test_samouchitel_nulls(contract: str, value: int) -> None:
    assert score(SAM, Deal(contract, B, None, 0)) == (0, value, 0, 0)
    assert score(SAM, Deal(contract, B, None, 1)) == (0, -value, 0, 0)


def test_samouchitel_partner_owes_three_more_together() -> None:
    assert score(SAM, Deal("5", A, G, 5, 3, "second")) == (2, 0, 0, 2)  # 8 together: made
    assert score(SAM, Deal("5", A, G, 6, 1, "second")) == (-2, 0, 0, -2)  # 7: both lose
    assert score(SAM, Deal("6", A, G, 4, 7, "first")) == (12, 0, 0, 12)  # 11 of 9: +2 over
    with pytest.raises(engine.DealError, match="played alone"):
        engine.play(SAM, State.start(4), Deal("7", A, G, 5, 3, "first"))


def test_samouchitel_session_through_the_cli(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel", "--deals", "4", "--chip-value", "0.05")
    cli("deal", "6", "--declarer", "Anna", "--partner", "Boris", "--tricks", "6", "--partner-tricks", "4",
        "--rank", "first")  # 10 of 9 together: 8 + 2 each
    cli("deal", "малый-нуль", "--declarer", "Vera", "--tricks", "1")  # failed: -15
    cli("deal", "7", "--declarer", "Gleb", "--tricks", "6", "--rank", "третья")  # failed: -11
    status = cli.json("status")
    assert status["balances"] == {"Anna": 10, "Boris": 10, "Vera": -15, "Gleb": -11}
    assert status["basket"] == 0 and status["deals_left"] == 1 and status["scoring"] == "points"
    # each player's net is the sum over the others of (his score - theirs)
    assert status["net"] == {"Anna": 0 + 25 + 21, "Boris": 0 + 25 + 21, "Vera": -25 - 25 - 4,
                             "Gleb": -21 - 21 + 4}
    cli("deal", "pass")
    err = cli("deal", "pass", code=2).stderr
    assert "4 agreed deals" in err
    history = cli("history").stdout
    assert "small-null Vera 1 — failed" in history and "basket" not in history
    score_row = history.splitlines()[-1].split("→")[1:]  # the last deal: change → score
    assert [c.split()[0] for c in score_row] == ["10", "10", "-15", "-11"]
    result = cli.json("settle")
    assert result["net_chips"] == {"Anna": 46, "Boris": 46, "Vera": -54, "Gleb": -38}
    assert result["money"] == {"Anna": "2.30", "Boris": "2.30", "Vera": "-2.70", "Gleb": "-1.90"}


def test_samouchitel_refuses_what_it_does_not_have(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel")
    assert "needs its rank: first, second, third (--rank RANK)" in cli("deal", "5", "--declarer", "Anna", "--tricks",
                                                                       "5", code=2).stderr
    assert "no boston" in cli("deal", "5", "--declarer", "Anna", "--tricks", "5", "--rank", "first",
                              "--boston", "Vera", code=2).stderr
    assert "no contract" in cli("deal", "solo", "--declarer", "Anna", "--tricks", "8", code=2).stderr
    assert cli.json("status")["deals_left"] is None


# ---- Fontainebleau -------------------------------------------------------------------------

FONT = load("fontainebleau")


def test_fontainebleau_dealer_stakes_fifty() -> None:
    out = engine.play(FONT, State.start(4), Deal("pass"))
    assert by_reason(out, "stake") == [(A, BASKET, 50)]
    assert engine.advance(State.start(4), out).basket == 100


def test_fontainebleau_carte_blanche_and_double_boston_in_a_slam() -> None:
    out = engine.play(FONT, State.start(4), Deal("junior", B, G, 10, 3, boston=V, carte_blanche=A))
    assert by_reason(out, "carte-blanche") == [(B, A, 10), (V, A, 10), (G, A, 10)]
    # Vera, an opponent of the slam, holds the boston: paid single (the slam doubles *the player's*)
    assert by_reason(out, "boston") == [(A, V, 2), (B, V, 2), (G, V, 2)]
    own = engine.play(FONT, State.start(4), Deal("junior", B, G, 10, 3, boston=G))
    assert by_reason(own, "boston") == [(A, G, 4), (B, G, 4), (V, G, 4)]  # the slam's side: doubled
    plain = engine.play(FONT, State.start(4), Deal("junior", B, G, 5, 4, boston=G))
    assert by_reason(plain, "boston") == [(A, G, 2), (B, G, 2), (V, G, 2)]  # no slam: single
    plain = engine.play(FONT, State.start(4), Deal("junior", B, G, 5, 4, boston=V))
    assert by_reason(plain, "boston") == [(A, V, 2), (B, V, 2), (G, V, 2)]
    double_tour = State(balances=(0,) * 4, deals=32)
    out = engine.play(FONT, double_tour, Deal("pass", carte_blanche=V))
    assert by_reason(out, "carte-blanche") == [(A, V, 20), (B, V, 20), (G, V, 20)]


def test_classic_has_no_carte_blanche(table) -> None:
    assert "blank hand" in table("deal", "pass", "--carte-blanche", "Anna", code=2).stderr


# ---- Tambov ----------------------------------------------------------------------------------

TAMBOV = load("tambov")


def per_opponent(tariff, deal: Deal) -> int:
    out = engine.play(tariff, State.start(4), deal)
    opponent = next(s for s in range(4) if s not in (deal.declarer, deal.partner))
    return sum(c if p == opponent else -c for p, q, c in
               [(t.payer, t.payee, t.chips) for t in out.transfers if t.reason in
                ("consolation", "overtricks", "undertricks", "slam", "premium")]
               if deal.declarer in (p, q) and opponent in (p, q))


def test_tambov_six_and_eight_with_a_partner() -> None:
    # the classic pair table at the team's tricks, the bar moved to 10 (six) or 13 (eight), and a
    # premium of 2 × (N − 5) on every payment: six 2, eight 6
    assert per_opponent(TAMBOV, Deal("six", A, G, 6, 4)) == 6 + 2  # pair(10) + 2
    assert per_opponent(TAMBOV, Deal("six", A, G, 7, 5)) == 10 + 2  # pair(12) + 2
    assert per_opponent(TAMBOV, Deal("six", A, G, 9, 4)) == 24 + 2  # the slam doubles pair(13), not the premium
    assert per_opponent(TAMBOV, Deal("six", A, G, 6, 3)) == 0  # the partner fell short, not the declarer
    assert per_opponent(TAMBOV, Deal("six", A, G, 5, 4)) == -(2 + 2 * 1 + 2)  # failed by 1: 2 + 2k + 2
    assert per_opponent(TAMBOV, Deal("six", A, G, 0, 0)) == -(56 + 2)  # no team trick: 56 + 2
    assert per_opponent(TAMBOV, Deal("eight", A, G, 8, 5)) == 24 + 6  # pair(13) + 6
    assert per_opponent(TAMBOV, Deal("eight", A, G, 7, 5)) == -(2 + 2 * 1 + 6)
    assert per_opponent(TAMBOV, Deal("eight", A, G, 0, 0)) == -(56 + 6)
    assert per_opponent(TAMBOV, Deal("eight", A, G, 8, 5, rank="senior")) == 2 * (24 + 6)  # senior doubles all
    assert per_opponent(TAMBOV, Deal("junior", A, G, 5, 3)) == 2  # the classic purchase stays


def test_tambov_six_and_eight_alone() -> None:
    # the classic lone table, the bar moved to 6 or 8, + 2 or + 6
    assert per_opponent(TAMBOV, Deal("six", A, None, 6)) == 4 + 2  # alone(6) = 4: six pays 6
    assert per_opponent(TAMBOV, Deal("six", A, None, 13)) == 36 + 2
    assert per_opponent(TAMBOV, Deal("eight", A, None, 8)) == 8 + 6  # 14, below the solo's 16
    assert per_opponent(TAMBOV, Deal("eight", A, None, 12)) == 16 + 6
    assert per_opponent(TAMBOV, Deal("eight", A, None, 7)) == -(2 + 2 + 6)
    assert per_opponent(TAMBOV, Deal("six", A, None, 1)) == -(2 + 2 * 5 + 2)
    assert per_opponent(TAMBOV, Deal("six", A, None, 0)) == -(24 + 2)
    assert per_opponent(TAMBOV, Deal("eight", A, None, 0)) == -(24 + 6)


def test_tambov_six_alone_fails_to_the_opponents() -> None:
    out = engine.play(TAMBOV, State.start(4), Deal("six", A, None, 5))
    assert by_reason(out, "basket") == [(BASKET, B, 13), (BASKET, V, 13), (BASKET, G, 13)]
    assert by_reason(out, "consolation") == [(A, B, 2), (A, V, 2), (A, G, 2)]  # the failed base
    assert by_reason(out, "undertricks") == [(A, B, 2), (A, V, 2), (A, G, 2)]
    assert by_reason(out, "premium") == [(A, B, 2), (A, V, 2), (A, G, 2)]


# ---- the ten conditions ----------------------------------------------------------------------


def test_remise_condition(cli) -> None:
    cli("new", *PLAYERS, "--condition", "remise")
    cli("deal", "pass", "--ace-turned")  # dealer Anna: stake 40, remise 2, doubled
    status = cli.json("status")
    assert status["basket"] == 84 and status["conditions"] == ["remise"]
    assert status["balances"]["Anna"] == -10 - 2 - 12  # the dealer pays the remainder: 42 - 3 × 10
    cli("new", *PLAYERS, "--yes")
    assert "remise" in cli("deal", "pass", "--ace-turned", "--session", "2", code=2).stderr


def test_with_purchase_has_no_partners(cli) -> None:
    cli("new", *PLAYERS, "--condition", "with-purchase")
    err = cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
              "--partner-tricks", "3", code=2).stderr
    assert "played alone" in err
    cli("deal", "junior", "--declarer", "Anna", "--tricks", "5")


def test_simple_game_stakes_four_at_every_deal() -> None:
    t = load("classic", ["простая игра"])  # its Russian title names it too
    assert t.applied == ("simple",)
    assert engine.position(t, State((0,) * 4, deals=32)).multiplier == 2  # the double tours stay
    # a made pair takes the basket, yet the next deal stakes 4 each again, and so does an all-pass
    steps = list(engine.replaying(t, [Deal("junior", B, G, 5, 3), Deal("pass"), Deal("pass")]))
    state, outcomes = steps[-1].after, [s.outcome for s in steps]
    assert [by_reason(o, "stake") for o in outcomes] == [[(A, BASKET, 4), (B, BASKET, 4), (V, BASKET, 4),
                                                          (G, BASKET, 4)]] * 3
    # deal 1: each stakes 4 (basket 16); Anna and Vera pay Boris and Gleb 2 each; Boris and Gleb
    #   take 8 each: Anna -8, Boris +8, Vera -8, Gleb +8, basket 0.
    # deal 2: each stakes 4 (16), all pass: each pays 4 (32): Anna -16, Boris 0, Vera -16, Gleb 0.
    # deal 3: each stakes 4 (48), all pass: each pays 12 (96): Anna -32, Boris -16, Vera -32, Gleb -16.
    assert state.basket == 96 and state.balances == (-32, -16, -32, -16)


@pytest.mark.parametrize("condition, contract, made_at, base, zero", [
    ("philadelphia", "philadelphia", 10, 48, 2 * 48 + 13 * 8),  # base: twice the solo's 24 at 10
    ("sovereign", "sovereign", 12, 64, 2 * 64 + 13 * 8),  # twice the solo's 32 at 12
    ("grand-sovereign", "grand-sovereign", 13, 144, 2 * 144 + 13 * 8),  # twice the solo slam's 72
])
def test_big_contracts_exist_only_with_their_condition(condition, contract, made_at, base, zero) -> None:
    t = load("classic", [condition])
    assert per_opponent(t, Deal(contract, A, None, made_at)) == base
    assert per_opponent(t, Deal(contract, A, None, made_at - 1)) == -(base + 4)
    assert per_opponent(t, Deal(contract, A, None, 0)) == -zero
    assert per_opponent(t, Deal(contract, A, None, made_at, rank="senior")) == 2 * base
    assert contract not in load("classic").contracts


def test_conditions_already_in_force_change_nothing() -> None:
    base = load("classic")
    for name in ("labet", "solo", "misere-ouvert", "grand-misere-ouvert"):
        on = load("classic", [name])
        assert on.contracts == base.contracts and on.tours == base.tours and on.applied == (name,)


def test_condition_errors(cli) -> None:
    for args, words in [(("--condition", "nosuch"), "no condition 'nosuch'"),
                        (("--condition", "remise", "--condition", "remise"), "named twice"),
                        (("--tariff", "samouchitel", "--condition", "remise"), "no condition")]:
        result = cli("new", *PLAYERS, *args, code=2)
        assert words in result.stderr and result.stderr.count("\n") == 1


# ---- tariff commands -------------------------------------------------------------------------


def test_tariffs_list_names_every_system(cli) -> None:
    lines = cli("tariffs", "list").stdout.splitlines()  # a table: a heading, a rule, a row (or more) each
    assert lines[0].split() == ["name", "title", "source", "conditions"] and set(lines[1]) == {"─"}
    assert [line.split()[0] for line in lines[2:] if line[:1].strip()] == [
        "american", "american-decimal", "classic", "fontainebleau", "fontainebleau-foster", "french", "russian-foster",
        "samouchitel", "tambov"]
    assert "docs/rules.en.md" in "".join(lines).replace(" ", "")


def test_tariffs_show_lists_conditions(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = cli("tariffs", "show", "classic", "--condition", "sovereign").stdout
    assert "sovereign (on)" in out and "labet (already so in this tariff)" in out
    assert "sovereign (junior)" in out
    assert "dealer alone" in cli("tariffs", "show", "fontainebleau").stdout


def test_tariffs_new_and_check(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert "wrote club.toml" in cli("tariffs", "new", "club", "--from", "tambov").stdout
    assert "ok: club.toml is a valid tariff: club" in cli("tariffs", "check", "club.toml").stdout
    before = (tmp_path / "club.toml").read_bytes()
    assert "already exists" in cli("tariffs", "new", "club", code=2).stderr
    assert (tmp_path / "club.toml").read_bytes() == before
    cli("tariffs", "new", "club", "--from", "samouchitel", "--force")
    assert load(str(tmp_path / "club.toml")).scoring == "points"
    cli("new", *PLAYERS, "--tariff", "club.toml", "--deals", "2")
    assert cli.json("status")["tariff"] == "club"


BAD_TARIFFS = {
    "missing-tables": ("[tariff]\nname='x'\ntitle='x'\nsource='x'\nscoring='chips'\nplayers=4\ntricks=13\n",
                       ["missing table [ranks]", "missing table [contracts]"]),
    "wrong-type": (lambda t: t.replace("players = 4", "players = \"four\""),
                   ["[tariff] players: must be a whole number"]),
    "negative-stake": (lambda t: t.replace("stake = 10", "stake = -10"),
                       ["[basket] stake: must be a whole number 0.."]),
    "unknown-key": (lambda t: t.replace("stake = 10", "stake = 10\nstakes = 3"), ["[basket]: unknown key 'stakes'"]),
    "fourteen-tricks": (lambda t: t.replace("bar = 9\n", "bar = 14\n"),
                        ["[schedules.nine] bar: must be a whole number 1..13, not 14"]),
    "gap-in-a-table": (lambda t: t.replace("consolation = { first = 8, second = 7, third = 6 }\nper_trick = 2\n"
                                           "per_undertrick = 0\nfailed_basket = \"none\"\n\n[schedules.six-pair]",
                                           "consolation = { first = 8, third = 6 }\nper_trick = 2\n"
                                           "per_undertrick = 0\nfailed_basket = \"none\"\n\n[schedules.six-pair]"),
                       ["[schedules.six]: its table has no value for rank 'second'"]),
    "unknown-rank": (lambda t: t.replace('ranks = ["junior", "senior"]\ndefault_rank = "junior"\nalone = "solo"',
                                         'ranks = ["junior", "purple"]\ndefault_rank = "junior"\nalone = "solo"'),
                     ["[contracts.solo] ranks: unknown rank 'purple'"]),
    "shares-not-summing": (lambda t: t.replace("shares = [5, 3]", "shares = [5, 4]"),
                           ["[schedules.pair] shares: must be two"]),
    "not-toml": ("this is [not toml", ["not valid TOML"]),
    "bad-condition": (lambda t: t + "\n[conditions.odd]\ntitle = 'x'\nremove = ['contracts.nosuch']\n",
                      ["'contracts.nosuch' is not in the tariff"]),
}


@pytest.mark.parametrize("case", BAD_TARIFFS)
def test_malformed_tariffs_are_rejected_with_a_location(cli, tmp_path: Path, case: str) -> None:
    make, expected = BAD_TARIFFS[case]
    base = "samouchitel" if case == "gap-in-a-table" else "classic"
    original = (Path(__file__).resolve().parent.parent / "tariffs" / f"{base}.toml").read_text(encoding="utf-8")
    text = make(original) if callable(make) else make
    assert text != original
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    result = cli("tariffs", "check", str(path), code=2)
    for words in expected:
        assert words in result.stderr, result.stderr
    assert all(line.startswith("boston-ledger: error: ") and str(path) in line
               for line in result.stderr.splitlines())
    new = cli("new", *PLAYERS, "--tariff", str(path), code=2)
    assert new.stderr.count("\n") == 1 and expected[0] in new.stderr


# ---- reproducible sessions -------------------------------------------------------------------


def test_a_session_keeps_its_tariff_when_the_file_changes_or_goes(cli, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text((Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml")
                    .read_text(encoding="utf-8"), encoding="utf-8")
    cli("new", *PLAYERS, "--tariff", str(path))
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
        "--partner-tricks", "4", "--boston", "Vera")
    before = cli.json("status")
    path.write_text(path.read_text(encoding="utf-8").replace("stake = 10", "stake = 99")
                    .replace("amount = 2", "amount = 50"), encoding="utf-8")
    assert cli.json("status") == before
    path.unlink()
    assert cli.json("status") == before
    assert before["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}
    cli("deal", "pass")  # the stored tariff still plays: stake 10 each, doubled
    assert cli.json("status")["basket"] == 80
    assert cli.json("status")["tariff_hash"] == before["tariff_hash"]  # the hash is shown where asked: --json


def test_a_tariff_file_changed_is_read_anew(tmp_path: Path) -> None:
    """A tariff loaded or checked before is read again when its file, or a file it extends, has
    changed since: what a process holds is never the file as it was."""
    classic = (Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml").read_text(encoding="utf-8")
    stake = load("classic").basket.stake
    base, mine = tmp_path / "base.toml", tmp_path / "mine.toml"
    base.write_text(classic, encoding="utf-8")
    mine.write_text('[tariff]\nextends = "base.toml"\nname = "mine"\n', encoding="utf-8")
    assert load(str(mine)).basket.stake == stake
    simple = load(str(mine), ["simple"]).basket.stake
    assert check(str(base))[1] == []
    base.write_text(classic.replace(f"stake = {stake}\n", f"stake = {stake + 1}\n"), encoding="utf-8")
    assert load(str(mine)).basket.stake == stake + 1
    assert load(str(mine), ["simple"]).basket.stake == simple  # the condition's own stake
    assert check(str(base))[0].basket.stake == stake + 1
    mine.write_text(mine.read_text(encoding="utf-8") + f"[basket]\nstake = {stake + 2}\n", encoding="utf-8")
    assert load(str(mine)).basket.stake == stake + 2
    base.write_text(classic.replace(f"stake = {stake}\n", "stake = -1\n"), encoding="utf-8")
    assert "[basket] stake" in check(str(base))[1][0]
    with pytest.raises(TariffError, match=r"\[basket\] stake"):
        load(str(base))
    base.write_text(classic.replace('stake_payer = "each"', 'stake_payer = "dealer"', 1), encoding="utf-8")
    assert load(str(mine)).basket.stake_payer == "dealer"


def test_tariffs_show_fits_an_80_column_terminal(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = cli("tariffs", "show", "classic").stdout
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out
    for value in ("+24", "-56", "+36", "-136", "+144", "-368", "+112", "128"):
        assert value in out


def test_the_stake_follows_the_engine_even_when_a_share_is_zero(cli, tmp_path: Path) -> None:
    mine = tmp_path / "tiny.toml"
    mine.write_text('[tariff]\nextends = "classic"\nname = "tiny"\ntitle = "t"\nsource = "s"\n'
                    '[basket]\nstake = 1\nstake_payer = "dealer"\n', encoding="utf-8")
    cli("new", *PLAYERS, "--tariff", str(mine))
    pair = ("deal", "junior", "--declarer", "Boris", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
    cli(*pair)  # the basket of 1 cannot be split between two: it stays, but it was won
    cli(*pair)
    status = cli.json("status")
    from boston_ledger.core.engine import Deal, replayed

    expected = replayed(load(str(mine)), [Deal("junior", B, V, 5, 3)] * 2)
    assert list(status["balances"].values()) == list(expected.balances)
    assert status["basket"] == expected.basket
    assert cli("check").stdout == ""


def test_tariffs_new_leaves_nothing_behind_when_it_fails(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.toml").mkdir()
    result = cli("tariffs", "new", "d", "--force", code=2)
    assert result.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.toml"]
    cli("tariffs", "new", "ok")
    assert (tmp_path / "ok.toml").stat().st_mode & 0o044  # readable by others, like any file
