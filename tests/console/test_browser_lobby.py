"""In Chromium: the phones of a mixed console table join before *Start* (and keep their seats
through a server restart and a changed set-up), and count down the facilitator's speech clock.

Screenshots go to ``artifacts/screenshots/console/`` (the facilitator at 768x1024 and 390x844,
the phones at 360x740)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.console.play import names
from tests.console.test_browser import PHONE, TABLET, answer_on_phone, api_state, post_json, shoot, tap
from tests.server.browser import Server, axe_violations

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]

SMALL_PHONE = {"width": 360, "height": 740}


def open_phone(browser: Any, link: str, errors: list[str], polls: list[int] | None = None) -> Any:
    """A player's phone opening the link of the code it scanned (``polls``: the statuses of its polls)."""
    phone = browser.new_context(viewport=SMALL_PHONE).new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    if polls is not None:
        phone.on("response", lambda r: polls.append(r.status) if r.url.endswith("/api/console/phone/state") else None)
    phone.goto(link)
    return phone


def links_of(server: Server, token: str) -> dict[str, str]:
    return {p["name"]: p["link"] for p in post_json(server, "/api/console/phones", {"token": token})["phones"]}


def test_phones_join_before_start_and_count_down_the_speech(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = browser.new_context(viewport=TABLET).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "sport")
    page.select_option("#lang", "pl")
    page.wait_for_function("document.documentElement.lang === 'pl'")
    players = list(names("sport"))
    page.fill("#names", "\n".join(players))
    page.dispatch_event("#names", "input")
    assert page.locator("#setup-phones-row").is_hidden(), "no codes to show without seats on phones"
    page.fill("#phones", "2 5 9")
    page.dispatch_event("#phones", "input")
    page.locator("#setup-phones").scroll_into_view_if_needed()
    shoot(page, "lobby-tablet-set-up")
    page.click("#setup-phones")
    page.wait_for_selector("#phones-dialog[open] button[data-seat='9']")
    assert page.locator("#phones-dialog button[data-joined=false]").count() == 3
    shoot(page, "lobby-tablet-phones")
    page.set_viewport_size(PHONE)
    shoot(page, "lobby-phone-phones")
    page.set_viewport_size(TABLET)
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    links = links_of(server, token)
    page.click("#phones-dialog button[data-seat='2']")
    page.wait_for_selector("#phones-dialog[open] .qr svg", state="attached")
    polls: list[int] = []
    boris = open_phone(browser, links["Boris"], errors, polls)
    boris.wait_for_selector("#lobby:not([hidden]) #hello:has-text('Boris')")
    boris.wait_for_function("document.documentElement.lang === 'pl'")
    boris.wait_for_selector("#hello:has-text('prowadzący')")
    assert boris.locator("#leave").is_hidden() and boris.locator("#game").is_hidden()
    shoot(boris, "lobby-phone-waiting")
    assert not axe_violations(boris), "the phone's waiting screen"
    page.click("#phones-dialog .done")
    page.wait_for_selector("#phones-dialog button[data-seat='2'][data-joined=true]")
    assert page.locator("#phones-dialog button[data-joined=false]").count() == 2
    emil = open_phone(browser, links["Emil"], errors)
    emil.wait_for_selector("#lobby:not([hidden]) #hello:has-text('Emil')")
    page.wait_for_selector("#phones-dialog button[data-seat='5'][data-joined=true]")  # marked while the names show
    shoot(page, "lobby-tablet-joined")
    assert not axe_violations(page), "the phones dialog, its joined marks"
    page.click("#phones-dialog .close")

    server.kill()  # a restart while the players wait: their seats and the form survive it
    server.start()
    page.reload()
    page.wait_for_selector("#setup:not([hidden]) #setup-phones-row:not([hidden])")
    assert page.input_value("#phones") == "2 5 9" and page.input_value("#names").split("\n") == players
    assert page.input_value("#lang") == "pl"
    boris.wait_for_timeout(2000)  # a poll or two after the restart
    assert boris.locator("#lobby").is_visible() and "Boris" in boris.inner_text("#hello")
    assert 304 in polls, f"an unchanged poll is a 304 (no body), passed through to the page: {polls}"

    # Emil turns out to be Emma: the set-up changes, and the facilitator is told Emil's phone has no seat
    players[4] = "Emma"
    page.fill("#names", "\n".join(players))
    page.dispatch_event("#names", "input")
    page.click("#start")
    page.wait_for_selector("#changes[open]")
    told = page.inner_text("#changes-list")
    assert "Emil" in told and "nowy kod" in told and "Emma, Ivo" in told, told
    shoot(page, "lobby-tablet-lost")
    page.click("#changes .close")
    boris.wait_for_selector("#game:not([hidden]) #me:has-text('Boris')")
    emil.wait_for_selector("#banner:has-text('nowy kod')")
    shoot(emil, "lobby-phone-seat-gone")
    assert emil.locator("#game").is_hidden(), "the phone whose seat went shows no game"

    links = links_of(server, token)
    phones = [boris, open_phone(browser, links["Emma"], errors), open_phone(browser, links["Ivo"], errors)]
    for phone in phones:
        phone.wait_for_selector("#game:not([hidden]) #me:not(:empty)")
    rng = random.Random(2)
    for _ in range(600):
        state = api_state(server, token)
        asks = state["step"].get("asks") or []
        if (asks and asks[0]["kind"] == "speech") or state["step"]["clock"]:  # by hand, or on a phone
            break
        if state["step"]["kind"] == "phones":
            for phone in phones:
                answer_on_phone(phone, rng, playwright_api)
            page.wait_for_timeout(300)
            continue
        assert all(not phone.inner_text("#clock") for phone in phones[:1]), "no clock at night"
        tap(page, state, rng, [], "sport")
    else:
        raise AssertionError("no speech came")
    page.wait_for_selector("#controls .timer-go")
    page.click("#controls .timer-go")
    for phone in phones:
        phone.wait_for_function("/^\\d+$/.test(document.getElementById('clock').textContent)", timeout=5000)
    left = [int(phone.inner_text("#clock")) for phone in phones]
    assert max(left) - min(left) <= 2 and all(0 < n <= 60 for n in left), left
    shoot(phones[1], "countdown-phone")
    shoot(page, "countdown-tablet")
    page.set_viewport_size(PHONE)
    shoot(page, "countdown-console-on-a-phone")
    page.set_viewport_size(TABLET)
    page.click("#controls .timer-go")  # stopped: the phones' clocks go
    for phone in phones:
        phone.wait_for_function("document.getElementById('clock').textContent === ''", timeout=5000)
    assert not errors, errors


def test_a_lobby_the_server_lost_is_set_up_afresh(browser: Any, server: Server) -> None:
    """The server's database was replaced while the facilitator set up: Start sends the set-up
    afresh (a new table), never a dead end on a refused link."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "sport")
    page.fill("#names", "\n".join(names("sport")))
    page.fill("#phones", "3")
    page.dispatch_event("#phones", "input")
    page.click("#setup-phones")
    page.wait_for_selector("#phones-dialog[open] button[data-seat='3']")
    lobby = page.evaluate("localStorage.getItem('mafioso.console')")
    page.click("#phones-dialog .close")
    server.kill()
    for path in server.db.parent.glob(server.db.name + "*"):
        path.unlink()
    server.start()
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    assert token and token != lobby and page.locator("#error").is_hidden()
    assert api_state(server, token)["phones"] == [3]
