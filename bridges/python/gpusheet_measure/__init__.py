"""gpusheet_measure: a PyTorch program's device memory per phase, written as
a gpusheet measurement file (schema gpusheet-measurement, version 1).

Only the standard library is imported here; PyTorch is imported when the
default device backend is created (see backend.py).
"""

from .backend import TorchBackend
from .errors import MeasureError, NoDevice, OutputExists, PhaseNotRun, WriteFailed
from .recorder import PRODUCED_BY, PROTOCOL_PHASES, Recorder, environment_document

__version__ = "0.1.0"

__all__ = ["Recorder", "TorchBackend", "environment_document", "MeasureError", "NoDevice",
           "OutputExists", "PhaseNotRun", "WriteFailed", "PRODUCED_BY", "PROTOCOL_PHASES"]
