"""What a person feels or hears from the pages, measured in Chromium at the browser's API edge.

Headless Chromium has no vibrator, no screen to keep awake, no voice and no speaker, so an init
script (``FEEL``) records each call where the page meets the browser: ``navigator.vibrate``,
``navigator.wakeLock.request`` (and the lock's release, which the browser also does itself when
the page is hidden), ``speechSynthesis.speak`` (the utterance's text and language) and the start
of every Web Audio oscillator (its pitch). It also logs each state the page receives, so the
calls can be checked against what the server sent: a phone vibrates exactly when a new question
arrives for its seat, and at night a decoy question buzzes like a real one.
Screenshots go to ``artifacts/screenshots/feel/``.
"""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any

import pytest

from mafioso.i18n import _
from tests.console.test_browser import api_state, set_up, tap
from tests.server.browser import CHROMIUM, PHONE, TV, Server, answer_one, api, shoot
from tests.server.test_browser_screen_reader import Others

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]
FOLDER = "feel"

FEEL = """
const felt = window.__felt = {log: [], wake: [], spoken: [], tones: [], levels: [], screen: [], phases: [], sound: 0};
Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true,
  value(pattern) { felt.log.push({vibrate: JSON.stringify(pattern)}); return true; }});
// the page's visibility is the test's to set; a hidden page loses its wake lock, as in a browser
let hidden = false;
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => hidden});
Object.defineProperty(Document.prototype, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
const held = new Set();
const lock = {async request(type) {
  if (window.__grant) await new Promise(granted => setTimeout(granted, window.__grant));  // a slow browser
  const sentinel = new EventTarget();
  sentinel.type = type;
  sentinel.released = false;
  sentinel.release = async () => {
    if (sentinel.released) return;
    sentinel.released = true;
    held.delete(sentinel);
    felt.wake.push("release");
    sentinel.dispatchEvent(new Event("release"));
  };
  held.add(sentinel);
  felt.wake.push("request " + type);
  return sentinel;
}};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => lock});
window.__held = () => held.size;
window.__hide = value => {
  hidden = value;
  if (value) for (const sentinel of [...held]) sentinel.release();
  document.dispatchEvent(new Event("visibilitychange"));
};
// a voice that says each line at once (the real one may have no voice installed and never end)
SpeechSynthesis.prototype.speak = function (u) {
  felt.spoken.push({text: u.text, lang: u.lang});
  setTimeout(() => u.dispatchEvent(new Event("end")), 20);
};
const Output = window.AudioContext;  // how many sound outputs the page made (and when: see the tests)
window.AudioContext = class extends Output { constructor(...args) { super(...args); felt.sound += 1; } };
const begin = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  felt.tones.push({at: Date.now(), pitch: this.frequency.value});
  return begin.apply(this, args);
};
const aim = AudioParam.prototype.setTargetAtTime;  // a sound faded in or out: its loudness aimed at
AudioParam.prototype.setTargetAtTime = function (value, ...rest) {
  felt.levels.push(value);
  return aim.call(this, value, ...rest);
};
const Socket = window.WebSocket;
window.__drop = () => window.__socket.close();  // the link drops: the page connects again by itself
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    window.__socket = this;
    this.addEventListener("message", e => {  // added before the page's own handler: logged first
      const m = JSON.parse(e.data);
      if (m.type === "state" && (m.seat === null || m.seat === undefined)) {
        felt.screen.push(...(m.events || []));
        felt.phases.push([m.phase, !!m.secret]);
      }
      if (m.type !== "state" || m.seat === null || m.seat === undefined) return;
      const mine = (m.seats || []).find(s => s.seat === m.seat);
      felt.log.push({state: true, phase: m.phase, step: m.step, secret: !!m.secret, outcome: !!m.outcome,
        alive: !!mine && mine.alive, prompts: (m.prompts || []).map(p => [p.id, p.act, p.title])});
    });
  }
};
"""
"""Records, in the page, each call a person would feel or hear and each state the page got."""


