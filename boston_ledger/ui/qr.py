"""The links of `serve` as QR codes to scan from the screen."""

from __future__ import annotations

import io
import sys


def codes(links: list[tuple[str, str]], utf8: bool | None = None) -> str:
    """The links' QR codes, each under its label: side by side on a UTF-8 terminal (half blocks,
    so that two fit on one screen of 80 columns and 40 rows), else one above the other. `utf8`:
    whether the terminal is one (by default, what standard output's encoding says)."""
    import segno  # here: only `serve` needs it (the serve extra)

    if utf8 is None:
        utf8 = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").startswith("utf")
    drawn = []
    for label, url in links:
        out = io.StringIO()
        segno.make(url, error="m").terminal(out=out, compact=utf8, border=1)
        drawn.append([label, *out.getvalue().splitlines()])
    if not utf8 or len(drawn) == 1:
        return "".join(line + "\n" for lines in drawn for line in lines)
    width = max(len(line) for line in drawn[0])
    rows = max(map(len, drawn))
    return "".join(f"{a:<{width}}   {b}".rstrip() + "\n" for a, b in
                   zip(*(lines + [""] * (rows - len(lines)) for lines in drawn), strict=True))
