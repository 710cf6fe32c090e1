"""A real browser: Playwright drives Debian's Chromium through whole games on the console page.

Every edition is played to its end through the page alone (taps on its buttons), at 768x1024
(a tablet) and 390x844 (a phone), with roles dealt by mafioso, entered seat by seat and learned
as the players wake. The test reads the console's state from the API only to know what a
facilitator would see on the table (who really woke). A reload and a server restart happen in
the middle of one game. Screenshots go to ``artifacts/screenshots/console/``.
"""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.console.play import EDITIONS, names
from tests.console.test_console import dealt_roles
from tests.server.browser import Server

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "console"
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]


def api_state(server: Server, token: str) -> dict[str, Any]:
    """The console's state as the page would get it."""
    request = urllib.request.Request(f"{server.url}/api/console/state", data=json.dumps({"token": token}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        state: dict[str, Any] = json.loads(response.read())["state"]
        return state


def set_up(page: Any, edition: str, mode: str, truth: list[str]) -> None:
    """Fill the set-up form as a facilitator would, and start."""
    page.select_option("#edition", edition)
    page.fill("#names", "\n".join(names(edition)))
    page.dispatch_event("#names", "input")
    page.check(f"input[name=roles][value={mode}]")
    if mode == "entered":
        page.wait_for_selector("#cast select")
        for seat, role in enumerate(truth, 1):
            page.select_option(f"#cast select[data-seat='{seat}']", role)
    if mode == "learned":
        page.wait_for_selector("#cast input")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden]), #end:not([hidden])")


def tap(page: Any, state: dict[str, Any], rng: random.Random, truth: list[str], edition: str) -> None:
    """One tap (or a few) for the step on screen."""
    step = state["step"]
    revision = state["revision"]
    page.wait_for_function(f"Number(document.body.dataset.revision) >= {revision}")  # the page has caught up
    if page.evaluate("document.body.dataset.revision") != str(revision):
        return  # a phone answered meanwhile: the caller reads the state again
    if step["kind"] == "silent":
        page.click("#controls .big")
    elif step["kind"] == "peek":
        seat = step["learn_seats"][0]["value"]
        page.click(f"#controls .seat[data-role='{truth[seat - 1]}']")
    elif step["kind"] == "learn":
        for option in step["learn_seats"]:
            if truth[option["value"] - 1] == step["learn_role"]:
                page.click(f"#controls .seat >> text='{option['label']}'")
        page.click("#controls .big")
    elif page.locator("#controls .ack").count():
        page.click("#controls .ack")
    elif step.get("count_max") and rng.random() < 0.5:
        page.fill("#count-hands", str(rng.randint(0, step["count_max"])))
        page.click("#count-enter")
    elif page.locator("#controls .voters").count():
        for index, ask in enumerate(step["asks"]):
            hands = page.locator("#controls .voter").nth(index).locator(".hand")
            free = ask["optional"] or [o["value"] for o in ask["options"]] == ["yes", "no"]
            if not free or rng.random() < 0.3:
                hands.nth(rng.randrange(1 if free else hands.count())).click()
        page.click("#controls .big")
    else:
        ask = step["asks"][0]
        seats = page.locator("#controls .grid:not(.peek) .seat")
        if ask["kind"] == "choose_many":
            for index in rng.sample(range(seats.count()), ask["min"]):
                seats.nth(index).click()
            page.click("#controls .big")
        elif ask["kind"] == "speech":  # a name tapped only marks the nominee; the end enters it
            if seats.count() and rng.random() < 0.3:
                seats.nth(rng.randrange(seats.count())).click()
            page.click("#controls .big")
        elif ask["optional"] and (rng.random() < 0.15 or not seats.count()):
            page.click("#controls .big")
        else:
            seats.nth(rng.randrange(seats.count())).click()
    wait_for_change(page, revision, truth, edition)


