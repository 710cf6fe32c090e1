"""Mafia: Blood Vendetta (Мафия: Кровная месть): vampires against hunters, with a reversed cycle.

Source: the Russian rulebook (the original) and its English translation, which ends with 41
numbered ambiguities. Our reading of each one we resolve is in ``docs/rulings/vampires.md``.
"""

from mafioso.editions.vampires.rules import EDITION, VampiresEdition
from mafioso.editions.vampires.state import VampiresState

__all__ = ["EDITION", "VampiresEdition", "VampiresState"]
