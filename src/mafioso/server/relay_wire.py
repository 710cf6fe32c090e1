"""The records cluster processes send each other through Redis (:mod:`mafioso.server.cluster`).

A relayed socket's traffic is mostly seat states of about 8 KiB, JSON full of quotes. Wrapping
each in another JSON object (``{"op": "text", "text": ...}``) escaped every quote on the way out
and parsed it all again on the way in: about a third of the relay's cost, measured. So a Redis
message is instead one or more *records* one after another, each a short header and its text as
it is::

    <op> <key> <length>\\n<text>

The op is one word of :data:`OPS`, the key has no space and no newline (a relayed socket's key,
a forwarded request's reply id), and the length counts the text's characters (Python ``str``
characters, i.e. code points, after the whole message is decoded from UTF-8 once): the text is
never escaped nor searched, so it may hold anything, newlines and the separators included.
Records for one channel made in one turn of the event loop are joined into one message, one
``PUBLISH`` (:class:`~mafioso.server.cluster.Publisher`): a decision's states for several relayed
screens of one process cost one write.

The two functions are pure, so they are tested on their own (``tests/server/test_relay_wire.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

OPS = frozenset({"hello", "text", "close", "call", "reply"})
"""What a record may be:

- ``hello``: a socket relayed to a table's owner, on the table's inbound channel; its text is a
  JSON line of details (the client's address), a newline, then the socket's hello frame as sent;
- ``text``: a frame, a phone's to its table's owner or the owner's to the phone;
- ``close``: a relayed socket ended (its text: the close code, when the owner closes it);
- ``call``: a request forwarded to a table's owner (its text: JSON), keyed by a reply id;
- ``reply``: the owner's answer to a ``call`` (JSON), on the asking process's channel."""

LENGTH_DIGITS = 12
"""The most digits a length may have (a Redis message is at most 512 MB): a longer run of digits
is a broken message, not a length to trust."""


class Record(NamedTuple):
    """One thing sent to one relayed socket or request: what it is, whose, and its text."""

    op: str
    key: str
    text: str = ""


class WireError(ValueError):
    """A Redis message that is not a sequence of well-formed records: the reader logs it and
    drops the message (a process of another version, or a bug), and reads on."""


def encode(records: Iterable[Record]) -> str:
    """The message carrying ``records`` in order (the empty text for none)."""
    parts: list[str] = []
    for op, key, text in records:
        if op not in OPS:
            raise WireError(f"unknown op {op!r}")
        if " " in key or "\n" in key:
            raise WireError(f"a key may hold no space nor newline: {key!r}")
        parts.append(f"{op} {key} {len(text)}\n")
        parts.append(text)
    return "".join(parts)


def decode(message: str | bytes) -> list[Record]:
    """The records of a message, in order; :class:`WireError` if any is malformed (then none)."""
    if isinstance(message, bytes):
        try:
            message = message.decode("utf-8")
        except UnicodeDecodeError as error:
            raise WireError(f"not UTF-8: {error}") from None
    records: list[Record] = []
    at, end = 0, len(message)
    while at < end:
        space = message.find(" ", at)
        if space < 0:
            raise WireError(f"a record cut short in its op at character {at}")
        op = message[at:space]
        if op not in OPS:
            raise WireError(f"unknown op {op[:20]!r} at character {at}")
        gap = message.find(" ", space + 1)
        newline = message.find("\n", space + 1)
        if gap < 0 or newline < 0 or newline < gap:
            raise WireError(f"a {op} record cut short in its key at character {at}")
        digits = message[gap + 1:newline]
        if not (0 < len(digits) <= LENGTH_DIGITS and digits.isascii() and digits.isdecimal()):
            raise WireError(f"a {op} record with a bad length {digits[:20]!r} at character {at}")
        start = newline + 1
        at = start + int(digits)
        if at > end:
            raise WireError(f"a {op} record cut short: {at - end} of its characters missing")
        records.append(Record(op, message[space + 1:gap], message[start:at]))
    return records
