"""Playing a sweep's chunks on a Dask cluster (``mafioso balance --cluster ADDRESS``).

Why Dask rather than Ray: Dask's ``distributed`` is a pure-Python wheel that installs with pip
on any machine where mafioso does, its scheduler and workers are plain processes
(``dask scheduler``, ``dask worker ADDRESS``) that a test can start and kill, and it needs no
object store, no dashboard and no native runtime. A chunk is a small pure function call on plain
data, which is all Dask's futures have to carry. When a worker dies, the scheduler gives its
chunks to another worker; since a chunk is a pure function of its seeds, playing it again gives
the same counts, and the sweep counts each chunk once whoever returns it (see
:mod:`mafioso.analysis.sweep`).

``distributed`` is imported only here, and only when a cluster is asked for.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from mafioso.analysis.cells import play_chunk

CONNECT_SECONDS = 5.0
"""How long to wait for a cluster's scheduler before giving up with a clear error."""


class ClusterError(RuntimeError):
    """The cluster cannot be used: not installed, unreachable, or without workers."""


class DaskCluster:
    """Chunks played by the workers of a Dask scheduler at ``address`` (``tcp://host:8786``)."""

    def __init__(self, address: str, timeout: float = CONNECT_SECONDS) -> None:
        try:
            self.dask: Any = importlib.import_module("distributed")
        except ImportError:  # pragma: no cover - depends on the installation
            raise ClusterError("--cluster needs Dask: pip install 'mafioso[balance]'") from None
        _check_address(address)
        try:
            self.client: Any = self.dask.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"cannot reach a Dask scheduler at {address} ({_reason(error)})") from None
        except ValueError as error:
            raise ClusterError(f"{address!r} is not a cluster address ({error})") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            self.client.close()
            raise ClusterError(f"the Dask scheduler at {address} has no workers") from None
        self._slots = (0.0, 2)

    @property
    def slots(self) -> int:
        """Two chunks per worker thread, workers joining or leaving included (asked once a second)."""
        asked, slots = self._slots
        now = time.monotonic()
        if now - asked > 1.0:
            slots = max(2, 2 * sum(self.client.nthreads().values()))
            self._slots = (now, slots)
        return slots

    def submit(self, cell_key: str, first_seed: int, count: int) -> Any:
        return self.client.submit(play_chunk, cell_key, first_seed, count, pure=False)

    def finished(self, handles: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
        with self.client.as_current():
            done, _ = self.dask.wait(handles, return_when="FIRST_COMPLETED")
        return [(future, future.result()) for future in done]

    def close(self) -> None:
        self.client.close()


def _check_address(address: str) -> None:
    """Refuse a malformed address before a client is made: Dask finds it only inside the client's
    start, and the half-made client then prints a traceback when it is collected 10 s later."""
    from distributed.comm import registry
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme not in registry.backends:
            raise ValueError(f"unknown protocol {scheme!r}")
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError("give a host and a port from 1 to 65535")
    except (ValueError, TypeError) as error:
        raise ClusterError(f"{address!r} is not a cluster address ({_reason(error)}); "
                           "give one such as tcp://host:8786") from None


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:160]
