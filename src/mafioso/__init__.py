"""mafioso: a rules engine and automated game master for the party game Mafia."""

__version__ = "0.2.0"
