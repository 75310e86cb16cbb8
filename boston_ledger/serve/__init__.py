"""The evening on the players' phones: `boston-ledger serve`, a small read-only web server of
the served session's sheet, beside the command line (it reads through the app layer and
`ui.data`, as the commands do). Needs the `serve` extra: pip install 'boston-ledger[serve]'."""

EXTRA = "segno"  # what the serve extra brings: the QR code


def missing_extra() -> bool:
    """Whether the serve extra is not installed."""
    from importlib.util import find_spec

    return find_spec(EXTRA) is None
