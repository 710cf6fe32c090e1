"""Mafia: Vendetta: civilians, the Mafia, and the Yakuza, Loner and Mystery modes.

Source: ``shared/rules/vendetta.en.txt``; our rulings on its gaps are in ``docs/rulings/vendetta.md``.
"""

from mafioso.editions.vendetta.rules import EDITION, NIGHT_SEQUENCE, Night, VendettaEdition, VendettaState

__all__ = ["EDITION", "NIGHT_SEQUENCE", "Night", "VendettaEdition", "VendettaState"]
