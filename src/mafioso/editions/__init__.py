"""One package per edition. Each exposes ``EDITION``, an :class:`~mafioso.engine.Edition`."""
