"""A computer-vision UNO table referee."""

__version__ = "0.1.0"
