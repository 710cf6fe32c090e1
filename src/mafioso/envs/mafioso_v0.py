"""Version 0 of the mafioso environments, PettingZoo-style (``from mafioso.envs import mafioso_v0``).

A versioned name to pin in experiments: a change to the spaces, the turn order or the rewards
gets a new module (``mafioso_v1``) and the old one keeps working where it can.

Version history:

- v0: every edition; ``Discrete(2 + N + M)`` actions (pass, stop, seats, option slots);
  ``{"observation", "action_mask"}`` observations folded from the seat's view; padded turns for
  multi-choice prompts when decoys are on; +1/-1/0 at the end.
"""

from mafioso.envs.aec import env, raw_env

__all__ = ["env", "raw_env"]