def felt(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("window.__felt")
    return found


def phone_page(browser: Any, server: Server, seat_pass: str, code: str) -> Any:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(FEEL)
    context.add_init_script(f"localStorage.setItem('mafioso.seat', '{seat_pass}'); localStorage.setItem('mafioso.seat.code', '{code}')")
    page = context.new_page()
    page.goto(f"{server.url}/p?code={code}")
    return page


def socket_state(server: Server, **hello: Any) -> dict[str, Any]:
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/ws") as sock:
        sock.send(json.dumps({"type": "hello", **hello}))
        message: dict[str, Any] = json.loads(sock.recv(timeout=10))
        return message


def deal(server: Server, host: str, players: int) -> None:
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/ws") as sock:
        sock.send(json.dumps({"type": "hello", "host": host}))
        sock.recv(timeout=10)
        sock.send(json.dumps({"type": "deal", "order": list(range(1, players + 1))}))
        sock.recv(timeout=10)


def buzzes(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
    """Each state the page got, with the vibrations the page made before the next one."""
    out: list[tuple[dict[str, Any], list[str]]] = []
    for entry in log:
        if entry.get("state"):
            out.append((entry, []))
        elif out:
            out[-1][1].append(entry["vibrate"])
    return out


def test_a_phone_vibrates_for_each_new_question_and_a_decoy_like_a_real_one(browser: Any, server: Server) -> None:
    """Three phones (a Gangster, the Sheriff, a Citizen) play a whole Sport game; the other seats
    answer over their own sockets. Each phone vibrates once, the same pattern, for every state
    that brings a question new to its seat, and for no other state (an answer sent, a line said,
    someone else's turn, its seat out of the game). Every secret step buzzes every living phone
    alike, the decoy's "nothing happens" as the Gangster's shot. The screen stays awake from the
    deal to the end, given up while the page is hidden and asked again when it shows."""
    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0, "lang": "en"})
    tokens = [api(server, "/api/join", {"code": table["code"], "name": name})["token"]
              for name in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]]
    lobby = phone_page(browser, server, tokens[0], table["code"])
    lobby.wait_for_selector("#lobby:not([hidden])")
    lobby.wait_for_timeout(200)
    assert felt(lobby)["wake"] == [], "no wake lock in the lobby"
    deal(server, table["host"], 10)
    lobby.wait_for_function("window.__held() === 1")  # dealt: the game keeps the screen awake
    roles = {token: socket_state(server, seat=token)["card"]["name"] for token in tokens}
    chosen = [next(t for t in tokens if roles[t] == role) for role in ("Gangster", "Sheriff", "Citizen")]
    lobby.context.close()
    phones = [phone_page(browser, server, token, table["code"]) for token in chosen]
    for phone in phones:
        phone.wait_for_selector("#game:not([hidden])")
        phone.wait_for_function("window.__held() === 1")
    phones[1].evaluate("window.__hide(true)")
    assert phones[1].evaluate("window.__held()") == 0
    phones[1].evaluate("window.__hide(false)")
    phones[1].wait_for_function("window.__held() === 1")
    assert felt(phones[1])["wake"] == ["request screen", "release", "request screen"], "asked again once shown"
    others = Others(server.url, [t for t in tokens if t not in chosen])
    others.start()
    rng = random.Random(7)
    drops = 0
    try:
        deadline = time.monotonic() + 120
        while not all(phone.evaluate("!!document.querySelector('#outcome .verdict')") for phone in phones):
            assert time.monotonic() < deadline, "the game did not end in time"
            if drops < 3 and phones[2].query_selector("#prompts .prompt"):  # the same question comes again
                drops += 1
                got = phones[2].evaluate("window.__felt.log.filter(e => e.state).length")
                phones[2].evaluate("window.__drop()")
                phones[2].wait_for_function(f"window.__felt.log.filter(e => e.state).length > {got}")
            if not any([answer_one(phone, rng, playwright_api.Error) for phone in phones]):
                phones[0].wait_for_timeout(60)
    finally:
        others.stop.set()
        others.join(timeout=15)
    shoot(phones[2], FOLDER, "phone-end")
    nights: list[dict[tuple[str, str], list[str]]] = []  # a secret step -> what the phone was asked
    for phone, token in zip(phones, chosen, strict=True):
        record = felt(phone)
        assert record["wake"][-1] == "release" and phone.evaluate("window.__held()") == 0, "the lock goes at the end"
        seen: set[tuple[str, str, str]] = set()
        quiet = again = 0
        night: dict[tuple[str, str], list[str]] = {}
        for state, made in buzzes(record["log"]):
            asked = {tuple(p) for p in state["prompts"]}
            new = asked - seen
            seen = asked
            assert made == (["[120,80,120]"] if new else []), (roles[token], state, made)
            quiet += not new
            again += bool(asked) and not new
            if state["secret"] and state["alive"]:
                night.setdefault((state["phase"], state["step"]), []).extend(act for _id, act, _title in new)
        assert quiet >= 5, "states with nothing new came too, and did not vibrate"
        assert again or token != chosen[2], "a question sent again (after the link dropped) did not vibrate again"
        nights.append(night)
    for key in set().union(*nights):  # every living phone is asked once per secret step: one buzz each
        assert all(len(night[key]) == 1 for night in nights if key in night), f"{key}: {nights}"
    mixed = [key for key in set.intersection(*(set(night) for night in nights))
             if len({night[key][0] == "decoy" for night in nights}) == 2]
    assert mixed, f"no secret step asked one phone for real and another a decoy: {nights}"


