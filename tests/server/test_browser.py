"""A real browser: Playwright drives Debian's Chromium through a whole game of every edition.

A shared screen at 1920x1080 and a phone per seat at 360x740 play to the end through the pages
only: one phone stalls in public steps (the host calls *Time is up*), a phone and the host
reload at night, and the server is killed and restarted at night. Along the way: the hidden card
is compared pixel for pixel across roles, axe-core checks the pages, and a form being filled in
must survive incoming messages. Screenshots go to ``artifacts/screenshots/EDITION/``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops
from starlette.testclient import TestClient

from mafioso.engine import find_edition
from mafioso.i18n import _ as translated
from mafioso.server.app import create_app
from mafioso.server.hub import Hub
from mafioso.server.schemas import Again
from mafioso.server.store import open_store
from tests.server.browser import AXE, CHROMIUM, PHONE, SHOTS, TV, Server, answer_one, api, axe_violations, shoot
from tests.server.conftest import FakeClock, play_out

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
PLAYERS = {"sport": 10, "vendetta": 7, "vampires": 7, "spytown": 8, "blitz": 7}
"""(Spytown at 8 has two Mafiosi: at 7 its police could vote the only one out on day 1, and the
game end before the night whose screens the test compares.)"""
VOICE = {"vendetta"}
"""Editions played with the shared screen's voice on (the script waits for its lines)."""
OPEN_VOTES = {"sport"}
"""Editions whose day votes are open (hands up): their tally must show on the shared screen."""
AGAIN = "vendetta"
"""The edition whose game ends with *Play again* (into blitz, seats shuffled)."""


PHASE_CLOCK = """
addEventListener("DOMContentLoaded", () => {
  const node = document.getElementById("phase");
  if (!node) return;
  const log = JSON.parse(sessionStorage.getItem("phases") || "[]");
  new MutationObserver(() => {
    log.push([Date.now(), node.textContent]);
    sessionStorage.setItem("phases", JSON.stringify(log));
  }).observe(node, {childList: true, characterData: true, subtree: true});
});
"""
"""Records on the shared screen when each step began (``artifacts/screenshots/EDITION/steps.txt``)."""


def create_table(browser: Any, server: Server, edition: str, players: int, voice: bool = False) -> tuple[Any, str]:
    context = browser.new_context(viewport=TV)
    context.add_init_script(f"localStorage.setItem('mafioso.speak', '{'on' if voice else 'off'}')")
    context.add_init_script(PHASE_CLOCK)
    host = context.new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector(f"#edition option[value={edition}]", state="attached")
    host.select_option("#edition", edition)
    host.fill("#players", str(players))
    shoot(host, edition, "host-setup")
    host.evaluate("document.querySelector('#step').min = 0")  # this server allows instant steps (a test)
    host.fill("#step", "0.3")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#code:not(:empty)")
    code: str = host.inner_text("#code")
    return host, code


def join(browser: Any, server: Server, code: str, name: str) -> Any:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{server.url}/p?code={code}")
    phone.fill("#name", name)
    phone.click("#joinform button")
    phone.wait_for_selector("#lobby:not([hidden])")
    return phone


def play_until(phones: list[Any], host: Any, rng: random.Random, done: Any, stalled: Any = None, limit: float = 150) -> None:
    """Every phone answers, but ``stalled`` only at night: when only it is left in a public step,
    the host presses *Time is up*. (A stalled secret step ends by itself at its limit, 60 s or
    its own timer: ``test_stall.py`` proves that over sockets; here it would only cost minutes.)
    ``done`` is asked after each answer, not only after a round of every phone: a secret step
    everyone answers at once lasts only its hold (0.3 s here), and a round can outlast it."""
    deadline = time.monotonic() + limit
    idle = 0
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        acted = False
        night = stalled is not None and is_night(host)
        for phone in phones:  # looked at after each answer: a short secret step is not missed
            if acted and done():
                break
            if phone is not stalled or night:
                acted |= answer_one(phone, rng, playwright_api.Error)
        idle = 0 if acted else idle + 1
        if idle > 6 and host.is_visible("#timeup"):
            host.click("#timeup")
            idle = 0
        if not acted:
            host.wait_for_timeout(80)


def log_fits(host: Any) -> bool:
    """Every announcement shown on the shared screen is whole: none runs past the screen's or
    its list's bottom edge."""
    return bool(host.evaluate("""() => {
        const log = document.querySelector('#log'), edge = Math.min(innerHeight, log.getBoundingClientRect().bottom);
        return [...log.children].filter(li => !li.hidden).every(li => li.getBoundingClientRect().bottom <= edge + 1);
    }"""))


def is_night(host: Any) -> bool:
    return bool(host.evaluate("document.querySelector('#play').dataset.secret === 'true'"))


def hidden_cards_alike(phones: list[Any], edition: str) -> None:
    """During a secret step, every living phone's whole screen looks the same, pixel for pixel,
    whatever the role: the card face down, "Only you know" hidden and the night question behind
    one closed panel (the header with the holder's name and seat, and passing banners, are masked).
    Face up the border takes the team's colour and "Only you know" opens under it."""
    for phone in phones:
        phone.wait_for_selector("#card .face")
        phone.evaluate("window.scrollTo(0, 0)")  # each page as its holder sees it first
    alive = [phone for phone in phones if phone.evaluate("document.querySelector('#game').dataset.out") != "true"]
    for _ in range(6):  # a step that moves on while the screens are taken is no leak: look again at the next one
        step = same_secret_step(alive)
        assert step, "a secret step shows the closed question panel on every living phone"
        assert not any(phone.is_visible("#prompts .prompt") for phone in alive), "the question opens only on a tap"
        screens = [whole_screen(phone) for phone in alive]
        if same_secret_step(alive, wait=0) == step:
            break
    (SHOTS / edition / "phone-night.png").write_bytes(screens[0])
    differs = [index for index, screen in enumerate(screens) if not looks_alike(screens[0], screen)]
    if differs:  # kept for whoever reads the failure: each phone's screen, by seat order
        for index, screen in enumerate(screens):
            (SHOTS / edition / f"phone-night-differs-{index}.png").write_bytes(screen)
    assert not differs, "a phone at night must look the same for every role"
    assert all(phone.is_hidden("#secret") for phone in phones)
    colours = set()
    for phone in phones:
        phone.click("#card")
        assert phone.is_visible("#secret") and phone.inner_text("#card .role")
        colours.add(phone.evaluate("getComputedStyle(document.querySelector('#card')).borderTopColor"))
        if phone is phones[0]:
            shoot(phone, edition, "phone-card-shown")
        phone.click("#card")
    assert len(colours) > 1, "shown, the border is the team's colour (the teams differ)"


def looks_alike(one: bytes, other: bytes, tolerance: int = 3) -> bool:
    """Two screenshots are the same picture: the same size, and no pixel's colour apart by more
    than ``tolerance`` levels in any channel. Chromium's software rasteriser now and then
    antialiases a rounded corner one or two levels differently from one page to another, which
    no eye can see; anything a neighbour could tell apart (a team's colour, a word, a shape)
    differs by far more (the test shows the team colours differ, below)."""
    first, second = Image.open(io.BytesIO(one)).convert("RGB"), Image.open(io.BytesIO(other)).convert("RGB")
    if first.size != second.size:
        return False
    return all(high <= tolerance for _, high in ImageChops.difference(first, second).getextrema())


