"""Mafia in Spytown, the Polish edition: Police, their secret Agent and the Mafiosi, with the
variants for small and large tables, the children's version and the extended game's cards.

Source: the Polish rulebook and its cleaned English translation; the rulings are in
``docs/rulings/spytown.md``.
"""

from mafioso.editions.spytown.catalogue import CARDS, TEAMS
from mafioso.editions.spytown.rules import EDITION, SpytownEdition
from mafioso.editions.spytown.state import SpytownState

__all__ = ["CARDS", "EDITION", "TEAMS", "SpytownEdition", "SpytownState"]
