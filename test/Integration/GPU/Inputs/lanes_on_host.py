#!/usr/bin/env python3
"""A GPU program's per-lane kernels as a CPU program.

Lowers PROGRAM with `--convert-coopvec-to-nvvm=cooperative=false` (every
thread takes the per-lane path, which for the F16, F32 and 8-bit integer
products and the I8 networks is plain arith/memref/vector/math code, no
NVVM op) and rewrites the result so that the CPU runs it, printing the new
program:

  * each kernel `gpu.func @k(args) kernel` becomes `func.func @k(args,
    %block, %block_dim, %thread)`, its `gpu.block_id/block_dim/thread_id x`
    those arguments, `gpu.return` a `return`;
  * each `gpu.launch_func @kernels::@k blocks in (%g, ...) threads in (%t,
    ...) args(...)` becomes a loop over the %g x %t threads calling @k
    (one-dimensional launches only; the kernels' modules may follow the
    launches, as gpu-kernel-outlining writes them);
  * `gpu.alloc`/`gpu.memcpy`/`gpu.dealloc` become their memref forms.

The host code keeps its own coopvec ops (the CPU runtime), so a program that
checks its kernels against the host, as the ones here do, checks the
per-lane lowering without a GPU: mlp-on-host.test (mlp-check.mlir), and
test/Conversion/CoopVecToNVVM/lanes-on-cpu.test (the program its
lanes_on_cpu.py writes: every layout of the products; matvec-check.mlir
works the same way, at many times the JIT time).

  lanes_on_host.py --opt coopvec-opt PROGRAM > HOST.mlir
"""

import argparse
import re
import subprocess
import sys


def fail(message):
    sys.exit(f"lanes_on_host.py: {message}")


KERNEL = re.compile(r"^(\s*)gpu\.func @(\w+)\((.*)\) kernel(?: attributes .*)? \{$")


def rewrite(lowered):
    out, kernels, launch, in_module = [], {}, 0, False
    # Every kernel's argument types first: the gpu.modules that
    # gpu-kernel-outlining writes follow the host code that launches them.
    for line in lowered.splitlines():
        m = KERNEL.match(line)
        if m:
            kernels[m.group(2)] = [a.split(":", 1)[1].strip()
                                   for a in re.split(r",\s*(?=%)", m.group(3)) if a]
    for line in lowered.splitlines():
        if line.startswith("module attributes {gpu.container_module}"):
            out.append("module {")
            continue
        # The gpu.module's functions join the host module.
        if re.match(r"^  gpu\.module @\w+ \{$", line):
            in_module = True
            continue
        if in_module and line == "  }":
            in_module = False
            continue
        m = KERNEL.match(line)
        if m:
            indent, name, args = m.groups()
            out.append(f"{indent}func.func @{name}({args}, %lanes_block: index, "
                       f"%lanes_block_dim: index, %lanes_thread: index) {{")
            continue
        if re.search(r"\bgpu\.func\b", line):
            fail(f"a device function is not rewritten: {line.strip()}")
        m = re.match(r"^(\s*)(%\w+) = gpu\.(block_id|block_dim|thread_id)\s+(\w)$",
                     line)
        if m:
            indent, result, what, dim = m.groups()
            if dim != "x":
                fail(f"only x ids are rewritten: {line.strip()}")
            arg = {"block_id": "%lanes_block", "block_dim": "%lanes_block_dim",
                   "thread_id": "%lanes_thread"}[what]
            out.append(f"{indent}{result} = arith.ori {arg}, {arg} : index")
            continue
        line = re.sub(r"\bgpu\.return\b", "return", line)
        m = re.match(r"^(\s*)gpu\.launch_func\s+@\w+::@(\w+) blocks in "
                     r"\((%\w+), (%\w+), (%\w+)\) threads in \((%\w+), (%\w+), "
                     r"(%\w+)\)\s+args\((.*)\)$", line)
        if m:
            indent, name, gx, gy, gz, tx, ty, tz, args = m.groups()
            operands = [a.split(":", 1)[0].strip()
                        for a in re.split(r",\s*(?=%)", args)]
            types = kernels[name] + ["index"] * 3
            i = launch
            launch += 1
            out += [
                f"{indent}%lanes_c0_{i} = arith.constant 0 : index",
                f"{indent}%lanes_c1_{i} = arith.constant 1 : index",
                f"{indent}%lanes_ones_{i} = arith.muli {gy}, {gz} : index",
                f"{indent}%lanes_tones_{i} = arith.muli {ty}, {tz} : index",
                f"{indent}%lanes_one_{i} = arith.muli %lanes_ones_{i}, %lanes_tones_{i} : index",
                f"{indent}%lanes_is1_{i} = arith.cmpi eq, %lanes_one_{i}, %lanes_c1_{i} : index",
                f"{indent}cf.assert %lanes_is1_{i}, \"lanes_on_host.py: a launch "
                f"of more than one dimension\"",
                f"{indent}scf.for %lanes_b_{i} = %lanes_c0_{i} to {gx} step %lanes_c1_{i} {{",
                f"{indent}  scf.for %lanes_t_{i} = %lanes_c0_{i} to {tx} step %lanes_c1_{i} {{",
                f"{indent}    func.call @{name}({', '.join(operands)}, %lanes_b_{i}, "
                f"{tx}, %lanes_t_{i}) : ({', '.join(types)}) -> ()",
                f"{indent}  }}",
                f"{indent}}}",
            ]
            continue
        if "gpu.launch_func" in line:
            fail(f"a launch is not rewritten: {line.strip()}")
        line = re.sub(r"\bgpu\.alloc\s+", "memref.alloc", line)
        line = re.sub(r"\bgpu\.dealloc\s+", "memref.dealloc ", line)
        m = re.match(r"^(\s*)gpu\.memcpy\s+(%\w+), (%\w+) : ([^,]+), (.+)$", line)
        if m:
            indent, dst, src, dtype, stype = m.groups()
            line = f"{indent}memref.copy {src}, {dst} : {stype} to {dtype}"
        if re.search(r"\bgpu\.", line):
            fail(f"a GPU op is not rewritten: {line.strip()}")
        if re.search(r"\bnvvm\.", line):
            fail(f"the per-lane code uses an NVVM op: {line.strip()}")
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="coopvec-opt")
    parser.add_argument("program")
    args = parser.parse_args()
    done = subprocess.run(
        [args.opt, args.program, "--convert-coopvec-to-nvvm=cooperative=false",
         "--canonicalize", "--cse"], capture_output=True, text=True)
    if done.returncode:
        fail(f"{args.opt} failed:\n{done.stderr}")
    sys.stdout.write(rewrite(done.stdout))


if __name__ == "__main__":
    main()
