"""Recorder driven by a STAND-IN device backend (tests/standin.py): no GPU.

Usage: python3 test_recorder_standin.py GPUSHEET SCRATCH_DIR

The stand-in simulates a caching allocator (see standin.py); every expected
number below is worked out by hand from its rules. The files it produces are
synthetic (they say so) and are read back by `gpusheet check`.
"""

import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))   # the package, from the checkout
sys.path.insert(0, HERE)

from gpusheet_measure import PhaseNotRun, Recorder  # noqa: E402
from standin import MIB, StandInBackend, StandInOutOfMemory  # noqa: E402

GPUSHEET = SCRATCH = None
GIB = 1 << 30


def two_devices(refuse=None):
    # two cards of 1 GiB, each with a 300 MiB context before any allocation
    return StandInBackend([("Stand-in GPU A", GIB, 300 * MIB),
                           ("Stand-in GPU B", GIB, 300 * MIB)], refuse=refuse)


def workload(rec):
    """Weights 100 MiB, input 3 MiB; a pass allocates a 50 MiB activation
    and a 1 MiB output per device, then releases the activation."""
    be = rec.backend
    with rec.phase("model_load"):
        weights = [be.allocate(d, 100 * MIB) for d in (0, 1)]
    with rec.phase("inputs"):
        x = [be.allocate(d, 3 * MIB) for d in (0, 1)]

    def forward():
        out = []
        for d in (0, 1):
            act = be.allocate(d, 50 * MIB)
            out.append(be.allocate(d, 1 * MIB))
            del act
        return out
    rec.passes(forward)
    return weights, x


def levels(start, peak, end):
    return {"start": start, "peak": peak, "end": end}


SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "schemas",
                      "measurement.schema.json")


class StandInZSchema(unittest.TestCase):
    """Every file the stand-in tests wrote validates against
    schemas/measurement.schema.json (runs last: unittest sorts classes by name)."""

    def test_zz_schema(self):
        try:
            import jsonschema
        except ImportError:
            self.skipTest("python3-jsonschema is not installed (sh tools/install-deps.sh --test)")
        with open(SCHEMA, encoding="utf-8") as f:
            validator = jsonschema.Draft202012Validator(json.load(f))
        files = sorted(n for n in os.listdir(SCRATCH) if n.startswith("standin-"))
        self.assertGreaterEqual(len(files), 5)
        for n in files:
            with open(os.path.join(SCRATCH, n), encoding="utf-8") as f:
                errors = [e.message for e in validator.iter_errors(json.load(f))]
            self.assertEqual(errors, [], n)


