"""The Recorder: device memory per phase, written as a gpusheet measurement.

    from gpusheet_measure import Recorder
    with Recorder("run-1.json", code="my-model") as rec:
        with rec.phase("model_load"):
            model = load()
        with rec.phase("inputs"):
            x = make_inputs()
        rec.passes(lambda: model(x))   # cold_forward, warmup, warm_forward

Each phase follows the measurement protocol on every recorded device:
synchronise, read allocated, reserved and device_used (start), reset the
peaks, run, synchronise, read both peaks and the three end levels. A phase
that raises is recorded as failed with the error text and the values read
after the failure; the phases that follow are "not_run", and the file is
still written. The file is written when the ``with Recorder`` block ends
(or by ``write()``), once.
"""

import importlib.metadata
import os
import platform
import sys
import time

from . import output
from .backend import ALLOCATOR_VARIABLES, ASYNC_CAVEAT, TorchBackend
from .errors import MeasureError, NoDevice, PhaseNotRun

TOOL = "gpusheet-measure"
VERSION = "0.1.0"
PRODUCED_BY = "%s %s" % (TOOL, VERSION)

#: The phases of the measurement guide, in order.
PROTOCOL_PHASES = ("model_load", "inputs", "cold_forward", "warmup", "warm_forward")


def parse_device(spec):
    """0, "0", "cuda:0" or "hip:0" -> 0; anything else raises ValueError."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        index = spec
    else:
        s = str(spec)
        for prefix in ("cuda:", "hip:"):
            if s.startswith(prefix):
                s = s[len(prefix):]
        if not s.isdigit():
            raise ValueError("bad device '%s': expected cuda:N" % spec)
        index = int(s)
    if index < 0:
        raise ValueError("bad device '%s': expected cuda:N" % spec)
    return index


def _error_text(exc):
    name = type(exc).__qualname__
    module = type(exc).__module__
    if module not in ("builtins", "__main__"):
        name = "%s.%s" % (module, name)
    msg = str(exc).strip()
    return output.text("%s: %s" % (name, msg) if msg else name)


def _variables():
    """(settings, as_found): the allocation-related variables that are set."""
    settings, found = {}, {}
    for name in ALLOCATOR_VARIABLES:
        value = os.environ.get(name)
        if value is None:
            continue
        found[name] = output.text(value)
        # the format refuses empty strings
        settings[name] = output.text(value) if value else "(set, empty)"
    return settings, found


def _package_versions(packages):
    """(versions, missing) of the named distributions."""
    versions, missing = {}, []
    for name in packages:
        try:
            versions[name] = output.text(importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return versions, missing


def _check_dimensions(dimensions):
    out = {}
    for name, value in (dimensions or {}).items():
        if not isinstance(name, str) or not name:
            raise ValueError("dimension names are non-empty strings")
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError("dimension '%s': a positive integer or a text" % name)
        if isinstance(value, int) and not 1 <= value <= output.COUNT_MAX:
            raise ValueError("dimension '%s': a positive integer or a text, found %d" % (name, value))
        if isinstance(value, str) and not value:
            raise ValueError("dimension '%s': empty text" % name)
        out[name] = value
    return dict(sorted(out.items()))


class _Reading:
    """One device's counters for one phase; None is "not read", never 0."""

    def __init__(self, device):
        self.device = device
        self.alloc = [None, None, None]     # start, peak, end
        self.reserved = [None, None, None]
        self.used = [None, None]            # start, end


def _guard(fn, *args):
    """fn(*args), or None when the read itself fails (after a sticky error)."""
    try:
        return fn(*args)
    except Exception:  # noqa: any failure of a read is a missing value
        return None


