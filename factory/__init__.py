"""The tool-use benchmark factory: verified, executable, nested tool-use benchmarks."""

__version__ = "0.1.0"
