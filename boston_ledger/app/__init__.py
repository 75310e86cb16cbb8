"""What each command does: plain values in, typed results out, no printing."""
