"""A whole game played on one phone the way a blind player would, with a screen reader.

The player (a phone at 360x740, in Polish) joins, reads its card, answers every question and
hears the result using only what a screen reader gets from Chromium: roles and accessible names
(Playwright's ``get_by_role``), the accessibility tree (``aria_snapshot`` and CDP's
``Accessibility.getFullAXTree``), keyboard presses (Enter on a focused button) and what the page
says in its live regions. The other nine seats answer at random over their own sockets.

What the page received is recorded beside what it said, so the test can check that every new
question, every line of the table (deaths among them), a countdown milestone and the result were
announced in words, in Polish, and that the focus went to each new question.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.i18n import _
from mafioso.server.ws import pad_frame
from tests.server.browser import CHROMIUM, PHONE, Server, api, shoot
from tests.server.helpers import as_prompt

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed"),
]
LANG = "pl"
FOLDER = "screen-reader"

LISTEN = """
window.__said = [];
window.__got = [];
const LIVE = '[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]';
const spoken = region => region.checkVisibility() && !region.closest('[aria-hidden=true]');
addEventListener("DOMContentLoaded", () => {
  new MutationObserver(changes => {
    for (const change of changes) {
      const target = change.target.nodeType === 1 ? change.target : change.target.parentElement;
      const region = target && target.closest(LIVE);
      if (!region || !spoken(region)) continue;
      // a log announces what is added; any other live region, its whole new text
      const added = region.getAttribute('role') === 'log'
        ? [...change.addedNodes].map(n => n.textContent) : [region.textContent];
      for (const text of added) if (text && text.trim()) window.__said.push([Date.now(), text.trim()]);
    }
  }).observe(document.body, {childList: true, characterData: true, subtree: true});
});
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", e => {
      const m = JSON.parse(e.data);
      if (m.type !== "state" || m.seat === null || m.seat === undefined) return;
      window.__got.push({at: Date.now(), secret: !!m.secret, outcome: !!m.outcome, card: m.card ? m.card.name : null,
        prompts: (m.prompts || []).map(p => ({id: p.id, title: p.title})),
        events: (m.events || []).filter(e => e.text).map(e => ({n: e.n, kind: e.kind, text: e.text}))});
    });
  }
};
"""
"""Records, in the page, what its live regions say (as a screen reader would announce it) and the
states it receives (to check the announcements against)."""

BUTTON = re.compile(r'^\s*- \'?button "((?:[^"\\]|\\.)*)"(?: \[([^\]]*)\])?', re.M)
"""A button in an ARIA snapshot (YAML: quoted as a whole when its name holds a colon)."""


def said(text: str, **slots: Any) -> str:
    """The page's words in the table's language, slots filled as ``t()`` fills them."""
    out = _(text, LANG)
    for key, value in slots.items():
        out = out.replace("{" + key + "}", str(value))
    return out


class Others(threading.Thread):
    """The other seats: each asks for its state over its own socket and answers at random."""

    def __init__(self, url: str, tokens: list[str]) -> None:
        super().__init__(daemon=True)
        self.url, self.tokens, self.stop = url.replace("http", "ws") + "/ws", tokens, threading.Event()
        self.rng = random.Random(5)

    def run(self) -> None:
        from websockets.sync.client import connect

        while not self.stop.is_set():
            for token in self.tokens:
                with contextlib.suppress(Exception), connect(self.url) as sock:
                    sock.send(pad_frame({"type": "hello", "seat": token}))
                    state = json.loads(sock.recv(timeout=10))
                    for raw in state.get("prompts", []):
                        choice = random_choice(as_prompt(raw), self.rng)
                        sock.send(pad_frame({"type": "decide", "prompt": raw["id"], "choice": choice}))
                        while json.loads(sock.recv(timeout=10)).get("type") not in ("ack", "error"):
                            pass
            self.stop.wait(0.15)


class Reader:
    """A screen reader's view of the phone: the accessibility tree, the focus, and keys."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Accessibility.enable")

    def buttons(self, scope: Any) -> list[tuple[str, str]]:
        """Every button the scope exposes: (accessible name, states such as pressed, disabled)."""
        return [(json.loads(f'"{name}"'), states or "") for name, states in BUTTON.findall(scope.aria_snapshot())]

    def focused(self) -> str | None:
        """The accessible name of the focused node; ``None`` when only the page itself has the
        focus (a screen reader would start again from its top)."""
        for node in self.cdp.send("Accessibility.getFullAXTree")["nodes"]:
            props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
            if props.get("focused") and node.get("role", {}).get("value") != "RootWebArea":
                return str(node.get("name", {}).get("value", ""))
        return None

    def unnamed(self) -> list[str]:
        """Buttons, fields and links the tree gives no name: a screen reader calls them 'button'."""
        roles = {"button", "textbox", "link", "combobox", "spinbutton", "checkbox"}
        found = []
        for node in self.cdp.send("Accessibility.getFullAXTree")["nodes"]:
            role = node.get("role", {}).get("value")
            if role in roles and not node.get("ignored") and not str(node.get("name", {}).get("value", "")).strip():
                found.append(role)
        return found

    def press(self, scope: Any, name: str) -> None:
        """Enter on the button of that name, as a screen reader user activates it."""
        scope.get_by_role("button", name=name, exact=True).first.press("Enter", timeout=3000)

    def heard(self) -> list[str]:
        return [text for _at, text in self.page.evaluate("window.__said")]


