"""The errors of gpusheet_measure and the exit codes they map to."""


class MeasureError(Exception):
    """A refusal before anything is measured: exit code 2, nothing written."""

    exit_code = 2


class NoDevice(MeasureError):
    """No GPU to measure: no PyTorch, a CPU-only build, no driver or no device."""


class OutputExists(MeasureError):
    """The output file exists already: every run gets a new file."""


class WriteFailed(MeasureError):
    """The file could not be written (the measurement is lost, exit 2)."""


class PhaseNotRun(Exception):
    """Raised on entering a phase after an earlier phase failed.

    The phase is recorded as "not_run" and its body is skipped; a Recorder
    used as a context manager absorbs this exception.
    """
