"""One instance of liblongstraw.wasm under wasmtime, and fast calls into it.

The module (the C ABI built for wasm32-wasip1 with simd128) is compiled once per process; each
``Instance`` is a wasmtime store holding one instance of it, which runs one call at a time. The module
sees the environment the host fixes when the instance is made (LONGSTRAW_BACKEND, a secret named by a
file's ``secret.env``) and no file system: the host reads every file, a keyed file's secret file too.

A trap (a panic in the library, which aborts under wasm, or an access outside linear memory) makes the
instance unusable: ``call`` raises ``Trap`` and the owner of the instance discards it.
"""

from __future__ import annotations

import array
import ctypes
import os
import struct
import sys
import threading
from importlib import resources
from typing import Any

import wasmtime
from wasmtime import _ffi as ffi

TARGET = "wasm32-simd128"


class Trap(RuntimeError):
    """The module trapped; the instance that trapped has been discarded."""


_lock = threading.Lock()
_engine: wasmtime.Engine | None = None
_module: wasmtime.Module | None = None
_linker: wasmtime.Linker | None = None


def module_path() -> str:
    return str(resources.files(__package__).joinpath("liblongstraw.wasm"))


def _compiled() -> tuple[wasmtime.Engine, wasmtime.Module, wasmtime.Linker]:
    global _engine, _module, _linker
    with _lock:
        if _module is None:
            path = module_path()
            if not os.path.exists(path):
                raise ImportError(
                    f"longstraw: {path} is missing: the pure-Python package carries liblongstraw.wasm "
                    "(built by `make wasm-lib-python`)"
                )
            engine = wasmtime.Engine()
            with open(path, "rb") as f:
                module = wasmtime.Module(engine, f.read())
            linker = wasmtime.Linker(engine)
            linker.define_wasi()
            _engine, _module, _linker = engine, module, linker
        assert _engine is not None and _linker is not None
        return _engine, _module, _linker


_I32, _I64, _F64 = 0, 1, 2
_KINDS = {"i32": _I32, "i64": _I64, "f64": _F64}

# Scratch layout: out-parameters first (8 slots of 8 bytes), then the arguments.
OUT = 0
ARGS = 64


class Export:
    """One export, called through wasmtime_func_call_unchecked (the checked call costs a type query)."""

    __slots__ = ("inst", "name", "func", "kinds", "nres", "res_kind")

    def __init__(self, inst: "Instance", name: str, func: wasmtime.Func) -> None:
        ty = func.type(inst.store)
        self.inst = inst
        self.name = name
        self.func = func._func
        self.kinds = tuple(_KINDS[str(p)] for p in ty.params)
        self.nres = len(ty.results)
        self.res_kind = _KINDS[str(ty.results[0])] if ty.results else None