class StandInZSheet(unittest.TestCase):
    """The stand-in's file cited by a workload sheet: `gpusheet sheet`
    shows its phases per device (as assumed figures, since it is synthetic,
    with --accept-synthetic)."""

    def test_zz_sheet(self):
        folder = os.path.join(SCRATCH, "sheet")
        os.makedirs(os.path.join(folder, "measurements"))
        shutil.copy(os.path.join(SCRATCH, "standin-oom.json"),
                    os.path.join(folder, "measurements", "run.json"))
        workload = {
            "schema": "gpusheet-workload", "schema_version": 1, "id": "bridge-stand-in",
            "title": "A stand-in run of the Python bridge",
            "model": {"name": "stand-in workload", "parameters": 50000000},
            "task": "inference",
            "weights": {"storage_bits": 16, "storage_format": "bf16", "compute_format": "bf16"},
            "dimensions": {"batch": 2},
            "inputs": {"usual": {"description": "fixed-3"}, "long": {"description": "none"},
                       "limit": {"description": "none"}},
            "evidence": [{"file": "measurements/run.json",
                          "covers": "the stand-in recorder test's out-of-memory run"}]}
        with open(os.path.join(folder, "workload.json"), "w", encoding="utf-8") as f:
            json.dump(workload, f)
        r = subprocess.run([GPUSHEET, "sheet", os.path.join(folder, "workload.json"), "--out",
                            os.path.join(folder, "out"), "--accept-synthetic",
                            "--date", "2026-11-30"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(folder, "out", "bridge-stand-in.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("**Failed phase:** `warmup`", md)
        self.assertIn("| Device 1 | Stand-in GPU B;", md)
        # device 0's warmup row: start 104 MiB, peak 155 MiB, end 105 MiB (see above)
        rows = [line for line in md.splitlines()
                if line.startswith("| warmup |") and "| 0 | failed | allocated |" in line]
        self.assertEqual(len(rows), 1, rows)
        for figure in ("(109,051,904 B)", "(162,529,280 B)", "(110,100,480 B)", "assumed"):
            self.assertIn(figure, rows[0])


def check_file(path):
    r = subprocess.run([GPUSHEET, "check", path], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


class StandInRecorderOutOfMemory(unittest.TestCase):
    """Out of memory scripted in warmup on device 1 (stand-in)."""

    @classmethod
    def setUpClass(cls):
        cls.path = os.path.join(SCRATCH, "standin-oom.json")
        # allocations on device 1: model_load 1, inputs 2, cold_forward 3-4,
        # warmup's first activation is the 5th: refused
        cls.backend = two_devices(refuse=(1, 5))
        rec = Recorder(cls.path, code="stand-in workload", revision="r1", input_set="fixed-3",
                       seed=7, dimensions={"batch": 2, "dtype": "float16"}, warmup=2,
                       repeats=2, order=3, backend=cls.backend)
        with rec:
            workload(rec)
            raise AssertionError("not reached: the workload's warmup fails")
        cls.rec = rec
        with open(cls.path, encoding="utf-8") as f:
            cls.doc = json.load(f)

    def test_exit_code_and_failure(self):
        self.assertEqual(self.rec.exit_code, 1)
        self.assertEqual(self.rec.failure[0], "warmup")
        self.assertIsInstance(self.rec.failure[1], StandInOutOfMemory)

    def test_header(self):
        d = self.doc
        self.assertEqual(list(d), ["schema", "schema_version", "synthetic", "synthetic_note",
                                   "produced_by", "date", "identity", "dimensions",
                                   "environment", "protocol", "phases"])
        self.assertEqual(d["schema"], "gpusheet-measurement")
        self.assertEqual(d["schema_version"], 1)
        # a stand-in is never written as a GPU measurement
        self.assertIs(d["synthetic"], True)
        self.assertIn("stand-in", d["synthetic_note"])
        self.assertEqual(d["produced_by"], "gpusheet-measure 0.1.0")
        self.assertRegex(d["date"], r"^\d{4}-\d{2}-\d{2}$")
        self.assertEqual(d["identity"], {"code": "stand-in workload", "revision": "r1",
                                         "input_set": "fixed-3", "seed": 7})
        self.assertEqual(d["dimensions"], {"batch": 2, "dtype": "float16"})
        self.assertNotIn("conditions", d)   # no filler: no condition
        self.assertEqual(d["protocol"], {"process": "fresh", "order": 3, "warmup": 2,
                                         "repeats": 2, "empty_cache": False})

    def test_environment(self):
        e = self.doc["environment"]
        # free = 1 GiB - 300 MiB context, read before the first phase
        self.assertEqual(e["devices"], [
            {"index": 0, "name": "Stand-in GPU A", "total_bytes": 1073741824,
             "free_bytes": 759169024, "compute_capability": "9.0"},
            {"index": 1, "name": "Stand-in GPU B", "total_bytes": 1073741824,
             "free_bytes": 759169024, "compute_capability": "9.0"}])
        self.assertEqual(e["driver"], "000.00.00")
        self.assertEqual(e["runtime"], "12.4")
        self.assertEqual(e["backend"], "cuda")
        self.assertEqual(e["allocator"]["backend"], "native")
        self.assertNotIn("counters", e["allocator"]["settings"])
        self.assertEqual(e["frameworks"]["torch"], "0.0.0+stand-in")
        self.assertIn("python", e["frameworks"])

    def phase(self, name, device):
        found = [p for p in self.doc["phases"] if p["name"] == name and p["device"] == device]
        self.assertEqual(len(found), 1, (name, device))
        return found[0]

    def test_phase_order(self):
        self.assertEqual([(p["name"], p["device"]) for p in self.doc["phases"]], [
            ("model_load", 0), ("model_load", 1), ("inputs", 0), ("inputs", 1),
            ("cold_forward", 0), ("cold_forward", 1), ("warmup", 0), ("warmup", 1),
            ("warm_forward", 0), ("warm_forward", 1)])

    def test_ok_phases(self):
        # identical on both devices until warmup; MiB figures, reserved in 2 MiB steps
        for dev in (0, 1):
            p = self.phase("model_load", dev)
            self.assertEqual(p["status"], "ok")
            self.assertIsNone(p["error"])
            # 0 -> 100 MiB (104857600); used = 300 MiB context + reserved
            self.assertEqual(p["allocated"], levels(0, 104857600, 104857600))
            self.assertEqual(p["reserved"], levels(0, 104857600, 104857600))
            self.assertEqual(p["device_used"], {"start": 314572800, "end": 419430400})
            self.assertIsInstance(p["elapsed_us"], int)
            self.assertGreaterEqual(p["elapsed_us"], 0)

            p = self.phase("inputs", dev)
            # 100 -> 103 MiB (108003328); reserved rounds 103 up to 104 MiB (109051904)
            self.assertEqual(p["allocated"], levels(104857600, 108003328, 108003328))
            self.assertEqual(p["reserved"], levels(104857600, 109051904, 109051904))
            self.assertEqual(p["device_used"], {"start": 419430400, "end": 423624704})

            p = self.phase("cold_forward", dev)
            # 103 + 50 activation + 1 output = 154 MiB (161480704) at the peak;
            # the activation goes back to the cache: end 104 MiB, reserved 154 MiB
            self.assertEqual(p["status"], "ok")
            self.assertEqual(p["allocated"], levels(108003328, 161480704, 109051904))
            self.assertEqual(p["reserved"], levels(109051904, 161480704, 161480704))
            self.assertEqual(p["device_used"], {"start": 423624704, "end": 476053504})

    def test_failed_phase(self):
        # device 0 ran its part of the first warm pass: 104 + 50 + 1 = 155 MiB
        # (162529280), reserve grows to 156 MiB (163577856); the activation is
        # released, the new output (1 MiB) is still held by the failing frame,
        # as the previous output is: end 105 MiB (110100480)
        p = self.phase("warmup", 0)
        self.assertEqual(p["status"], "failed")
        self.assertEqual(p["error"], "standin.StandInOutOfMemory: stand-in: out of memory "
                         "(scripted refusal of allocation 5 on device 1)")
        self.assertEqual(p["allocated"], levels(109051904, 162529280, 110100480))
        self.assertEqual(p["reserved"], levels(161480704, 163577856, 163577856))
        self.assertEqual(p["device_used"], {"start": 476053504, "end": 478150656})
        # device 1 refused its first allocation: nothing moved
        p = self.phase("warmup", 1)
        self.assertEqual(p["status"], "failed")
        self.assertEqual(p["error"], self.phase("warmup", 0)["error"])
        self.assertEqual(p["allocated"], levels(109051904, 109051904, 109051904))
        self.assertEqual(p["reserved"], levels(161480704, 161480704, 161480704))
        self.assertEqual(p["device_used"], {"start": 476053504, "end": 476053504})

    def test_not_run(self):
        for dev in (0, 1):
            self.assertEqual(self.phase("warm_forward", dev), {
                "name": "warm_forward", "device": dev, "status": "not_run", "error": None,
                "allocated": None, "reserved": None, "device_used": None, "elapsed_us": None})

    def test_gpusheet_check(self):
        rc, out = check_file(self.path)
        self.assertEqual(rc, 0, out)

    def test_no_temporary_left(self):
        self.assertEqual([n for n in os.listdir(SCRATCH) if n.startswith(".standin-oom")], [])


class StandInRecorderPhasesAfterFailure(unittest.TestCase):
    """A phase entered after a failure is skipped and written not_run (stand-in)."""

    def test_skip(self):
        path = os.path.join(SCRATCH, "standin-skip.json")
        be = StandInBackend([("Stand-in GPU", GIB, 0)], refuse=(0, 1))
        rec = Recorder(path, code="skip", plan=["load", "late"], backend=be)
        ran = []
        with rec:
            try:
                with rec.phase("load"):
                    be.allocate(0, MIB)
            except StandInOutOfMemory:
                pass
            with rec.phase("other"):
                ran.append("other")   # skipped: PhaseNotRun is raised on entry
        self.assertEqual(ran, [])
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        self.assertEqual([(p["name"], p["status"]) for p in d["phases"]],
                         [("load", "failed"), ("other", "not_run"), ("late", "not_run")])
        self.assertEqual(check_file(path)[0], 0)
        # the recorder refuses a second phase and a second write
        self.assertRaises(RuntimeError, rec.write)

    def test_not_run_raises(self):
        be = StandInBackend([("Stand-in GPU", GIB, 0)], refuse=(0, 1))
        rec = Recorder(os.path.join(SCRATCH, "never.json"), code="x", backend=be)
        with self.assertRaises(StandInOutOfMemory):
            with rec.phase("model_load"):
                be.allocate(0, MIB)
        with self.assertRaises(PhaseNotRun):
            with rec.phase("inputs"):
                pass

    def test_other_error_propagates_after_write(self):
        # an error that is not out of memory fails the phase, the file is
        # written, and the error reaches the caller
        path = os.path.join(SCRATCH, "standin-bug.json")
        be = StandInBackend([("Stand-in GPU", GIB, 0)])
        with self.assertRaises(KeyError):
            with Recorder(path, code="bug", backend=be) as rec:
                with rec.phase("model_load"):
                    {}["missing"]
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        self.assertEqual(d["phases"][0]["status"], "failed")
        self.assertEqual(d["phases"][0]["error"], "KeyError: 'missing'")
        self.assertEqual([p["status"] for p in d["phases"][1:]], ["not_run"] * 4)


class StandInRecorderExtraBytes(unittest.TestCase):
    """A filler allocation is a condition of the run (stand-in)."""

    def test_filler(self):
        path = os.path.join(SCRATCH, "standin-extra.json")
        be = StandInBackend([("Stand-in GPU", GIB, 0)])
        with Recorder(path, code="filler", extra_bytes=10 * MIB, devices=["cuda:0"],
                      plan=["model_load", "inputs"], backend=be) as rec:
            with rec.phase("model_load"):
                w = be.allocate(0, 100 * MIB)
            with rec.phase("inputs"):
                x = be.allocate(0, 3 * MIB)
        del w, x
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        self.assertEqual(d["conditions"], {"extra_bytes": 10485760})
        self.assertNotIn("ballast_bytes", d["dimensions"])
        # inputs: 100 MiB + 10 MiB filler + 3 MiB = 113 MiB (118489088)
        p = d["phases"][1]
        self.assertEqual(p["allocated"], levels(104857600, 118489088, 118489088))
        self.assertEqual(rec.exit_code, 0)
        rc, out = check_file(path)
        self.assertEqual(rc, 0, out)

    def test_filler_needs_inputs(self):
        # no phase named inputs: no filler was allocated, so no condition
        path = os.path.join(SCRATCH, "standin-extra-none.json")
        be = StandInBackend([("Stand-in GPU", GIB, 0)])
        with Recorder(path, code="filler", extra_bytes=10 * MIB, plan=["load"], backend=be) as rec:
            with rec.phase("load"):
                pass
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        self.assertNotIn("conditions", d)
        self.assertEqual(d["phases"][0]["allocated"], levels(0, 0, 0))

    def test_filler_out_of_memory(self):
        # a filler larger than the card fails `inputs` honestly
        path = os.path.join(SCRATCH, "standin-extra-oom.json")
        be = StandInBackend([("Stand-in GPU", GIB, 0)])
        with Recorder(path, code="filler", extra_bytes=2 * GIB, backend=be) as rec:
            with rec.phase("model_load"):
                pass
            with rec.phase("inputs"):
                raise AssertionError("not reached: the filler fails on entry")
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        self.assertEqual([p["status"] for p in d["phases"]],
                         ["ok", "failed", "not_run", "not_run", "not_run"])
        self.assertIn("out of memory", d["phases"][1]["error"])
        self.assertEqual(d["conditions"], {"extra_bytes": 2 * GIB})
        rc, out = check_file(path)
        self.assertEqual(rc, 0, out)


class StandInRecorderRefusals(unittest.TestCase):
    """What the Recorder refuses before any phase (stand-in)."""

    def test_existing_output(self):
        from gpusheet_measure import OutputExists
        path = os.path.join(SCRATCH, "exists.json")
        with open(path, "w") as f:
            f.write("keep\n")
        with self.assertRaises(OutputExists):
            Recorder(path, code="x", backend=two_devices())
        with open(path) as f:
            self.assertEqual(f.read(), "keep\n")

    def test_unknown_device(self):
        from gpusheet_measure import NoDevice
        with self.assertRaisesRegex(NoDevice, "cuda:2 not found: 2 device"):
            Recorder(os.path.join(SCRATCH, "x.json"), code="x", devices=[2],
                     backend=two_devices())

    def test_backend_without_note(self):
        # an injected backend that does not say it is synthetic is refused:
        # only PyTorch on a device may give synthetic: false
        be = two_devices()
        be.synthetic_note = None
        with self.assertRaisesRegex(ValueError, "synthetic"):
            Recorder(os.path.join(SCRATCH, "x.json"), code="x", backend=be)

    def test_bad_dimension(self):
        for dims in ({"batch": 0}, {"dtype": ""}, {"batch": True}, {"x": 1.5}):
            with self.assertRaises(ValueError):
                Recorder(os.path.join(SCRATCH, "x.json"), code="x", dimensions=dims,
                         backend=two_devices())


if __name__ == "__main__":
    GPUSHEET, SCRATCH = sys.argv[1], sys.argv[2]
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    unittest.main(argv=sys.argv[:1], verbosity=2)
