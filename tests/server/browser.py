"""What the browser suites share: a real server in a subprocess, Debian's Chromium, screenshots,
the axe-core check, and a player that answers prompts through the page like a person would."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api as playwright_api

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--autoplay-policy=no-user-gesture-required"]
SHOTS = ROOT / "artifacts" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}


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


def shoot(page: Any, folder: str, name: str) -> Path:
    """A screenshot of what the page shows now, under ``artifacts/screenshots/FOLDER/``."""
    target = SHOTS / folder
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def axe_violations(page: Any) -> list[str]:
    """Serious and critical accessibility violations axe-core finds on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}});
        return r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
          .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "));
    }""")
    return list(found)


def api(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server.url + path, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def answer_one(phone: Any, rng: random.Random, errors: Any) -> bool:
    """Answer the phone's first shown prompt like a person: pick, then confirm; False if none."""
    prompt = phone.query_selector("#prompts .prompt")
    if prompt is None:
        return False
    try:
        if not prompt.is_visible() and phone.is_visible("#nightq"):
            phone.click("#nightq", timeout=2000)  # a secret step's question opens on a tap
        options = [o for o in prompt.query_selector_all(".opt") if "pass" not in (o.get_attribute("class") or "")]
        confirm = prompt.query_selector(".go")
        if confirm is None:
            target = rng.choice(options) if options else prompt.query_selector(".pass")
            if target is not None:
                target.click(timeout=2000)
            return True
        if options and rng.random() < 0.6:
            for option in rng.sample(options, k=min(len(options), rng.randint(1, 3))):
                option.click(timeout=2000)
        if confirm.is_disabled():
            for option in options:
                if not confirm.is_disabled():
                    break
                if option.get_attribute("aria-pressed") != "true":
                    option.click(timeout=2000)
        confirm.click(timeout=2000)
    except errors:
        return False  # the prompt went away under us (time is up, a new step): try again next round
    return True


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a test module's pages (Debian's, driven by Playwright)."""
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A real ``mafioso serve`` process of the test's own, on a SQLite file (killed at the end)."""
    running = Server(tmp_path / "tables.sqlite3")
    running.start()
    yield running
    running.kill()
