"""Make the screenshots of the evening page in docs/: the demo evening on a 360×780 phone, in
headless Chromium from the system (as the browser test drives it).

Run: python docs/serve_screenshots.py

serve.png: English, light, the evening in its double tours; serve.ru.png: Russian, dark, settled;
serve-entry.png: the entry page of `serve --entry` (English, light) asking a pair's tricks, after
a tap on the contract, the declarer and the partner.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from boston_ledger.app import demo, sessions
from boston_ledger.core import i18n
from boston_ledger.store.db import open_db
from browser import missing, phone
from serving import HANG, entry_link, serve

HERE = Path(__file__).resolve().parent

SHOTS = [  # file, language, dark, settled
    ("serve.png", "en", False, False),
    ("serve.ru.png", "ru", True, True),
]


def shot(name: str, lang: str, dark: bool, settled: bool, tmp: Path) -> Path:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    db = tmp / f"{name}.db"
    conn = open_db(db, create=True)
    i18n.set_language(lang)  # the demo's players are named in the page's language
    session, __ = demo.start(conn)
    for __ in demo.play(conn, session):
        pass
    if settled:
        sessions.settle(conn, session.id)
    i18n.set_language("en")
    conn.close()
    program = serve(db)
    driver = phone(tmp / f"profile-{name}", dark=dark, languages=f"{lang},en")
    try:
        driver.get(program.url)
        WebDriverWait(driver, HANG).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live"))
        out = HERE / name
        driver.save_screenshot(str(out))
        return out
    finally:
        driver.quit()
        program.stop()


def entry_shot(tmp: Path, name: str = "serve-entry.png", taps: tuple[str, ...] = ("junior", "Boris", "Gleb")) -> Path:
    """The entry page after these taps, in the demo evening."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    db = tmp / f"{name}.db"
    conn = open_db(db, create=True)
    session, __ = demo.start(conn)
    for __ in demo.play(conn, session):
        pass
    conn.close()
    program = serve(db, "--entry")
    driver = phone(tmp / f"profile-{name}")
    try:
        driver.get(entry_link(program))
        for words in taps:
            page = driver.find_element(By.TAG_NAME, "main")
            driver.find_element(By.XPATH, f"//button[normalize-space()='{words}']").click()
            WebDriverWait(driver, HANG).until(lambda d, page=page: d.find_element(By.TAG_NAME, "main") != page)
        out = HERE / name
        driver.save_screenshot(str(out))
        return out
    finally:
        driver.quit()
        program.stop()


def main() -> None:
    reason = missing()
    if reason:
        sys.exit(reason)
    with tempfile.TemporaryDirectory() as tmp:
        for name, lang, dark, settled in SHOTS:
            print(shot(name, lang, dark, settled, Path(tmp)))
        print(entry_shot(Path(tmp)))


if __name__ == "__main__":
    main()