def same_secret_step(phones: list[Any], wait: float = 30) -> str:
    """The step every phone shows with its closed night question, once they all show the same one
    (the phase line of the phone's bar); "" if that does not happen within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        steps = {phone.inner_text("#phase") if phone.is_visible("#nightq") else "" for phone in phones}
        if len(steps) == 1 and "" not in steps:
            return steps.pop()
        if time.monotonic() >= deadline:
            return ""
        phones[0].wait_for_timeout(100)


def whole_screen(phone: Any) -> bytes:
    """The phone's screen as a neighbour would glance at it, once it has settled; the holder's
    name and seat (public, and they shift the phase beside them), the clock and passing banners are masked."""
    phone.evaluate("document.getElementById('banner').textContent = ''")
    phone.wait_for_timeout(300)
    masks = [phone.locator(selector) for selector in (".phonebar", "#status", "#banner")]
    shot: bytes = phone.screenshot(mask=masks, animations="disabled")
    return shot


def form_survives(phones: list[Any], host: Any, rng: random.Random) -> bool:
    """A prompt form on screen stays the same element while other messages arrive, so what its
    player half-chose (a multi-pick, a nominee) is kept."""
    for phone in phones:
        form = phone.query_selector("#prompts .prompt")
        if form is None:
            continue
        option = form.query_selector(".opt[aria-pressed]")
        if option is None:
            continue
        option.click()
        form.evaluate("f => { f.dataset.kept = 'yes'; }")
        before = host.evaluate("document.querySelector('#log').textContent")
        for other in phones:
            if other is not phone:
                answer_one(other, rng, playwright_api.Error)
        host.wait_for_timeout(300)
        if host.evaluate("document.querySelector('#log').textContent") == before and not phone.query_selector("[data-kept]"):
            continue
        kept = phone.query_selector("#prompts [data-kept=yes] .opt[aria-pressed=true]")
        gone = phone.query_selector(f"#prompts [data-prompt='{form.get_attribute('data-prompt')}']") is None
        assert kept is not None or gone, "an incoming message threw away a half-made choice"
        return kept is not None
    return False


def play_again(host: Any, phones: list[Any], old: str) -> None:
    """*Play again* into another edition with the seats shuffled: the host screen and every phone
    follow to the new table's lobby (the bot too), and the new game is dealt."""
    host.select_option("#again-edition", "blitz")
    host.select_option("#again-seats", "shuffle")
    host.click("form.again button[type=submit]")
    host.wait_for_selector("#lobby:not([hidden])")
    host.wait_for_function(f"() => document.querySelector('#code').textContent && document.querySelector('#code').textContent !== '{old}'")
    new = host.inner_text("#code")
    assert host.query_selector("#order .botmark"), "the bot comes along"
    assert len(host.query_selector_all("#order li")) == len(phones) + 1
    for phone in phones:
        phone.wait_for_function(f"() => (document.querySelector('#hello') || {{}}).textContent.includes('{new}')")
        assert f"code={new}" in phone.url, "the phone's address follows the new code"
    shoot(host, "blitz", "host-lobby-again")
    host.wait_for_function("() => !document.querySelector('#deal').disabled")
    host.click("#deal")
    host.wait_for_selector("#play:not([hidden])")
    for phone in phones:
        phone.wait_for_selector("#game:not([hidden])")
    shoot(phones[0], "blitz", "phone-after-play-again")


@pytest.mark.parametrize("edition", list(PLAYERS))
def test_a_whole_game_in_the_browser(browser: Any, server: Server, edition: str) -> None:
    rng = random.Random(7)
    players = PLAYERS[edition]
    started = time.monotonic()
    host, code = create_table(browser, server, edition, players, voice=edition in VOICE)
    host.click("#bot")  # a bot takes the first seat
    host.wait_for_selector("#order .botmark")
    phones = [join(browser, server, code, name) for name in NAMES[:players - 1]]
    host.wait_for_function("() => !document.querySelector('#deal').disabled")
    shoot(host, edition, "host-lobby")
    shoot(phones[0], edition, "phone-lobby")
    host.click("#deal")
    host.wait_for_selector("#play:not([hidden])")
    for phone in phones:
        phone.wait_for_selector("#game:not([hidden])")
    assert phones[0].evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
    shoot(host, edition, "host-first-step")
    deadline = time.monotonic() + 30
    while not (asked := [phone for phone in phones if phone.query_selector("#prompts .prompt")]):
        assert time.monotonic() < deadline, "no phone was asked anything"
        host.wait_for_timeout(100)
    shoot(asked[0], edition, "phone-prompt")
    if answer_one(asked[0], rng, playwright_api.Error):  # the answer is confirmed in place, not in a bar over the log
        asked[0].wait_for_timeout(800)  # the ack is back (a bar would stay 2.5 s)
        assert not asked[0].query_selector("#banner.ok"), "the answer's confirmation covers nothing"
    stalled = phones[-1]

    play_until(phones, host, rng, lambda: not is_night(host) and host.query_selector(".seat.speaking, .seat.answering") is not None, stalled)
    form_survives(phones, host, rng)
    shoot(host, edition, "host-day")
    play_until(phones, host, rng, lambda: host.query_selector("#tally li") is not None or is_night(host)
               or host.query_selector(".winners") is not None, stalled)
    if edition in OPEN_VOTES:  # the public vote so far, by name, with a legend
        assert host.query_selector("#tally li") is not None, "a public vote's tally is on the shared screen"
        assert "←" in host.inner_text("#tally") and host.inner_text("#legend"), "the tally reads with its legend"
    if host.query_selector("#tally li") is not None:
        shoot(host, edition, "host-vote")
    assert log_fits(host), "no announcement is cut off at the screen's bottom edge"
    play_until(phones, host, rng, lambda: is_night(host) or host.query_selector(".winners") is not None, stalled)
    # a random game may end on its first day (spytown's police can vote the only Mafioso out):
    # then the checks below run on the end screen instead of at night
    nights = host.query_selector(".winners") is None
    if nights:
        shoot(host, edition, "host-night")
    assert not axe_violations(host), "the table at night (seats out, roles revealed) passes axe-core too"
    hidden_cards_alike(phones, edition)  # by night every edition has dealt its cards (blitz drafts them)
    phones[2].reload()  # a phone reloads at night: it finds its seat again from its stored pass
    phones[2].wait_for_selector("#game:not([hidden])")
    assert phones[2].inner_text("#me").startswith(NAMES[2] + " · seat ")
    assert host.query_selector_all(".seat.bot"), "the bot's seat is marked on the shared screen"
    host.reload()
    host.wait_for_selector("#play:not([hidden])")
    if nights:
        play_until(phones, host, rng, lambda: not is_night(host), stalled)
    stalled = None  # the phone comes back (a stalled secret step costs its whole fixed time)
    play_until(phones, host, rng, lambda: is_night(host) or host.query_selector(".winners") is not None, stalled)
    if host.query_selector(".winners") is None:
        server.kill()  # the server dies at night ...
        host.wait_for_selector("#status:has-text('Reconnecting')")
        server.start()  # ... and comes back: every screen reconnects and the table goes on
        host.wait_for_selector("#status:empty", timeout=15000)
        for phone in phones:
            phone.wait_for_selector("#status:empty", timeout=15000)

    play_until(phones, host, rng, lambda: host.query_selector(".winners") is not None, stalled, limit=300)
    assert host.query_selector_all(".story .chapter li"), "the story is told by phase at the end"
    assert host.is_hidden("#log"), "the story is shown once, not again as a log"
    if host.query_selector("#again-edition"):
        host.wait_for_selector("#again-edition option", state="attached")
    shoot(host, edition, "host-end")
    assert not axe_violations(host), "the end screen passes axe-core"
    phones[0].wait_for_selector("#outcome .verdict")
    verdicts = {phone.inner_text("#outcome .verdict") for phone in phones}
    assert verdicts <= {"You won!", "You lost."} and verdicts, verdicts
    named = host.evaluate("[...document.querySelectorAll('#end p')].map(p => p.textContent).find(t => t.startsWith('Winners:')) || ''")
    assert phones[0].inner_text("#outcome .names") == (named or "Winners: nobody"), \
        "the phone names the winners as the shared screen does, not their team"
    shoot(phones[0], edition, "phone-end")
    if edition == AGAIN:
        play_again(host, phones, code)
    steps = host.evaluate("JSON.parse(sessionStorage.getItem('phases') || '[]')")
    lines = [f"{(at - steps[0][0]) / 1000:7.1f} s  {text}" for at, text in steps] if steps else []
    (SHOTS / edition / "steps.txt").write_text("\n".join(lines) + "\n")
    elapsed = time.monotonic() - started
    (SHOTS / edition).mkdir(parents=True, exist_ok=True)
    (SHOTS / edition / "time.txt").write_text(f"{elapsed:.1f} s\n")


