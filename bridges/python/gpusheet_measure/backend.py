"""The device backend: the only code that reads device memory.

The Recorder talks to its device through exactly the methods of
TorchBackend below. That class is the one documented seam of the package:
``Recorder(..., backend=obj)`` replaces it with any object that has the same
methods (the tests pass a stand-in that returns scripted counters). An
injected backend must say in ``synthetic_note`` how its numbers are made; a
file written through it is marked ``synthetic: true``. Only TorchBackend,
on a CUDA or HIP device, gives ``synthetic: false``.

PyTorch is imported when a TorchBackend is created, not when the package is
imported, so the package and its stand-in tests need only Python.
"""

import os

from .errors import NoDevice

#: Environment variables that change how CUDA, HIP or PyTorch place or cache
#: device memory; recorded when set (the probe records the same CUDA ones).
ALLOCATOR_VARIABLES = (
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "CUDA_DEVICE_MAX_CONNECTIONS",
    "CUDA_MODULE_LOADING",
    "CUDA_MODULE_DATA_LOADING",
    "CUDA_LAUNCH_BLOCKING",
    "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT",
    "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
    "CUBLAS_WORKSPACE_CONFIG",
    "CUBLASLT_WORKSPACE_SIZE",
    "HIP_VISIBLE_DEVICES",
    "PYTORCH_CUDA_ALLOC_CONF",
    "PYTORCH_HIP_ALLOC_CONF",
    "PYTORCH_NO_CUDA_MEMORY_CACHING",
)

#: Written as allocator setting "counters" when PyTorch allocates through
#: cudaMallocAsync: its counters have the same names but not the same source.
ASYNC_CAVEAT = (
    "cudaMallocAsync backend: allocated and reserved come from the CUDA memory "
    "pool's counters, not from the native caching allocator's blocks and "
    "segments; rounding, caching and release differ, so these figures are not "
    "comparable byte for byte with a run on the native allocator"
)


def allocator_backend_from_conf(conf):
    """The allocator PYTORCH_CUDA_ALLOC_CONF asks for: "native" or "cudaMallocAsync"."""
    backend = "native"
    for item in (conf or "").split(","):
        key, _, value = item.partition(":")
        if key.strip() == "backend" and value.strip():
            backend = value.strip()
    return backend


def nvidia_driver_version():
    """(version, note): the NVIDIA kernel module's version, or (None, why)."""
    try:
        with open("/proc/driver/nvidia/version", encoding="utf-8", errors="replace") as f:
            first = f.readline()
    except OSError as e:
        return None, "no /proc/driver/nvidia/version (%s)" % e.strerror
    words = first.split()
    for i, w in enumerate(words):
        if w == "Module" and i + 1 < len(words):
            return words[i + 1], None
    return None, "unrecognised /proc/driver/nvidia/version"


class TorchBackend:
    """Device memory as PyTorch's CUDA (or HIP) allocator reports it.

    Every counter is read after a synchronisation the Recorder asks for:

    - allocated: torch.cuda.memory_allocated (bytes of live tensors),
      peak torch.cuda.max_memory_allocated;
    - reserved: torch.cuda.memory_reserved (bytes the allocator holds from
      the device), peak torch.cuda.max_memory_reserved;
    - device_used: total - free from torch.cuda.mem_get_info (cudaMemGetInfo):
      everything on the device, the CUDA context and other processes included.
    """

    synthetic_note = None

    def __init__(self):
        try:
            import torch  # noqa: the one place the package imports PyTorch
        except ImportError as e:
            raise NoDevice("PyTorch is not installed (%s): nothing to measure" % e) from None
        self.torch = torch

    # -- what is there ----------------------------------------------------

    def check(self):
        """Raise NoDevice unless at least one CUDA or HIP device is usable."""
        t = self.torch
        if getattr(t.version, "cuda", None) is None and getattr(t.version, "hip", None) is None:
            raise NoDevice("PyTorch %s is a CPU-only build: no CUDA or HIP device to measure"
                           % t.__version__)
        if not t.cuda.is_available():
            raise NoDevice("no CUDA device: torch.cuda.is_available() is false "
                           "(no driver, no visible device, or the driver refused)")
        if t.cuda.device_count() < 1:
            raise NoDevice("no CUDA device visible to this process")

    def device_count(self):
        return self.torch.cuda.device_count()

    def torch_device(self, index):
        """The PyTorch device string of an index (ROCm builds also say "cuda")."""
        return "cuda:%d" % index

    def describe(self, index):
        """Name, total_bytes, free_bytes and compute_capability of one device."""
        t = self.torch
        props = t.cuda.get_device_properties(index)
        free, total = t.cuda.mem_get_info(index)
        cc = "%d.%d" % (props.major, props.minor)
        return {"name": props.name, "total_bytes": int(total), "free_bytes": int(free),
                "compute_capability": cc}

    def environment(self):
        """Driver, runtime, backend, allocator and framework versions."""
        t = self.torch
        hip = getattr(t.version, "hip", None)
        if hip:
            driver, note = None, "HIP: the driver version is not read"
        else:
            driver, note = nvidia_driver_version()
        conf_name = "PYTORCH_HIP_ALLOC_CONF" if hip and os.environ.get(
            "PYTORCH_HIP_ALLOC_CONF") is not None else "PYTORCH_CUDA_ALLOC_CONF"
        get_backend = getattr(t.cuda, "get_allocator_backend", None)
        if get_backend is not None:
            allocator = get_backend()
        else:  # before PyTorch 2.0: only the variable tells
            allocator = allocator_backend_from_conf(os.environ.get(conf_name))
        frameworks = {"torch": t.__version__}
        try:
            cudnn = t.backends.cudnn.version()
        except Exception:  # noqa: a missing cuDNN is not an error here
            cudnn = None
        if cudnn:
            frameworks["cudnn"] = str(cudnn)
        return {"driver": driver, "driver_note": note,
                "runtime": hip if hip else t.version.cuda,
                "backend": "hip" if hip else "cuda",
                "allocator": allocator, "frameworks": frameworks}

    # -- the counters -------------------------------------------------------

    def synchronize(self, index):
        self.torch.cuda.synchronize(index)

    def reset_peaks(self, index):
        self.torch.cuda.reset_peak_memory_stats(index)

    def levels(self, index):
        """(allocated, reserved, device_used) now, in bytes."""
        c = self.torch.cuda
        free, total = c.mem_get_info(index)
        return int(c.memory_allocated(index)), int(c.memory_reserved(index)), int(total - free)

    def peaks(self, index):
        """(allocated peak, reserved peak) since the last reset_peaks."""
        c = self.torch.cuda
        return int(c.max_memory_allocated(index)), int(c.max_memory_reserved(index))

    def is_out_of_memory(self, exc):
        oom = getattr(self.torch.cuda, "OutOfMemoryError", None)
        if oom is not None and isinstance(exc, oom):
            return True
        return isinstance(exc, RuntimeError) and "out of memory" in str(exc)

    # -- what the protocol does to the device -------------------------------

    def allocate(self, index, nbytes):
        """A filler of nbytes on the device, zeroed (so it is really backed)."""
        return self.torch.zeros(nbytes, dtype=self.torch.uint8, device="cuda:%d" % index)

    def empty_cache(self):
        self.torch.cuda.empty_cache()

    def seed(self, seed):
        self.torch.manual_seed(seed)
