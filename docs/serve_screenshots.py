"""Make the screenshots of the evening page in docs/: the demo evening on a 360×780 phone, in
headless Chromium from the system (as the browser test drives it).

Run: python docs/serve_screenshots.py

serve.png: English, light, the evening in its double tours; serve.ru.png: Russian, dark, settled.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "tests")]

from boston_ledger.app import demo, sessions  # noqa: E402
from boston_ledger.core import i18n  # noqa: E402
from boston_ledger.store.db import open_db  # noqa: E402
from browser import missing, phone  # noqa: E402
from serving import HANG, serve  # noqa: E402

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
    for __ in demo.play(conn):
        pass
    if settled:
        sessions.settle(conn)
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


def main() -> None:
    reason = missing()
    if reason:
        sys.exit(reason)
    with tempfile.TemporaryDirectory() as tmp:
        for name, lang, dark, settled in SHOTS:
            print(shot(name, lang, dark, settled, Path(tmp)))


if __name__ == "__main__":
    main()
