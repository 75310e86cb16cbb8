"""boston-ledger: score-keeping and settlement for the card game Boston played at a real table."""

__version__ = "0.2.0"
