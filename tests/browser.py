"""Headless Chromium from the system (Debian's `chromium` and `chromium-driver`), driven by
Selenium at a phone's size; never a browser of its own download."""

from __future__ import annotations

import importlib.util
from pathlib import Path

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]
PHONE = (360, 780)


def missing() -> str | None:
    """Why no browser can be had here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[test]')"
    if not any(Path(p).exists() for p in CHROMIUM):
        return "no system Chromium (apt-get install chromium chromium-driver)"
    if not any(Path(p).exists() for p in DRIVER):
        return "no chromedriver (apt-get install chromium-driver)"
    return None


def phone(profile: Path, dark: bool = False, languages: str = "en-US,en"):
    """A headless Chromium with an empty profile, its viewport a phone's 360×780. The driver's
    path is given, so Selenium skips Selenium Manager (which could download one)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = next(p for p in CHROMIUM if Path(p).exists())
    for flag in [*FLAGS, f"--user-data-dir={profile}", f"--window-size={PHONE[0]},{PHONE[1]}",
                 f"--lang={languages.split(',')[0]}"]:
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": languages})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(next(p for p in DRIVER if Path(p).exists())), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    return driver


def until(driver, condition):
    """`condition(driver)` waited for until it holds (at most HANG seconds: a hang, not a timing).
    The live page swaps its parts in place, so an element found a moment before may be gone: the
    condition is then asked again, as it is while an element is not there yet."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    from serving import HANG

    return WebDriverWait(driver, HANG, ignored_exceptions=(StaleElementReferenceException,)).until(condition)