def wait_for_change(page: Any, revision: int, truth: list[str], edition: str) -> None:
    """Wait for the page to show the next step; a card to look at first is tapped from the truth."""
    for _ in range(3000):
        if page.locator("#controls .peek").count():
            panel = page.evaluate("(() => { const c = document.querySelector('#controls'); return c.querySelector('.peek')"
                                  " ? [c.querySelectorAll('.back').length, document.querySelector('#error').hidden] : null; })()")
            if panel is None:  # replaced between the two looks (the answer went through): look again
                continue
            assert panel[1], "a card to look at is a task, not an error"
            assert panel[0] == 1, "with a way back to the choice"
            try:  # the panel may be replaced meanwhile (the answer went through): look again
                label = page.locator("#controls .peek-ask").inner_text(timeout=1000)
            except playwright_api.Error:
                continue
            seat = next(i for i, name in enumerate(names(edition), 1) if f"Look at {name}'s" in label)
            page.click(f"#controls .peek .seat[data-role='{truth[seat - 1]}']")
        moved = page.evaluate("!document.body.dataset.sending && (document.querySelector('#end:not([hidden])') !== null"
                              f" || document.body.dataset.revision !== '{revision}')")
        if moved:
            return
        page.wait_for_timeout(10)
    raise AssertionError(f"the page did not move on: {page.locator('#error').inner_text()!r}, "
                         f"{page.locator('#controls').inner_text()[:300]!r}")


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def play_through(page: Any, server: Server, edition: str, mode: str, label: str, *, restart: bool = False,
                 undo: bool = False) -> None:
    """A whole game through the page, with screenshots of a call, a vote, the grimoire, undo and the end."""
    truth = dealt_roles(edition, 7)
    set_up(page, edition, mode, truth)
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    rng = random.Random(7)
    shot = {"call": False, "public": False, "learn": False, "silent": False}
    for count in range(3000):
        state = api_state(server, token)
        if state["over"]:
            break
        kind = state["step"]["kind"]
        if kind in shot and not shot[kind]:
            shot[kind] = True
            shoot(page, f"{label}-{kind}")
        if count == 12:
            page.click("#open-grimoire")
            page.wait_for_selector("#grimoire[open] .card")
            shoot(page, f"{label}-grimoire")
            page.click("#grimoire .close")
            page.click("#open-undo")
            shoot(page, f"{label}-undo")
            if undo:  # undo the last entry through the page: confirmed, then what changed
                entries = len(state["entries"])
                page.locator("#undo-list .undo-one").first.click()
                page.wait_for_selector("#confirm[open]")
                assert f"{entries}:" in page.inner_text("#confirm-text"), "the entry undone is named"
                page.click("#confirm-yes")
                page.wait_for_selector("#changes[open] #changes-list li")
                shoot(page, f"{label}-undone")
                page.click("#changes .close")
                undone = api_state(server, token)
                assert len(undone["entries"]) == entries - 1 and undone["entries"] == state["entries"][:-1]
                state = undone
            else:
                page.click("#undo .close")
        if count == 20 and restart:
            page.reload()
            page.wait_for_selector("#play:not([hidden])")
            server.kill()
            server.start()
            page.reload()
            page.wait_for_selector("#play:not([hidden])")
            assert api_state(server, token)["revision"] == state["revision"]
        tap(page, state, rng, truth, edition)
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("#end:not([hidden]) #story li")
    shoot(page, f"{label}-end")


CASES = [(edition, mode, size) for edition in EDITIONS for mode in ("dealt", "entered", "learned")
         for size in ("tablet", "phone") if not (edition == "blitz" and mode == "learned")]