class _Phase:
    def __init__(self, rec, name):
        self.rec, self.name = rec, name
        self.readings = None
        self.t0 = None

    def __enter__(self):
        rec = self.rec
        if rec._written:
            raise RuntimeError("the measurement file is already written")
        if rec.failure is not None:
            rec._record_not_run(self.name)
            raise PhaseNotRun("phase %s not run: phase %s failed" % (self.name, rec.failure[0]))
        self.readings = [_Reading(d) for d in rec.devices]
        be = rec.backend
        for r in self.readings:
            _guard(be.synchronize, r.device)
        for r in self.readings:
            lv = _guard(be.levels, r.device) or (None, None, None)
            r.alloc[0], r.reserved[0], r.used[0] = lv
            _guard(be.reset_peaks, r.device)
        self.t0 = time.monotonic_ns()
        if self.name == "inputs" and rec.extra_bytes and not rec._filler_tried:
            rec._filler_tried = True
            try:
                for d in rec.devices:
                    rec._filler.append(be.allocate(d, rec.extra_bytes))
            except BaseException as e:
                self._finish(e)
                raise
        return self

    def __exit__(self, exc_type, exc, tb):
        self._finish(exc)
        return False

    def _finish(self, exc):
        rec, be = self.rec, self.rec.backend
        sync_error = None
        for r in self.readings:
            try:
                be.synchronize(r.device)
            except Exception as e:  # noqa: recorded as the phase's error
                sync_error = sync_error or e
        elapsed = (time.monotonic_ns() - self.t0) // 1000
        if exc is None and sync_error is not None:
            exc = sync_error
        for r in self.readings:
            pk = _guard(be.peaks, r.device) or (None, None)
            lv = _guard(be.levels, r.device) or (None, None, None)
            r.alloc[1], r.reserved[1] = pk
            r.alloc[2], r.reserved[2], r.used[1] = lv
            # a peak is never below a level read in the same phase
            for levels in (r.alloc, r.reserved):
                if levels[1] is not None:
                    levels[1] = max(v for v in levels if v is not None)
        status = "ok" if exc is None else "failed"
        error = None if exc is None else _error_text(exc)
        for r in self.readings:
            rec._entries.append({
                "name": self.name, "device": r.device, "status": status, "error": error,
                "allocated": dict(zip(("start", "peak", "end"), map(output.count, r.alloc))),
                "reserved": dict(zip(("start", "peak", "end"), map(output.count, r.reserved))),
                "device_used": dict(zip(("start", "end"), map(output.count, r.used))),
                "elapsed_us": output.count(elapsed),
            })
        rec._seen.add(self.name)
        if exc is not None:
            rec.failure = (self.name, exc)


