"""The command line and the file writer, without a GPU and without PyTorch.

Usage: python3 test_cli.py SCRATCH_DIR

Argument errors, the refusal of an existing output, the atomic write, the
refusal when PyTorch is absent, and `measure` / `environment` driven through
the STAND-IN backend (tests/standin.py) passed to cli.main's backend seam:
their files say synthetic: true.
"""

import io
import json
import os
import shutil
import subprocess
import sys
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
PKG_ROOT = os.path.dirname(HERE)
sys.path.insert(0, PKG_ROOT)
sys.path.insert(0, HERE)

from gpusheet_measure import OutputExists, TorchBackend, WriteFailed, cli, output  # noqa: E402
from standin import MIB, StandInBackend  # noqa: E402

SCRATCH = None

ENTRY = '''
def run(rec):
    be = rec.backend
    with rec.phase("model_load"):
        w = be.allocate(0, 100 * (1 << 20))
    with rec.phase("inputs"):
        x = be.allocate(0, (1 << 20) * int(rec.args[0]))
    rec.passes(lambda: be.allocate(0, 1 << 20))

def nothing(rec):
    pass

def on_cpu(rec):
    with rec.phase("model_load"):
        pass
    rec.passes(lambda: None)

not_a_function = 3
'''


def run_module(args, env=None, cwd=None):
    """python -m gpusheet_measure ARGS in a subprocess, from the checkout."""
    e = dict(os.environ)
    e["PYTHONPATH"] = PKG_ROOT + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "gpusheet_measure"] + args, env=e,
                          cwd=cwd or SCRATCH, capture_output=True, text=True)


