"""What the server answers, path by path: a request in, a response out, no sockets here.

Every path is matched exactly against the table of routes (nothing from a URL ever names a
file, so `/static/../x` or `/..%2f..` is simply not found). The evening's paths need the token,
as `?t=` or `Authorization: Bearer`; the style sheet, the script and the icon hold nothing of
the evening and are served to anyone. With `serve --entry`, the entry routes (`serve/entry.py`)
join the table behind a second token: they alone take POST, a small form from the served
origin only, and their pages may send forms back to it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Protocol
from urllib.parse import parse_qs

from ..core.i18n import LANGUAGES, SOURCE, N_, _, in_language
from . import page
from .evening import API_LAST, Evening
from .tokens import Limiter, same

# Sent with every response, refusals included.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
CSP = "Content-Security-Policy"
ENTRY_CSP = SECURITY_HEADERS[CSP].replace("form-action 'none'", "form-action 'self'")  # the entry pages' forms
MAX_FORM = 4096  # bytes of an entry form: the answers of a deal are a few hundred
FORM = "application/x-www-form-urlencoded"

HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
STATIC = {  # path -> (file in the package's static folder, content type)
    "/static/serve.css": ("serve.css", "text/css; charset=utf-8"),
    "/static/serve.js": ("serve.js", "text/javascript; charset=utf-8"),
    "/static/entry.js": ("entry.js", "text/javascript; charset=utf-8"),
    "/static/icon.svg": ("icon.svg", "image/svg+xml"),
}
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream (so that proxies keep it open)
LOOK = 1.0  # seconds between looks at whether an event stream's client is still there


class Headers(Protocol):
    """A request's headers as the routes read them: a header's value by its name, None when it
    was not sent (http.server's message, whatever the name's case; a dict in tests)."""

    def get(self, name: str, /) -> str | None: ...


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # without the query, as sent (not decoded)
    query: Mapping[str, list[str]]
    headers: Headers
    client: str  # the client's address, for the limit on wrong tokens
    form: Mapping[str, list[str]] = field(default_factory=dict)  # a POST's form (entry routes only)


# An event stream: called with a writer once the headers are sent, and with a test of whether
# the client has gone (the stream then ends, and its thread with it).
Stream = Callable[[Callable[[bytes], None], Callable[[], bool]], None]
LINES = re.compile(r"\r\n|\r|\n")  # what ends a line of an event stream: each of these


@dataclass
class Response:
    status: int
    body: bytes = b""
    type: str = TEXT
    headers: dict[str, str] = field(default_factory=dict)
    stream: Stream | None = None  # an event stream


def query_of(raw: str, fields: int = 20) -> dict[str, list[str]]:
    """An address's query (or a form) by name; nothing when it has more than `fields` fields."""
    try:
        return parse_qs(raw, keep_blank_values=True, max_num_fields=fields)
    except ValueError:  # too many fields
        return {}


def chosen_language(query: Mapping[str, list[str]], accept: str | None, default: str) -> str:
    """?lang= when it names a language we speak, else the first of the browser's Accept-Language
    that we speak (by its q-values), else `default`."""
    asked = (query.get("lang") or [""])[0].lower()
    if asked in LANGUAGES:
        return asked
    ranked = []
    for i, part in enumerate((accept or "")[:500].split(",")):
        tag, __, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([^;\s]*)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:  # a weight we cannot read: that language is not asked for
                q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else default


Handler = Callable[["Request", str], "Response"]


class Entering(Protocol):
    """The entry routes (`serve/entry.py`): their token, and per path its methods and handler."""

    token: str

    def routes(self) -> dict[str, tuple[tuple[str, ...], Handler]]: ...


