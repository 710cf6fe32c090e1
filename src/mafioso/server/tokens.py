"""Tokens and join codes.

Seat and host tokens are the only credentials: 32 random bytes from :mod:`secrets`, so they
cannot be guessed. Join codes are short, easy to read aloud and to type on a phone; they only
let someone ask for a seat (or watch the public screen), never act for a seat.
"""

from __future__ import annotations

import hmac
import secrets

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I: a code read aloud across a room must not be ambiguous."""
CODE_LENGTH = 5


def new_token() -> str:
    """An unguessable token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def new_code() -> str:
    """A join code such as ``"K7MQ2"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: object) -> str:
    """The code as stored: upper case, no spaces. Anything that is not a string gives ``""``."""
    if not isinstance(code, str):
        return ""
    return "".join(code.split()).upper()[:16]


def same(given: object, expected: str) -> bool:
    """Compare a token in constant time, so response timing reveals nothing about it."""
    # surrogatepass: a lone surrogate ("\\ud800" in JSON) is just a wrong token, not a crash
    return isinstance(given, str) and hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


def new_seed() -> int:
    """The seed of a new game: random, stored with the table, so replay is exact."""
    return secrets.randbits(48)