def answer(reader: Reader, region: Any, rng: random.Random) -> None:
    """One question, answered through its buttons' names: a nominee and *End my speech*, a pick
    of several and *Send my choice*, or one choice."""
    names = [name for name, _states in reader.buttons(region)]
    skip = {said("Pass"), said("End my speech"), said("Send my choice")}
    options = [name for name in names if name not in skip]
    if said("End my speech") in names:
        if options and rng.random() < 0.4:
            reader.press(region, rng.choice(options))
        reader.press(region, said("End my speech"))
    elif said("Send my choice") in names:
        for name in rng.sample(options, k=len(options)):
            if "disabled" not in dict(reader.buttons(region)).get(said("Send my choice"), ""):
                break
            reader.press(region, name)
        reader.press(region, said("Send my choice"))
    else:
        reader.press(region, rng.choice(options) if options else said("Pass"))


def play(reader: Reader, rng: random.Random, faults: list[str], limit: float = 300) -> None:
    """Plays until the result is heard. At a night question whose clock is down to ten seconds
    or less, the player waits once to hear the five-second milestone before answering."""
    page, deadline, waited = reader.page, time.monotonic() + limit, False
    reading_card = True  # the first night question came while the player read its card: the focus is there
    verdicts = {said("You won!"), said("You lost.")}
    panels = {said("Your night question: tap to open"), said("Your question: tap to open")}
    while not any(v in line for line in reader.heard() for v in verdicts):
        assert time.monotonic() < deadline, "the game did not end in time"
        with contextlib.suppress(playwright_api.Error):
            faults.extend(f"unnamed {role}" for role in reader.unnamed())
            closed = [name for name, _states in reader.buttons(page.locator("main")) if name in panels]
            if closed:
                if reader.focused() not in panels and not reading_card:
                    faults.append(f"focus not on the new night question: {reader.focused()!r}")
                reader.press(page, closed[0])
                reading_card = False
            regions = page.get_by_role("region").all()
            if not regions:
                page.wait_for_timeout(120)
                continue
            region = regions[0]
            title = region.get_attribute("aria-label") or ""
            focus = reader.focused()  # a question just asked has it on its heading (or a button already pressed)
            if not closed and focus not in {title, *(name for name, _states in reader.buttons(region))} \
                    and not page.get_by_role("button", name=said("Tap to close your night question")).count():
                faults.append(f"focus not on the new question {title!r}: {focus!r}")
            clock = page.get_by_role("timer").inner_text()
            if not waited and clock.isdigit() and 6 < int(clock) <= 10 and page.get_by_role("button", name=said("Tap to close your night question")).count():
                waited = True
                page.wait_for_function(f"() => window.__said.some(s => s[1] === {json.dumps(said('{n} seconds left', n=5))})", timeout=12000)
            answer(reader, region, rng)
            if reader.focused() is None:
                faults.append(f"after answering {title!r} the focus fell to the top of the page")
            page.wait_for_timeout(150)


