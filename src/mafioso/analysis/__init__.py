"""Simulation, statistics, exact baselines and the balance lab over many bot games."""

from mafioso.analysis.simulate import SimulationResult, simulate
from mafioso.analysis.stats import wilson_interval

__all__ = ["SimulationResult", "simulate", "wilson_interval"]