class Instance:
    """One instance of the module (not thread-safe: one call at a time)."""

    def __init__(self, env: list[tuple[str, str]] | None = None) -> None:
        engine, module, linker = _compiled()
        self.store = wasmtime.Store(engine)
        wasi = wasmtime.WasiConfig()
        wasi.env = env if env is not None else list(os.environ.items())
        self.store.set_wasi(wasi)
        instance = linker.instantiate(self.store, module)
        exports = instance.exports(self.store)
        self._exports = exports
        mem = exports["memory"]
        assert isinstance(mem, wasmtime.Memory)
        self.mem = mem
        self._ctx = self.store._context()
        self._raw = (ffi.wasmtime_val_raw_t * 16)()
        self._trap = ctypes.POINTER(ffi.wasm_trap_t)()
        self._fns: dict[str, Export] = {}
        self.broken = False
        self.scratch = 0
        self.cap = 0
        self.grow(4096)

    # -- calls ---------------------------------------------------------------------------------------
    def export(self, name: str) -> Export:
        e = self._fns.get(name)
        if e is None:
            f = self._exports[name]
            assert isinstance(f, wasmtime.Func)
            e = self._fns[name] = Export(self, name, f)
        return e

    def call(self, name: str, *args: int | float) -> Any:
        """Runs export ``name``; a trap marks the instance broken and raises Trap."""
        if self.broken:
            raise Trap(f"{name}: the instance trapped before")
        e = self._fns.get(name) or self.export(name)
        raw = self._raw
        for i, (k, a) in enumerate(zip(e.kinds, args)):
            if k == _I32:
                raw[i].i32 = int(a) & 0xFFFFFFFF if int(a) < 0x80000000 else int(a) - 0x100000000
            elif k == _F64:
                raw[i].f64 = a
            else:
                raw[i].i64 = int(a) if int(a) < 1 << 63 else int(a) - (1 << 64)
        trap = self._trap
        err = ffi.wasmtime_func_call_unchecked(self._ctx, ctypes.byref(e.func), raw, 16, ctypes.byref(trap))
        if err or trap:
            self.broken = True
            if trap:
                what = str(wasmtime.Trap._from_ptr(trap))
                self._trap = ctypes.POINTER(ffi.wasm_trap_t)()
            else:
                what = str(wasmtime.WasmtimeError._from_ptr(err))
            raise Trap(f"longstraw: {name}: the WebAssembly module trapped (instance replaced): {what}")
        if e.res_kind is None:
            return None
        if e.res_kind == _I32:
            return raw[0].i32 & 0xFFFFFFFF
        if e.res_kind == _F64:
            return raw[0].f64
        return raw[0].i64 & 0xFFFFFFFFFFFFFFFF

    def code(self, name: str, *args: int | float) -> int:
        """A call whose result is a longstraw_result (as a signed int)."""
        r: int = self.call(name, *args)
        return r - 0x100000000 if r >= 0x80000000 else r

    # -- memory --------------------------------------------------------------------------------------
    def base(self) -> int:
        return ctypes.addressof(self.mem.data_ptr(self.store).contents)

    def read(self, p: int, n: int) -> bytes:
        if n == 0:
            return b""
        if p + n > self.mem.data_len(self.store):
            raise Trap("longstraw: a pointer from the module is outside its memory")
        return ctypes.string_at(self.base() + p, n)

    def write(self, p: int, b: bytes | bytearray | memoryview | array.array[int]) -> None:
        """Copies b's bytes (any buffer, e.g. an array of u64) to address p."""
        if type(b) is not bytes:
            b = bytes(b)
        n = len(b)
        if n:
            ctypes.memmove(self.base() + p, b, n)

    def u32(self, p: int) -> int:
        v: int = struct.unpack("<I", self.read(p, 4))[0]
        return v

    def u64(self, p: int) -> int:
        v: int = struct.unpack("<Q", self.read(p, 8))[0]
        return v

    def f64(self, p: int) -> float:
        v: float = struct.unpack("<d", self.read(p, 8))[0]
        return v

    def cstring(self, p: int) -> bytes:
        if p == 0:
            return b""
        return ctypes.string_at(self.base() + p)

    def grow(self, n: int) -> int:
        """Makes the scratch buffer hold ARGS + n bytes; returns its address."""
        need = n + ARGS
        if need > self.cap:
            if self.cap:
                self.call("longstraw_wasm_free", self.scratch, self.cap)
            size = max(need, 2 * self.cap)
            p = self.call("longstraw_wasm_alloc", size)
            if p == 0:
                self.cap = 0
                raise MemoryError("longstraw: out of memory in the WebAssembly module")
            self.scratch, self.cap = p, size
        return self.scratch

    def put_args(self, *parts: bytes | None) -> list[int]:
        """Copies each part into the scratch buffer (8-byte aligned, after the out-parameters);
        returns their addresses (0 for None)."""
        total = sum(((len(p) + 7) & ~7) for p in parts if p is not None)
        base = self.grow(total) + ARGS
        out = []
        off = 0
        for p in parts:
            if p is None:
                out.append(0)
                continue
            out.append(base + off)
            self.write(base + off, p)
            off += (len(p) + 7) & ~7
        return out

    def out(self, i: int = 0) -> int:
        """The address of out-parameter slot i."""
        return self.scratch + OUT + 8 * i


def environment() -> list[tuple[str, str]]:
    return list(os.environ.items())


_global: Instance | None = None
_global_lock = threading.Lock()


def with_global(fn: Any) -> Any:
    """Runs fn(instance) on the process-wide instance for calls that hold no set (version, result text)."""
    global _global
    with _global_lock:
        if _global is None or _global.broken:
            _global = Instance()
        try:
            return fn(_global)
        except Trap:
            _global = None
            raise


def version_string() -> str:
    text: str = with_global(lambda i: i.cstring(i.call("longstraw_version_string")).decode())
    return text


if sys.byteorder != "little":  # pragma: no cover
    raise ImportError("longstraw's wasm backend needs a little-endian host")
