"""Guided entry as a real terminal shows it: each command of a script typed into tmux (a real
pseudo-terminal, so `deal` asks), the answers typed one by one, the screen captured.

    python docs/guided_capture.py

writes docs/guided.en.txt and docs/guided.ru.txt (a deal with mistakes corrected in place) and
docs/evening.ru.txt (a whole evening in Russian). It needs tmux and boston-ledger on PATH; it
uses a throw-away ledger. Blocks are separated by lines of `----`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
TMUX = "boston-ledger-capture"
WIDTH = 100

# (command, the answers typed to its questions, one by one)
GUIDED_EN = [
    ("boston-ledger new Anna Boris Vera Gleb --chip-value 0.10", []),
    ("boston-ledger deal", ["junoir", "jun", "bor", "gl", "6", "<", "9", "v", "n", "5", "anna", ""]),
]
GUIDED_RU = [
    ("boston-ledger new Анна Борис Вера Глеб --chip-value 0.10 --currency RUB", []),
    ("boston-ledger deal", ["прикп", "прикуп", "бор", "гл", "6", "<", "9", "ве", "н", "5", "ан", ""]),
]
EVENING_RU = [
    ("boston-ledger new Анна Борис Вера Глеб --chip-value 0.10 --currency RUB --deals 6", []),
    ("boston-ledger deal", ["младшая", "2", "4", "9", "3", ""]),
    ("boston-ledger deal", ["пас", "д"]),
    ("boston-ledger deal", ["старшая", "1", "", "6", "", ""]),
    ("boston-ledger deal", ["мизер", "3", "1", "", ""]),  # the boston (nobody), then record it
    ("boston-ledger deal", ["шлем", "соло", "Глеб", "старшая", "9", "4", "да"]),
    ("boston-ledger deal", ["младшая", "1", "1", "3", "13", "2", ""]),
    ("boston-ledger status", []),
    ("boston-ledger history", []),
    ("boston-ledger settle", ["д"]),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def screen() -> str:
    return tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", TMUX)


def settle(timeout: float = 20.0) -> str:
    """The screen once it has stopped changing (the program waits for an answer, or is done)."""
    last, since, start = None, time.monotonic(), time.monotonic()
    while time.monotonic() - start < timeout:
        now = screen()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since > 1.5:
            return now
        time.sleep(0.1)
    return last or ""


def typed(text: str) -> None:
    if text:
        tmux("send-keys", "-t", TMUX, "-l", text)
    tmux("send-keys", "-t", TMUX, "Enter")
    settle()


def capture(script: list[tuple[str, list[str]]], lang: str, ledger: Path) -> str:
    env = f"export PS1='$ ' BOSTON_LEDGER_DB={ledger} LANG={lang} LANGUAGE= LC_ALL= PATH={os.environ['PATH']}"
    tmux("new-session", "-d", "-s", TMUX, "-x", str(WIDTH), "-y", "50", "bash --norc --noprofile")
    try:
        typed(env)
        blocks = []
        for command, answers in script:
            typed("clear")
            tmux("clear-history", "-t", TMUX)
            typed(command)
            for answer in answers:
                typed(answer)
            lines = [line.rstrip() for line in screen().splitlines()]
            while lines and not lines[-1]:
                lines.pop()
            blocks.append("\n".join(lines) + "\n")
        return "----\n".join(blocks) + "----\n"
    finally:
        tmux("kill-session", "-t", TMUX)


def main() -> int:
    if shutil.which("tmux") is None or shutil.which("boston-ledger") is None:
        print("needs tmux and boston-ledger on PATH", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for name, script, lang in (("guided.en.txt", GUIDED_EN, "C.UTF-8"), ("guided.ru.txt", GUIDED_RU, "ru_RU.UTF-8"),
                                   ("evening.ru.txt", EVENING_RU, "ru_RU.UTF-8")):
            ledger = Path(tmp) / f"{name}.db"
            (DOCS / name).write_text(capture(script, lang, ledger), encoding="utf-8")
            print(f"wrote docs/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