def test_no_serious_accessibility_violations(browser: Any, server: Server) -> None:
    """axe-core, injected into each page, finds nothing serious or critical on the host's setup,
    lobby and table, a phone's join, lobby and game, and a spectator's screen."""
    assert AXE.exists(), "npm ci installs axe-core"
    found: dict[str, list[str]] = {}
    host = browser.new_context(viewport=TV).new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#edition option[value=vendetta]", state="attached")
    found["host setup"] = axe_violations(host)
    host.select_option("#edition", "vendetta")
    host.fill("#players", "6")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#code:not(:empty)")
    code = host.inner_text("#code")
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"{server.url}/p?code={code}")
    phone.wait_for_selector("#join:not([hidden])")
    found["phone join"] = axe_violations(phone)
    phones = [join(browser, server, code, name) for name in NAMES[:6]]
    found["phone lobby"] = axe_violations(phones[0])
    host.wait_for_function("() => !document.querySelector('#deal').disabled")
    found["host lobby"] = axe_violations(host)
    host.click("#deal")
    host.wait_for_selector("#play:not([hidden])")
    phones[0].wait_for_selector("#card .face")
    found["host table"] = axe_violations(host)
    found["phone game"] = axe_violations(phones[0])
    phones[0].click("#card")
    found["phone card"] = axe_violations(phones[0])
    watch = browser.new_context(viewport=TV).new_page()
    watch.goto(f"{server.url}/watch?code={code}")
    watch.wait_for_selector("#play:not([hidden])")
    found["watch"] = axe_violations(watch)
    assert not any(found.values()), found


def test_phone_page_is_small_and_paints_on_a_slow_link(browser: Any, server: Server) -> None:
    """The phone's page over an emulated 400 ms, 1 Mbit/s link: under 60 kB compressed, and it
    paints. The figures are written to ``artifacts/page-weight.txt``; how fast it paints depends on
    the machine's load, so that is measured by ``benchmarks/bench_phone_page.py``, not asserted here."""
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 400,
                                                  "downloadThroughput": 125_000, "uploadThroughput": 125_000})
    received: list[int] = []
    cdp.on("Network.loadingFinished", lambda event: received.append(int(event["encodedDataLength"])))
    page.goto(server.url + "/p?code=ABCD", wait_until="load")
    page.wait_for_timeout(300)
    paint = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || -1")
    text = page.evaluate("fetch('/api/text?lang=en').then(r => r.status)")
    assert text == 200
    weight = sum(received)
    SHOTS.parent.mkdir(parents=True, exist_ok=True)
    (SHOTS.parent / "page-weight.txt").write_text(f"phone page {weight} bytes on the wire, first contentful paint {paint:.0f} ms "
                                                  "(400 ms latency, 1 Mbit/s)\n")
    assert paint > 0, "the page painted"
    assert weight < 60_000, weight
    with contextlib.suppress(Exception):
        context.close()


def test_the_favicon_is_served(server: Server) -> None:
    """Browsers ask for ``/favicon.ico`` on every page: it is a small icon, not a 404."""
    import urllib.request

    with urllib.request.urlopen(server.url + "/favicon.ico") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("image/")
        assert 0 < len(response.read()) < 2048


def test_pages_are_served_compressed(server: Server) -> None:
    import urllib.request

    for path in ("/p", "/host", "/static/host.js", "/static/style.css"):
        request = urllib.request.Request(server.url + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            assert response.headers.get("Content-Encoding") == "gzip", path


def test_decision_round_trip_latency(server: Server) -> None:
    """Time from a phone's decision to its acknowledgement (stored and committed), over a real socket."""
    import json
    import statistics

    from websockets.sync.client import connect

    from mafioso.agents.base import random_choice
    from mafioso.server.ws import pad_frame
    from tests.server.helpers import as_prompt

    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0})
    tokens = [api(server, "/api/join", {"code": table["code"], "name": f"P{n}"})["token"] for n in range(10)]
    ws_url = server.url.replace("http", "ws") + "/ws"
    with connect(ws_url) as host:
        host.send(json.dumps({"type": "hello", "host": table["host"]}))
        host.recv()
        host.send(json.dumps({"type": "deal", "order": list(range(1, 11))}))
        host.recv()
    rng = random.Random(1)
    times: list[float] = []
    with contextlib.ExitStack() as stack:
        phones = [stack.enter_context(connect(ws_url)) for _ in tokens]
        for phone, token in zip(phones, tokens, strict=True):
            phone.send(pad_frame({"type": "hello", "seat": token}))
        latest = [json.loads(phone.recv(timeout=20)) for phone in phones]
        while len(times) < 60:
            for index, phone in enumerate(phones):
                for raw in latest[index].get("prompts", [])[:1]:
                    choice = random_choice(as_prompt(raw), rng)
                    started = time.perf_counter()
                    phone.send(pad_frame({"type": "decide", "prompt": raw["id"], "choice": choice}))
                    while True:
                        message = json.loads(phone.recv(timeout=20))  # never wait forever
                        assert message.get("type") != "error", message
                        if message.get("type") == "ack":
                            times.append(time.perf_counter() - started)
                            break
                        if message.get("type") == "state":
                            latest[index] = message
                for other, sock in enumerate(phones):  # take in every screen's newest state
                    while True:
                        try:
                            message = json.loads(sock.recv(timeout=0.003))
                        except TimeoutError:
                            break
                        if message.get("type") == "state":
                            latest[other] = message
    median = statistics.median(times) * 1000
    worst = max(times) * 1000
    SHOTS.parent.mkdir(parents=True, exist_ok=True)
    (SHOTS.parent / "latency.txt").write_text(f"decisions {len(times)} median {median:.1f} ms max {worst:.1f} ms\n")
    assert median < 100, f"median decision round trip {median:.1f} ms"


