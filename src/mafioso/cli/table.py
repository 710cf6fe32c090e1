"""One human seat and bots at one game: the terminal game's table, without any input or output.

The bots play as the simulations play them (:func:`mafioso.agents.play.run_bots`): each is
attached to its seat's observer and catches up on what its seat saw just before it answers.
:meth:`Table.waiting` lets them play until the human seat is asked something, so the terminal
only ever deals with the human's prompts; tests drive a :class:`Table` directly.
"""

from __future__ import annotations

from typing import Any

from mafioso.agents.base import Bot, make_bots
from mafioso.engine import Decision, Game, MafiosoError, Observer, Prompt
from mafioso.engine.prompts import Choice


class Table:
    """A game in which ``seat`` is played by a person and every other seat by a bot."""

    def __init__(self, edition: str, players: int | None, seat: int, seed: int, bots: str,
                 options: dict[str, Any]) -> None:
        self.game = Game(edition, players, options=options, seed=seed, decoys=False)
        if type(seat) is not int or not 1 <= seat <= self.game.players:
            raise MafiosoError(f"--seat takes a seat from 1 to {self.game.players}, not {seat}")
        self.seat = seat
        self.me: Observer = self.game.observer(seat)
        self.bots: dict[int, Bot] = make_bots(bots, self.game.edition, self.game.options, self.game.players, seed)
        del self.bots[seat]
        for bot in self.bots.values():
            if bot.wants_events:
                bot.attach(self.game.observer(bot.seat))

    def waiting(self) -> list[Prompt]:
        """Let the bots answer until the human seat is asked something; its prompts (none once over)."""
        game = self.game
        while not game.is_over():
            batch = game.awaiting()
            others = [prompt for prompt in batch if prompt.seat != self.seat]
            if not others:
                return batch
            for prompt in others:
                if game.is_over():
                    break
                if game.is_pending(prompt.id):
                    self.play_bot(prompt)
        return []

    def play_bot(self, prompt: Prompt) -> None:
        bot = self.bots[prompt.seat]
        if bot.wants_events:
            bot.sync()
        self.game.decide(prompt.seat, prompt.id, bot.choose(prompt))

    def answer(self, prompt: Prompt, choice: Choice) -> Decision:
        """The human's answer (checked by the game, which raises a typed error if it is not legal)."""
        return self.game.decide(self.seat, prompt.id, choice)

    def time_out(self, prompt: Prompt) -> Decision:
        """The human let the prompt's timer run out: the game's fair timeout answer."""
        return self.game.timeout(self.seat, prompt.id)
