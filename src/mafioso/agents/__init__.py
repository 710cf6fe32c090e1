"""Bots: a random bot for every edition and a heuristic bot per edition.

A bot is told the events its seat may see (:meth:`Bot.observe`) and answers its prompts
(:meth:`Bot.choose`). Bots never read the game's state: they know only what their seat knows.
"""

from mafioso.agents.base import Bot, RandomBot, make_bots

__all__ = ["Bot", "RandomBot", "make_bots"]