FAKE_VOICE = """
window.__said = [];
window.__ends = [];
const fake = {
  speak(u) { window.__said.push(u.text); window.__ends.push(() => u.onend && u.onend()); },
  cancel() {}, getVoices() { return [{name: "Ada", lang: "en-GB"}, {name: "Olga", lang: "ru-RU"}]; },
  addEventListener() {},
};
Object.defineProperty(window, "speechSynthesis", {value: fake});
window.SpeechSynthesisUtterance = function (text) { this.text = text; };
"""


def test_the_voice_keeps_pace_summarises_and_resumes(browser: Any, server: Server) -> None:
    """The narrator speaks one line at a time and reports a line as spoken when it ENDS; a pile
    of unspoken lines becomes one summary; a reload resumes at the first unspoken line."""
    context = browser.new_context()
    context.add_init_script(FAKE_VOICE)
    page = context.new_page()
    page.goto(server.url + "/static/schema.json")
    page.evaluate("""async () => {
        const {narrator} = await import("/static/narrator.js");
        localStorage.setItem("mafioso.speak", "on");
        window.__sent = [];
        window.__voice = narrator(m => window.__sent.push(m));
        window.__line = n => ({n, kind: n % 3 ? "say" : "phase", text: "line " + n, public: true});
    }""")
    page.evaluate("window.__voice.hear([0, 1].map(window.__line), 'T1', 'en')")
    assert page.evaluate("window.__said") == ["line 0"], "one line at a time"
    assert page.evaluate("window.__sent") == [], "nothing is spoken before its line ends"
    page.evaluate("window.__ends.shift()()")
    assert page.evaluate("window.__sent") == [{"type": "spoken", "upto": 1}]
    page.wait_for_function("window.__said.length === 2")
    assert page.evaluate("localStorage.getItem('mafioso.spoken.T1')") == "1", "a reload would resume at line 1"
    page.evaluate("window.__ends.shift()()")
    page.evaluate("window.__voice.hear([0, 1, 2, 3, 4, 5, 6, 7].map(window.__line), 'T1', 'en')")
    page.wait_for_function("window.__said.length === 3")
    said = page.evaluate("window.__said[2]")
    assert said == "line 6. line 7", f"six unspoken lines are summarised as where we are now, not queued: {said!r}"
    page.evaluate("window.__ends.shift()()")
    page.wait_for_function("window.__sent.length === 3")
    assert page.evaluate("window.__sent[2]") == {"type": "spoken", "upto": 8}
    assert page.evaluate("window.__voice.voices()") == ["Ada"], "the voices of the table's language"
    page.evaluate("window.__voice.set(false)")
    assert page.evaluate("window.__sent.at(-1)") == {"type": "spoken", "upto": None}, "voice off: do not wait"
    context.close()


def test_a_phone_follows_a_new_join_code(browser: Any, server: Server) -> None:
    """A phone holding a seat pass of one table, opened with another table's code (its QR code),
    drops the old pass and offers to join the new table, instead of showing the old game."""
    first = api(server, "/api/tables", {"edition": "vendetta", "players": 6})
    second = api(server, "/api/tables", {"edition": "blitz", "players": 6})
    phone = join(browser, server, first["code"], "Ann")
    phone.goto(f"{server.url}/p?code={second['code']}")
    phone.wait_for_selector("#join:not([hidden])")
    assert phone.input_value("#code") == second["code"]
    assert phone.input_value("#name") == "Ann", "the name is remembered"
    assert phone.evaluate("localStorage.getItem('mafioso.seat')") is None
    phone.click("#joinform button")
    phone.wait_for_selector("#lobby:not([hidden])")
    assert second["code"] in phone.inner_text("#hello")
    phone.goto(f"{server.url}/p")
    phone.wait_for_selector("#lobby:not([hidden])")  # without a code, the stored seat is kept
    assert second["code"] in phone.inner_text("#hello")


def left_out_of_play_again(db: Path) -> tuple[str, str, str]:
    """A finished table of ten people, then Play again with six seats, stored in ``db`` for a
    server to load: the old code, the new code and the pass of a person left without a seat."""
    clock = FakeClock()
    clock.now = time.time()  # a table finished "in 1970" would be swept away as expired
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(str(db)), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    old = hub.create({"edition": "sport", "players": 10, "step_seconds": 0, "lang": "ru"})
    for number in range(10):
        old.join(f"Игрок {number + 1}")
    old.deal([m.joined for m in old.record.members])
    play_out(old, 3, clock)
    new = hub.again(old, Again(type="again", edition="vampires", players=6, step_seconds=0, seats="keep", lang="ru"))
    left = [m.token for m in old.record.members if "pass" not in (hub.moved(m.token) or {"pass": ""})]
    assert len(left) == 4
    return old.code, new.code, left[0]


def test_a_phone_left_out_of_play_again_finds_the_new_table(browser: Any, tmp_path: Path) -> None:
    """Play again with fewer seats: a phone whose pass kept no seat, on the old table's page or
    at /p, opens the new table's join form with its code filled in (never "Reconnecting…"
    forever), and a new phone at the old code (its QR code still on the wall) does too."""
    old, new, stale = left_out_of_play_again(tmp_path / "tables.sqlite3")
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    try:
        for address in (f"/p?code={old}", "/p"):
            context = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU")
            context.add_init_script(f"if (!sessionStorage.getItem('set')) {{ sessionStorage.setItem('set', '1'); "
                                    f"localStorage.setItem('mafioso.seat', '{stale}'); "
                                    f"localStorage.setItem('mafioso.seat.code', '{old}'); }}")
            phone = context.new_page()
            phone.goto(server.url + address)
            phone.wait_for_selector("#join:not([hidden])", timeout=15000)
            phone.wait_for_function(f"() => document.querySelector('#code').value === '{new}'")
            assert f"code={new}" in phone.url
            assert phone.evaluate("localStorage.getItem('mafioso.seat')") is None, "the stale pass is forgotten"
            phone.wait_for_function("() => document.querySelector('#joinform').textContent.includes('Ваше имя')")
            assert "Reconnecting" not in phone.inner_text("body")
            shoot(phone, "again", "phone-left-out" + ("-p" if address == "/p" else ""))
            context.close()
        fresh = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
        fresh.goto(f"{server.url}/p?code={old}")
        fresh.wait_for_function(f"() => document.querySelector('#code').value === '{new}'")
        assert f"code={new}" in fresh.url, "the old code's page leads to the new table"
    finally:
        server.kill()


def finished_with_bots(db: Path) -> tuple[str, str]:
    """A finished Russian table of ten seats, three of them bots, stored in ``db`` for a server
    to load: its code and its host pass."""
    clock = FakeClock()
    clock.now = time.time()
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(str(db)), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    old = hub.create({"edition": "sport", "players": 10, "step_seconds": 0, "lang": "ru"})
    for number in range(7):
        old.join(f"Игрок {number + 1}")
    for _ in range(3):
        old.add_bot()
    old.deal([m.joined for m in old.record.members])
    play_out(old, 5, clock)
    return old.code, old.record.host_token


