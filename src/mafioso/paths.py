"""Where mafioso keeps its files on this machine.

One place for the default database, because the web app (``mafioso serve``) and the judge's desk
(``mafioso tournament``) share it, and the desk sits below the server in the layers.
"""

from __future__ import annotations

from pathlib import Path


def default_db_path() -> Path:
    """The SQLite file used when ``--db`` is not given: in the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("mafioso", appauthor=False)) / "tables.sqlite3"