def once(script: str) -> str:
    """An init script run at the page's first load only (a reload keeps what the page stored)."""
    return f"if (!sessionStorage.getItem('once')) {{ sessionStorage.setItem('once', '1'); {script} }}"


def spoken(page: Any) -> list[dict[str, str]]:
    lines: list[dict[str, str]] = page.evaluate("window.__felt.spoken")
    return lines


def said_lines(page: Any) -> dict[int, str]:
    """The public lines the page received, by number."""
    return {e["n"]: e["text"] for e in page.evaluate("window.__felt.screen") if e.get("text")}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_shared_screen_says_the_tables_lines_in_its_language_and_nothing_once_off(
        browser: Any, server: Server, lang: str) -> None:
    """The shared screen's voice says the table's public lines, in order, each once (a pile of
    them as one line: where the table is now), in the table's language; turned off, it says
    nothing more, and stays off after a reload while the game goes on."""
    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0, "lang": lang})
    tokens = [api(server, "/api/join", {"code": table["code"], "name": f"Gracz {n}"})["token"] for n in range(1, 11)]
    context = browser.new_context(viewport=TV)
    context.add_init_script(FEEL)
    context.add_init_script(once(f"localStorage.setItem('mafioso.host', '{table['host']}')"))
    host = context.new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#lobby:not([hidden])")
    assert host.get_attribute("#speak", "aria-pressed") == "true", "the voice is on by default"
    deal(server, table["host"], 10)
    others = Others(server.url, tokens)
    others.start()
    try:
        host.wait_for_function("window.__felt.spoken.length >= 6", timeout=60000)
        host.click("#speak")
        shoot(host, FOLDER, f"host-voice-off-{lang}")
        lines = said_lines(host)
        voice = spoken(host)
        assert {line["lang"] for line in voice} == {lang}, voice
        last = -1
        for line in voice:  # one line, or a pile said as "phase. newest": numbers only go up
            numbers = [n for n, text in lines.items() if text == line["text"]] or \
                [n for n, text in lines.items() if line["text"].endswith(". " + text) or line["text"].endswith(text)]
            assert numbers and max(numbers) > last, f"{line['text']!r} is not the next public line: {lines}"
            last = max(numbers)
        assert voice[0]["text"] == lines[min(lines)], "the night's first call first"
        if lang == "pl":
            assert any(char in "ąćęłńóśźż" for line in voice for char in line["text"]), voice
        host.reload()
        host.wait_for_selector("#play:not([hidden])")
        assert host.get_attribute("#speak", "aria-pressed") == "false", "still off after a reload"
        count = len(said_lines(host))
        host.wait_for_function(f"new Set(window.__felt.screen.map(e => e.n)).size > {count + 3}", timeout=60000)
        assert spoken(host) == [], "a voice turned off says nothing"
    finally:
        others.stop.set()
        others.join(timeout=15)
    context.close()


