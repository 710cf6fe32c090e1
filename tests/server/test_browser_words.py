"""The host's page with numbers and card names, in a real Chromium (audit 2026-11-24, findings 2
and 7): a count in the page's plural form, whatever the language ("1 votes" before), and
Spytown's action cards typed by name in the form, which starts with words, not ``auto``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.browser import ARGS, CHROMIUM, TV, Server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]
COUNTS = (1, 2, 5, 11, 21, 22)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(Path(tmp_path_factory.mktemp("words")) / "tables.sqlite3")
    running.start()
    yield running
    running.kill()


@pytest.fixture(scope="module")
def page(server: Server) -> Iterator[Any]:
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        tab = chromium.new_page(viewport=TV)
        tab.goto(f"{server.url}/host")
        yield tab
        chromium.close()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["1 vote", "2 votes", "5 votes", "11 votes", "21 votes", "22 votes"]),
    ("ru", ["1 голос", "2 голоса", "5 голосов", "11 голосов", "21 голос", "22 голоса"]),
    ("pl", ["1 głos", "2 głosy", "5 głosów", "11 głosów", "21 głosów", "22 głosy"]),
])
def test_a_count_takes_the_pages_plural_form(page: Any, lang: str, expected: list[str]) -> None:
    shown = page.evaluate("""async ([lang, counts]) => {
        const words = await import('/static/common.js');
        await words.loadText(lang);
        return counts.map(n => words.tn("{n} vote", "{n} votes", n));
    }""", [lang, list(COUNTS)])
    assert shown == expected


def test_spytown_cards_by_name_from_the_form(page: Any) -> None:
    page.evaluate("async () => { const words = await import('/static/common.js'); await words.loadText('en'); }")
    page.select_option("#edition", "spytown")
    page.wait_for_selector("#opt-cards")
    assert page.input_value("#opt-cards") == "at random", "words, not auto"
    page.fill("#players", "8")
    page.dispatch_event("#players", "change")
    page.check("#opt-extended")
    page.fill("#opt-cards", "commander, WIRETAP")
    page.click("#setupform [type=submit]")
    page.wait_for_selector("#lobby:not([hidden])", timeout=10_000)
