"""The evening page in a real browser at a phone's size: a deal entered at the terminal appears
on the page without a reload, and the page breaks none of its own security policy."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from browser import missing, phone
from serving import HANG, JUNIOR, PASS, play, serve

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")


def test_a_deal_from_the_terminal_appears_on_the_phone(table, isolated: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    play(isolated, [JUNIOR, PASS])
    program = serve(isolated)
    driver = phone(tmp_path / "profile")
    try:
        driver.get(program.url)
        WebDriverWait(driver, HANG).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live"))
        assert driver.execute_script("return [innerWidth, innerHeight]") == [360, 780]
        anna = driver.find_element(By.CSS_SELECTOR, '[data-player="Anna"] .balance')
        before = int(anna.text)
        driver.execute_script("window.notReloaded = true")
        env = {**os.environ, "BOSTON_LEDGER_DB": str(isolated)}
        subprocess.run(["boston-ledger", "deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
                        "--partner-tricks", "4"], env=env, check=True, capture_output=True)
        status = json.loads(subprocess.run(["boston-ledger", "status", "--json"], env=env, check=True,
                                           capture_output=True).stdout)
        after = status["balances"]["Anna"]
        assert after != before
        WebDriverWait(driver, HANG).until(
            lambda d: d.find_element(By.CSS_SELECTOR, '[data-player="Anna"] .balance').text == str(after))
        assert driver.execute_script("return window.notReloaded") is True  # swapped in place, not reloaded
        assert driver.find_element(By.CSS_SELECTOR, ".sheet").get_attribute("data-deals") == "3"
        assert driver.find_element(By.CSS_SELECTOR, "article.deal").get_attribute("data-deal") == "3"
        for name, value in status["balances"].items():
            shown = driver.find_element(By.CSS_SELECTOR, f'[data-player="{name}"] .balance').text
            assert shown == str(value), name
        assert driver.find_element(By.CSS_SELECTOR, ".basket b").text == str(status["basket"])
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360  # nothing wider than the phone
        size = driver.execute_script("return parseFloat(getComputedStyle(document.querySelector('.balance')).fontSize)")
        assert size >= 30  # the balances are large
        logged = [entry["message"] for entry in driver.get_log("browser")]
        assert not [m for m in logged if "Content Security Policy" in m or "Refused" in m], logged
        driver.save_screenshot(str(tmp_path / "phone.png"))
    finally:
        driver.quit()
        code, __, err = program.stop()
    assert code == 0 and err == ""