@pytest.mark.parametrize(("edition", "mode", "size"), CASES)
def test_a_whole_game_through_the_console_page(browser: Any, server: Server, edition: str, mode: str, size: str) -> None:
    context = browser.new_context(viewport=TABLET if size == "tablet" else PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    play_through(page, server, edition, mode, f"{edition}-{mode}-{size}",
                 restart=(edition, mode, size) == ("sport", "dealt", "tablet"), undo=size == "tablet")
    assert not errors
    context.close()


def post_json(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def test_a_mixed_table_of_phones_and_hand_played_seats(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.fill("#phones", "2 5 9")
    set_up(page, "sport", "dealt", [])
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    page.click("#open-phones")
    page.wait_for_selector("#phones-dialog[open] button[data-seat='5']")
    assert page.locator("#phones-dialog .qr").count() == 0, "no code before a seat is chosen"
    cover = page.evaluate("""() => { const d = document.querySelector('#phones-dialog'), r = d.getBoundingClientRect();
        return {w: r.width, h: r.height, x: r.x, y: r.y, back: getComputedStyle(d, '::backdrop').backgroundColor,
                bg: getComputedStyle(d).backgroundColor}; }""")
    assert (cover["x"], cover["y"], cover["w"], cover["h"]) == (0, 0, TABLET["width"], TABLET["height"]), cover
    assert cover["back"].startswith("rgb(") and cover["bg"].startswith("rgb("), "opaque: the console is hidden"
    page.click("#phones-dialog button[data-seat='5']")
    page.wait_for_selector("#phones-dialog[open] .qr svg", state="attached")
    assert page.locator("#phones-dialog .qr").count() == 1, "one seat's code at a time"
    assert page.locator("#phones-dialog button[data-seat]").count() == 0, "the player handed it reaches no other seat"
    assert page.locator("#phones-dialog a").count() == 0 and not page.locator("#phones-dialog .close").is_visible()
    shoot(page, "mixed-sport-phones")
    page.click("#phones-dialog .done")
    page.click("#phones-dialog button[data-seat='9']")
    assert page.locator("#phones-dialog .qr").count() == 1 and "Ivo" in page.inner_text("#phone-code")
    page.keyboard.press("Escape")
    page.wait_for_selector("#phones-dialog[open] button[data-seat='9']")
    links = [p["link"] for p in post_json(server, "/api/console/phones", {"token": token})["phones"]]
    page.click("#phones-dialog .close")
    phones = []
    for link in links:
        phone = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(link)
        assert "/p?console=1" in phone.url, "the table's own phone page"
        phone.wait_for_selector("#game:not([hidden]) #me:not(:empty)")
        phones.append(phone)
    assert phones[0].inner_text("#card") != "" and "?" in phones[0].inner_text("#card"), "the card face down"
    phones[0].click("#card")
    shoot(phones[0], "mixed-sport-phone-card")
    phones[0].click("#card")
    rng = random.Random(3)
    shot = over_early = False
    for _ in range(3000):
        state = api_state(server, token)
        if state["over"]:
            break
        if state["step"]["kind"] == "phones":
            if not shot:
                shot = True
                shoot(page, "mixed-sport-waiting")
            for phone in phones:
                answer_on_phone(phone, rng, playwright_api)
            page.wait_for_timeout(300)
            continue
        ended = post_json(server, "/api/console/phone/state", {"token": links[1].split("#c=")[1]})
        over_early = over_early or ended["outcome"] is not None
        tap(page, state, rng, [], "sport")
    else:
        raise AssertionError("the game did not end")
    assert not over_early, "a phone said the game was over before the facilitator read its end"
    page.wait_for_selector("#end:not([hidden]) #story li")
    shoot(page, "mixed-sport-end")
    phones[1].wait_for_selector("#outcome .verdict")
    shoot(phones[1], "mixed-sport-phone-end")
    assert not errors


def answer_on_phone(phone: Any, rng: random.Random, playwright_api: Any) -> None:
    """A phone player's tap: the night question opened from its panel (the same for every role),
    then one of its buttons."""
    phone.wait_for_timeout(200)
    closed = phone.locator("#nightq:not([hidden])[aria-expanded=false]")
    if closed.count():
        try:
            closed.click(timeout=2000)
        except playwright_api.Error:  # the step ended meanwhile: the panel went away
            return
    buttons = phone.locator("#prompts .prompt button:not([disabled])")
    count = buttons.count()
    if not count:
        return
    shoot(phone, "mixed-sport-phone-question")
    try:
        buttons.nth(rng.randrange(count)).click(timeout=3000)
        go = phone.locator("#prompts .prompt button.go:not([disabled])")
        if go.count():
            go.first.click(timeout=3000)
    except playwright_api.Error:  # the question changed under the finger: look again
        return
    phone.wait_for_timeout(100)


def test_the_set_up_page_shows_no_game_tools(browser: Any, server: Server) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    for button in ("#open-grimoire", "#open-undo", "#voice"):
        assert not page.locator(button).is_visible(), f"{button} shows before a game exists"


def test_the_set_up_page_sets_the_editions_options(browser: Any, server: Server) -> None:
    page = browser.new_context(viewport=TABLET).new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "vendetta")
    page.wait_for_selector("#options select[data-opt=leader]")
    label = page.locator("#options label:has(select[data-opt=leader]) span").inner_text()
    assert label and label != "leader", "the option's label in words, not its key"
    page.select_option("#options select[data-opt=leader]", label="Sheriff")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    roles = [card["role"] for card in post_json(server, "/api/console/grimoire", {"token": token})["grimoire"]]
    assert "Sheriff" in roles and "Detective" not in roles


def test_the_set_up_page_follows_the_language_chosen(browser: Any, server: Server) -> None:
    """The options' labels and choices follow the console's language when it is changed, not the
    browser's at load time; what was already set stays set."""
    page = browser.new_context(viewport=TABLET, locale="en-GB").new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "vendetta")
    page.wait_for_selector("#options select[data-opt=leader]")
    leader = "#options label:has(select[data-opt=leader])"
    english = page.locator(f"{leader} span").inner_text()
    page.select_option("#options select[data-opt=leader]", label="Sheriff")
    chosen = page.locator("#options select[data-opt=leader]").input_value()
    page.select_option("#lang", "pl")
    page.wait_for_function(f"document.querySelector('{leader} span').textContent !== {json.dumps(english)}")
    polish = page.locator(f"{leader} span").inner_text()
    assert polish and polish != english
    assert page.locator("#options select[data-opt=leader]").input_value() == chosen, "the choice made is kept"
    shown = page.locator("#options select[data-opt=leader] option:checked").inner_text()
    assert shown != "Sheriff", "the choice's own words follow the language too"
    assert page.locator("#start").inner_text() != "Start the game", "the page's words follow the language"
    assert page.locator("#edition option:checked").get_attribute("value") == "vendetta"
    shoot(page, "setup-in-polish")
    page.select_option("#lang", "en")
    page.wait_for_function(f"document.querySelector('{leader} span').textContent === {json.dumps(english)}")


def test_a_vote_entered_by_count_on_the_page(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    set_up(page, "sport", "dealt", [])
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    rng = random.Random(5)
    for _ in range(500):
        state = api_state(server, token)
        if state["step"]["count_max"]:
            break
        step = state["step"]
        if step["asks"] and step["asks"][0]["kind"] == "speech" and step["asks"][0]["options"]:
            page.wait_for_function(f"document.body.dataset.revision === '{state['revision']}'")
            first = page.locator("#controls .grid .seat").first
            first.click()  # a nomination, so that a vote comes: marked, and the speech goes on
            assert first.get_attribute("aria-pressed") == "true"
            assert api_state(server, token)["revision"] == state["revision"], "a nominee is marked, not entered"
            page.click("#controls .big")  # End of the speech enters it
            wait_for_change(page, state["revision"], [], "sport")
            assert "nominat" in api_state(server, token)["entries"][-1], api_state(server, token)["entries"][-1]
            continue
        tap(page, {**state, "step": {**step, "count_max": 0}}, rng, [], "sport")
    else:
        raise AssertionError("no vote came")
    revision, most = state["revision"], state["step"]["count_max"]
    page.wait_for_selector("#count-hands")
    page.fill("#count-hands", str(most + 1))
    page.click("#count-enter")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text() == f"More hands ({most + 1}) than players voting now ({most})."
    assert api_state(server, token)["revision"] == revision
    page.locator("#count-hands").scroll_into_view_if_needed()
    shoot(page, "sport-vote-by-count-refused")
    page.fill("#count-hands", "3")
    page.click("#count-enter")
    wait_for_change(page, revision, [], "sport")
    after = api_state(server, token)
    assert after["revision"] == revision + 1 and after["entries"][-1].startswith("Hands against ") and after["entries"][-1].endswith(": 3")
    announced = " ".join(page.locator("#read p.announce").all_inner_texts())
    assert ": 3." in announced and "from" not in announced, announced
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "sport-vote-by-count-entered")
    assert not errors
    context.close()


def test_a_phone_of_a_russian_table_says_pass_in_russian(browser: Any, server: Server) -> None:
    """Issue 12 (audit): a vampires table in Russian; the phones' optional questions said "Pass"
    in English (the forms were built before the words loaded, then kept by key)."""
    made = post_json(server, "/api/console", {"setup": {"edition": "vampires", "names": list(names("vampires")),
                                                        "lang": "ru", "seed": 2, "phones": list(range(1, 11))}})
    token = made["token"]
    links = [p["link"] for p in post_json(server, "/api/console/phones", {"token": token})["phones"]]
    context = browser.new_context(viewport={"width": 360, "height": 740})
    seen = []
    for link in links:
        phone = context.new_page()
        phone.goto(link)
        phone.wait_for_selector("#game:not([hidden]) #me:not(:empty)")
        phone.wait_for_function("document.documentElement.lang === 'ru'")
        phone.wait_for_timeout(300)
        seen.append(phone.inner_text("#prompts"))
        phone.close()
    assert any("Пропустить" in text for text in seen), seen
    assert not [text for text in seen if "Pass" in text or "Send my choice" in text], seen


def test_a_refused_set_up_is_said_where_the_start_button_was_tapped(browser: Any, server: Server) -> None:
    """Issue 12 (audit): the error box sat 2855 px above the viewport after Start: it is scrolled
    into view, in words (a name given twice)."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "sport")
    page.fill("#names", "\n".join([*names("sport")[:9], "Anna"]))
    page.dispatch_event("#names", "input")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_timeout(300)
    box = page.locator("#error").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert "both called Anna" in page.inner_text("#error")


def test_seating_a_fiim_tournament_table_turns_the_best_move_on(browser: Any, server: Server) -> None:
    """Issue 12 (audit): a FIIM table seated on the console left sport's best move off, so the
    night-1 victim was never asked for one and FIIM's points were lost."""
    from tests.desk.helpers import ORGANISER, set_organiser

    set_organiser(server.db)  # creating a tournament on the page takes the organiser's pass
    post_json(server, "/api/desk/create", {"name": "Winter Cup", "players": list(names("sport")), "rounds": 1,
                                           "scoring": "fiim", "organiser": ORGANISER})
    page = browser.new_context(viewport=TABLET).new_page()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#edition", "sport")
    page.wait_for_selector("#seat-from:not([hidden]) #seat-table option", state="attached")
    assert page.input_value("#options [data-opt=best_move]") == "false", "off by default"
    page.select_option("#seat-table", index=1)
    assert page.input_value("#options [data-opt=best_move]") == "true"
    assert "best move" in page.inner_text("#seat-note") and page.is_visible("#seat-note")
