"""Issue 24, item 2: every number beside a counted noun takes the Russian form its count needs.

A scripted Russian evening is played with counts 1, 2, 5, 11, 21, 22 and 25 where they occur: the
agreed deals, the deals played, the stake and the boston in chips, the basket shared out; each
printed form is checked against the form a Russian speaker says (written out here, not computed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import played

COUNTS = (1, 2, 5, 11, 21, 22, 25)
# the noun after the count, in the case each sentence needs
DEALS_ACCUSATIVE = {1: "сдачу", 2: "сдачи", 5: "сдач", 11: "сдач", 21: "сдачу", 22: "сдачи", 25: "сдач"}
DEALS_NOMINATIVE = {1: "сдача", 2: "сдачи", 5: "сдач", 11: "сдач", 21: "сдача", 22: "сдачи", 25: "сдач"}
PLAYED = {1: "сыграна", 2: "сыграны", 5: "сыграно", 11: "сыграно", 21: "сыграна", 22: "сыграны", 25: "сыграно"}
CHIPS = {1: "фишка", 2: "фишки", 5: "фишек", 11: "фишек", 21: "фишка", 22: "фишки", 25: "фишек"}
AGREED = {1: "1 условленная сдача вечера 1 сыграна", 2: "все 2 условленные сдачи вечера 1 сыграны",
          5: "все 5 условленных сдач вечера 1 сыграны", 11: "все 11 условленных сдач вечера 1 сыграны",
          21: "21 условленная сдача вечера 1 сыграна", 22: "все 22 условленные сдачи вечера 1 сыграны",
          25: "все 25 условленных сдач вечера 1 сыграны"}
AGREED_LEFT = {1: "условлена 1 сдача", 2: "условлены 2 сдачи", 5: "условлено 5 сдач", 11: "условлено 11 сдач",
               21: "условлена 21 сдача", 22: "условлены 22 сдачи", 25: "условлено 25 сдач"}
LAST = {1: "последняя из 1 условленной сдачи", 2: "последняя из 2 условленных сдач",
        5: "последняя из 5 условленных сдач", 11: "последняя из 11 условленных сдач",
        21: "последняя из 21 условленной сдачи", 22: "последняя из 22 условленных сдач",
        25: "последняя из 25 условленных сдач"}


def one_line(text: str) -> str:
    return " ".join(text.split())


# 1, 2 and 5 are the three forms (one, few, many) in the quick subset; 11, 21, 22 and 25, where
# the last digits decide, in the whole suite
@pytest.mark.parametrize("n", [n if n in (1, 2, 5) else pytest.param(n, marks=pytest.mark.slow) for n in COUNTS])
def test_a_russian_evening_counts_in_russian(n: int, cli, isolated: Path, tmp_path: Path) -> None:
    tariff = tmp_path / f"stake{n}.toml"
    tariff.write_text(f'[tariff]\nextends = "classic"\nname = "stake{n}"\n\n[basket]\nstake = {n}\n\n'
                      f'[boston]\namount = {n}\n', encoding="utf-8")
    cli("tariffs", "check", str(tariff))
    ru = ("--lang", "ru")
    started = one_line(cli(*ru, "new", "Анна", "Борис", "Вера", "Глеб", "--tariff", str(tariff),
                           "--deals", str(n)).stdout)
    assert f"Вечер условлен на {n} {DEALS_ACCUSATIVE[n]}." in started
    shown = one_line(cli(*ru, "tariffs", "show", str(tariff)).stdout)
    assert f"ставка — {n} {CHIPS[n]} с каждого игрока" in shown
    assert f"за бостон каждый из остальных платит {n} {CHIPS[n]}" in shown
    assert "4 игрока;" in shown
    status = one_line(cli(*ru, "status").stdout)
    assert f"следующая сдача начинается со ставки: {n} {CHIPS[n]} с каждого игрока" in status
    assert f"{AGREED_LEFT[n]}, осталось {n}" in status
    played(isolated, *[("pass",)] * (n - 1))  # the passes before the last, undrawn
    last = one_line(cli(*ru, "deal", "пас").stdout)
    assert f"Это была {LAST[n]}: `boston-ledger settle`." in last
    status = one_line(cli(*ru, "status").stdout)
    assert f"{PLAYED[n]} {n} {DEALS_NOMINATIVE[n]}" in status
    refused = cli(*ru, "deal", "пас", code=2).stderr
    assert AGREED[n] in refused
    assert "Вечер 1 рассчитан." in one_line(cli(*ru, "settle", "--yes").stdout)


@pytest.mark.parametrize(("n", "line"), [
    (1, "1 фишка корзины делится поровну."), (2, "2 фишки корзины делятся поровну."),
    (5, "5 фишек корзины делятся поровну."), (11, "11 фишек корзины делятся поровну."),
    (21, "21 фишка корзины делится поровну."), (22, "22 фишки корзины делятся поровну."),
    (25, "25 фишек корзины делятся поровну.")])
def test_the_basket_shared_out_counts_its_chips(n: int, line: str, cli, tmp_path: Path) -> None:
    """One all-pass under a stake of n from the dealer alone leaves n chips in the basket."""
    tariff = tmp_path / f"dealer{n}.toml"
    tariff.write_text(f'[tariff]\nextends = "classic"\nname = "dealer{n}"\n\n[basket]\nstake = {n}\n'
                      f'stake_payer = "dealer"\nall_pass = "nothing"\n', encoding="utf-8")
    cli("--lang", "ru", "new", "Анна", "Борис", "Вера", "Глеб", "--tariff", str(tariff))
    cli("deal", "pass")
    assert cli.json("status")["basket"] == n
    assert line in one_line(cli("--lang", "ru", "settle", "--yes").stdout)
