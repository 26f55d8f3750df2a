"""The refusal without a GPU, through PyTorch itself (Debian's CPU build).

Usage: python3 test_torch_cpu.py SCRATCH_DIR   (python3 must import torch)

With a CPU-only PyTorch, or with CUDA_VISIBLE_DEVICES="" on a CUDA build,
`measure` and `environment` exit 2 with one line and write nothing: a CPU
run is never written as a GPU measurement.
"""

import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG_ROOT = os.path.dirname(HERE)
sys.path.insert(0, PKG_ROOT)

sys.path.insert(0, HERE)

import torch  # noqa: E402,F401  (this test is about PyTorch without a GPU)

from gpusheet_measure import NoDevice, Recorder, TorchBackend, cli, environment_document  # noqa: E402
from standin import StandInBackend  # noqa: E402

SCRATCH = None
# hides the devices of a CUDA build too, so the test holds on a GPU machine
NO_GPU = {"CUDA_VISIBLE_DEVICES": "", "HIP_VISIBLE_DEVICES": ""}
REASON = (r"^gpusheet-measure: (PyTorch \S+ is a CPU-only build: no CUDA or HIP device to "
          r"measure|no CUDA device: torch\.cuda\.is_available\(\) is false .*)\n$")


def run_module(args):
    e = dict(os.environ, PYTHONPATH=PKG_ROOT, **NO_GPU)
    return subprocess.run([sys.executable, "-m", "gpusheet_measure"] + args, env=e,
                          cwd=SCRATCH, capture_output=True, text=True)


class NoGpu(unittest.TestCase):
    def test_measure_refused(self):
        entry = os.path.join(SCRATCH, "entry.py")
        with open(entry, "w") as f:
            f.write("def run(rec):\n    raise AssertionError('never called without a GPU')\n")
        out = os.path.join(SCRATCH, "m.json")
        env_out = os.path.join(SCRATCH, "e.json")
        r = run_module(["measure", "--entry", entry + ":run", "--output", out,
                        "--environment-output", env_out])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertRegex(r.stderr, REASON)
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(env_out))
        self.assertFalse([n for n in os.listdir(SCRATCH) if n.endswith(".json")])

    def test_environment_refused(self):
        for args in (["environment"], ["environment", "--output", "env.json"]):
            with self.subTest(args=args):
                r = run_module(args)
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stdout, "")
                self.assertRegex(r.stderr, REASON)
                self.assertFalse(os.path.exists(os.path.join(SCRATCH, "env.json")))

    def test_library_refused(self):
        if torch.cuda.is_available():
            self.skipTest("a CUDA device is visible in this process")
        with self.assertRaises(NoDevice):
            Recorder(os.path.join(SCRATCH, "lib.json"), code="x")
        with self.assertRaises(NoDevice):
            environment_document()
        self.assertFalse(os.path.exists(os.path.join(SCRATCH, "lib.json")))

    def test_oom_detection(self):
        # the exception types the backend takes for out of memory
        be = TorchBackend()
        oom = getattr(torch.cuda, "OutOfMemoryError", None)
        if oom is not None:
            self.assertTrue(be.is_out_of_memory(oom("CUDA out of memory.")))
        self.assertTrue(be.is_out_of_memory(RuntimeError("CUDA out of memory. Tried to allocate")))
        self.assertFalse(be.is_out_of_memory(RuntimeError("device-side assert triggered")))
        self.assertFalse(be.is_out_of_memory(ValueError("x")))


class ExampleOnCpuStandIn(unittest.TestCase):
    """examples/torch_mlp.py run on the CPU under the STAND-IN backend.

    The stand-in's counters stay at 0 (the CPU tensors are not its
    allocations): this checks the entry's code path and its phases, not
    memory. The file is synthetic.
    """

    def run_entry(self, name, extra):
        import io
        from contextlib import redirect_stderr
        folder = os.path.join(SCRATCH, "examples")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        entry = os.path.join(PKG_ROOT, "examples", "torch_mlp.py") + ":run"
        err = io.StringIO()
        with redirect_stderr(err):
            code = cli.main(["measure", "--entry", entry, "--output", path, "--warmup", "1",
                             "--repeats", "2", "--", "--batch", "2", "--context", "4",
                             "--width", "8", "--layers", "2"] + extra,
                            backend=StandInBackend([("Stand-in GPU", 1 << 30, 0)]))
        self.assertEqual(code, 0, err.getvalue())
        import json
        with open(path) as f:
            return json.load(f)

    def test_forward(self):
        d = self.run_entry("mlp.json", [])
        self.assertTrue(d["synthetic"])
        self.assertEqual(d["dimensions"], {"batch": 2, "context": 4, "dtype": "float32",
                                           "layers": 2, "width": 8})
        self.assertEqual([(p["name"], p["status"]) for p in d["phases"]],
                         [(n, "ok") for n in ("model_load", "inputs", "cold_forward", "warmup",
                                              "warm_forward")])

    def test_train(self):
        for opt in ("sgd", "adam"):
            d = self.run_entry("mlp-%s.json" % opt, ["--train", opt])
            self.assertEqual(d["dimensions"]["optimizer"], opt)
            self.assertEqual([(p["name"], p["status"]) for p in d["phases"]],
                             [(n, "ok") for n in ("model_load", "inputs", "forward", "backward",
                                                  "optimizer_step", "second_step")])


if __name__ == "__main__":
    SCRATCH = os.path.abspath(sys.argv[1])
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    unittest.main(argv=sys.argv[:1], verbosity=2)
