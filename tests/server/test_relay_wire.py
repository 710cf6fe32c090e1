"""The records cluster processes send each other through Redis (``server/relay_wire.py``): any
text comes back as it was sent (newlines, spaces, Cyrillic and Polish names, the separators
themselves, nothing at all), several records share one message, and a broken message is refused
with a :class:`WireError` that names what is wrong, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mafioso.server.relay_wire import OPS, Record, WireError, decode, encode

KEY_CHARACTERS = st.characters(codec="utf-8", exclude_characters=" \n")
"""Keys are hex ids joined by ``:`` and ``.`` in use; any character but the two separators here."""
TEXTS = st.text(st.one_of(st.characters(codec="utf-8"), st.sampled_from(" \n0123456789:.")))
"""Any text a phone or a screen could be sent (surrogates aside: they are not UTF-8), with the
characters of the header (space, newline, digits) over-represented."""
RECORDS = st.builds(Record, st.sampled_from(sorted(OPS)), st.text(KEY_CHARACTERS, max_size=80), TEXTS)


@given(st.lists(RECORDS, max_size=8))
def test_any_records_come_back_as_they_were_sent(records: list[Record]) -> None:
    message = encode(records)
    assert decode(message) == records
    assert decode(message.encode("utf-8")) == records, "as Redis hands it over: UTF-8 bytes"


@given(RECORDS, RECORDS)
def test_two_messages_joined_are_the_records_of_both(first: Record, second: Record) -> None:
    assert decode(encode([first]) + encode([second])) == [first, second]


def test_lengths_count_characters_of_non_ascii_texts() -> None:
    names = "Старший Лейтенант Ежов\nZażółć gęślą jaźń 🎭"
    message = encode([Record("text", "t:d:s", names), Record("close", "t:d:s", "")])
    assert message.startswith(f"text t:d:s {len(names)}\n")
    assert len(names) < len(names.encode("utf-8")), "the length is not the byte count"
    assert decode(message.encode("utf-8")) == [Record("text", "t:d:s", names), Record("close", "t:d:s", "")]


def test_a_text_made_of_headers_is_carried_as_text() -> None:
    inner = encode([Record("text", "other", "a seat's secret"), Record("close", "other", "1012")])
    assert decode(encode([Record("text", "mine", inner)])) == [Record("text", "mine", inner)]


def test_nothing_is_no_records() -> None:
    assert encode([]) == "" and decode("") == [] and decode(b"") == []


@pytest.mark.parametrize(("message", "says"), [
    ("text", "cut short in its op"),
    ("shout key 3\nabc", "unknown op"),
    ("text key", "cut short in its key"),
    ("text key\n3 abc", "cut short in its key"),
    ("text key 3", "cut short in its key"),
    ("text key 5\nabc", "cut short: 2"),
    ("text key three\nabc", "bad length"),
    ("text key -3\nabc", "bad length"),
    ("text key \nabc", "bad length"),
    ("text key ٣\nabc", "bad length"),  # an Arabic-Indic three: a digit to Python, not on the wire
    ("text key 9999999999999\nabc", "bad length"),
    ("text key 3\nabcjunk", "cut short in its op"),
    ("text key 3\nabcjunk 1\nx", "unknown op"),
    ("text key 3\nabctext key 9\nabc", "cut short"),
])
def test_a_broken_message_is_refused_with_what_is_wrong(message: str, says: str) -> None:
    with pytest.raises(WireError, match=says):
        decode(message)


def test_bytes_that_are_not_utf8_are_refused() -> None:
    with pytest.raises(WireError, match="not UTF-8"):
        decode(b"text key 1\n\xff")


@pytest.mark.parametrize("record", [Record("shout", "k", ""), Record("text", "a key", ""), Record("text", "a\nkey", "")])
def test_a_record_that_could_not_be_read_back_is_not_sent(record: Record) -> None:
    with pytest.raises(WireError):
        encode([record])
