"""Classic / Sport Mafia, as played in tournaments: ten seats, the sheriff and the don.

The sport rulebook (the seed text of the federations' rules) is the default ruleset; the
federations' variants (FIIM and club rules) are named options. How mafioso reads the book where it
is silent is in ``docs/rulings/sport.md``.
"""

from mafioso.editions.sport.rules import EDITION, SportEdition, SportState
from mafioso.editions.sport.scoring import score

__all__ = ["EDITION", "SportEdition", "SportState", "score"]
