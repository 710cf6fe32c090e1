"""The ``"mafioso"`` object both federation formats carry beside their own fields.

mafiaratings and Polemica read a game with unknown fields ignored, so what their formats cannot
say travels in one extra object: the sport options their rules fields do not cover, the sheet's
header, the judge's cards, the protest and notes, where an unfinished record stops, and a draw
(Polemica's result has no draw). Reading a file without it is the normal case: every value then
comes from the format's own fields and mafioso's defaults.
"""

from __future__ import annotations

from typing import Any

from mafioso.desk import fields as f
from mafioso.desk.errors import FormatError
from mafioso.desk.record import Header, Moment, Protocol, read_judge_notes

KEY = "mafioso"


def write(proto: Protocol, options: dict[str, Any], draw: bool = False) -> dict[str, Any]:
    """The extension object for ``proto``; ``options`` are the ones the format could not say."""
    out: dict[str, Any] = {"format": 1}
    if options:
        out["options"] = options
    if proto.header.to_json():
        out["header"] = proto.header.to_json()
    for key in ("cards", "extras"):
        items = getattr(proto, key)
        if items:
            out[key] = [item._asdict() for item in items]
    for key in ("protest", "notes"):
        if getattr(proto, key):
            out[key] = getattr(proto, key)
    if proto.stop is not None:
        out["stop"] = proto.stop.to_json()
    if draw:
        out["winner"] = "draw"
    return out


def read(proto: Protocol, raw: Any, *, extras: bool = True) -> dict[str, Any]:
    """Apply the extension object to ``proto``; returns the options it carries."""
    if raw is None:
        return {}
    data = f.obj(raw, KEY)
    header = f.obj(data.get("header", {}), f"{KEY}.header")
    proto.header = Header(**{k: f.text(header.get(k, ""), f"{KEY}.header.{k}", 200) for k in vars(Header())})
    notes = {k: data[k] for k in ("cards", "protest", "notes", *(("extras",) if extras else ())) if k in data}
    try:
        read_judge_notes(proto, notes)
    except FormatError as error:
        raise FormatError(error.reason, f"{KEY}.{error.field}") from None
    if data.get("stop") is not None:
        proto.stop = Moment.from_json(data["stop"], f"{KEY}.stop")
    if data.get("winner") is not None:
        proto.winner = f.choice(data["winner"], f"{KEY}.winner", {"draw": "draw"})
    return dict(f.obj(data.get("options", {}), f"{KEY}.options"))
