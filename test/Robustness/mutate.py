#!/usr/bin/env python3
"""Feeds a tool deterministic mutations of MLIR inputs and fails on a crash.

Every run must end with exit code 0 or 1 and print diagnostics, never die by
a signal or print a stack dump. Byte mutations (flip, insert, delete) and
token mutations (numbers replaced by extreme values, interpretation/layout/
type names swapped, lines duplicated or dropped) are drawn from a seeded
generator, so a failure reproduces with the same --seed. Crashing inputs are
written to --crash-dir.
"""

import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

EXTREME_NUMBERS = [
    "0", "-1", "1", "3", "15", "17", "127", "129", "-128", "65535", "65536",
    "65537", "2147483647", "2147483648", "4294967296", "-9223372036854775808",
    "9223372036854775807", "99999999999999999999", "0x7fffffff", "1.5",
]
KEYWORDS = [
    "I16", "U16", "I32", "U32", "F16", "F32", "PackedS8x32", "PackedU8x32",
    "U8", "I8", "F8_E4M3", "F8_E5M2", "RowMajor", "ColumnMajor",
    "InferencingOptimal", "TrainingOptimal", "MulOptimal",
    "OuterProductOptimal", "transpose", "unsigned", "unsigned_result", "bias",
    "stride", "matrix", "as", "to", "f16", "f32", "i8", "i16", "i32", "i64",
    "bf16", "f64", "index", "tier1_0", "tier1_1", "none", "true", "false",
]
PUNCTUATION = list("<>[](){},:=%#@!x?-\"")
TOKEN_RE = re.compile(r"-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_.]*|\S")


def mutate(text: str, rng: random.Random) -> str:
    data = text
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(8)
        if not data:
            break
        if kind == 0:  # flip a byte
            i = rng.randrange(len(data))
            data = data[:i] + chr(rng.randrange(32, 127)) + data[i + 1:]
        elif kind == 1:  # insert punctuation
            i = rng.randrange(len(data))
            data = data[:i] + rng.choice(PUNCTUATION) + data[i:]
        elif kind == 2:  # delete a span
            i = rng.randrange(len(data))
            data = data[:i] + data[i + rng.randint(1, 8):]
        else:
            tokens = list(TOKEN_RE.finditer(data))
            if not tokens:
                continue
            tok = rng.choice(tokens)
            if kind in (3, 4):  # extreme number
                nums = [t for t in tokens if re.fullmatch(r"-?\d+", t.group())]
                if nums:
                    tok = rng.choice(nums)
                repl = rng.choice(EXTREME_NUMBERS)
            elif kind == 5:  # swap a keyword
                words = [t for t in tokens if t.group() in KEYWORDS]
                if words:
                    tok = rng.choice(words)
                repl = rng.choice(KEYWORDS)
            elif kind == 6:  # duplicate a line
                lines = data.split("\n")
                i = rng.randrange(len(lines))
                lines.insert(i, lines[rng.randrange(len(lines))])
                data = "\n".join(lines)
                continue
            else:  # drop a line
                lines = data.split("\n")
                del lines[rng.randrange(len(lines))]
                data = "\n".join(lines)
                continue
            data = data[:tok.start()] + repl + data[tok.end():]
    return data


def discover_passes(tool: str) -> list:
    """The coopvec passes and pipelines the tool lists in --help."""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True,
                         check=False).stdout
    flags = set(re.findall(r"--((?:convert-coopvec|coopvec)[a-z0-9-]*)", out))
    return sorted("--" + f for f in flags)


def is_crash(proc: subprocess.CompletedProcess) -> bool:
    if proc.returncode < 0 or proc.returncode > 1:
        return True
    err = proc.stderr
    return ("Stack dump" in err or "PLEASE submit a bug report" in err or
            "Assertion" in err or "UNREACHABLE" in err)


def run_one(args):
    tool, text, flags, seed, crash_dir = args
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        try:
            proc = subprocess.run([tool, path, *flags], capture_output=True,
                                  text=True, timeout=60, errors="replace")
        except subprocess.TimeoutExpired:
            return (seed, flags, "timeout")
        if not is_crash(proc):
            return None
        out = os.path.join(crash_dir, f"crash-{seed}.mlir")
        with open(out, "w") as f:
            f.write(f"// flags: {' '.join(flags)}\n" + text)
        tail = proc.stderr.strip().splitlines()[-3:]
        return (seed, flags, f"exit {proc.returncode}: " + " | ".join(tail))
    finally:
        os.unlink(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tool", required=True)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--crash-dir", default=tempfile.gettempdir())
    parser.add_argument("inputs", nargs="+",
                        help=".mlir files or folders searched for them")
    opts = parser.parse_args()

    paths = []
    for root in opts.inputs:
        if os.path.isdir(root):
            for d, _, files in os.walk(root):
                paths += [os.path.join(d, f) for f in files if f.endswith(".mlir")]
        elif os.path.exists(root):
            paths.append(root)
    texts = []
    for path in sorted(paths):
        with open(path) as f:
            # Split files are mutated case by case, as the tool reads them.
            texts.extend(c for c in f.read().split("// -----") if c.strip())
    flag_sets = [[], ["--split-input-file"], ["--canonicalize"]]
    flag_sets += [[p] for p in discover_passes(opts.tool)]

    jobs = []
    for i in range(opts.count):
        seed = opts.seed * 1000003 + i
        rng = random.Random(seed)
        text = mutate(rng.choice(texts), rng)
        jobs.append((opts.tool, text, rng.choice(flag_sets), seed,
                     opts.crash_dir))

    os.makedirs(opts.crash_dir, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        failures = [r for r in pool.map(run_one, jobs) if r]
    for seed, flags, what in failures:
        print(f"CRASH seed={seed} flags={' '.join(flags)}: {what}")
    print(f"mutation runs: {len(jobs)}, inputs: {len(texts)}, "
          f"pass sets: {len(flag_sets)}, crashes: {len(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
