"""The sealed deal: a fair deal anyone can check.

Before the deal the server draws a secret of :data:`SECRET_BITS` random bits and publishes a
*commitment*: a short hash of the secret with the game's inputs (edition, player count, options,
cast and the seat order, by name). The game's seed is derived from the secret, so every deal,
lot and timeout draw comes from it. Nothing derived from the secret is shown before the end;
then the secret is revealed, and ``mafioso replay LOG`` checks that

1. the commitment is the hash of the revealed secret with the log's inputs, and
2. every chance draw of the game (the deal first) is what the secret's seed draws.

The secret has 128 bits, so nobody can find it by trying secrets against the commitment; the
engine's seed (63 bits) is derived from it by a hash and is never shown before the end either.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SECRET_BITS = 128
COMMITMENT_CHARS = 16
LOG_FIELD = "_seal"
"""Where a game log carries its seal (the engine ignores fields starting with ``_``)."""


def new_secret() -> int:
    """A fresh secret: :data:`SECRET_BITS` random bits."""
    return secrets.randbits(SECRET_BITS)


def secret_text(secret: int) -> str:
    """The secret as it is stored and revealed: 32 hexadecimal digits."""
    return format(secret, f"0{SECRET_BITS // 4}x")


def game_seed(secret: str) -> int:
    """The engine's seed (63 bits) drawn from the secret by a hash: knowing the seed of one game
    tells nothing of its secret, and the secret alone fixes the seed."""
    digest = hashlib.sha256(b"mafioso seed\0" + secret.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_roles(cast: Sequence[str], seed: int) -> list[str]:
    """A custom cast dealt to the seats (seat 1 first) from the game's seed."""
    roles = sorted(cast)
    random.Random(seed).shuffle(roles)
    return roles


@dataclass(frozen=True, slots=True)
class Sealed:
    """What a commitment binds: the secret and the game's inputs, the seats by name."""

    secret: str
    edition: str
    players: int
    options: dict[str, Any]
    cast: dict[str, int] | None
    seating: tuple[str, ...]

    def commitment(self) -> str:
        """The short hash shown from the deal on (16 hexadecimal digits)."""
        inputs = {"secret": self.secret, "edition": self.edition, "players": self.players, "options": self.options,
                  "cast": self.cast, "seating": list(self.seating)}
        text = json.dumps(inputs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:COMMITMENT_CHARS]

    def to_json(self) -> dict[str, Any]:
        """The log's ``_seal`` field (written only once the game is over)."""
        return {"secret": self.secret, "commitment": self.commitment(), "cast": self.cast,
                "seating": list(self.seating)}


def spaced(commitment: str) -> str:
    """``3f9a1c2e77b09d41`` as people read it: ``3f9a 1c2e 77b0 9d41``."""
    return " ".join(commitment[i:i + 4] for i in range(0, len(commitment), 4))


class SealBroken(Exception):
    """A log whose seal does not match its deal."""


def check_log(log: dict[str, Any]) -> str | None:
    """Check a log's seal; returns what was checked in words, ``None`` for a log without a seal,
    or raises :class:`SealBroken` saying what does not match."""
    seal = log.get(LOG_FIELD)
    if seal is None:
        return None
    if not isinstance(seal, dict) or not all(isinstance(seal.get(k), str) for k in ("secret", "commitment")):
        raise SealBroken("its seal is not a secret and a commitment")
    seating = seal.get("seating")
    if not isinstance(seating, list) or not all(isinstance(name, str) for name in seating):
        raise SealBroken("its seal does not list the seats by name")
    sealed = Sealed(seal["secret"], log.get("edition", ""), log.get("players", 0), log.get("options", {}),
                    seal.get("cast"), tuple(seating))
    if sealed.commitment() != seal["commitment"]:
        raise SealBroken(f"the sealed deal {spaced(seal['commitment'])} is not the hash of the revealed seed "
                         "with this game's edition, options and seats: the seed or the game was changed")
    seed = game_seed(sealed.secret)
    if sealed.secret.lstrip("-").isdecimal() and log.get("seed") == int(sealed.secret):
        seed = int(sealed.secret)  # ``mafioso play --seed S``: the seed chosen is its own secret
    if log.get("seed") != seed:
        raise SealBroken("the game was not played with the seed drawn from the revealed secret")
    cast = sealed.cast
    if cast is not None and log.get("seats") != deal_roles([r for r, n in sorted(cast.items()) for _ in range(n)],
                                                            seed):
        raise SealBroken("the cards were not dealt as the revealed seed deals them")
    problem = _draws_problem(log)
    if problem:
        raise SealBroken(problem)
    return (f"The sealed deal {spaced(sealed.commitment())} matches: it is the hash of the revealed seed "
            f"{sealed.secret} with this game's edition, options and seats, and every card and lot of the game "
            "was drawn from that seed.")


def _draws_problem(log: dict[str, Any]) -> str | None:
    """Play the log's decisions again with no recorded draw: every draw must then come out of the
    seed exactly as recorded (the deal first)."""
    from mafioso.engine import Game
    from mafioso.engine.log import entry_from_json
    from mafioso.engine.prompts import Draw

    entries = [entry_from_json(raw) for raw in log.get("history") or []]
    game = Game(log["edition"], log.get("players"), seats=log.get("seats"), options=log.get("options"),
                seed=log["seed"], decoys=log.get("decoys", True))
    from mafioso.engine import MafiosoError

    recorded = [e.to_json() for e in entries if isinstance(e, Draw)]
    failed = False
    try:
        for entry in entries:
            if not isinstance(entry, Draw):
                game.decide(*entry)
    except MafiosoError:
        failed = True  # the game went another way: a draw differed before, or the decisions were changed
    drawn = [e.to_json() for e in game.history if isinstance(e, Draw)]
    for number, (ours, theirs) in enumerate(zip(drawn, recorded, strict=False), start=1):
        if ours != theirs:
            return (f"chance draw {number} of the log ({theirs[1]}) is not what the revealed seed draws: "
                    "the game was not dealt from the sealed seed")
    if failed or len(drawn) != len(recorded):
        return "the game's decisions do not fit the draws the revealed seed makes: the deal was not the sealed one"
    return None
