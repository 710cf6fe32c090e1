"""Simulation and statistics over many bot games."""

from mafioso.analysis.simulate import SimulationResult, simulate, wilson_interval

__all__ = ["SimulationResult", "simulate", "wilson_interval"]
