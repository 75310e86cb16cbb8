"""The evening page in a real browser at a phone's size: a deal entered at the terminal appears
on the page without a reload, a deal is entered by tapping through the entry page's questions,
and the pages break none of their own security policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser import missing, phone, until
from serving import JUNIOR, PASS, entry_link, play, serve

# a browser starts in seconds: these two run in the whole suite, not in the quick subset
pytestmark = [pytest.mark.skipif(missing() is not None, reason=missing() or ""), pytest.mark.slow]


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory):
    """One phone's browser for the tests here (a Chromium takes seconds to start)."""
    browser = phone(tmp_path_factory.mktemp("profile"))
    yield browser
    browser.quit()


def test_a_deal_from_the_terminal_appears_on_the_phone(table, isolated: Path, tmp_path: Path, driver) -> None:
    from selenium.webdriver.common.by import By

    play(isolated, [JUNIOR, PASS])
    program = serve(isolated)
    try:
        driver.get(program.url)
        until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live"))
        assert driver.execute_script("return [innerWidth, innerHeight]") == [360, 780]
        anna = driver.find_element(By.CSS_SELECTOR, '[data-player="Anna"] .balance')
        before = int(anna.text)
        driver.execute_script("window.notReloaded = true")
        table.main("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
                   "--partner-tricks", "4")
        status = table.json("status")
        after = status["balances"]["Anna"]
        assert after != before
        until(driver, lambda d: d.find_element(By.CSS_SELECTOR, '[data-player="Anna"] .balance').text == str(after))
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
        code, __, err = program.stop()
    assert code == 0 and err == ""


def test_a_deal_entered_by_tapping_through_the_questions(table, isolated: Path, tmp_path: Path, driver) -> None:
    from selenium.webdriver.common.by import By

    program = serve(isolated, "--entry")
    try:
        driver.get(entry_link(program))
        assert driver.execute_script("return [innerWidth, innerHeight]") == [360, 780]

        def tap(words: str, then: str) -> None:
            question = driver.find_element(By.TAG_NAME, "main")
            driver.find_element(By.XPATH, f"//button[normalize-space()='{words}']").click()
            until(driver, lambda d: question != d.find_element(By.TAG_NAME, "main")
                  and then in d.find_element(By.TAG_NAME, "main").text)

        assert driver.find_element(By.CSS_SELECTOR, "h2.question").text == "Contract"
        tap("junior", "Declarer")
        tap("Boris", "Partner")
        tap("Gleb", "Tricks taken by Boris and Gleb together")
        numbers = driver.find_elements(By.CSS_SELECTOR, ".choices.numbers .choice")
        assert [b.text for b in numbers] == [str(n) for n in range(14)]
        for b in numbers:  # large enough for a thumb, all within the phone's width
            assert b.size["height"] >= 48 and b.size["width"] >= 48, b.text
            assert b.location["x"] + b.size["width"] <= 360
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 360
        driver.save_screenshot(str(tmp_path / "entry.png"))
        tap("9", "Who held the boston")
        tap("Vera", "Record this deal")
        assert "junior Boris + Gleb: 9, boston Vera" in driver.find_element(By.TAG_NAME, "main").text
        tap("Record this deal", "Deal 1 recorded.")
        assert "Next: deal 2, dealt by Boris." in driver.find_element(By.TAG_NAME, "main").text
        logged = [entry["message"] for entry in driver.get_log("browser")]
        assert not [m for m in logged if "Content Security Policy" in m or "Refused" in m], logged
    finally:
        code, __, err = program.stop()
    assert code == 0 and err == ""
    status = table.json("status")
    assert status["deals"] == 1 and status["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}
