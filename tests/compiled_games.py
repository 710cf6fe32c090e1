"""Seeded bot games written out event by event: run once by the compiled build, once pure.

``python tests/compiled_games.py OUT`` plays every edition with random and heuristic bots, with
and without decoys, and writes each game's events (``Event.dumps``), its history (decisions and
chance draws) and its outcome, one line each, to ``OUT``. The first line says which path ran
(``compiled`` or ``pure Python``), so the test can check that each run is the one it means.
``tests/test_compiled.py`` runs it in two interpreters and compares the files byte for byte.
"""

from __future__ import annotations

import json
import sys

EDITIONS = ("sport", "vendetta", "vampires", "spytown", "blitz")
SEEDS = range(6)


def games() -> list[str]:
    """Every line of every game, in a fixed order."""
    from mafioso.agents.play import play_game

    lines: list[str] = []
    for edition in EDITIONS:
        for bots in ("random", "heuristic"):
            for decoys in (False, True):
                for seed in SEEDS:
                    game = play_game(edition, seed=seed, bots=bots, decoys=decoys)
                    lines.append(f"# {edition} {bots} decoys={decoys} seed={seed} players={game.players}")
                    lines.extend(event.dumps() for event in game.events)
                    lines.extend(json.dumps(entry.to_json(), sort_keys=True) for entry in game.history)
                    lines.append(json.dumps(game.outcome.to_json() if game.outcome else None, sort_keys=True))
    return lines


def main(out: str) -> None:
    from mafioso.compiled import path_name

    with open(out, "w", encoding="utf-8") as file:
        file.write("\n".join([path_name(), *games()]) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
