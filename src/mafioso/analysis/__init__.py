"""Simulation, statistics, exact baselines and the balance lab over many bot games."""

from mafioso.analysis.simulate import SimulationResult, simulate
from mafioso.analysis.stats import wilson_interval
from mafioso.analysis.winchance import WinChance, win_chance

__all__ = ["SimulationResult", "WinChance", "simulate", "wilson_interval", "win_chance"]