def test_play_again_into_more_seats_and_another_language(browser: Any, tmp_path: Path) -> None:
    """The shared screen after Play again from a Russian table of ten into an English one of
    twelve: the edition names fit their box, the bots' mark speaks the new language, and the
    circle places all twelve seats without overlap (boxes kept from the first table move too)."""
    code, host_pass = finished_with_bots(tmp_path / "tables.sqlite3")
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    try:
        context = browser.new_context(viewport=TV, locale="ru-RU")
        context.add_init_script(f"localStorage.setItem('mafioso.speak', 'off'); localStorage.setItem('mafioso.host', '{host_pass}')")
        host = context.new_page()
        host.goto(server.url + "/host")
        host.wait_for_selector("#again-edition option[value=vendetta]", state="attached")
        cut = host.evaluate("""() => {
            const s = document.querySelector('#again-edition'), c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(s).font;
            return [...s.options].filter(o => c.measureText(o.text).width > s.clientWidth - 28).map(o => o.text); }""")
        assert not cut, f"edition names cut in the Play again box: {cut}"
        shoot(host, "again", "host-end-ru")
        host.select_option("#again-edition", "vampires")
        host.fill("#again-players", "12")
        host.select_option("#again-lang", "en")
        host.click("form.again button[type=submit]")
        host.wait_for_function(f"() => document.querySelector('#code').textContent && document.querySelector('#code').textContent !== '{code}'")
        host.wait_for_function("() => document.querySelector('#lobby .botmark') && document.querySelector('#lobby .botmark').textContent === ' · bot'")
        for _ in range(2):
            host.wait_for_function("() => !document.querySelector('#bot').disabled")
            count = len(host.query_selector_all("#order li"))
            host.click("#bot")
            host.wait_for_function(f"() => document.querySelectorAll('#order li').length > {count}")
        assert {m.strip() for m in host.eval_on_selector_all("#lobby .botmark", "ns => ns.map(n => n.textContent)")} == {"· bot"}
        host.wait_for_function("() => !document.querySelector('#deal').disabled")
        host.click("#deal")
        host.wait_for_selector("#play:not([hidden])")
        host.wait_for_function("() => document.querySelectorAll('#circle .seat').length === 12")
        boxes = host.eval_on_selector_all("#circle .seat", "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        overlaps = [(i, j) for i in range(12) for j in range(i + 1, 12)
                    if boxes[i][0] < boxes[j][2] - 1 and boxes[j][0] < boxes[i][2] - 1
                    and boxes[i][1] < boxes[j][3] - 1 and boxes[j][1] < boxes[i][3] - 1]
        shoot(host, "again", "host-twelve-after-ten")
        assert not overlaps, f"seat boxes overlap after Play again into more seats: {overlaps}"
        marks = host.eval_on_selector_all("#circle .seat.bot .mark", "ns => ns.map(n => n.textContent)")
        assert marks and all("бот" not in m for m in marks), marks
    finally:
        server.kill()


def dealt_tables(db: Path, lang: str) -> list[tuple[str, str]]:
    """For every edition, a table dealt at its most seats and at eight (Blitz's eight roles),
    stored in ``db`` for a server to load: (edition, host pass) pairs."""
    clock = FakeClock()
    clock.now = time.time()
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(str(db)), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    made: list[tuple[str, str]] = []
    for edition in PLAYERS:
        rules = find_edition(edition)
        for players in sorted({rules.max_players, max(rules.min_players, 8)}):
            table = hub.create({"edition": edition, "players": players, "step_seconds": 0, "lang": lang})
            for number in range(players):
                table.join(f"Игрок {number + 1}")
            table.deal([m.joined for m in table.record.members])
            made.append((f"{edition}-{players}", table.record.host_token))
    return made


def test_the_roles_sheet_and_the_announcements_fit_the_tv(browser: Any, tmp_path: Path) -> None:
    """At 1920x1080, for every edition at eight seats and at its most, in Russian (the longest
    words) and English: the whole roles sheet shows without scrolling (in columns when long),
    in type readable from 3 m (24 px and more), within the side column, and the announcements
    under it keep a visible height; and every player's name shows whole in its seat on the circle
    (smaller and on two lines at many seats: at 21 seats a name was cut to two letters)."""
    tables = [(f"{lang}-{name}", host_pass) for lang in ("ru", "en")
              for name, host_pass in dealt_tables(tmp_path / "tables.sqlite3", lang)]
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    bad, columns = {}, {}
    try:
        context = browser.new_context(viewport=TV, locale="ru-RU")
        context.add_init_script("localStorage.setItem('mafioso.speak', 'off')")
        host = context.new_page()
        host.goto(server.url + "/host?new=1")  # the origin, for its storage
        for name, host_pass in tables:
            host.evaluate(f"localStorage.setItem('mafioso.host', '{host_pass}')")
            host.goto(server.url + "/host")
            host.wait_for_selector("#play:not([hidden]) #roles li")
            host.wait_for_function("() => document.querySelector('#log li')")
            sizes = host.evaluate("""() => {
                const side = document.querySelector('.side').getBoundingClientRect();
                const box = document.querySelector('#rolesbox'), log = document.querySelector('#log').getBoundingClientRect();
                const sheet = box.getBoundingClientRect(), items = [...box.querySelectorAll('li')].map(li => li.getBoundingClientRect());
                const type = [...box.querySelectorAll('li b, li span')].map(n => parseFloat(getComputedStyle(n).fontSize));
                return {log: log.height, logBottom: log.bottom, sheetBottom: sheet.bottom, sideBottom: side.bottom,
                        sideRight: side.right, view: innerHeight, scrolls: box.scrollHeight > box.clientHeight + 1,
                        lowest: Math.max(...items.map(r => r.bottom)), rightmost: Math.max(...items.map(r => r.right)),
                        type: Math.min(...type), columns: getComputedStyle(document.querySelector('#roles')).columnCount,
                        cut: [...document.querySelectorAll('#circle .seat .name')].filter(n =>
                            n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1).map(n => n.textContent)};
            }""")
            shoot(host, "tv-fit", name)
            columns[name] = sizes["columns"]
            if sizes["log"] < 100 or sizes["logBottom"] > sizes["view"] or sizes["sheetBottom"] > sizes["sideBottom"] + 1 \
                    or sizes["scrolls"] or sizes["lowest"] > sizes["sheetBottom"] + 1 or sizes["lowest"] > sizes["view"] \
                    or sizes["rightmost"] > sizes["sideRight"] + 1 or sizes["type"] < 24 or sizes["cut"]:
                bad[name] = sizes
    finally:
        server.kill()
    (SHOTS / "tv-fit").mkdir(parents=True, exist_ok=True)
    (SHOTS / "tv-fit" / "columns.txt").write_text("".join(f"{name}: {count}\n" for name, count in columns.items()))
    assert not bad, bad


