"""The link's secret: making it, keeping it in a file, checking it in constant time, and holding
back a client that guesses."""

from __future__ import annotations

import hmac
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..app.files import ordinary
from ..core.errors import LedgerError
from ..core.i18n import _, strerror

TOKEN_BYTES = 18  # 24 URL-safe characters
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def kept_token(path: Path) -> str:
    """The token kept in `path`; a new one written there (readable by its owner only) when the
    file does not exist yet. Only an ordinary file is read or written: a pipe or a device there
    (a link to /dev/stdout) is refused at once, as the files the commands write are."""
    ordinary(path)
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        token = new_token()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token + "\n")
        except OSError as e:
            raise LedgerError(_("cannot write the token file {path}: {error}", path=path, error=strerror(e))) from None
        return token
    except (OSError, UnicodeDecodeError) as e:
        error = strerror(e) if isinstance(e, OSError) else str(e)
        raise LedgerError(_("cannot read the token file {path}: {error}", path=path, error=error)) from None
    if not TOKEN_SHAPE.fullmatch(text):
        raise LedgerError(_("the token file {path} does not hold a token (16 to 128 letters, digits, - or _); "
                            "delete it and a new one is written", path=path))
    return text


def same(given: str, token: str) -> bool:
    """Whether a token given by a client is the token, in time that does not depend on where
    they differ."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("utf-8"))


class Limiter:
    """A few wrong tokens per client: each client has `burst` tries, given back at `per_second`.
    A client out of tries is refused before its token is even looked at."""

    def __init__(self, burst: int = 3, per_second: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 clients: int = 4096) -> None:
        self.burst, self.rate, self.clock, self.clients = burst, per_second, clock, clients
        self._tries: dict[str, tuple[float, float]] = {}  # client -> (tries left, when counted)
        self._lock = threading.Lock()

    def _left(self, client: str, now: float) -> float:
        left, then = self._tries.get(client, (self.burst, now))
        return min(self.burst, left + (now - then) * self.rate)

    def allowed(self, client: str) -> bool:
        """Whether this client may try a token now."""
        with self._lock:
            return self._left(client, self.clock()) >= 1

    def wrong(self, client: str) -> None:
        """A wrong token from this client: one try fewer."""
        with self._lock:
            now = self.clock()
            # a new client when it is full: forget the clients that have all their tries back
            if client not in self._tries and len(self._tries) >= self.clients:
                self._tries = {c: t for c, t in self._tries.items() if self._left(c, now) < self.burst}
                if len(self._tries) >= self.clients:
                    self._tries.clear()
            self._tries[client] = (max(0.0, self._left(client, now) - 1), now)

    def wait(self, client: str) -> int:
        """Whole seconds until this client has a try again."""
        with self._lock:
            missing = 1 - self._left(client, self.clock())
        return max(1, int(missing / self.rate + 0.999))
