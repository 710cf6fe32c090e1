"""Table leases in PostgreSQL: a process serves a table only while it holds the table's lease.

A lease is a session-level advisory lock (``pg_try_advisory_lock``) on a number drawn from the
table's id, held on a connection of its own. PostgreSQL releases it the moment that connection
ends, so a process that dies (even by SIGKILL) gives up every table at once, and another process
can take them and rebuild them by replaying the store: no expiry to wait for, no clock to trust.
If the lease connection itself is lost, every lease is lost with it: :meth:`Leases.alive` tells
the cluster to drop its tables (another process may already hold them).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from typing import Any

log = logging.getLogger("mafioso.server")


def lease_key(table_id: str) -> int:
    """The advisory lock number of a table: 64 bits of its id's SHA-256, signed as PostgreSQL wants."""
    return int.from_bytes(hashlib.sha256(b"mafioso-table:" + table_id.encode()).digest()[:8], "big", signed=True)


class Leases:
    """The leases this process holds, on one autocommit connection of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.held: set[str] = set()
        self.lock = threading.Lock()
        """The connection is used from the loop and from start-up; one statement at a time."""
        self.connection: Any = self._connect()

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.url, autocommit=True, connect_timeout=5, application_name="mafioso leases")

    def take(self, table_id: str) -> bool:
        """Take the table's lease if no other process holds it (``True`` also if this one does)."""
        if table_id in self.held:
            return True
        try:
            with self.lock:
                row = self.connection.execute("select pg_try_advisory_lock(%s)", (lease_key(table_id),)).fetchone()
        except Exception as error:
            log.warning("could not ask for the lease of table %s: %s", table_id, error)
            return False
        if row is not None and row[0]:
            self.held.add(table_id)
            return True
        return False

    def free(self, table_ids: list[str]) -> list[str]:
        """Which of these tables no process holds (one look at PostgreSQL's lock list)."""
        if not table_ids:
            return []
        try:
            with self.lock:
                rows = self.connection.execute(
                    "select classid::bigint, objid::bigint from pg_locks where locktype = 'advisory' "
                    "and objsubid = 1 and granted").fetchall()
        except Exception as error:
            log.warning("could not read the table leases: %s", error)
            return []
        held = {(int(c) << 32) | int(o) for c, o in rows}
        return [t for t in table_ids if lease_key(t) & 0xFFFF_FFFF_FFFF_FFFF not in held]

    def release(self, table_id: str) -> None:
        """Give a table up (a finished table is no longer worth holding)."""
        if table_id not in self.held:
            return
        self.held.discard(table_id)
        try:
            with self.lock:
                self.connection.execute("select pg_advisory_unlock(%s)", (lease_key(table_id),))
        except Exception as error:
            log.warning("could not release the lease of table %s: %s", table_id, error)

    def alive(self) -> bool:
        """Whether the leases still stand: their connection answers. When it does not, every lease
        is gone (PostgreSQL released them) and a new connection starts with none."""
        try:
            with self.lock:
                self.connection.execute("select 1")
            return True
        except Exception:
            self.held.clear()
            with contextlib.suppress(Exception):
                self.connection.close()
            try:
                self.connection = self._connect()
            except Exception as error:
                log.warning("cannot reach PostgreSQL for the table leases: %s", error)
            return False

    def close(self) -> None:
        """End the connection: every lease is released."""
        self.held.clear()
        with contextlib.suppress(Exception):
            self.connection.close()
