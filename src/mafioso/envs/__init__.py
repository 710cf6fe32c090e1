"""PettingZoo AEC environments for every mafioso edition (``pip install mafioso[envs]``).

>>> from mafioso.envs import env
>>> table = env("sport")
>>> table.reset(seed=3)
>>> sorted(table.agents)[:2]
['seat_1', 'seat_2']

The layout of actions and observations is documented in ``docs/envs.md``,
:mod:`mafioso.envs.actions` and :mod:`mafioso.envs.observation`.
"""

from mafioso.envs.actions import FIRST_SEAT, PASS, STOP, ActionLayout
from mafioso.envs.aec import agent_name, env, raw_env, seat_of
from mafioso.envs.observation import Encoder

__all__ = ["FIRST_SEAT", "PASS", "STOP", "ActionLayout", "Encoder", "agent_name", "env", "raw_env", "seat_of"]
