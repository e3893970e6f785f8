"""montmul: Montgomery modular multiplier cores and their tooling."""
__version__ = "0.1.0"