def call(args, backend):
    """cli.main in this process with a stand-in backend: (code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(args, backend=backend)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def standin():
    return StandInBackend([("Stand-in GPU", 1 << 30, 300 * MIB)])


class ArgumentErrors(unittest.TestCase):
    def test_usage(self):
        cases = [
            [],
            ["measure"],
            ["measure", "--output", "a.json"],
            ["measure", "--entry", "mod", "--output", "a.json"],
            ["measure", "--entry", "mod:1x", "--output", "a.json"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--warmup", "-1"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--repeats", "0"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--repeats", "two"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--device", "gpu0"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--dimension", "batch"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--dimension", "batch=0"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--extra-bytes", "0"],
            ["measure", "--entry", "m:f", "--output", "a.json", "--order", "0"],
            ["sweep"],
        ]
        for args in cases:
            with self.subTest(args=args):
                code, out, err = call(args, standin())
                self.assertEqual(code, 2)
                self.assertIn("usage: gpusheet-measure", err)
                self.assertEqual(os.listdir(SCRATCH_ARGS), [])

    def test_stray_argument(self):
        code, _, err = call(["measure", "--entry", "m:f", "--output",
                             os.path.join(SCRATCH_ARGS, "a.json"), "stray"], standin())
        self.assertEqual(code, 2)
        self.assertIn("workload arguments follow --", err)

    def test_entry_errors(self):
        entry = os.path.join(SCRATCH, "entry_mod.py")
        for spec, why in (("no_such_module_xyz:run", "cannot import entry module"),
                          (entry + ":not_a_function", "is not a function"),
                          (entry + ":missing", "is not a function"),
                          (os.path.join(SCRATCH, "absent.py") + ":run", "not found")):
            with self.subTest(spec=spec):
                out = os.path.join(SCRATCH_ARGS, "e.json")
                code, _, err = call(["measure", "--entry", spec, "--output", out], standin())
                self.assertEqual(code, 2)
                self.assertIn(why, err)
                self.assertEqual(len(err.strip().splitlines()), 1)
                self.assertFalse(os.path.exists(out))

    def test_no_phase(self):
        out = os.path.join(SCRATCH_ARGS, "n.json")
        code, _, err = call(["measure", "--entry", os.path.join(SCRATCH, "entry_mod.py") +
                             ":nothing", "--output", out], standin())
        self.assertEqual(code, 2)
        self.assertIn("recorded no phase", err)
        self.assertFalse(os.path.exists(out))


class Overwrite(unittest.TestCase):
    def test_existing_output_untouched(self):
        path = os.path.join(SCRATCH, "existing.json")
        with open(path, "w") as f:
            f.write("earlier run\n")
        for args in (["measure", "--entry", "m:f", "--output", path],
                     ["environment", "--output", path]):
            with self.subTest(args=args):
                r = run_module(args)
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stderr, "gpusheet-measure: '%s' already exists: choose a new "
                                 "file name for each run\n" % path)
                with open(path) as f:
                    self.assertEqual(f.read(), "earlier run\n")

    def test_missing_folder(self):
        path = os.path.join(SCRATCH, "no-such-folder", "x.json")
        r = run_module(["measure", "--entry", "m:f", "--output", path])
        self.assertEqual(r.returncode, 2)
        self.assertIn("does not exist", r.stderr)

    def test_same_file_twice(self):
        path = os.path.join(SCRATCH_ARGS, "same.json")
        code, _, err = call(["measure", "--entry", "m:f", "--output", path,
                             "--environment-output", path], standin())
        self.assertEqual(code, 2)
        self.assertIn("same file", err)


class AtomicWrite(unittest.TestCase):
    def test_new_file(self):
        path = os.path.join(SCRATCH, "atomic", "a.json")
        os.makedirs(os.path.dirname(path))
        output.write_new(path, "{\"x\": \"\u00e9\"}\n")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b'{"x": "\xc3\xa9"}\n')
        self.assertEqual(os.listdir(os.path.dirname(path)), ["a.json"])
        with self.assertRaises(OutputExists):
            output.write_new(path, "other")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), b'{"x": "\xc3\xa9"}\n')

    def test_appeared_during_run(self):
        # the final name appears between the check and the link: the earlier
        # file is kept, and so is this result, under its temporary name
        folder = os.path.join(SCRATCH, "race")
        os.makedirs(folder)
        path = os.path.join(folder, "r.json")
        real_check = output.check_output

        def check_then_someone_writes(p):
            real_check(p)
            with open(p, "w") as f:
                f.write("theirs\n")
        output.check_output = check_then_someone_writes
        try:
            with self.assertRaisesRegex(WriteFailed, "appeared during the run and was kept"):
                output.write_new(path, "ours\n")
        finally:
            output.check_output = real_check
        with open(path) as f:
            self.assertEqual(f.read(), "theirs\n")
        kept = [n for n in os.listdir(folder) if n != "r.json"]
        self.assertEqual(len(kept), 1)
        self.assertTrue(kept[0].startswith(".r.json."))
        with open(os.path.join(folder, kept[0])) as f:
            self.assertEqual(f.read(), "ours\n")

    def test_unwritable_folder(self):
        if os.geteuid() == 0:
            self.skipTest("root writes into any folder")
        folder = os.path.join(SCRATCH, "ro")
        os.makedirs(folder)
        os.chmod(folder, 0o500)
        with self.assertRaisesRegex(OutputExists, "not writable"):
            output.write_new(os.path.join(folder, "x.json"), "x")

    def test_text(self):
        # undecodable bytes (surrogate escapes from the environment) become \xNN
        self.assertEqual(output.text(b"a\xffb".decode("utf-8", "surrogateescape")), "a\\xffb")
        self.assertEqual(output.text("H200 \u00e9"), "H200 \u00e9")


class BackendHelpers(unittest.TestCase):
    def test_allocator_from_conf(self):
        from gpusheet_measure.backend import allocator_backend_from_conf as f
        self.assertEqual(f(None), "native")
        self.assertEqual(f(""), "native")
        self.assertEqual(f("expandable_segments:True"), "native")
        self.assertEqual(f("expandable_segments:True, backend:cudaMallocAsync"), "cudaMallocAsync")
        self.assertEqual(f("backend:native"), "native")


class Examples(unittest.TestCase):
    def test_examples_compile(self):
        # they need transformers and a GPU to run; here only their syntax
        import py_compile
        folder = os.path.join(PKG_ROOT, "examples")
        names = sorted(n for n in os.listdir(folder) if n.endswith(".py"))
        self.assertEqual(names, ["hf_generate.py", "lora_step.py", "torch_mlp.py"])
        for n in names:
            py_compile.compile(os.path.join(folder, n), cfile=os.path.join(SCRATCH, n + "c"),
                               doraise=True)


class WithoutPyTorch(unittest.TestCase):
    def test_refused(self):
        # torch made unimportable: exit 2, one line, nothing written
        path = os.path.join(SCRATCH, "notorch.json")
        code = ("import sys; sys.modules['torch'] = None; "
                "from gpusheet_measure import cli; sys.exit(cli.main())")
        e = dict(os.environ, PYTHONPATH=PKG_ROOT)
        for args in (["measure", "--entry", os.path.join(SCRATCH, "entry_mod.py") + ":run",
                      "--output", path], ["environment"]):
            with self.subTest(args=args):
                r = subprocess.run([sys.executable, "-c", code] + args, env=e,
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stdout, "")
                self.assertRegex(r.stderr, r"^gpusheet-measure: PyTorch is not installed .*\n$")
                self.assertFalse(os.path.exists(path))


class NothingOnTheDevice(unittest.TestCase):
    """A run that held nothing on its device is not written (exit 2).

    The backend is TorchBackend with every method replaced by scripted
    values and PyTorch never imported: a run that took place on the CPU
    while a GPU was visible, as the recorder would see it.
    """

    class CpuRun(TorchBackend):
        def __init__(self):   # noqa: no PyTorch
            pass

        def check(self):
            pass

        def device_count(self):
            return 1

        def describe(self, index):
            return {"name": "Scripted GPU", "total_bytes": 1 << 30, "free_bytes": 1 << 29,
                    "compute_capability": "9.0"}

        def environment(self):
            return {"driver": None, "driver_note": "scripted", "runtime": "12.4",
                    "backend": "cuda", "allocator": "native", "frameworks": {}}

        def synchronize(self, index):
            pass

        def reset_peaks(self, index):
            pass

        def levels(self, index):
            return 0, 0, 1 << 29

        def peaks(self, index):
            return 0, 0

        def seed(self, seed):
            pass

    def test_refused(self):
        path = os.path.join(SCRATCH, "cpu-run.json")
        code, out, err = call(["measure", "--entry", os.path.join(SCRATCH, "entry_mod.py") +
                               ":on_cpu", "--output", path], self.CpuRun())
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, "gpusheet-measure: no phase held device memory on cuda:0: the "
                         "workload ran elsewhere (on the CPU?) and is not written as a GPU "
                         "measurement\n")
        self.assertFalse(os.path.exists(path))


class StandInCommands(unittest.TestCase):
    """measure and environment through the stand-in backend (synthetic files)."""

    def test_measure(self):
        path = os.path.join(SCRATCH, "cli-measure.json")
        envpath = os.path.join(SCRATCH, "cli-env.json")
        be = standin()
        code, out, err = call(["measure", "--entry", os.path.join(SCRATCH, "entry_mod.py") + ":run",
                               "--output", path, "--environment-output", envpath,
                               "--seed", "11", "--input-set", "three-prompts",
                               "--dimension", "batch=4", "--dimension", "dtype=bfloat16",
                               "--warmup", "1", "--repeats", "2", "--order", "2",
                               "--package", "no-such-distribution-xyz", "--", "3"], be)
        self.assertEqual((code, out, err), (0, "", ""))
        self.assertEqual(be.seeded, 11)
        with open(path) as f:
            d = json.load(f)
        self.assertTrue(d["synthetic"])
        self.assertEqual(d["identity"]["code"], "entry_mod.py:run")
        self.assertEqual(d["identity"]["seed"], 11)
        self.assertEqual(d["identity"]["input_set"], "three-prompts")
        self.assertEqual(d["dimensions"], {"batch": 4, "dtype": "bfloat16"})
        self.assertEqual(d["protocol"], {"process": "fresh", "order": 2, "warmup": 1,
                                         "repeats": 2, "empty_cache": False})
        self.assertEqual([p["name"] for p in d["phases"]],
                         ["model_load", "inputs", "cold_forward", "warmup", "warm_forward"])
        # inputs allocated 3 MiB, from the argument after --
        self.assertEqual(d["phases"][1]["allocated"]["end"], 103 * MIB)
        with open(envpath) as f:
            env = json.load(f)
        self.assertEqual(env["schema"], "gpusheet-environment")
        self.assertEqual(env["command_line"][0], sys.argv[0])
        self.assertEqual(env["seed"], 11)
        self.assertEqual(env["packages_not_installed"], ["no-such-distribution-xyz"])
        self.assertIn("stand-in", env["synthetic_note"])

    def test_measure_out_of_memory(self):
        path = os.path.join(SCRATCH, "cli-oom.json")
        # the 2 GiB input cannot fit a 1 GiB card: exit 1, file written
        code, out, err = call(["measure", "--entry", os.path.join(SCRATCH, "entry_mod.py") + ":run",
                               "--output", path, "--", "2048"], standin())
        self.assertEqual(code, 1)
        self.assertRegex(err, r"^gpusheet-measure: phase inputs failed: stand-in: out of memory")
        with open(path) as f:
            d = json.load(f)
        self.assertEqual([p["status"] for p in d["phases"]],
                         ["ok", "failed", "not_run", "not_run", "not_run"])

    def test_environment_stdout(self):
        code, out, err = call(["environment", "--device", "cuda:0"], standin())
        self.assertEqual((code, err), (0, ""))
        env = json.loads(out)
        self.assertEqual(env["devices"], [{"index": 0, "name": "Stand-in GPU",
                                           "total_bytes": 1 << 30, "free_bytes": 724 * MIB,
                                           "compute_capability": "9.0"}])
        self.assertEqual(env["device_count"], 1)

    def test_environment_unknown_device(self):
        code, out, err = call(["environment", "--device", "cuda:3"], standin())
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, "gpusheet-measure: cuda:3 not found: 1 device(s) visible to this "
                         "process\n")


if __name__ == "__main__":
    SCRATCH = os.path.abspath(sys.argv[1])
    shutil.rmtree(SCRATCH, ignore_errors=True)
    os.makedirs(SCRATCH)
    SCRATCH_ARGS = os.path.join(SCRATCH, "args")
    os.makedirs(SCRATCH_ARGS)
    with open(os.path.join(SCRATCH, "entry_mod.py"), "w") as f:
        f.write(ENTRY)
    unittest.main(argv=sys.argv[:1], verbosity=2)