def test_a_long_winners_heading_stays_on_one_line(browser: Any, tmp_path: Path) -> None:
    """Blitz names up to five winning teams ("Победа: Федерал, Мирный, Мститель, Рупор, Крыса"):
    at 1920x1080 the heading fits one line, in smaller type when it must, yet stays large."""
    clock = FakeClock()
    clock.now = time.time()
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(str(tmp_path / "tables.sqlite3")), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    ends: list[tuple[str, str]] = []
    for seed in range(1, 40):  # games until two end with five winning teams
        lang = ("ru", "en")[len(ends)]
        table = hub.create({"edition": "blitz", "players": 12, "step_seconds": 0, "lang": lang})
        for number in range(12):
            table.join(f"Игрок {number + 1}")
        table.deal([m.joined for m in table.record.members])
        play_out(table, seed, clock)
        assert table.game is not None and table.game.outcome is not None
        if len(table.game.outcome.winners) == 5:
            ends.append((lang, table.record.host_token))
            if len(ends) == 2:
                break
    assert len(ends) == 2
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    try:
        host = browser.new_context(viewport=TV).new_page()
        host.goto(server.url + "/host?new=1")
        for lang, host_pass in ends:
            host.evaluate(f"localStorage.setItem('mafioso.host', '{host_pass}'); localStorage.setItem('mafioso.speak', 'off')")
            host.goto(server.url + "/host")
            host.wait_for_selector(".winners")
            host.wait_for_timeout(300)
            box = host.evaluate("""() => { const h = document.querySelector('.winners'), r = h.getBoundingClientRect();
                const size = parseFloat(getComputedStyle(h).fontSize);
                return {height: r.height, size, wide: h.scrollWidth > h.clientWidth, text: h.textContent}; }""")
            shoot(host, "winners", f"blitz-five-{lang}")
            assert box["height"] < box["size"] * 1.8 and not box["wide"], box
            assert box["size"] >= 30, f"still readable across the room: {box}"
    finally:
        server.kill()


def test_the_second_play_again_form_speaks_the_second_tables_language(browser: Any, tmp_path: Path) -> None:
    """A Russian table of bots, Play again into Polish, played to its end by the bots: the
    second end's Play again form names the editions in Polish, not in the first table's Russian."""
    clock = FakeClock()
    clock.now = time.time()
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(str(tmp_path / "tables.sqlite3")), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    first = hub.create({"edition": "sport", "players": 10, "step_seconds": 0, "lang": "ru"})
    for _ in range(10):
        first.add_bot()
    first.deal([m.joined for m in first.record.members])
    play_out(first, 2, clock)
    named = {lang: {e["id"]: e["name"] for e in editions} for lang in ("ru", "pl")
             for editions in [json.loads(hub_editions(lang))]}
    assert named["ru"]["sport"] != named["pl"]["sport"]
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    try:
        context = browser.new_context(viewport=TV)
        context.add_init_script(f"localStorage.setItem('mafioso.speak', 'off'); "
                                f"if (!localStorage.getItem('mafioso.host')) localStorage.setItem('mafioso.host', '{first.record.host_token}')")
        host = context.new_page()
        host.goto(server.url + "/host")
        host.wait_for_function(f"() => [...document.querySelectorAll('#again-edition option')].some(o => o.text === {json.dumps(named['ru']['sport'])})")
        host.select_option("#again-lang", "pl")
        host.click("form.again button[type=submit]")
        host.wait_for_function(f"() => document.querySelector('#code').textContent && document.querySelector('#code').textContent !== '{first.code}'")
        host.wait_for_function("() => !document.querySelector('#deal').disabled")
        host.click("#deal")
        host.wait_for_selector("#play:not([hidden])")
        host.wait_for_selector("#end", state="hidden")  # the first table's end is gone
        deadline = time.monotonic() + 240
        while not host.is_visible("#end .winners"):  # the bots think for seconds: Time is up hurries them
            assert time.monotonic() < deadline, "the bots' game did not end in time"
            if host.is_visible("#timeup"):
                with contextlib.suppress(playwright_api.Error):
                    host.click("#timeup", timeout=1000)
            host.wait_for_timeout(150)
        with contextlib.suppress(playwright_api.Error):  # on failure, the shot shows what was there
            host.wait_for_function(f"() => [...document.querySelectorAll('#again-edition option')].some(o => o.text === {json.dumps(named['pl']['sport'])})")
        shoot(host, "again", "host-second-end-pl")
        shown = host.eval_on_selector_all("#again-edition option", "ns => ns.map(n => n.text)")
        assert sorted(shown) == sorted(named["pl"].values()), shown
    finally:
        server.kill()


def hub_editions(lang: str) -> str:
    """``GET /api/editions?lang=`` as the server answers it, without a server."""
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as client:
        text: str = client.get(f"/api/editions?lang={lang}").text
        return text


def test_the_join_form_speaks_the_tables_language(browser: Any, server: Server) -> None:
    """``/p?code=X`` of a Russian or Polish table shows its join form in that language (the code
    tells the table's public language), whatever the phone's own; without a code, the phone's."""
    for lang, words in (("ru", "Ваше имя"), ("pl", "Twoje imię")):
        table = api(server, "/api/tables", {"edition": "sport", "players": 10, "lang": lang})
        phone = browser.new_context(viewport=PHONE, locale="en-US").new_page()
        phone.goto(f"{server.url}/p?code={table['code']}")
        phone.wait_for_function(f"() => document.querySelector('#joinform').textContent.includes('{words}')")
        assert phone.evaluate("document.documentElement.lang") == lang
    phone = browser.new_context(viewport=PHONE, locale="pl-PL").new_page()
    phone.goto(f"{server.url}/p")
    phone.wait_for_function("() => document.querySelector('#joinform').textContent.includes('Twoje imię')")


def test_bad_input_keeps_a_clear_error_and_changes_nothing(browser: Any, server: Server) -> None:
    """A refused form keeps the page as it was and says why, in words, until the next try."""
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"{server.url}/p?code=ZZZZZ")
    phone.fill("#name", "Ann")
    phone.click("#joinform button")
    phone.wait_for_selector("#banner.sticky")
    said = phone.inner_text("#banner")
    assert said and "{" not in said and "Traceback" not in said, said
    assert phone.is_visible("#join") and phone.input_value("#name") == "Ann", "the form keeps what was typed"
    host = browser.new_context(viewport=TV).new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#edition option[value=sport]", state="attached")
    host.select_option("#edition", "vendetta")
    host.evaluate("document.querySelector('#players').removeAttribute('max')")
    host.fill("#players", "99")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#banner.sticky")
    assert host.inner_text("#banner") and host.is_visible("#setup"), "refused: still on the form, with the reason"
    assert host.input_value("#players") == "99"


