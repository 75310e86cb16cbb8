"""Issue 24, item 4: the live page, the entry page and `sheet --html` fit a phone of 360×780 in
Russian and in English: the document is no wider than the viewport, nothing inside scrolls
sideways, and no text is cut with an ellipsis (a column's head least of all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser import PHONE, missing, phone, until
from serving import HANG, entry_link, serve

pytestmark = [pytest.mark.skipif(missing() is not None, reason=missing() or ""), pytest.mark.slow]

PLAYERS = ["Анастасия", "Борис", "Вероника", "Глеб"]  # long names, as a Russian table has them
MEASURE = """
const wide = document.documentElement.scrollWidth;
const cut = [], scrolls = [];
for (const el of document.querySelectorAll('body *')) {
  const style = getComputedStyle(el);
  if (style.textOverflow === 'ellipsis' && (el.scrollWidth > el.clientWidth + 1))
    cut.push(el.tagName + ': ' + el.textContent.trim().slice(0, 40));
  if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
    scrolls.push(el.tagName + '.' + el.className);
}
return {wide: wide, inner: innerWidth, cut: cut, scrolls: scrolls};
"""


def fits(driver, what: str) -> None:
    seen = driver.execute_script(MEASURE)
    assert seen["inner"] == PHONE[0], what
    assert seen["wide"] <= PHONE[0], (what, seen)
    assert not seen["scrolls"], (what, seen)
    assert not seen["cut"], (what, seen)


def test_every_page_fits_a_phone_in_both_languages(cli, isolated: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB", "--name", "Пятница у Вероники")
    cli("deal", "junior", "--declarer", "Борис", "--partner", "Глеб", "--tricks", "5", "--partner-tricks", "4",
        "--boston", "Вероника")
    cli("deal", "pass")
    cli("deal", "misere", "--declarer", "Вероника", "--tricks", "1")  # the longest why-line
    cli("deal", "solo", "--declarer", "Анастасия", "--tricks", "9", "--rank", "senior")  # +280 and -160
    cli("deal", "junior", "--declarer", "Глеб", "--partner", "Анастасия", "--tricks", "4", "--partner-tricks", "2")
    for lang in ("en", "ru"):
        cli("--lang", lang, "sheet", "--html", str(tmp_path / f"sheet-{lang}.html"))
    program = serve(isolated, "--entry")
    entering = entry_link(program)
    driver = phone(tmp_path / "profile")
    try:
        for lang in ("en", "ru"):
            driver.get(f"{program.url}&lang={lang}")
            until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live"))
            fits(driver, f"the live page, {lang}")
            driver.save_screenshot(str(tmp_path / f"page-{lang}.png"))
            driver.get(f"{entering}&lang={lang}")
            fits(driver, f"the entry page's first question, {lang}")
            for answer in (("junior", "младшая")[lang == "ru"], "Борис", "Глеб", "9",
                           ("no one", "ни у кого")[lang == "ru"]):
                question = driver.find_element(By.TAG_NAME, "main")
                driver.find_element(By.XPATH, f"//button[normalize-space()='{answer}']").click()
                until(driver, lambda d, question=question: question != d.find_element(By.TAG_NAME, "main"))
            assert driver.find_elements(By.CSS_SELECTOR, ".preview table"), lang  # the deal shown before it is recorded
            fits(driver, f"the entry page's preview, {lang}")
            driver.save_screenshot(str(tmp_path / f"entry-{lang}.png"))
            driver.get((tmp_path / f"sheet-{lang}.html").as_uri())
            fits(driver, f"sheet --html, {lang}")
    finally:
        driver.quit()
        program.proc.kill()
        program.proc.wait(timeout=HANG)
