"""Tests of the PettingZoo environments (mafioso.envs)."""
