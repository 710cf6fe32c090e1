"""A real browser: Playwright drives Debian's Chromium through a whole sport game.

One host page (a wide screen) and ten phone pages (360x740) play to the end through the UI only,
with a phone and the host reloaded mid-game and the server killed and restarted mid-game.
Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
WIDE = {"width": 1280, "height": 800}

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``mafioso.server.serve`` in a subprocess, so it can be killed like a real one."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        code = (f"from mafioso.server import serve; "
                f"serve('127.0.0.1', {self.port}, {str(self.db)!r}, min_step_seconds=0)")
        self.process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "tables.sqlite3")
    running.start()
    yield running
    running.kill()


@pytest.fixture
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def create_table(browser: Any, server: Server) -> tuple[Any, str]:
    host = browser.new_context(viewport=WIDE).new_page()
    host.goto(server.url + "/host")
    host.wait_for_selector("#edition option[value=sport]", state="attached")
    host.select_option("#edition", "sport")
    shoot(host, "host-setup")
    host.evaluate("document.querySelector('#step').min = 0")  # this server allows instant steps (a test)
    host.fill("#step", "0.3")
    host.click("#setupform button[type=submit]")
    host.wait_for_selector("#code:not(:empty)")
    code: str = host.inner_text("#code")
    return host, code


SENT: list[int] = []
"""The size in bytes of every frame a phone page sent."""


def listen(socket: Any) -> None:
    socket.on("framesent", lambda payload: SENT.append(len(payload.encode() if isinstance(payload, str) else payload)))


def join(browser: Any, server: Server, code: str, name: str) -> Any:
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.on("websocket", listen)
    phone.goto(f"{server.url}/p?code={code}")
    if name == "Ann":
        shoot(phone, "phone-join")
    phone.fill("#name", name)
    phone.click("#joinform button")
    phone.wait_for_selector("#lobby:not([hidden])")
    return phone


def answer_one(phone: Any, rng: random.Random) -> bool:
    """Answer the phone's first shown prompt with a random choice; False if it shows none."""
    prompt = phone.query_selector("#prompts .prompt")
    if prompt is None:
        return False
    options = prompt.query_selector_all(".opt")
    confirm = prompt.query_selector(".go")
    try:
        if options and (confirm is None or rng.random() < 0.5):
            rng.choice(options).click(timeout=2000)
        if confirm is not None and prompt.is_visible():
            confirm.click(timeout=2000)
    except playwright_api.Error:
        return False  # the page redrew under us (a new state arrived): try again next round
    return True


def play_until(phones: list[Any], host: Any, rng: random.Random, done: Any, limit: float = 100) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        acted = False
        for phone in phones:
            acted |= answer_one(phone, rng)
        if not acted:
            host.wait_for_timeout(60)


def phase_of(host: Any) -> str:
    text: str = host.inner_text("#phase")
    return text


def test_a_whole_sport_game_through_the_browser(browser: Any, server: Server) -> None:
    rng = random.Random(7)
    SENT.clear()
    host, code = create_table(browser, server)
    phones = [join(browser, server, code, name) for name in
              ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]]
    host.wait_for_function("() => !document.querySelector('#deal').disabled")
    shoot(host, "host-lobby")
    host.click("#deal")
    host.wait_for_selector("#play:not([hidden])")
    phones[0].wait_for_selector("#game:not([hidden])")
    phones[0].click("#card")
    assert phones[0].inner_text("#card .role")
    shoot(phones[0], "phone-card")
    phones[0].click("#card")
    assert phones[0].query_selector("#card .role") is None, "one tap hides the card again"
    assert phones[0].evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
    phones[1].wait_for_selector("#prompts .prompt")
    shoot(phones[1], "phone-prompt")

    play_until(phones, host, rng, lambda: phase_of(host).startswith("day 1"))
    shoot(host, "host-day")
    phones[2].reload()  # a phone reloads: it finds its seat again from its stored pass
    phones[2].wait_for_selector("#game:not([hidden])")
    assert phones[2].inner_text("#me").startswith("Seat 3")
    host.reload()
    host.wait_for_selector("#play:not([hidden])")
    assert phase_of(host).startswith("day 1")

    play_until(phones, host, rng, lambda: phase_of(host).startswith("night 1"))
    server.kill()  # the server dies in the night ...
    host.wait_for_selector("#status:has-text('Reconnecting')")
    server.start()  # ... and comes back: every screen reconnects and the table goes on
    host.wait_for_selector("#status:empty", timeout=15000)
    for phone in phones:
        phone.wait_for_selector("#status:empty", timeout=15000)
    assert phase_of(host).startswith("night 1")

    play_until(phones, host, rng, lambda: host.query_selector(".winners") is not None)
    assert "won" in host.inner_text(".winners") or "nobody" in host.inner_text(".winners")
    assert host.query_selector_all("#end details li"), "the whole story is shown at the end"
    shoot(host, "host-end")
    phones[0].wait_for_selector("#outcome:not(:empty)")
    shoot(phones[0], "phone-end")
    from mafioso.server.ws import PHONE_FRAME

    assert len(SENT) > 100 and set(SENT) == {PHONE_FRAME}, "every frame a phone sent has one size"


def test_decision_round_trip_latency(server: Server) -> None:
    """Time from a phone's decision to its acknowledgement (stored and committed), over a real socket."""
    import json
    import statistics
    import urllib.request

    from websockets.sync.client import connect

    from mafioso.agents.base import random_choice
    from mafioso.server.ws import pad_frame
    from tests.server.helpers import as_prompt

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(server.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer

    table = post("/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0})
    tokens = [post("/api/join", {"code": table["code"], "name": f"P{n}"})["token"] for n in range(10)]
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