def test_a_whole_game_with_a_screen_reader(browser: Any, server: Server) -> None:
    rng = random.Random(3)
    table = api(server, "/api/tables", {"edition": "sport", "players": 10, "step_seconds": 0.5, "lang": LANG})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="pl-PL")
    context.add_init_script(LISTEN)
    page = context.new_page()
    reader = Reader(page)
    page.goto(f"{server.url}/p?code={table['code']}")
    page.get_by_role("textbox", name=said("Your name")).fill("Ola")
    reader.press(page, said("Join"))
    page.get_by_role("heading", name=said("You are at table {code} as {name}.", code=table["code"], name="Ola")).wait_for()
    tokens = [api(server, "/api/join", {"code": table["code"], "name": name})["token"]
              for name in ["Bartek", "Celina", "Darek", "Ewa", "Filip", "Gosia", "Henryk", "Iza", "Jan"]]
    from websockets.sync.client import connect

    with connect(server.url.replace("http", "ws") + "/ws") as host:
        host.send(json.dumps({"type": "hello", "host": table["host"]}))
        host.recv(timeout=10)
        host.send(json.dumps({"type": "deal", "order": list(range(1, 11))}))
        host.recv(timeout=10)
    card = page.get_by_role("button", name=said("Tap to see your secret card"))
    card.wait_for()
    shoot(page, FOLDER, "phone-card-down")
    card.press("Enter")
    role = page.evaluate("window.__got.map(g => g.card).filter(Boolean).pop()")
    shown = page.get_by_role("button", pressed=True)
    assert role and role in shown.aria_snapshot(), "the card read aloud names the role"
    shoot(page, FOLDER, "phone-card-up")
    shown.press("Enter")
    others = Others(server.url, tokens)
    others.start()
    faults: list[str] = []
    try:
        play(reader, rng, faults)
    finally:
        others.stop.set()
        others.join(timeout=15)
    shoot(page, FOLDER, "phone-end")
    check_announcements(page, faults)


def check_announcements(page: Any, faults: list[str]) -> None:
    """Every new question, every line of the table (deaths among them), a countdown milestone and
    the result were said, in order, in Polish; the focus followed every new question."""
    heard = [text for _at, text in page.evaluate("window.__said")]
    got = page.evaluate("window.__got")
    (Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / FOLDER / "heard.txt").write_text("\n".join(heard) + "\n")
    assert not faults, faults[:10]
    lines, asked, seen, seen_lines = [], [], set(), set()
    for state in got:
        for event in state["events"]:
            if event["n"] not in seen_lines:
                seen_lines.add(event["n"])
                lines.append(event)
        for prompt in state["prompts"]:
            if prompt["id"] not in seen:
                seen.add(prompt["id"])
                asked.append(said("Your night question: tap to open") if state["secret"]
                             else said("New question: {title}", title=prompt["title"]))
    assert any(e["kind"] == "seat.eliminated" for e in lines), "someone was out during the game"
    assert in_order([e["text"] for e in lines], heard), "every line of the table is said as it comes"
    assert in_order(asked, heard), "every new question is said"
    assert said("{n} seconds left", n=5) in heard, "a countdown milestone is said"
    verdict = [line for line in heard if said("You won!") in line or said("You lost.") in line]
    assert len(verdict) == 1 and said("Winners: {names}", names="") in verdict[0], verdict
    english = ["New question", "seconds left", "You won", "You lost", "Your night question", "Winners"]
    assert not [line for line in heard for word in english if word in line], "said in Polish"


def in_order(wanted: list[str], heard: list[str]) -> bool:
    """Whether each wanted line was said, in this order (other lines may come between)."""
    at = 0
    for line in wanted:
        while at < len(heard) and line not in heard[at]:
            at += 1
        if at == len(heard):
            return False
        at += 1
    return True
