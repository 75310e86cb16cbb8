"""The command line: typer declarations, the quick parser, the commands that show results, the error guard."""