class App:
    """The routes of one served evening."""

    def __init__(self, evening: Evening, token: str, default_lang: str = SOURCE, limiter: Limiter | None = None,
                 entry: Entering | None = None) -> None:
        self.evening, self.token, self.default_lang = evening, token, default_lang
        self.limiter = limiter or Limiter()
        self.entry = entry
        self.entering = entry.routes() if entry is not None else {}
        self.origins: set[str] = set()  # where the entry forms may come from: this server's own address
        self.hosts: set[str] = set()  # the names a request's Host may give (lower case, IPv6 in brackets)
        self.port = 0  # the port it may give with them
        folder = resources.files("boston_ledger.serve") / "static"
        self.static = {path: ((folder / name).read_bytes(), kind) for path, (name, kind) in STATIC.items()}
        self.routes: dict[str, Callable[[Request, str], Response]] = {
            "/": self.page, "/api/status": self.status, "/api/history": self.history, "/events": self.events,
        }

    def misdirected(self, req: Request, host: str | None) -> Response | None:
        """None when the request's Host (its one Host header, None when it has none or several) names
        this server: the address it printed or this machine's own names, with this server's port
        or none. Else 400 (no Host) or 421: a page of another site that a name server pointed at this
        address (DNS rebinding) gets nothing, not even whether a path exists."""
        if host is None or not host.strip():
            return self.refused(req, 400, N_("This request does not say which host it is for."))
        name, port = host.strip().lower(), ""
        if name.startswith("["):
            end = name.find("]")
            name, rest = (name[:end + 1], name[end + 1:]) if end > 0 else (name, "")
            if rest:
                port = rest[1:] if rest.startswith(":") else "?"
        elif ":" in name:
            name, __, port = name.rpartition(":")
        if name in self.hosts and (port == "" or port == str(self.port)):
            return None
        return self.refused(req, 421, N_("This server answers only at the address that `boston-ledger serve` "
                                         "showed."))

    def takes_form(self, method: str, path: str) -> bool:
        """Whether a request may carry a body: a POST to an entry route (with `--entry` only)."""
        return method == "POST" and "POST" in self.entering.get(path, ((),))[0]

    def __call__(self, req: Request) -> Response:
        """The response to a request: GET and HEAD, and POST on the entry routes (with `--entry`)."""
        if req.path in self.entering:
            return self.entered(req)
        known = req.path in self.routes or req.path in self.static
        if not known:
            return self.refused(req, 404, N_("Not found."))
        if req.method not in ("GET", "HEAD"):
            response = self.refused(req, 405, N_("Only GET and HEAD are answered here."))
            response.headers["Allow"] = "GET, HEAD"
            return response
        if req.path in self.static:
            body, kind = self.static[req.path]
            return Response(200, body, kind, {"Cache-Control": "no-cache"})
        refusal = self.authorise(req)
        if refusal is not None:
            return refusal
        response = self.answered(req, self.routes[req.path])
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def language(self, req: Request) -> str:
        return chosen_language(req.query, req.headers.get("Accept-Language"), self.default_lang)

    def answered(self, req: Request, handler: Handler) -> Response:
        """The handler's answer, made in the request's language (in this request's thread only:
        no other request waits for it)."""
        lang = self.language(req)
        with in_language(lang):
            return handler(req, lang)

    def refused(self, req: Request, status: int, text: str) -> Response:
        """A refusal, one line and nothing of the evening (in HTML for a browser's page); `text`
        is the English, said in the client's language."""
        with in_language(self.language(req)):
            if (req.path == "/" or req.path in self.entering) and status in (401, 403, 429):
                return Response(status, page.refusal(_(text)).encode(), HTML)
            return Response(status, (_(text) + "\n").encode(), TEXT)

    def failed(self, req: Request, error: Exception) -> Response:
        """A request that failed as it was answered (a full disk as a deal was recorded, a ledger
        damaged since the server started): 500, saying what the command line says of it."""
        from ..app.opening import failure

        with in_language(self.language(req)):
            said = failure(error, self.evening.path)
            if req.path == "/" or req.path in self.entering:
                return Response(500, page.refusal(said).encode(), HTML, {"Cache-Control": "no-store"})
            return Response(500, (said + "\n").encode(), TEXT, {"Cache-Control": "no-store"})

    def entered(self, req: Request) -> Response:
        """An entry route: its methods only, the entry token (the view's is refused), a POST from
        this server's own page only; its pages may send their forms back here."""
        assert self.entry is not None
        methods, handler = self.entering[req.path]
        if req.method not in methods:
            response = self.refused(req, 405, N_("That method is not answered at this address."))
            response.headers["Allow"] = ", ".join(methods)
        else:
            response = self.authorise(req, self.entry.token) or self.same_origin(req) or self.answered(req, handler)
        response.headers[CSP] = ENTRY_CSP
        response.headers["Referrer-Policy"] = "same-origin"  # else a browser's form says `Origin: null`
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def same_origin(self, req: Request) -> Response | None:
        """None unless a POST comes from elsewhere than this server's own pages: then 403. Its
        `Origin` must be this server's (a browser sends it with a form), or `null` with a
        `Sec-Fetch-Site: same-origin` (how a browser says it where the referrer policy hides the
        origin); a `Sec-Fetch-Site` other than same-origin is refused whatever the origin."""
        if req.method != "POST":
            return None
        origin = req.headers.get("Origin")
        site = req.headers.get("Sec-Fetch-Site")
        if (site in (None, "same-origin") and origin in self.origins) or (origin == "null" and site == "same-origin"):
            return None
        return self.refused(req, 403, N_("Deals are entered only from this server's own entry page; open the "
                                         "entry link that `boston-ledger serve --entry` shows."))

    def authorise(self, req: Request, token: str | None = None) -> Response | None:
        """None when the request carries the token (the view's, unless another is given); else
        401 (none given), 429 (too many wrong ones from this client lately) or 403 (a wrong one)."""
        tokens = req.query.get("t")  # in the address: a form's is its action's
        given = tokens[0] if tokens else None
        if given is None:
            scheme, __, value = (req.headers.get("Authorization") or "").partition(" ")
            if scheme.lower() == "bearer" and value.strip():
                given = value.strip()
        if given is None:
            response = self.refused(req, 401, N_("This page needs the link's token: open the link that "
                                                "`boston-ledger serve` shows, or scan its code."))
            response.headers["WWW-Authenticate"] = 'Bearer realm="boston-ledger"'
            return response
        if not self.limiter.allowed(req.client):
            response = self.refused(req, 429, N_("Too many wrong tokens from here; wait a moment and open the "
                                                 "link again."))
            response.headers["Retry-After"] = str(self.limiter.wait(req.client))
            return response
        if not same(given, self.token if token is None else token):
            self.limiter.wrong(req.client)
            return self.refused(req, 403, N_("This link's token is wrong; open the link that `boston-ledger serve` "
                                             "shows."))
        return None

    # ---- the routes ------------------------------------------------------------------------

    def page(self, req: Request, lang: str) -> Response:
        view = self.evening.view(lang)
        return Response(200, page.document(view.title, view.sheet, self.token, lang, view.version).encode(), HTML)

    def status(self, req: Request, lang: str) -> Response:
        return Response(200, self.evening.view(lang).status, JSON)

    def history(self, req: Request, lang: str) -> Response:
        """`history --json`: the last 40 deals, `?last=N` the last N, `?all=1` every deal."""
        last: int | None = API_LAST
        if (req.query.get("all") or ["0"])[0] not in ("", "0"):
            last = None
        elif "last" in req.query:
            text = req.query["last"][0]
            if not (text.isdigit() and 1 <= int(text) <= 10**9):
                return self.refused(req, 400, N_("?last= takes a whole number of deals, 1 or more."))
            last = int(text)
        return Response(200, self.evening.history(lang, last), JSON)

    def events(self, req: Request, lang: str) -> Response:
        """Server-Sent Events: the sheet now, then again after every change of the ledger."""
        evening = self.evening

        def follow(write: Callable[[bytes], None], gone: Callable[[], bool]) -> None:
            write(b"retry: 1000\n\n")
            seen, sent, said = -1, None, time.monotonic()
            while not evening.stopping.is_set():
                version = evening.version if seen < 0 else evening.wait(seen, LOOK)
                if evening.stopping.is_set() or gone():
                    return
                if version == seen:
                    if time.monotonic() - said >= KEEP_ALIVE:
                        write(b": still here\n\n")
                        said = time.monotonic()
                    continue
                seen = version
                view = evening.view(lang)
                if view.sheet == sent:  # the ledger moved but the sheet did not (a checkpoint, say)
                    continue
                sent = view.sheet
                # every line break as its own data line: a CR left in the sheet would end a line too
                lines = "".join(f"data: {line}\n" for line in LINES.split(view.sheet))
                write(f"id: {view.version}\n{lines}\n".encode())
                said = time.monotonic()

        return Response(200, type="text/event-stream; charset=utf-8", stream=follow,
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
