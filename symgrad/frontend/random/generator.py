"""torch's CPU random number generator: an mt19937 stream, its seeds and its saved state.

Layer: front end (imports only the base). Input: seeds, and the number of draws a sampling
kernel needs. Output: ``Generator`` (``torch.Generator``), the default generator, the module
functions ``manual_seed``, ``seed``, ``initial_seed``, ``get_rng_state``, ``set_rng_state``,
and ``capability`` (which of torch's CPU kernels this machine's torch runs). It must not know
about tensors' values or sampling formulas (``random_kernels`` turns draws into numbers).

torch's CPU generator is an mt19937 seeded with the low 32 bits of the seed (``init_genrand``);
``random()`` is one 32-bit output and ``random64()`` two, the first as the high half. NumPy's
``MT19937`` bit generator with its legacy seeding is the same engine, so the stream is drawn in
bulk in C. The generator also caches the second sample of the scalar Box-Muller transform, as
torch's does. ``get_state`` gives torch's own 5056-byte state layout (``CPUGeneratorImplState``,
little-endian x86-64), byte for byte, so ``set_rng_state`` accepts torch's states and torch
accepts these; as an int64 tensor of byte values, since symgrad has no uint8 dtype.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from ...devices import CPU, check as check_device

DEFAULT_SEED = 67280421310721   # torch.Generator()'s seed (default_rng_seed_val)
_N = 624                        # mt19937's state words
STATE_BYTES = 5056

# torch's CPUGeneratorImplState, field by field (native alignment: 8-byte doubles and uint64s)
_STATE = np.dtype({
    "names": ["seed", "left", "seeded", "next", "state", "normal_x", "normal_y", "normal_rho",
              "normal_is_valid", "next_float", "next_float_valid"],
    "formats": ["<u8", "<i4", "<i4", "<u8", ("<u8", _N), "<f8", "<f8", "<f8", "<i4", "<f4",
                "u1"],
    "offsets": [0, 8, 12, 16, 24, 5016, 5024, 5032, 5040, 5048, 5052],
    "itemsize": STATE_BYTES})


def seed_value(seed) -> int:
    """A seed as torch stores it: an integer in [-2**63, 2**64), negatives taken mod 2**64."""
    if isinstance(seed, (str, bytes)) or seed is None:
        raise TypeError(f"manual_seed(): seed must be an int, got {type(seed).__name__}")
    value = int(seed)
    if not -2 ** 63 <= value < 2 ** 64:
        raise ValueError("Overflow when unpacking long long")
    return value % 2 ** 64


_capability = None


def capability() -> str:
    """The CPU kernels torch uses here: "avx512", "avx2" or "default" (``ATEN_CPU_CAPABILITY``
    if it names one, else the CPU's features, as torch decides)."""
    global _capability
    if _capability is None:
        env = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
        if env in ("avx512", "avx2", "default"):
            _capability = env
        else:
            _capability = _cpu_capability()
    return _capability


def _cpu_capability() -> str:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as has
    except ImportError:   # NumPy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as has
    if not has.get("FMA3"):
        return "default"
    if all(has.get(f) for f in ("AVX512VL", "AVX512BW", "AVX512DQ")):
        return "avx512"
    return "avx2" if has.get("AVX2") else "default"


def fused() -> bool:
    """Whether torch's sampling kernels here are compiled with FMA contraction (``a*b + c``
    rounded once): the AVX2 and AVX-512 builds are, the default build is not."""
    return capability() != "default"


class Generator:
    """``torch.Generator``: an independent stream of random numbers on the CPU."""

    def __init__(self, device=None):
        check_device(device if device is None or isinstance(device, (str, int))
                     or type(device) is type(CPU) else str(device))
        self._bits = np.random.MT19937(0)
        self.lock = threading.RLock()   # one kernel's draws are consecutive, as torch's mutex
        self.next_normal = None         # the cached second sample of scalar Box-Muller
        self._next_float = None         # torch's float cache: kept in the state only
        self._seed = 0
        self._fresh = True              # seeded and not drawn from (torch's next_ is 0)
        self.manual_seed(DEFAULT_SEED)

    @property
    def device(self):
        """``device(type='cpu')``: the only device here."""
        return CPU

    def manual_seed(self, seed) -> Generator:
        """Restart the stream from ``seed`` (any integer in [-2**63, 2**64)); returns self."""
        value = seed_value(seed)
        with self.lock:
            self._seed = value
            self._bits._legacy_seeding(value & 0xFFFFFFFF)
            self.next_normal = self._next_float = None
            self._fresh = True
        return self

    def seed(self) -> int:
        """Seed from the operating system's entropy; returns the seed."""
        value = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """The seed this generator was last seeded with."""
        return self._seed

    # ------------------------------------------------------------ draws
    def raw32(self, n: int) -> np.ndarray:
        """The next ``n`` 32-bit outputs (``random()``), as uint64."""
        if not n:
            return np.zeros(0, np.uint64)
        self._fresh = False
        return self._bits.random_raw(n)

    def raw64(self, n: int) -> np.ndarray:
        """The next ``n`` 64-bit draws (``random64()``: two outputs, the first the high half)."""
        r = self.raw32(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def uniform(self, n: int, double: bool) -> np.ndarray:
        """``n`` uniforms in [0, 1) as torch draws them: 24 bits of ``random()`` as float32,
        or 53 bits of ``random64()`` as float64."""
        if double:
            return (self.raw64(n) & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53
        bits = (self.raw32(n) & np.uint64(0xFFFFFF)).astype(np.float32)
        return bits * np.float32(2.0 ** -24)

    # ------------------------------------------------------------ state
    def get_state(self):
        """torch's 5056-byte state of this generator, as an int64 tensor of byte values."""
        from ..core.tensor import Tensor
        return Tensor(self.state_bytes().astype(np.int64), None)

    def set_state(self, new_state) -> Generator:
        """Restore a state from ``get_state`` (this generator's, or torch's)."""
        self.load_state_bytes(_state_array(new_state))
        return self

    def state_bytes(self) -> np.ndarray:
        """The state in torch's ``CPUGeneratorImplState`` layout, as uint8."""
        with self.lock:
            mt = self._bits.state["state"]
            rec = np.zeros((), _STATE)
            pos = int(mt["pos"])
            rec["seed"], rec["seeded"], rec["state"] = self._seed, 1, mt["key"]
            rec["left"], rec["next"] = _N + 1 - pos, 0 if self._fresh else pos
            if self.next_normal is not None:
                rec["normal_is_valid"], rec["normal_y"] = 1, self.next_normal
            if self._next_float is not None:
                rec["next_float_valid"], rec["next_float"] = 1, self._next_float
        return np.frombuffer(rec.tobytes(), np.uint8).copy()

    def load_state_bytes(self, raw: np.ndarray) -> None:
        """Set the state from torch's layout (``state_bytes``)."""
        rec = np.frombuffer(raw.tobytes(), _STATE)[0]
        left, nxt, key = int(rec["left"]), int(rec["next"]), rec["state"]
        if rec["seeded"] != 1 or not 1 <= left <= _N or nxt > _N or np.any(key > 0xFFFFFFFF):
            raise RuntimeError("Invalid mt19937 state")
        with self.lock:
            self._bits.state = {"bit_generator": "MT19937",
                                "state": {"key": key.astype(np.uint32), "pos": _N + 1 - left}}
            self._seed, self._fresh = int(rec["seed"]), nxt == 0
            self.next_normal = float(rec["normal_y"]) if rec["normal_is_valid"] else None
            self._next_float = float(rec["next_float"]) if rec["next_float_valid"] else None

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"


def _state_array(state) -> np.ndarray:
    """A state given as a tensor or array of 5056 byte values, checked, as uint8."""
    from ..core.tensor import Tensor
    arr = np.asarray(state.__array__() if isinstance(state, Tensor) else state)
    if arr.dtype.kind not in "iu" or arr.ndim != 1:
        raise TypeError(f"set_state: expected a 1-D tensor of bytes (torch.uint8 or integer "
                        f"values 0..255), got an array of dtype {arr.dtype} and shape "
                        f"{arr.shape}")
    if arr.size != STATE_BYTES:
        raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_BYTES} but found "
                           f"the input RNG state size to be {arr.size}")
    if arr.min(initial=0) < 0 or arr.max(initial=0) > 255:
        raise ValueError("set_state: byte values must be in 0..255")
    return arr.astype(np.uint8)


def _startup_seed() -> int:
    return int.from_bytes(os.urandom(8), "little")


default_generator = Generator().manual_seed(_startup_seed())   # torch seeds it at random


def generator_or_default(generator) -> Generator:
    """``generator`` if given (it must be a symgrad Generator), else the default one."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a symgrad.Generator (torch.Generator), got "
                        f"{type(generator).__module__}.{type(generator).__name__}")
    return generator


def manual_seed(seed) -> Generator:
    """Seed the default generator; returns it (``torch.manual_seed``)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator from the operating system's entropy; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state (torch's 5056 bytes, as an int64 tensor)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the default generator's state from ``get_rng_state`` (or torch's)."""
    default_generator.set_state(new_state)
