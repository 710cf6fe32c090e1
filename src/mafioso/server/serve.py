"""Starting the server: open the database, build the app, print the addresses, run uvicorn."""

from __future__ import annotations

import socket
from pathlib import Path

from mafioso.server.catalogs import ensure_catalogs


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or ``None``."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: only picks the outgoing interface
        address: str = probe.getsockname()[0]
        return None if address.startswith("127.") else address
    except OSError:
        return None
    finally:
        probe.close()


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """The address for the shared screen and the one phones on the LAN can reach (if any)."""
    local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    screen = f"http://{local}:{port}"
    if host in ("0.0.0.0", "::", ""):
        lan = lan_address()
        return screen, f"http://{lan}:{port}" if lan else None
    if host.startswith("127.") or host == "localhost":
        return screen, None
    return screen, f"http://{host}:{port}"


def serve(host: str, port: int, db: str | None, lang: str = "en") -> None:
    """Run the web app until interrupted (blocking). ``db``: a SQLite path or a PostgreSQL URL.

    ``lang`` is the default language of new tables' forms. Prints where to open the shared
    screen and the address phones can reach.
    """
    import uvicorn

    from mafioso.server.app import create_app
    from mafioso.server.store import default_db_path, open_store
    from mafioso.server.ws import MAX_MESSAGE

    ensure_catalogs()
    path = db or str(default_db_path())
    store = open_store(path)
    screen, lan = addresses(host, port)
    app = create_app(store, join_base=lan or screen)
    app.state.default_lang = lang
    shown = path if "://" not in path else path.split("@")[-1]
    print(f"mafioso is serving tables (stored in {Path(shown) if '://' not in path else shown})")
    print(f"  shared screen: {screen}/host")
    if lan:
        print(f"  phones join at: {lan}/p   (same Wi-Fi network)")
    else:
        print("  phones cannot reach this address: start with --host 0.0.0.0 to play with phones on your network")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_per_message_deflate=False,
                    ws_max_size=MAX_MESSAGE * 4)  # bigger messages are cut off before they are read
    finally:
        store.close()
