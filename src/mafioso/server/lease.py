"""Table leases in PostgreSQL: a process serves a table only while it holds the table's lease.

A lease is a session-level advisory lock (``pg_try_advisory_lock``) on a number drawn from the
table's id, held on a connection of its own. PostgreSQL releases it the moment that connection
ends, so a process that dies (even by SIGKILL) gives up every table at once, and another process
can take them and rebuild them by replaying the store: no expiry to wait for, no clock to trust.
If the lease connection itself is lost, every lease is lost with it: :meth:`Leases.alive` tells
the cluster to drop its tables (another process may already hold them).

Fencing. A process learns that its lease connection was cut only when it next uses it, and
meanwhile another process may have taken its tables. So the lock alone cannot keep the old
owner from storing a decision. Each table also has an *epoch* in ``mafioso_leases``, moved on by
every process that takes its lease, before it reads the table to replay it; each write of the
table checks the epoch its process took it with, in the write's own transaction, locking the
row until the commit (``store.LEASE_FENCE``). A write of the old owner either commits before
the new owner moves the epoch on (whose read then sees it) or is refused (``LeaseLost``): it
never stores a decision the new owner does not know of.
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

    def __init__(self, url: str, fences: dict[str, int] | None = None) -> None:
        self.url = url
        self.held: set[str] = set()
        self.fences: dict[str, int] = fences if fences is not None else {}
        """Table id -> the epoch this process took its lease with (shared with the store's writers,
        which check it in every write of the table)."""
        self.lock = threading.Lock()
        """The connection is used from the loop and from start-up; one statement at a time."""
        self.connection: Any = self._connect()
        self.generation = 0
        """Counts the lease connections opened since the first: a lock dropped on one connection
        is never unlocked on the next (where the same number may be a lease taken again)."""
        self._create()

    def _create(self) -> None:
        """The epochs' table, made once (under the schema's lock: processes may start together)."""
        from mafioso.server.store import SCHEMA_LOCK

        with self.lock, self.connection.transaction():
            self.connection.execute("select pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            self.connection.execute("create table if not exists mafioso_leases "
                                    "(table_id text primary key, epoch bigint not null)")

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
                if row is None or not row[0]:
                    return False
                epoch = self._next_epoch(table_id)
        except Exception as error:
            log.warning("could not ask for the lease of table %s: %s", table_id, error)
            return False
        self.fences[table_id] = epoch
        self.held.add(table_id)
        return True

    def _next_epoch(self, table_id: str) -> int:
        """Move the table's epoch on (committed before the table is read): from now on, writes
        of any process that took the lease before are refused. Gives the lock back on failure."""
        try:
            row = self.connection.execute(
                "insert into mafioso_leases (table_id, epoch) values (%s, 1) on conflict (table_id) "
                "do update set epoch = mafioso_leases.epoch + 1 returning epoch", (table_id,)).fetchone()
            return int(row[0])
        except Exception:
            with contextlib.suppress(Exception):
                self.connection.execute("select pg_advisory_unlock(%s)", (lease_key(table_id),))
            raise

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
        if self.drop(table_id):
            self.unlock([table_id], self.generation)

    def drop(self, table_id: str) -> bool:
        """Stop counting a table's lease as held (``False``: it was not), its lock still taken.

        Called on the event loop the moment the table leaves memory, before its lock is given
        back on a thread (:meth:`unlock`): a hello that takes the table again meanwhile asks
        PostgreSQL for the lock (a session's advisory locks count up and down), rather than find
        it still held here and keep it after the unlock."""
        if table_id not in self.held:
            return False
        self.held.discard(table_id)
        self.fences.pop(table_id, None)
        return True

    def unlock(self, table_ids: list[str], generation: int) -> None:
        """Give these tables' locks back to PostgreSQL (after :meth:`drop`), one statement each,
        if they were dropped on the connection open now (``generation``): a new connection holds
        none of the old one's locks."""
        for table_id in table_ids:
            try:
                with self.lock:
                    if self.generation != generation:
                        return
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
            self.held.clear()  # the fences stay: this process's writes must keep being checked
            with contextlib.suppress(Exception):
                self.connection.close()
            try:
                self.connection = self._connect()
                self.generation += 1
            except Exception as error:
                log.warning("cannot reach PostgreSQL for the table leases: %s", error)
            return False

    def close(self) -> None:
        """End the connection: every lease is released."""
        self.held.clear()
        with contextlib.suppress(Exception):
            self.connection.close()
