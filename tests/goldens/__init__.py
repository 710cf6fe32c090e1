"""Playthrough goldens, one file per edition (see playthrough.py)."""
