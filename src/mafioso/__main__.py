"""``python -m mafioso``: the same command line as ``mafioso`` (for a venv whose scripts folder
is not on the PATH)."""

from mafioso.cli.main import app

app(prog_name="mafioso")
