"""Mafia: Vendetta: civilians, the Mafia, and the Yakuza, Loner and Mystery modes.

Our rulings on the rulebook's gaps are in ``docs/rulings/vendetta.md``.
"""

from mafioso.editions.vendetta.knowledge import Knowledge, knowledge
from mafioso.editions.vendetta.rules import EDITION, NIGHT_SEQUENCE, Night, VendettaEdition, VendettaState

__all__ = ["EDITION", "NIGHT_SEQUENCE", "Knowledge", "Night", "VendettaEdition", "VendettaState", "knowledge"]