def test_the_console_reads_each_step_aloud_in_its_language_and_beeps_the_speech_clock(
        browser: Any, server: Server) -> None:
    """The facilitator's console, in Polish with its narration on, says each step's lines to be
    read (never those only shown to the woken) in Polish; a speech's clock, started, beeps high
    once at 10 s left and low once at the end (the page's clock is run forward, not waited for),
    through a sound output made on the tap that started it, and its button then offers to start
    it again. Its narration turned off stays off after a reload, and says nothing."""
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    context.add_init_script(FEEL)
    context.add_init_script(once("localStorage.setItem('mafioso.console.voice', 'on')"))
    page = context.new_page()
    page.clock.install()
    page.goto(f"{server.url}/console")
    page.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
    page.select_option("#lang", "pl")
    page.wait_for_function("document.documentElement.lang === 'pl'")
    set_up(page, "sport", "dealt", [])
    token = page.evaluate("localStorage.getItem('mafioso.console')")
    rng = random.Random(4)
    heard, shown = 0, 0
    for _round in range(400):
        state = api_state(server, token)
        step = state["step"]
        read = [line["text"] for line in step["script"] if line["kind"] != "show"]
        shown += len(step["script"]) - len(read)
        page.wait_for_function(f"window.__felt.spoken.length >= {heard + len(read)}")
        voice = spoken(page)[heard:]
        assert [line["text"] for line in voice] == read, (step["kind"], voice, step["script"])
        assert {line["lang"] for line in voice} <= {"pl"}, voice
        heard += len(read)
        asks = step.get("asks") or []
        if asks and asks[0]["kind"] == "speech":
            break
        tap(page, state, rng, [], "sport")
    else:
        raise AssertionError("no speech came")
    assert shown and heard >= 5, "lines shown only to the woken came by, and were not said"
    assert any(char in "ąćęłńóśźż" for line in spoken(page) for char in line["text"])
    assert felt(page)["sound"] == 0
    page.click("#controls .timer-go")
    assert felt(page)["sound"] == 1, "the sound is made on the tap that starts the clock (Safari plays no other)"
    seconds = int(asks[0].get("timer") or 60)
    page.clock.run_for((seconds - 11) * 1000)
    assert felt(page)["tones"] == [], "no beep before 10 s left"
    page.clock.run_for(1500)
    assert [tone["pitch"] for tone in felt(page)["tones"]] == [880], "one high beep at 10 s left"
    shoot(page, FOLDER, "console-speech-clock-10s")
    page.clock.run_for(10000)
    assert [tone["pitch"] for tone in felt(page)["tones"]] == [880, 440], "one low beep at the end"
    page.clock.run_for(5000)
    assert len(felt(page)["tones"]) == 2, "and nothing after"
    assert page.inner_text("#controls .timer-go") == _("Start the clock", "pl"), "the clock is over: start it again"
    assert page.inner_text("#clock") == "0:00"
    page.set_viewport_size(PHONE)
    shoot(page, FOLDER, "console-speech-clock-over-360x740")
    page.click("#controls .timer-go")  # a speech given again (a tie's second speech): the clock counts anew
    page.clock.run_for(seconds * 1000 + 500)
    assert [tone["pitch"] for tone in felt(page)["tones"]] == [880, 440, 880, 440]
    page.set_viewport_size({"width": 768, "height": 1024})
    page.click("#voice")  # narration off: kept across a reload, nothing more is said
    assert page.get_attribute("#voice", "aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("#play:not([hidden])")
    assert page.get_attribute("#voice", "aria-pressed") == "false", "still off after a reload"
    for _round in range(6):
        tap(page, api_state(server, token), rng, [], "sport")
    assert spoken(page) == [], "narration turned off says nothing"
    context.close()


def test_the_night_sounds_play_at_night_only_and_stay_off_once_turned_off(browser: Any, server: Server) -> None:
    """The shared screen's night ambience, turned on, is silent in the lobby, fades in when the
    table closes its eyes (a slow breathing oscillator under brown noise), out when it opens them;
    turned off by day, the next night is silent, and it stays off after a reload."""
    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0, "lang": "en"})
    tokens = [api(server, "/api/join", {"code": table["code"], "name": f"P{n}"})["token"] for n in range(1, 11)]
    context = browser.new_context(viewport=TV)
    context.add_init_script(FEEL)
    context.add_init_script(once(f"localStorage.setItem('mafioso.host', '{table['host']}'); "
                                 "localStorage.setItem('mafioso.speak', 'off'); localStorage.setItem('mafioso.ambience', 'on')"))
    host = context.new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#lobby:not([hidden])")
    assert host.get_attribute("#ambience", "aria-pressed") == "true"
    assert felt(host)["tones"] == [] and felt(host)["levels"] == [], "no sound in the lobby"
    deal(server, table["host"], 10)
    host.wait_for_function("window.__felt.levels.length > 0")
    assert [tone["pitch"] for tone in felt(host)["tones"]] == pytest.approx([0.08]), "the night's slow breath"
    assert felt(host)["levels"] == [0.25], "faded in at night"
    others = Others(server.url, tokens)
    others.start()
    try:
        host.wait_for_function("window.__felt.phases.some(([phase, secret]) => phase === 'day 1' && !secret)")
        host.wait_for_function("window.__felt.levels.length === 2")
        assert felt(host)["levels"] == [0.25, 0], "faded out by day"
        host.click("#ambience")
        assert host.evaluate("localStorage.getItem('mafioso.ambience')") == "off"
        host.wait_for_function("window.__felt.phases.some(([phase]) => phase === 'night 1')", timeout=60000)
        host.wait_for_function("window.__felt.phases.some(([phase]) => phase === 'day 2')", timeout=60000)
        assert 0.25 not in felt(host)["levels"][2:], "turned off: the next night is silent"
        host.reload()
        host.wait_for_selector("#play:not([hidden])")
        assert host.get_attribute("#ambience", "aria-pressed") == "false", "still off after a reload"
    finally:
        others.stop.set()
        others.join(timeout=15)
    context.close()


