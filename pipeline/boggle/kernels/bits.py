"""The CPU's bit instructions for the board walk and the proof: popcount, count trailing and leading zeros, and
PEXT (a loop where the CPU has no fast one)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def ctpop32(typingctx, x):
    """The number of set bits of a uint32 (the CPU's popcount)."""
    sig = types.uint32(types.uint32)

    def codegen(context, builder, signature, args):
        """LLVM's ctpop of the argument."""
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def ctpop64(typingctx, x):
    """The number of set bits of a uint64 (the CPU's popcount)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        """LLVM's ctpop of the argument."""
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def cttz32(typingctx, x):
    """The index of the lowest set bit of a non-zero uint32."""
    sig = types.uint32(types.uint32)

    def codegen(context, builder, signature, args):
        """LLVM's cttz of the argument (zero input undefined)."""
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def ctlz64(typingctx, x):
    """The number of leading zero bits of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        """LLVM's ctlz of the argument (zero input undefined)."""
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def cttz64(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        """LLVM's cttz of the argument (zero input undefined)."""
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


def _fast_pext() -> bool:
    """Whether the CPU numba compiles for has a fast PEXT instruction (BMI2, and not the microcoded AMD Zen 1/2)."""
    import llvmlite.binding as llvm
    import numba

    if numba.config.CPU_NAME not in (None, "host"):
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2")) and llvm.get_host_cpu_name() not in ("znver1", "znver2")


_FAST_PEXT = _fast_pext()


@intrinsic
def pext32_cpu(typingctx, x, m):
    """The bits of uint32 `x` selected by mask `m`, packed into the low bits (the CPU's PEXT)."""
    sig = types.uint32(types.uint32, types.uint32)

    def codegen(context, builder, signature, args):
        """A call to the BMI2 pext instruction."""
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.32")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def pext32_loop(x, m):
    """The bits of uint32 `x` selected by mask `m`, packed into the low bits (a loop over the mask's bits)."""
    out = np.uint32(0)
    k = np.uint32(0)
    while m:
        low = m & (~m + np.uint32(1))
        if x & low:
            out |= np.uint32(1) << k
        k += np.uint32(1)
        m ^= low
    return out


pext32 = pext32_cpu if _FAST_PEXT else pext32_loop
