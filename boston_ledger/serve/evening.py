"""The served session, read-only: one watcher notices each change of the ledger and wakes the
followers; what they are sent is made once per change and language, each language's views
made at the same time as another's."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from ..app import sessions as sessions_app
from ..app.deals import current
from ..core.i18n import in_language
from ..store.db import data_version, open_read_only
from ..ui import data
from ..ui.text import json_text
from . import page

API_LAST = 40  # /api/history's deals, as `history --json` shows by default
PAGE_LAST = 8  # the deals the page shows


@dataclass(frozen=True)
class View:
    """What a follower of the session is sent at one version of the ledger, in one language."""

    version: int
    deals: int
    status: bytes  # /api/status: `status --json`
    history: bytes  # /api/history: `history --json`
    sheet: str  # the page's sheet, the part that an update swaps
    title: str


class Evening:
    """The served session as the table sees it; the ledger opened read-only."""

    def __init__(self, path: Path, session_id: int | None = None) -> None:
        self.path = path
        self._conn = open_read_only(path)
        self._watching = open_read_only(path)
        self.session_id = current(self._conn, session_id).id
        self.version = 0
        self._changed = threading.Condition()
        self._reading = threading.Lock()  # one connection for the views: one reader at a time
        self._views: dict[str, View] = {}
        self._making: dict[str, threading.Lock] = {}  # by language: its view made once per version
        self.stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    # ---- noticing changes ----------------------------------------------------------------

    def watch(self, every: float = 0.1) -> None:
        """Look for a change of the ledger `every` seconds, in a thread of its own, until stop()."""
        def run() -> None:
            seen = data_version(self._watching)
            while not self.stopping.wait(every):
                try:
                    now = data_version(self._watching)
                except sqlite3.Error:  # busy for a moment: look again next time
                    continue
                if now != seen:
                    seen = now
                    self.changed()

        self._watcher = threading.Thread(target=run, name="ledger-watcher", daemon=True)
        self._watcher.start()

    def changed(self) -> None:
        """The ledger changed: a new version, and every follower woken."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it is other than `seen`, or after `timeout` seconds, or at stop()."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen or self.stopping.is_set(), timeout)
            return self.version

    def stop(self) -> None:
        self.stopping.set()
        with self._changed:
            self._changed.notify_all()
        if self._watcher is not None:
            self._watcher.join()
        self._watching.close()
        with self._reading:  # not while a view is being read
            self._conn.close()

    # ---- what followers see --------------------------------------------------------------

    def view(self, lang: str) -> View:
        """The view in this language at the current version, made once per version: the followers
        that one change wakes wait for the first of them to make it (those of another language
        make theirs meanwhile)."""
        version = self.version
        found = self._views.get(lang)
        if found is not None and found.version == version:
            return found
        with self._making.setdefault(lang, threading.Lock()):
            found = self._views.get(lang)
            if found is not None and found.version == version:
                return found
            with self._reading:
                sheet = sessions_app.sheet(self._conn, self.session_id, API_LAST)
            with in_language(lang):
                status, history = data.status(sheet.status), data.history(sheet.history)
                shown = page.Shown(sheet, status, history[-PAGE_LAST:])
                found = View(version, sheet.status.state.deals, json_text(status).encode(),
                             json_text(history).encode(), page.sheet(shown), page.title(shown))
            self._views[lang] = found
            return found

    def history(self, lang: str, last: int | None) -> bytes:
        """/api/history with other than the default deals: `history --json --last N` (or `--all`)."""
        if last == API_LAST:
            return self.view(lang).history
        with self._reading:
            found = sessions_app.sheet(self._conn, self.session_id, last).history
        with in_language(lang):
            return json_text(data.history(found)).encode()
