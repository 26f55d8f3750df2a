"""A STAND-IN device backend for the tests: no GPU, no PyTorch, nothing measured.

It replaces TorchBackend through the Recorder's one seam (``backend=``) and
simulates a caching allocator with numbers simple enough to work out by hand:

- each device has ``total`` bytes, of which ``context`` are used before any
  allocation (a CUDA context);
- ``allocate(d, n)`` adds n bytes to allocated; when allocated exceeds
  reserved, reserved grows to allocated rounded up to 2 MiB, and never
  shrinks (freed bytes stay cached) until ``empty_cache``;
- device_used = context + reserved;
- an allocation whose reserve would pass ``total`` raises
  StandInOutOfMemory, and so does the allocation number ``n`` on device
  ``d`` when ``refuse=(d, n)`` is given (the scripted out-of-memory error);
- a handle frees its bytes when it is dropped (as a PyTorch tensor does).

Its files say ``synthetic: true`` with the note below.
"""

MIB = 1 << 20
STEP = 2 * MIB


class StandInOutOfMemory(RuntimeError):
    """Raised by the stand-in; its text says "out of memory" as PyTorch's does."""


class _Device:
    def __init__(self, name, total, context):
        self.name, self.total, self.context = name, total, context
        self.allocated = 0
        self.reserved = 0
        self.peak_allocated = 0
        self.peak_reserved = 0
        self.calls = 0


class Handle:
    def __init__(self, backend, index, nbytes):
        self.backend, self.index, self.nbytes = backend, index, nbytes

    def __del__(self):
        self.backend.devices[self.index].allocated -= self.nbytes


class StandInBackend:
    synthetic_note = ("stand-in device backend of the gpusheet_measure tests: scripted counters, "
                      "no GPU was used")

    def __init__(self, devices, refuse=None, driver="000.00.00"):
        """devices: list of (name, total, context) tuples."""
        self.devices = [_Device(*d) for d in devices]
        self.refuse = refuse
        self.driver = driver
        self.synchronized = 0

    def check(self):
        pass

    def device_count(self):
        return len(self.devices)

    def torch_device(self, index):
        # the examples' code runs on the CPU under the stand-in
        return "cpu"

    def describe(self, index):
        d = self.devices[index]
        return {"name": d.name, "total_bytes": d.total,
                "free_bytes": d.total - d.context - d.reserved,
                "compute_capability": "9.0"}

    def environment(self):
        return {"driver": self.driver, "driver_note": None, "runtime": "12.4", "backend": "cuda",
                "allocator": "native", "frameworks": {"torch": "0.0.0+stand-in"}}

    def synchronize(self, index):
        self.synchronized += 1

    def reset_peaks(self, index):
        d = self.devices[index]
        d.peak_allocated, d.peak_reserved = d.allocated, d.reserved

    def levels(self, index):
        d = self.devices[index]
        return d.allocated, d.reserved, d.context + d.reserved

    def peaks(self, index):
        d = self.devices[index]
        return d.peak_allocated, d.peak_reserved

    def is_out_of_memory(self, exc):
        return isinstance(exc, StandInOutOfMemory)

    def allocate(self, index, nbytes):
        d = self.devices[index]
        d.calls += 1
        if self.refuse == (index, d.calls):
            raise StandInOutOfMemory("stand-in: out of memory (scripted refusal of allocation %d "
                                     "on device %d)" % (d.calls, index))
        want = d.allocated + nbytes
        reserve = max(d.reserved, -(-want // STEP) * STEP)
        if d.context + reserve > d.total:
            raise StandInOutOfMemory("stand-in: out of memory (%d bytes requested on device %d)"
                                     % (nbytes, index))
        d.allocated, d.reserved = want, reserve
        d.peak_allocated = max(d.peak_allocated, d.allocated)
        d.peak_reserved = max(d.peak_reserved, d.reserved)
        return Handle(self, index, nbytes)

    def empty_cache(self):
        for d in self.devices:
            d.reserved = -(-d.allocated // STEP) * STEP

    def seed(self, seed):
        self.seeded = seed
