"""``mafioso serve``: the automated facilitator for a table of people with phones.

A shared screen (the host page) speaks the narration and shows the public table; every player
uses their own phone for their secret card, night choices and votes. See ``docs/server.md``.
The web dependencies are imported only when the server is used.
"""

from __future__ import annotations

from mafioso.server.serve import serve

__all__ = ["serve"]
