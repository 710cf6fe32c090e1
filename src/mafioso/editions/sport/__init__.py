"""Classic / Sport Mafia, as played in tournaments: ten seats, the sheriff and the don.

Source: ``shared/rules/sport.en.txt`` (the default ruleset) and ``sport-notes.md`` (the
federations' variants, offered as options).
"""

from mafioso.editions.sport.rules import EDITION, SportEdition, SportState
from mafioso.editions.sport.scoring import score

__all__ = ["EDITION", "SportEdition", "SportState", "score"]
