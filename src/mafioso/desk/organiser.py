"""The organiser's pass: who may create tournaments on the server's page and change their rules.

A server reachable from a hall's Wi-Fi (or the internet) must not let anyone who opens
``/tournament`` create tournaments, change a tournament's scoring system or take its judges' pass
over. So the page asks for the **organiser's pass**, one per database, kept only as a salted
scrypt digest (a pass chosen by a person, read from a file, may be short: a slow digest makes a
stolen database costly to guess from). The command line needs none: whoever runs ``mafioso
tournament`` already holds the database itself.

The pass is set either from a file (``mafioso serve --organiser-pass-file F``, a deployment's
secret) or, when the database has none, generated on the server's first start and printed once
on its console; ``mafioso tournament organiser-pass`` issues a new one (the old one stops
working).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from pathlib import Path

from mafioso.desk.errors import DeskError

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
"""scrypt's cost: about 16 MB and a few tens of milliseconds a check; the page checks a pass off
the event loop, and wrong passes are rate limited before that cost is paid."""
MIN_LENGTH = 8
"""A pass from a file shorter than this is refused: a guessable organiser's pass protects nothing."""


def digest(given: str, salt: bytes | None = None) -> str:
    """``scrypt$N$r$p$salt$hash`` (hex) of ``given``: stored instead of the pass."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    made = hashlib.scrypt(given.encode("utf-8", "replace"), salt=salt, n=SCRYPT["n"], r=SCRYPT["r"], p=SCRYPT["p"],
                          dklen=32)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${made.hex()}"


def matches(given: str, stored: str | None) -> bool:
    """Whether ``given`` is the pass ``stored`` digests (never without a stored one, never for an
    empty pass; compared in constant time)."""
    if not stored or not given:
        return False
    try:
        kind, n, r, p, salt, want = stored.split("$")
        if kind != "scrypt":
            return False
        made = hashlib.scrypt(given.encode("utf-8", "replace"), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                              p=int(p), dklen=32)
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(made.hex(), want)


def generate() -> str:
    """A fresh organiser's pass: 16 random bytes, written as URL-safe text (about 22 characters)."""
    return secrets.token_urlsafe(16)


def read_file(path: Path) -> str:
    """The pass kept in ``path`` (its first line, without surrounding spaces), or a :class:`DeskError`
    saying why it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DeskError(f"cannot read the organiser's pass from {path}: {getattr(error, 'strerror', None) or error}") \
            from None
    given = (text.splitlines() or [""])[0].strip()
    if len(given) < MIN_LENGTH:
        raise DeskError(f"the organiser's pass in {path} is shorter than {MIN_LENGTH} characters; write a longer one "
                        "on its first line")
    return given
