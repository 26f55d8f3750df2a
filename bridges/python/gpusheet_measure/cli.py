"""python -m gpusheet_measure {measure,environment}: see README.md.

Exit codes, as the probe's: 0 success (file written); 1 a phase failed (file
written); 2 usage error, no GPU, an existing output or missing folder, an
entry that cannot be imported, or a file that could not be written (one line
on standard error, no file).
"""

import argparse
import importlib
import importlib.util
import os
import sys
import traceback

from . import output
from .errors import MeasureError
from .recorder import Recorder, environment_document, parse_device

PROG = "gpusheet-measure"


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (PROG, message))
        sys.exit(2)


def _count(minimum):
    def parse(s):
        try:
            v = int(s, 10)
        except ValueError:
            raise argparse.ArgumentTypeError("expected an integer, found '%s'" % s) from None
        if v < minimum or v > output.COUNT_MAX:
            raise argparse.ArgumentTypeError("expected an integer >= %d, found '%s'" % (minimum, s))
        return v
    return parse


def _device(s):
    try:
        return parse_device(s)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _dimension(s):
    name, eq, value = s.partition("=")
    if not eq or not name or not value:
        raise argparse.ArgumentTypeError("expected NAME=VALUE, found '%s'" % s)
    if value.isdigit():
        v = int(value)
        if not 1 <= v <= output.COUNT_MAX:
            raise argparse.ArgumentTypeError("dimension '%s': a positive integer or a text" % name)
        return name, v
    return name, value


def _entry(s):
    module, colon, func = s.rpartition(":")
    if not colon or not module or not func.isidentifier():
        raise argparse.ArgumentTypeError("expected MODULE:FUNCTION or FILE.py:FUNCTION, found '%s'" % s)
    return module, func


def _parser():
    p = _Parser(prog=PROG, description="Device memory per phase of a PyTorch program, "
                "as a gpusheet measurement file.")
    sub = p.add_subparsers(dest="command", metavar="{measure,environment}")
    sub.required = True

    m = sub.add_parser("measure", help="run a workload's phases and write the measurement")
    m.add_argument("--entry", required=True, type=_entry, metavar="MODULE:FUNCTION",
                   help="function called with the Recorder (FILE.py:FUNCTION also works)")
    m.add_argument("--output", required=True, metavar="FILE", help="a new file")
    m.add_argument("--device", action="append", type=_device, metavar="cuda:N",
                   help="a device to record (repeatable; default every visible device)")
    m.add_argument("--code", metavar="TEXT", help="what ran (identity.code; default the entry)")
    m.add_argument("--revision", metavar="TEXT")
    m.add_argument("--input-set", metavar="TEXT")
    m.add_argument("--seed", type=_count(0), help="passed to torch.manual_seed and recorded")
    m.add_argument("--dimension", action="append", type=_dimension, default=[],
                   metavar="NAME=VALUE", help="a requested dimension (repeatable)")
    m.add_argument("--package", action="append", default=[], metavar="NAME",
                   help="a distribution whose version is recorded (repeatable)")
    m.add_argument("--warmup", type=_count(0), default=3, metavar="K")
    m.add_argument("--repeats", type=_count(1), default=5, metavar="R")
    m.add_argument("--order", type=_count(1), metavar="N")
    m.add_argument("--empty-cache", action="store_true",
                   help="empty the allocator's cache before each warm pass")
    m.add_argument("--extra-bytes", type=_count(1), metavar="N",
                   help="a filler of N bytes per device from the inputs phase on "
                   "(recorded as a condition of the run)")
    m.add_argument("--environment-output", metavar="FILE",
                   help="also write the environment document (command line included)")
    m.add_argument("args", nargs=argparse.REMAINDER,
                   help="after --: arguments for the workload (rec.args)")

    e = sub.add_parser("environment", help="the environment alone")
    e.add_argument("--output", metavar="FILE", help="a new file (default standard output)")
    e.add_argument("--device", action="append", type=_device, metavar="cuda:N")
    e.add_argument("--package", action="append", default=[], metavar="NAME")
    e.add_argument("--seed", type=_count(0))
    e.add_argument("--input-set", metavar="TEXT")
    return p


def _load_entry(module, func):
    if module.endswith(".py"):
        if not os.path.isfile(module):
            raise MeasureError("entry file '%s' not found" % module)
        spec = importlib.util.spec_from_file_location(
            "gpusheet_entry_" + os.path.splitext(os.path.basename(module))[0], module)
        mod = importlib.util.module_from_spec(spec)
        sys.path.insert(0, os.path.dirname(os.path.abspath(module)))
        spec.loader.exec_module(mod)
    else:
        sys.path.insert(0, os.getcwd())
        try:
            mod = importlib.import_module(module)
        except ImportError as ex:
            raise MeasureError("cannot import entry module '%s': %s" % (module, ex)) from None
    fn = getattr(mod, func, None)
    if not callable(fn):
        raise MeasureError("entry '%s:%s' is not a function" % (module, func))
    return fn


def _measure(a, backend):
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    if a.args and a.args[0] != "--":
        raise MeasureError("unexpected argument '%s' (workload arguments follow --)" % a.args[0])
    output.check_output(a.output)
    if a.environment_output:
        if os.path.abspath(a.environment_output) == os.path.abspath(a.output):
            raise MeasureError("--environment-output and --output name the same file")
        output.check_output(a.environment_output)
    fn = _load_entry(*a.entry)
    dims = dict(a.dimension)
    # the default code names the entry without the folder it lives in
    code = a.code or "%s:%s" % (os.path.basename(a.entry[0]) if a.entry[0].endswith(".py")
                                else a.entry[0], a.entry[1])
    rec = Recorder(a.output, code=code, devices=a.device,
                   revision=a.revision, input_set=a.input_set, seed=a.seed, dimensions=dims,
                   packages=a.package, warmup=a.warmup, repeats=a.repeats, order=a.order,
                   empty_cache=a.empty_cache, extra_bytes=a.extra_bytes, args=args,
                   backend=backend)
    if a.environment_output:
        doc = environment_document(rec.backend, rec.devices, a.package, a.seed, a.input_set)
        output.write_new(a.environment_output, output.dumps(doc))
    if a.seed is not None:
        rec.backend.seed(a.seed)
    crashed = False
    try:
        with rec:
            fn(rec)
    except MeasureError:
        raise
    except Exception:  # noqa: the workload's own error, after the file is written
        traceback.print_exc()
        crashed = True
    if not rec._written:
        raise MeasureError("the workload recorded no phase: nothing written")
    if rec.failure is not None:
        sys.stderr.write("%s: phase %s failed: %s (file written: %s)\n"
                         % (PROG, rec.failure[0], str(rec.failure[1]).splitlines()[0]
                            if str(rec.failure[1]) else type(rec.failure[1]).__name__, a.output))
        return 1
    return 1 if crashed else 0


def _environment(a, backend):
    if a.output:
        output.check_output(a.output)
    doc = environment_document(backend, a.device, a.package, a.seed, a.input_set)
    text = output.dumps(doc)
    if a.output:
        output.write_new(a.output, text)
    else:
        sys.stdout.write(text)
    return 0


def main(argv=None, backend=None):
    """Run the command line; returns the exit code.

    backend: the device backend seam (see backend.py), for tests; None is
    PyTorch.
    """
    a = _parser().parse_args(argv)
    try:
        if a.command == "measure":
            return _measure(a, backend)
        return _environment(a, backend)
    except MeasureError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return e.exit_code
    except ValueError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
