"""Mafia Blitz: a one-night game with a public Vigilante, drafted roles and one round of shots.

Source: the Mafia Blitz rulebook (our readings: ``docs/rulings/blitz.md``). Every role wins or
loses on its own, so the outcome names winning roles, and several may win at once.
"""

from mafioso.editions.blitz.rules import EDITION, BlitzEdition
from mafioso.editions.blitz.state import BlitzState

__all__ = ["EDITION", "BlitzEdition", "BlitzState"]