class Recorder:
    """Records device memory per phase into a new measurement file.

    output      the file to create (refused if it exists, checked now)
    code        what ran (identity.code); default "python SCRIPT"
    devices     device indexes or "cuda:N" to record; default every visible one
    revision, input_set, seed     identity of the run, as given
    dimensions  name -> positive integer or text (the requested sizes)
    packages    distribution names whose versions go into frameworks
    plan        the phase names expected, in order: those never entered are
                written "not_run"; default the guide's five phases
    warmup, repeats, order, process, empty_cache   the protocol record
    extra_bytes a filler of this many bytes allocated on each device at the
                start of the "inputs" phase and kept to the end; written as
                the condition "extra_bytes" (a real workload does not have it)
    args        free arguments for the workload (the CLI passes what
                follows "--")
    backend     the device backend (see backend.py); default TorchBackend

    Raises NoDevice or OutputExists (exit code 2: nothing is written).
    """

    def __init__(self, output_path, *, code=None, devices=None, revision=None,
                 input_set=None, seed=None, dimensions=None, packages=(), plan=None,
                 warmup=None, repeats=None, order=None, process="fresh",
                 empty_cache=False, extra_bytes=None, args=(), backend=None):
        output.check_output(output_path)
        if process not in ("fresh", "reused"):
            raise ValueError("process is 'fresh' or 'reused'")
        if order is not None and order < 1:
            raise ValueError("order starts at 1")
        if extra_bytes is not None and not 1 <= extra_bytes <= output.COUNT_MAX:
            raise ValueError("extra_bytes must be a positive byte count")
        for label, v in (("warmup", warmup), ("repeats", repeats), ("seed", seed)):
            if v is not None:
                output.count(v)
        self.dimensions = _check_dimensions(dimensions)
        if backend is None:
            backend = TorchBackend()
        elif not isinstance(backend, TorchBackend) and not getattr(backend, "synthetic_note", None):
            raise ValueError("an injected backend must say how its numbers are made "
                             "(synthetic_note): its files are synthetic")
        self.backend = backend
        backend.check()
        n = backend.device_count()
        if devices is None:
            devices = list(range(n))
        self.devices = []
        for spec in devices:
            d = parse_device(spec)
            if d >= n:
                raise NoDevice("cuda:%d not found: %d device(s) visible to this process" % (d, n))
            if d not in self.devices:
                self.devices.append(d)
        if not self.devices:
            raise NoDevice("no device to record")
        self.output = output_path
        self.code = code or "python %s" % (os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "-")
        self.revision, self.input_set, self.seed = revision, input_set, seed
        self.packages = list(packages)
        self.warmup, self.repeats, self.order = warmup, repeats, order
        self.process, self.empty_cache = process, bool(empty_cache)
        self.extra_bytes = extra_bytes
        self.args = list(args)
        self._plan = list(PROTOCOL_PHASES if plan is None else plan)
        self._entries, self._seen, self._filler = [], set(), []
        self._filler_tried = False
        self.failure = None
        self._written = False
        self.device_info = [dict(index=d, **backend.describe(d)) for d in self.devices]
        self.env = backend.environment()

    # -- phases ---------------------------------------------------------------

    def plan(self, names):
        """Replace the expected phase names (before the first phase)."""
        if self._entries:
            raise RuntimeError("plan() comes before the first phase")
        self._plan = list(names)

    def set_dimension(self, name, value):
        """Add or change a requested dimension (positive integer or text)."""
        dims = dict(self.dimensions)
        dims[name] = value
        self.dimensions = _check_dimensions(dims)

    def phase(self, name):
        """Context manager measuring one phase on every recorded device."""
        if not isinstance(name, str) or not name:
            raise ValueError("a phase name is a non-empty string")
        return _Phase(self, name)

    def passes(self, fn, warmup=None, repeats=None):
        """The guide's forward protocol around fn: cold_forward (one call),
        warmup (K calls), warm_forward (R calls); returns the last result.

        Each result is kept until the next call replaces it, as a caller
        keeps ``y = model(x)``. With empty_cache the allocator's cache is
        emptied before each warm call.
        """
        k = warmup if warmup is not None else (self.warmup if self.warmup is not None else 3)
        r = repeats if repeats is not None else (self.repeats if self.repeats is not None else 5)
        if r < 1 or k < 0:
            raise ValueError("warmup >= 0 and repeats >= 1")
        self.warmup, self.repeats = k, r
        out = None
        with self.phase("cold_forward"):
            out = fn()
        for name, times in (("warmup", k), ("warm_forward", r)):
            with self.phase(name):
                for _ in range(times):
                    if self.empty_cache:
                        out = None
                        self.backend.empty_cache()
                    out = fn()
        return out

    def _record_not_run(self, name):
        if name in self._seen:
            return
        self._seen.add(name)
        for d in self.devices:
            self._entries.append({"name": name, "device": d, "status": "not_run", "error": None,
                                  "allocated": None, "reserved": None, "device_used": None,
                                  "elapsed_us": None})

    # -- the file ---------------------------------------------------------------

    @property
    def exit_code(self):
        """0 when every phase succeeded, 1 when one failed."""
        return 0 if self.failure is None else 1

    def document(self):
        """The measurement as a dict (schema gpusheet-measurement, version 1)."""
        for name in self._plan:
            self._record_not_run(name)
        if not self._entries:
            raise RuntimeError("no phase was recorded")
        env = self.env
        settings, _ = _variables()
        if env["allocator"] == "cudaMallocAsync":
            settings["counters"] = ASYNC_CAVEAT
        frameworks = dict(env["frameworks"])
        frameworks["python"] = platform.python_version()
        frameworks.update(_package_versions(self.packages)[0])
        note = getattr(self.backend, "synthetic_note", None)
        doc = {
            "schema": "gpusheet-measurement",
            "schema_version": 1,
            "synthetic": bool(note),
            "synthetic_note": output.text(note) if note else None,
            "produced_by": PRODUCED_BY,
            "date": output.today_utc(),
            "identity": {"code": output.text(self.code),
                         "revision": output.text(self.revision) if self.revision else None,
                         "input_set": output.text(self.input_set) if self.input_set else None,
                         "seed": output.count(self.seed)},
            "dimensions": {k: output.text(v) if isinstance(v, str) else v
                           for k, v in self.dimensions.items()},
        }
        # only a filler that was requested from the device is a condition
        if self.extra_bytes and self._filler_tried:
            doc["conditions"] = {"extra_bytes": self.extra_bytes}
        doc["environment"] = {
            "devices": [{"index": i["index"], "name": output.text(i["name"]),
                         "total_bytes": i["total_bytes"] or None,
                         "free_bytes": output.count(i["free_bytes"]),
                         "compute_capability": i["compute_capability"]}
                        for i in self.device_info],
            "driver": env["driver"],
            "runtime": env["runtime"],
            "backend": env["backend"],
            "allocator": {"backend": env["allocator"], "settings": dict(sorted(settings.items()))},
            "frameworks": dict(sorted(frameworks.items())),
        }
        doc["protocol"] = {"process": self.process, "order": self.order,
                           "warmup": self.warmup, "repeats": self.repeats,
                           "empty_cache": self.empty_cache}
        doc["phases"] = list(self._entries)
        return doc

    def _check_on_device(self, doc):
        """A run that never held a byte on a recorded device ran elsewhere
        (on the CPU, or on another device): it is not written as a GPU
        measurement. A failed phase is evidence whatever it held."""
        if doc["synthetic"] or self.failure is not None:
            return
        for p in doc["phases"]:
            for v in (p["allocated"] or {}).values():
                if v:
                    return
        raise MeasureError("no phase held device memory on %s: the workload ran elsewhere "
                           "(on the CPU?) and is not written as a GPU measurement"
                           % ", ".join("cuda:%d" % d for d in self.devices))

    def write(self):
        """Write the file (once); returns exit_code. Raises WriteFailed, or
        MeasureError for a run that held nothing on its devices."""
        if self._written:
            raise RuntimeError("the measurement file is already written")
        doc = self.document()
        self._check_on_device(doc)
        text = output.dumps(doc)
        self._written = True
        self._filler = []
        output.write_new(self.output, text)
        return self.exit_code

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._written:
            return False
        if self._entries or self.failure is not None:
            self.write()
        if isinstance(exc, PhaseNotRun):
            return True
        if self.failure is not None and exc is self.failure[1]:
            # an out-of-memory failure is a result, not a crash
            return self.backend.is_out_of_memory(exc)
        return False


