"""The table's screens measured in Chromium: phase names, the roles sheet on the TV, the setup
form's role steppers, the dropped phone's message, the bot label on the phones.

Tables are prepared in a SQLite file through the hub (dealt, played, moved by Play again), then
a real server loads them and Playwright opens the host screen at 1920x1080 and phones at 360x740.
Screenshots go to ``artifacts/screenshots/table/``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from mafioso.engine import find_edition
from mafioso.i18n import _
from mafioso.server.hub import Hub
from mafioso.server.store import open_store
from tests.server.browser import CHROMIUM, PHONE, TV, Server, shoot
from tests.server.conftest import FakeClock, play_out
from tests.server.test_browser import left_out_of_play_again

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]
EDITIONS = ["sport", "vendetta", "vampires", "spytown", "blitz"]
FOLDER = "table"


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


def finished_with_people_and_bots(db: Path, lang: str) -> tuple[str, str, list[str]]:
    """A finished table of ten seats (seven people, three bots) in ``lang``, stored in ``db``: its
    code, its host pass and the people's passes."""
    hub = new_hub(db)
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 0, "lang": lang})
    people = [table.join(f"Gracz {number + 1}").token for number in range(7)]
    for _bot in range(3):
        table.add_bot()
    table.deal([m.joined for m in table.record.members])
    assert isinstance(hub.clock, FakeClock)
    play_out(table, 5, hub.clock)
    return table.code, table.record.host_token, people


@pytest.mark.parametrize("into", ["en", "pl"])
def test_the_bot_label_on_phones_follows_a_language_change(browser: Any, tmp_path: Path, into: str) -> None:
    """Play again from a Russian table into English or Polish: the phones that follow to the new
    lobby name the bots with the new language's word, never the old one's."""
    code, host_pass, people = finished_with_people_and_bots(tmp_path / "tables.sqlite3", "ru")
    server = served(tmp_path / "tables.sqlite3")
    try:
        phones = [open_phone(browser, server, seat_pass, code, "ru-RU") for seat_pass in people[:2]]
        for phone in phones:
            phone.wait_for_selector("#outcome .verdict")
        host = open_host(browser, server, host_pass, "ru-RU")
        host.wait_for_selector(f"#again-lang option[value={into}]", state="attached")
        host.select_option("#again-lang", into)
        host.click("form.again button[type=submit]")
        host.wait_for_function(f"() => document.querySelector('#code').textContent && document.querySelector('#code').textContent !== '{code}'")
        word = {"en": "bot", "pl": _("bot", "pl")}[into]
        assert word != _("bot", "ru")
        for number, phone in enumerate(phones):
            phone.wait_for_selector("#lobby:not([hidden])")
            phone.wait_for_function(f"() => document.documentElement.lang === '{into}'")
            phone.wait_for_function("() => document.querySelectorAll('#people li').length === 10")
            phone.wait_for_timeout(300)  # the words of the new language are in: nothing is drawn again
            marks = [line.rsplit(" · ", 1)[1] for line in phone.eval_on_selector_all("#people li", "ns => ns.map(n => n.textContent)") if " · " in line]
            shoot(phone, FOLDER, f"bot-label-phone-{into}-{number}")
            assert len(marks) == 3 and set(marks) == {word}, marks
    finally:
        server.kill()


def test_the_dropped_phones_message_and_the_join_form_both_show(browser: Any, tmp_path: Path) -> None:
    """Play again with fewer seats: the phone whose seat was not kept shows why above the new
    table's join form, both whole at 360x740 (the message used to cover the form's top)."""
    old, new, stale = left_out_of_play_again(tmp_path / "tables.sqlite3")
    server = served(tmp_path / "tables.sqlite3")
    try:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="ru-RU")
        context.add_init_script(f"if (!sessionStorage.getItem('set')) {{ sessionStorage.setItem('set', '1'); "
                                f"localStorage.setItem('mafioso.seat', '{stale}'); localStorage.setItem('mafioso.seat.code', '{old}'); }}")
        phone = context.new_page()
        phone.goto(f"{server.url}/p?code={old}")
        phone.wait_for_selector("#banner.sticky")
        phone.wait_for_function(f"() => document.querySelector('#code').value === '{new}'")
        phone.wait_for_function("() => document.querySelector('#joinform').textContent.includes('Ваше имя')")
        boxes = phone.evaluate("""() => Object.fromEntries(['#banner', '#join h1', '#code', '#name', '#joinform button']
            .map(s => { const r = document.querySelector(s).getBoundingClientRect(); return [s, [r.top, r.bottom, r.left, r.right]]; }))""")
        shoot(phone, FOLDER, "dropped-phone-360x740")
        banner = boxes.pop("#banner")
        assert banner[1] > banner[0] and banner[0] >= 0, banner
        for name, (top, bottom, left, right) in boxes.items():
            assert top >= banner[1] - 0.5, f"{name} is under the message: {top} < {banner[1]}"
            assert bottom <= PHONE["height"] and left >= 0 and right <= PHONE["width"], (name, boxes[name])
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
    finally:
        server.kill()


SMALL_TARGETS = """() => [...document.querySelectorAll('#setup button, #setup input, #setup select')]
  .filter(control => control.offsetParent !== null)
  .map(control => {
    const box = control.getBoundingClientRect();
    // a checkbox's label taps it too: its target is the larger of the two
    const label = control.type === 'checkbox' && control.labels.length ? control.labels[0].getBoundingClientRect() : box;
    return [control.id || control.textContent.trim() || control.type, Math.max(box.height, label.height),
            control.type === 'text' || control.type === 'number' || control.tagName === 'SELECT' ? 44 : Math.max(box.width, label.width)];
  })
  .filter(([, high, wide]) => high < 43.5 || wide < 43.5)"""


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_control_of_the_setup_form_is_a_44_pixel_target(browser: Any, server: Server, edition: str) -> None:
    """Issue 11 §12: tap targets of at least 44x44 px, the setup form's checkboxes included (the
    audit found them at 28x28), with the custom cast's steppers open."""
    page = browser.new_context(viewport=TV).new_page()
    page.goto(server.url + "/host")
    page.wait_for_selector(f"#edition option[value={edition}]", state="attached")
    page.select_option("#edition", edition)
    page.wait_for_selector("[data-opt]", state="attached")
    page.check("#custom")
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"controls under 44x44 px (name, height, width): {small}"
    page.context.close()
