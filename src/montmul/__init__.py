"""montmul: Montgomery modular multiplier cores and their tooling."""
__version__ = "0.1.0"
VERSION = __version__  #: the same, for `montmul --version`