def environment_document(backend=None, devices=None, packages=(), seed=None,
                         input_set=None, argv=None):
    """The gpusheet-environment document (for people and logs) as a dict."""
    if backend is None:
        backend = TorchBackend()
    backend.check()
    n = backend.device_count()
    idx = list(range(n)) if devices is None else [parse_device(d) for d in devices]
    for d in idx:
        if d >= n:
            raise NoDevice("cuda:%d not found: %d device(s) visible to this process" % (d, n))
    env = backend.environment()
    settings, found = _variables()
    if env["allocator"] == "cudaMallocAsync":
        settings["counters"] = ASYNC_CAVEAT
    versions, missing = _package_versions(packages)
    frameworks = dict(env["frameworks"], python=platform.python_version(), **versions)
    note = getattr(backend, "synthetic_note", None)
    doc = {
        "schema": "gpusheet-environment",
        "schema_version": 1,
        "produced_by": PRODUCED_BY,
        "synthetic_note": output.text(note) if note else None,
        "date": output.today_utc(),
        "devices": [dict(index=d, **{k: (output.text(v) if isinstance(v, str) else v)
                                     for k, v in backend.describe(d).items()}) for d in idx],
        "device_count": n,
        "driver": env["driver"],
        "driver_note": env["driver_note"],
        "runtime": env["runtime"],
        "backend": env["backend"],
        "allocator": {"backend": env["allocator"], "settings": dict(sorted(settings.items()))},
        "frameworks": dict(sorted(frameworks.items())),
        "packages_not_installed": missing,
        "environment_variables": dict(sorted(found.items())),
        "command_line": [output.text(a) for a in (sys.argv if argv is None else argv)],
        "seed": seed,
        "input_set": input_set,
    }
    return doc


__all__ = ["Recorder", "environment_document", "PROTOCOL_PHASES", "MeasureError", "PRODUCED_BY"]