def test_an_incoming_message_keeps_a_half_made_choice(browser: Any, server: Server) -> None:
    """The pages patch the DOM: a prompt form already on screen is kept as it is (its choices
    made so far, the focus) when the next state lists it again, and only new forms are built."""
    page = browser.new_context().new_page()
    page.goto(server.url + "/static/schema.json")
    page.evaluate("""async () => {
        const M = await import("/static/common.js");
        window.M = M;
        document.body.innerHTML = '<div id="banner"></div><div id="box"></div>';
        const opts = [1, 2, 3, 4].map(n => ({value: n, label: "Seat " + n}));
        window.pick = {id: "n1.order", seat: 3, act: "order", title: "Order the kills", kind: "choose_many",
          options: opts, optional: false, timer: null, interrupt: false, facts: [], min: 1, max: 3};
        window.vote = {...window.pick, id: "d1.vote", title: "Vote", kind: "choose", min: null, max: null};
        window.draw = list => M.keyed(document.getElementById("box"), list, M.promptKey, p => M.promptForm(p, () => {}));
        window.draw([window.pick]);
    }""")
    assert page.inner_text("#box .count") == "Pick from 1 to 3, in order.", "what to pick, in words"
    assert page.is_disabled("#box .go"), "nothing picked yet: nothing to send"
    page.click("#box .opt >> nth=1")
    page.focus("#box .opt >> nth=2")
    page.evaluate("window.draw([window.vote, window.pick])")  # the next message: one more prompt
    assert page.get_attribute("#box [data-prompt='n1.order'] .opt >> nth=1", "aria-pressed") == "true"
    assert page.evaluate("document.activeElement.textContent") == "Seat 3", "the focus stays"
    assert page.inner_text("#box [data-prompt='n1.order'] .count") == "Chosen in order: Seat 2"
    assert page.evaluate("[...document.querySelectorAll('#box [data-prompt]')].map(n => n.dataset.prompt)") == \
        ["d1.vote", "n1.order"], "order follows the message"
    page.evaluate("window.draw([window.vote])")
    assert page.query_selector("#box [data-prompt='n1.order']") is None, "a prompt gone from the message goes"


def test_the_setup_form_speaks_to_people(browser: Any, server: Server) -> None:
    """Every edition's options are labelled for people: no option keys, no pointers into the
    repository's docs."""
    host = browser.new_context(viewport=TV).new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#edition option[value=sport]", state="attached")
    for edition in PLAYERS:
        host.select_option("#edition", edition)
        host.wait_for_function(f"() => document.querySelector('#edition').value === '{edition}'")
        labels = host.eval_on_selector_all("#options label, #options option", "nodes => nodes.map(n => n.textContent)")
        values = [json.loads(v) for v in host.eval_on_selector_all("#options option", "nodes => nodes.map(n => n.value)")]
        raw = {v for v in values if isinstance(v, str) and v.islower()}  # a key such as "lord", "civilian"
        assert labels and not [label for label in labels if "_" in label or "[object" in label or not label.strip()], (edition, labels)
        assert not [label for label in labels if label in raw], (edition, "raw option keys", labels)
        assert "docs/" not in host.inner_text("#setup"), edition


def russian_setup(host: Any, server: Server, edition: str) -> Any:
    """The host's setup form switched to Russian (the form redrawn in it), with ``edition`` chosen."""
    host.goto(server.url + "/host")
    host.wait_for_selector("#lang option[value=ru]", state="attached")
    host.select_option("#lang", "ru")
    host.wait_for_function("() => document.querySelector('#setupform button[type=submit]').textContent !== 'Create the table'")
    host.wait_for_selector(f"#edition option[value={edition}]", state="attached")
    host.select_option("#edition", edition)
    return host


def test_role_lists_in_the_setup_form_are_role_chips(browser: Any, server: Server) -> None:
    """Vendetta's specialists and Vampires' special roles are choice chips named in the form's
    language (never ids), in a named group of toggle buttons: worked by the keyboard alone, the
    order pressed is said in words and is what the server gets; a choice that makes the cast
    impossible is refused with the engine's own words, in Russian."""
    ru = {e["id"]: e for e in api(server, "/api/editions?lang=ru")}
    roles = {r["id"]: r["name"] for r in ru["vendetta"]["roles"]}
    label = {o["name"]: o["label"] for o in ru["vendetta"]["options"]}
    host = russian_setup(browser.new_context(viewport=TV, locale="ru-RU").new_page(), server, "vendetta")
    group = host.get_by_role("group", name=label["specialists"], exact=True)
    group.wait_for()
    chips = group.get_by_role("button")
    names = chips.all_inner_texts()
    assert len(names) == 5 and all(any(roles[i] in n for n in names) for i in ("nurse", "vixen", "journalist")), names
    assert not [i for i in roles if i in host.inner_text("#options")], "no role ids on the form"
    assert group.get_by_role("button", pressed=True).count() == 5, "the rulebook's preference, all five in order"
    shoot(host, "setup", "role-chips-ru")
    while group.get_by_role("button", pressed=True).count():
        group.get_by_role("button", pressed=True).first.focus()
        host.keyboard.press("Space")  # the keyboard alone
    for role in ("vixen", "nurse"):
        group.get_by_role("button", name=roles[role]).press("Enter")
    assert host.inner_text("#opt-specialists .count") == translated("Chosen in order: {list}", "ru").replace(
        "{list}", f"{roles['vixen']}, {roles['nurse']}"), "the order said in words"
    assert not axe_violations(host), "the chips pass axe-core"
    host.fill("#players", "8")
    host.evaluate("document.querySelector('#step').min = 0")
    host.fill("#step", "0.3")
    with host.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        host.click("#setupform button[type=submit]")
    assert sent.value.post_data_json["options"]["specialists"] == "vixen,nurse"
    host.wait_for_selector("#code:not(:empty)")
    assert not host.inner_text("#banner")
    vampires = russian_setup(browser.new_context(viewport=TV, locale="ru-RU").new_page(), server, "vampires")
    vampires.fill("#players", "8")
    vampires.evaluate("document.querySelector('#step').min = 0")
    vampires.fill("#step", "0.3")
    special = {o["name"]: o["label"] for o in ru["vampires"]["options"]}["special_vampires"]
    unpressed = vampires.get_by_role("group", name=special, exact=True).get_by_role("button", pressed=False)
    while unpressed.count():
        unpressed.first.press("Enter")  # every special vampire: too many for eight seats
    with vampires.expect_response(lambda r: r.url.endswith("/api/tables")) as answer:
        vampires.click("#setupform button[type=submit]")
    refusal = answer.value.json()["error"]
    vampires.wait_for_selector("#banner.sticky")
    assert vampires.inner_text("#banner") == refusal and not refusal.isascii(), refusal
    shoot(vampires, "setup", "role-chips-refused-ru")


def test_a_custom_cast_is_counted_with_steppers(browser: Any, server: Server) -> None:
    """*Choose the roles yourself*: a count per role between buttons named for it in the form's
    language ("Больше: Медсестра"), worked by the keyboard; the counts are what the server gets,
    and a cast the edition refuses is refused in the engine's own (Russian) words."""
    roles = {r["id"]: r["name"] for e in api(server, "/api/editions?lang=ru") if e["id"] == "vendetta" for r in e["roles"]}
    host = russian_setup(browser.new_context(viewport=TV, locale="ru-RU").new_page(), server, "vendetta")
    host.fill("#players", "8")
    host.evaluate("document.querySelector('#step').min = 0")
    host.fill("#step", "0.3")
    host.get_by_role("checkbox", name=translated("Choose the roles yourself (instead of the rulebook's)", "ru")).check()
    bystander = host.get_by_role("group", name=roles["bystander"], exact=True)
    bystander.get_by_role("status").filter(has_text="4").wait_for()  # the rulebook's cast to start from

    def press(word: str, role: str) -> None:
        host.get_by_role("button", name=translated(word, "ru").replace("{role}", roles[role]), exact=True).press("Enter")

    press("More: {role}", "bystander")
    press("More: {role}", "bystander")
    press("Fewer: {role}", "nurse")
    shoot(host, "setup", "custom-cast-ru")
    assert not axe_violations(host), "the steppers pass axe-core"
    with host.expect_response(lambda r: r.url.endswith("/api/tables")) as answer:
        host.click("#setupform button[type=submit]")
    assert answer.value.request.post_data_json["cast"] == {**{r: 0 for r in roles}, "detective": 1, "thug": 2, "bystander": 6}
    refusal = answer.value.json()["error"]
    host.wait_for_selector("#banner.sticky")
    assert host.inner_text("#banner") == refusal and not refusal.isascii(), "nine roles for eight seats: refused in Russian"
    press("Fewer: {role}", "bystander")
    press("More: {role}", "nurse")
    press("Fewer: {role}", "bystander")
    with host.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        host.click("#setupform button[type=submit]")
    assert sent.value.post_data_json["cast"] == {**{r: 0 for r in roles}, "detective": 1, "nurse": 1, "thug": 2, "bystander": 4}
    host.wait_for_selector("#code:not(:empty)")


