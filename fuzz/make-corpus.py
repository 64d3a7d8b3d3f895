#!/usr/bin/env python3
"""Writes the seed corpus of every coopvec fuzzer under OUTDIR/<fuzzer>/.

  coopvec-parse-fuzzer   every test/**/*.mlir split at `// -----`
  coopvec-pass-fuzzer    the same chunks, each behind one byte that picks the
                         pipeline (round robin over the fuzzer's table)
  coopvec-npy-fuzzer     every test .npy file plus small arrays of each dtype,
                         shape and version
  coopvec-dxil-fuzzer    seeded random bytes ending in every operation and
  coopvec-numerics-fuzzer  tier selector (FuzzedDataProvider reads integers
                         from the end of the input)

Deterministic: the same tree gives the same corpus.
"""

import argparse
import hashlib
import os
import random
import struct
import sys

FUZZ_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(FUZZ_DIR)
NUM_PIPELINES = 30  # kPipelines in coopvec-pass-fuzzer.cpp


def write(directory, data):
    os.makedirs(directory, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def mlir_chunks():
    for root, _, files in sorted(os.walk(os.path.join(SOURCE_ROOT, "test"))):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(root, name), "rb") as f:
                text = f.read()
            for chunk in text.split(b"// -----"):
                if chunk.strip():
                    yield chunk


def npy(descr, shape, payload, version=1):
    dims = "".join(f"{d}," if len(shape) == 1 else f"{d}, " for d in shape)
    dims = dims.rstrip(", ") + ("," if len(shape) == 1 else "")
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({dims}), }}"
    prefix = 10 if version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    length = (struct.pack("<H", len(header)) if version == 1
              else struct.pack("<I", len(header)))
    return (b"\x93NUMPY" + bytes([version, 0]) + length +
            header.encode("latin-1") + payload)


def npy_seeds():
    for root, _, files in sorted(os.walk(os.path.join(SOURCE_ROOT, "test"))):
        for name in sorted(files):
            if name.endswith(".npy"):
                with open(os.path.join(root, name), "rb") as f:
                    yield f.read()
    rng = random.Random(1)
    for descr, size in [("<f4", 4), ("<f2", 2), ("<f8", 8), ("|i1", 1),
                        ("<i2", 2), ("<i4", 4), ("<i8", 8), ("|u1", 1),
                        ("<u2", 2), ("<u4", 4), ("|b1", 1)]:
        for shape in [(), (0,), (3,), (2, 3), (2, 1, 2)]:
            count = 1
            for d in shape:
                count *= d
            payload = bytes(rng.randrange(256) for _ in range(count * size))
            for version in (1, 2, 3):
                yield npy(descr, shape, payload, version)


def tail_selected(selectors, sizes, seed):
    rng = random.Random(seed)
    for tail in selectors:
        for size in sizes:
            yield bytes(rng.randrange(256) for _ in range(size)) + bytes(tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    args = parser.parse_args()
    out = args.outdir
    chunks = list(mlir_chunks())
    for i, chunk in enumerate(chunks):
        write(os.path.join(out, "coopvec-parse-fuzzer"), chunk)
        write(os.path.join(out, "coopvec-pass-fuzzer"),
              bytes([i % NUM_PIPELINES]) + chunk)
    for data in npy_seeds():
        write(os.path.join(out, "coopvec-npy-fuzzer"), data)
    # dxil: the last byte is the tier (0..7 -> tier 0, 1, 2, else 1.1), the
    # one before it the operation (0..7).
    for data in tail_selected([(op, tier) for op in range(8)
                               for tier in (1, 2)], (64, 512, 4096), 2):
        write(os.path.join(out, "coopvec-dxil-fuzzer"), data)
    # numerics: the last byte is the entry point (0..8).
    for data in tail_selected([(op,) for op in range(9)], (16, 256, 2048), 3):
        write(os.path.join(out, "coopvec-numerics-fuzzer"), data)
    counts = {name: len(os.listdir(os.path.join(out, name)))
              for name in sorted(os.listdir(out))}
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