def test_a_phone_holds_one_screen_lock_even_when_the_browser_is_slow_to_grant_it(browser: Any, server: Server) -> None:
    """A browser takes a moment to grant a wake lock; a second state arriving meanwhile (here: the
    link drops and comes back) must not ask for a second lock. Two were held before, and only
    the second was let go at the end: the screen stayed on after the game."""
    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0, "lang": "en"})
    tokens = [api(server, "/api/join", {"code": table["code"], "name": f"P{n}"})["token"] for n in range(1, 11)]
    deal(server, table["host"], 10)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script("window.__grant = 1500")
    context.add_init_script(FEEL)
    context.add_init_script(f"localStorage.setItem('mafioso.seat', '{tokens[0]}'); localStorage.setItem('mafioso.seat.code', '{table['code']}')")
    phone = context.new_page()
    phone.goto(f"{server.url}/p?code={table['code']}")
    phone.wait_for_selector("#game:not([hidden])")
    phone.evaluate("window.__drop()")
    phone.wait_for_function("window.__felt.log.filter(e => e.state).length >= 2")
    phone.wait_for_function("window.__held() > 0", timeout=5000)
    phone.wait_for_timeout(1800)  # a second request would have been granted by now
    assert felt(phone)["wake"] == ["request screen"] and phone.evaluate("window.__held()") == 1, felt(phone)["wake"]
    phone.evaluate("window.__hide(true)")
    phone.evaluate("window.__hide(false)")
    phone.wait_for_function("window.__held() === 1", timeout=5000)
    assert felt(phone)["wake"] == ["request screen", "release", "request screen"]
    context.close()
