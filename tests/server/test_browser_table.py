"""The table's screens measured in Chromium: phase names, the roles sheet on the TV, the setup
form's role steppers, the dropped phone's message, the bot label on the phones.

Tables are prepared in a SQLite file through the hub (dealt, played, moved by Play again), then
a real server loads them and Playwright opens the host screen at 1920x1080 and phones at 360x740.
Screenshots go to ``artifacts/screenshots/table/``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mafioso.engine import find_edition
from mafioso.server.hub import Hub
from mafioso.server.store import open_store
from tests.server.browser import ARGS, CHROMIUM, PHONE, TV, Server, shoot
from tests.server.conftest import FakeClock

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]
EDITIONS = ["sport", "vendetta", "vampires", "spytown", "blitz"]
FOLDER = "table"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def new_hub(db: Path) -> Hub:
    """A hub over ``db`` whose tables a server started later loads (a clock of today: a table
    finished "in 1970" would be swept away as expired)."""
    clock = FakeClock()
    clock.now = time.time()
    seeds = iter(range(1, 1_000_000))
    return Hub(open_store(str(db)), clock, seeds=lambda: next(seeds), min_step_seconds=0)


def served(db: Path) -> Server:
    server = Server(db)
    server.start()
    return server


def open_host(browser: Any, server: Server, host_pass: str, locale: str = "en-US") -> Any:
    context = browser.new_context(viewport=TV, locale=locale)
    context.add_init_script(f"localStorage.setItem('mafioso.speak', 'off'); localStorage.setItem('mafioso.host', '{host_pass}')")
    page = context.new_page()
    page.goto(server.url + "/host")
    return page


def open_phone(browser: Any, server: Server, seat_pass: str, code: str, locale: str = "en-US") -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
    context.add_init_script(f"localStorage.setItem('mafioso.seat', '{seat_pass}'); localStorage.setItem('mafioso.seat.code', '{code}')")
    page = context.new_page()
    page.goto(f"{server.url}/p?code={code}")
    return page


def test_phase_names_start_with_a_capital(browser: Any, tmp_path: Path) -> None:
    """"Ночь 0", "Noc 0", "Night 0" on the TV of every edition and on a phone, in ru, pl and en
    (the pages capitalise what they show: messages and stored events keep the engine's words)."""
    hub = new_hub(tmp_path / "tables.sqlite3")
    made = []
    for lang in ("ru", "pl", "en"):
        for edition in EDITIONS:
            players = find_edition(edition).min_players
            table = hub.create({"edition": edition, "players": players, "step_seconds": 0, "lang": lang})
            for number in range(players):
                table.join(f"Gracz {number + 1}")
            table.deal([m.joined for m in table.record.members])
            made.append((lang, edition, table.code, table.record.host_token, table.record.members[0].token))
    server = served(tmp_path / "tables.sqlite3")
    wrong = {}
    try:
        for lang, edition, code, host_pass, seat_pass in made:
            host = open_host(browser, server, host_pass)
            host.wait_for_function("() => document.querySelector('#phase').textContent")
            shown = {"tv": host.inner_text("#phase")}
            if edition == "sport":
                phone = open_phone(browser, server, seat_pass, code)
                phone.wait_for_function("() => document.querySelector('#phase').textContent")
                shown["phone"] = phone.inner_text("#phase")
                shoot(phone, FOLDER, f"phase-phone-{lang}")
                phone.context.close()
            if edition == "sport":
                shoot(host, FOLDER, f"phase-tv-{lang}")
            host.context.close()
            for screen, text in shown.items():  # the step too: "Ночь 1 · Детектив", "День 0 · Охотники"
                if not all(part.strip()[:1].isupper() for part in text.split("·")):
                    wrong[f"{lang} {edition} {screen}"] = text
    finally:
        server.kill()
    assert not wrong, wrong
