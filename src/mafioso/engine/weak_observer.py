"""The observers a game makes: :class:`Observer` with weak references, kept interpreted.

``Game`` keeps weak references to a finished game's observers, so that reference counting frees
the game and its observers together without the cyclic collector. ``Observer`` is compiled with the
engine (mypyc) when the compiled path is built, and a compiled (native) class cannot safely be
weakly referenced: its deallocator never clears the references, which would point at freed memory.
An interpreted subclass gets Python's own deallocator, which does. So this module must stay
interpreted (``setup.py`` does not compile it); the compiled code still reads and folds the
observers as the native class they are.
"""

from __future__ import annotations

from mafioso.engine.observer import Observer


class WeakObserver(Observer):
    """An :class:`Observer` a finished game may keep a weak reference to (compiled or not)."""

    __slots__ = () if Observer.__weakrefoffset__ else ("__weakref__",)