def test_a_setup_refusal_goes_once_the_table_is_made(browser: Any, server: Server) -> None:
    """A refused setup stays up until fixed, but not over the table once it exists: the shared
    screen would show it all evening, over seat 1 and the winners."""
    host = browser.new_context(viewport=TV).new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#edition option[value=sport]", state="attached")
    host.select_option("#edition", "sport")
    host.evaluate("document.querySelector('#step').min = 0; document.querySelector('#setupform').noValidate = true")
    host.fill("#step", "0.3")
    host.fill("#players", "3")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#banner.sticky")
    host.fill("#players", "10")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#code:not(:empty)")
    host.wait_for_function("() => !document.querySelector('#banner').textContent")
    assert host.is_hidden("#banner.sticky")


def blitz_deal_looks_alike(phones: list[Any], rng: random.Random) -> None:
    """Blitz deals card by card: while it goes on, a phone that has drawn its card and one that
    has not yet must look the same at a glance (pixel for pixel); tapped, each shows its own.
    Whose turn it is to draw is public, but the two cards drawn are not: the drawing phone keeps
    them behind the closed question panel until its holder taps it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        asked = [phone for phone in phones if phone.query_selector("#prompts .prompt")]
        if asked:
            asked[0].wait_for_selector("#nightq:not([hidden])")
            assert not asked[0].is_visible("#prompts .prompt"), "the cards drawn show only on a tap"
            shoot(asked[0], "ru-blitz", "phone-drawing")
        if asked and answer_one(asked[0], rng, playwright_api.Error):
            break
        phones[0].wait_for_timeout(100)
    for _ in range(5):
        phones[0].wait_for_timeout(300)
        waiting = [phone for phone in phones if not phone.query_selector("#prompts .prompt")]
        for phone in waiting:
            phone.wait_for_selector("#card .face")
            phone.evaluate("window.scrollTo(0, 0)")
        screens = [whole_screen(phone) for phone in waiting]
        if all(looks_alike(screens[0], screen) for screen in screens):
            break
    (SHOTS / "ru-blitz").mkdir(parents=True, exist_ok=True)
    (SHOTS / "ru-blitz" / "phone-deal.png").write_bytes(screens[0])
    holders: list[bool] = []
    for phone in waiting:
        phone.click("#card")
        holders.append(phone.query_selector("#card .role") is not None)
        if not holders[-1]:
            shoot(phone, "ru-blitz", "phone-deal-no-card-yet-tapped")
        phone.click("#card")
    assert all(looks_alike(screens[0], screen) for screen in screens), \
        "during the deal, a phone with a card and one without must look the same"
    assert any(holders) and not all(holders), f"the comparison saw phones with and without a card: {holders}"


def test_a_whole_game_in_russian(browser: Any, server: Server) -> None:
    """A Russian table (Blitz, 7 seats, one a bot), host and phones, to the end through the pages:
    axe-core on every page at every stage, the deal's secrecy at a glance, and every screen in
    Russian (no English verdict, title or button). Screenshots: ``artifacts/screenshots/ru-blitz/``."""
    rng = random.Random(11)
    folder, players, found = "ru-blitz", 7, {}
    context = browser.new_context(viewport=TV, locale="ru-RU")
    context.add_init_script("localStorage.setItem('mafioso.speak', 'off')")
    host = russian_setup(context.new_page(), server, "blitz")
    host.fill("#players", str(players))
    shoot(host, folder, "host-setup")
    found["host setup"] = axe_violations(host)
    host.evaluate("document.querySelector('#step').min = 0")
    host.fill("#step", "0.3")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#code:not(:empty)")
    code = host.inner_text("#code")
    host.click("#bot")
    host.wait_for_selector("#order .botmark")
    phone = browser.new_context(viewport=PHONE, is_mobile=True, locale="ru-RU").new_page()
    phone.goto(f"{server.url}/p?code={code}")
    phone.wait_for_selector("#join:not([hidden])")
    shoot(phone, folder, "phone-join")
    found["phone join"] = axe_violations(phone)
    phones = [join(browser, server, code, name) for name in ["Аня", "Борис", "Вера", "Гоша", "Даша", "Егор"]]
    host.wait_for_function("() => !document.querySelector('#deal').disabled")
    shoot(host, folder, "host-lobby")
    shoot(phones[0], folder, "phone-lobby")
    found["host lobby"], found["phone lobby"] = axe_violations(host), axe_violations(phones[0])
    host.click("#deal")
    host.wait_for_selector("#play:not([hidden])")
    for each in phones:
        each.wait_for_selector("#game:not([hidden])")
    shoot(host, folder, "host-deal")
    blitz_deal_looks_alike(phones, rng)
    found["host deal"], found["phone deal"] = axe_violations(host), axe_violations(phones[0])
    play_until(phones, host, rng, lambda: host.query_selector(".seat.speaking, .seat.answering") is not None
               or host.query_selector(".winners") is not None)
    shoot(host, folder, "host-day")
    shoot(phones[1], folder, "phone-day")
    found["host day"], found["phone day"] = axe_violations(host), axe_violations(phones[1])
    phones[0].click("#card")
    shoot(phones[0], folder, "phone-card-shown")
    found["phone card"] = axe_violations(phones[0])
    phones[0].click("#card")
    play_until(phones, host, rng, lambda: host.query_selector(".winners") is not None, limit=300)
    host.wait_for_selector("#again-lang option[value=pl]", state="attached")
    shoot(host, folder, "host-end")
    phones[0].wait_for_selector("#outcome .verdict")
    shoot(phones[0], folder, "phone-end")
    found["host end"], found["phone end"] = axe_violations(host), axe_violations(phones[0])
    assert not any(found.values()), found
    verdicts = {each.inner_text("#outcome .verdict") for each in phones}
    assert verdicts and not verdicts & {"You won!", "You lost."}, verdicts
    english = ["Play again", "Download the game log", "The story", "Winners:", " won", "Bot "]
    shown = host.inner_text("body") + "".join(each.inner_text("body") for each in phones)
    assert not [word for word in english if word in shown], [word for word in english if word in shown]
    row = host.evaluate("""() => [...document.querySelectorAll('form.again label, form.again button')]
        .map(n => Math.round(n.getBoundingClientRect().bottom))""")
    assert len(set(row)) == 1, f"Play again's fields and the log's download stand on one row at 1920x1080: {row}"
