"""Bots in empty seats: the host seats them in the lobby, the edition's heuristic bot plays them.

Each bot is attached to ITS OWN seat's observer (``table.observer(seat)``) and to nothing else:
never the game, never another seat's view. It answers only the prompts its seat is shown
(``table.published_prompts``), checked, stored and replayed like a phone's decisions: in the
server, staged under the table's lock and stored by the writer off the event loop, as a phone's
are (:meth:`TableBots.answer_async`), so a stalled database holds only that table. It answers after a human-like pause: a few seconds
for public acts (speeches, nominations, votes: they appear on the shared screen and are
spoken), and inside the step for secret ones (a held step's timing tells nothing anyway).

A bot's random choices come from fresh randomness, never from the game's sealed seed.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from mafioso.agents.base import Bot, heuristic_class
from mafioso.engine import Choice, Game, MafiosoError, Prompt
from mafioso.server.errors import ServerError

if TYPE_CHECKING:
    from mafioso.server.tables import Table

log = logging.getLogger("mafioso.server")

PUBLIC_PAUSE = (2.0, 5.0)
"""Seconds a bot takes before a public act (a person reads, thinks, taps)."""
SECRET_SHARE = (0.2, 0.6)
"""When in a held secret step a bot answers, as a share of the step's length."""


class TableBots:
    """The bots of one table, one per bot seat, and the answers they have scheduled."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bots: dict[int, Bot] = {}
        self.game: Game | None = None
        """The game the bots are attached to (a failed write rebuilds the table's game)."""
        self.planned: set[tuple[int, int, str]] = set()
        """``(batch, seat, prompt id)`` answers already scheduled."""
        self.rng = random.Random(secrets.randbits(64))

    def seats(self) -> list[int]:
        """The seats bots play (known once the cards are dealt)."""
        from mafioso.server.tables import is_bot

        return sorted(m.seat for m in self.table.record.members if is_bot(m) and m.seat is not None)

    def attach(self) -> None:
        """One heuristic bot per bot seat, each seeing only its own seat's observer."""
        table = self.table
        game = table.game
        if game is None or game is self.game:
            return
        self.game, self.bots, self.planned = game, {}, set()
        cls = heuristic_class(table.edition)
        for seat in self.seats():
            bot = cls(seat, table.edition, game.options, game.players, random.Random(secrets.randbits(64)))
            bot.attach(table.observer(seat))  # its own seat's knowledge, nothing else
            self.bots[seat] = bot

    def wake(self) -> None:
        """Schedule an answer for every prompt now shown to a bot seat (once per prompt and step)."""
        table = self.table
        if table.game is None or table.game.outcome is not None or not self.seats():
            return
        self.attach()
        batch = table.batch_seen
        for seat in self.bots:
            for prompt in table.published_prompts(seat):
                key = (batch, seat, prompt.id)
                if key in self.planned or prompt.interrupt:
                    continue
                self.planned.add(key)
                table.on_timer(self.pause(), self._later(key))

    def _later(self, key: tuple[int, int, str]) -> Callable[[], None]:
        return lambda: self.act(*key)

    def restart(self) -> None:
        """Plan again from scratch: answers planned before the table's timers were connected (a
        table being rebuilt at start-up) were never really scheduled."""
        self.planned.clear()
        self.wake()

    def pause(self) -> float:
        """How long a bot waits before answering what it is shown now."""
        table = self.table
        if table.frozen is not None:
            low, high = SECRET_SHARE
            return table.step_length(table.frozen) * self.rng.uniform(low, high)
        return self.rng.uniform(*PUBLIC_PAUSE)

    def act(self, batch: int, seat: int, prompt_id: str) -> None:
        """Answer a scheduled prompt if it is still shown; the bot chooses from its own view."""
        table = self.table
        self.planned.discard((batch, seat, prompt_id))
        game = table.game
        if game is None or game is not self.game or table.batch_seen != batch or game.outcome is not None:
            self.wake()  # the table moved on (or was rebuilt): answer what is shown now
            return
        prompt = next((p for p in table.published_prompts(seat) if p.id == prompt_id), None)
        if prompt is None or not game.is_pending(prompt_id):
            return
        self.answer(seat, prompt)

    def answer(self, seat: int, prompt: Prompt) -> None:
        """The bot chooses from its own view; the web layer stores the answer off the event
        loop (:attr:`Table.on_bot_answer`), else (tests without a server) it is stored at once."""
        bot = self.bots[seat]
        if bot.wants_events:
            bot.sync()
        choice = bot.choose(prompt)
        table = self.table
        if table.on_bot_answer is not None:
            table.on_bot_answer(table, seat, prompt.id, choice, table.batch_seen)
            return
        try:
            table.decide(seat, prompt.id, choice)
        except ServerError:  # not stored (the database is away): try again in a moment
            self._again_soon(seat, prompt.id)
        except MafiosoError as error:
            self._illegal(seat, prompt.id, error)
            table.time_out_for(seat, prompt.id)

    async def answer_async(self, seat: int, prompt_id: str, choice: Choice, batch: int) -> None:
        """A bot's answer as a phone's is taken: checked and applied under the table's lock, then
        stored by the writer, the lock released meanwhile, so a database that stalls holds only
        this table (never the loop, nor another table). A step that moved on meanwhile (the
        prompt answered, timed out or gone) is left alone: the bots are woken for what is shown."""
        table = self.table
        async with table.lock:
            game = table.game
            if game is None or game is not self.game or table.batch_seen != batch or not game.is_pending(prompt_id):
                self.wake()
                return
            try:
                ticket = table.enqueue(table.stage_queued(seat, prompt_id, choice))
            except ServerError:  # a write of this table failed just before: try again in a moment
                self._again_soon(seat, prompt_id)
                return
            except MafiosoError as error:
                self._illegal(seat, prompt_id, error)
                ticket = table.enqueue(table.stage_timeout(seat, prompt_id))
        try:
            await ticket
        except ServerError:  # not stored (the database is away): the table was rebuilt; again soon
            self._again_soon(seat, prompt_id)

    def _again_soon(self, seat: int, prompt_id: str) -> None:
        self.table.on_timer(1.0, lambda: self.act(self.table.batch_seen, seat, prompt_id))

    def _illegal(self, seat: int, prompt_id: str, error: MafiosoError) -> None:
        """A bot's illegal choice is a bug of the bot: it takes the timeout answer instead."""
        log.warning("table %s: the bot of seat %d chose illegally (%s); it takes the timeout answer",
                    self.table.code, seat, error)
