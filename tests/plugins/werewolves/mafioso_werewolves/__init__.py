"""werewolves: a minimal mafioso edition, installed as a plug-in (see ``rules.py``)."""

from mafioso_werewolves.rules import EDITION, WerewolvesEdition

__all__ = ["EDITION", "WerewolvesEdition"]
