"""Every test gets its own ledger: BOSTON_LEDGER_DB and the app directory point into tmp_path."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
import typer.testing
from typer.testing import CliRunner

from boston_ledger.core import i18n
from boston_ledger.cli.declarations import app

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]

# typer's CliRunner builds the click command of an app at every invoke (some 20 ms, thousands of
# times a run): the suite builds ours once, as the program does once per process.
typer.testing._get_command = functools.cache(typer.testing._get_command)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "ledger.db"
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(db))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LANG", "C.UTF-8")  # English unless a test asks for Russian
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    i18n.set_language("en")  # a Russian command of an earlier test leaves no trace
    return db


class Cli:
    """Run boston-ledger commands in-process; stdout and stderr kept apart."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0):
        result = self.runner.invoke(app, list(args), catch_exceptions=False)
        assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def cli() -> Cli:
    return Cli()


@pytest.fixture
def table(cli: Cli) -> Cli:
    """A fresh classic session of Anna, Boris, Vera, Gleb."""
    cli("new", *PLAYERS, "--chip-value", "0.10")
    return cli
