#!/usr/bin/env python3
"""Writes the objects of the gpu.binary ops in MLIR text to files.

    extract-gpu-binary.py lowered.mlir -o out.spv       # the only object
    extract-gpu-binary.py lowered.mlir -o dir/ --all    # dir/<binary>.<n>.bin

gpu-module-to-binary embeds each object (SPIR-V, cubin, PTX) in a
#gpu.object<...> attribute as an MLIR string, which this decodes (MLIR
prints bytes outside printable ASCII as \\XX, and escapes \\ and ").
Reads stdin when the input is `-`.
"""
import argparse
import os
import re
import sys

BINARY = re.compile(r'gpu\.binary\s+@([\w$.]+)')
OBJECT = re.compile(r'#gpu\.object<')


def string_at(text, start):
    """Decodes the MLIR string literal that starts at text[start] == '"'."""
    out = bytearray()
    i = start + 1
    while text[i] != '"':
        c = text[i]
        if c == '\\':
            nxt = text[i + 1]
            if nxt in '\\"':
                out.append(ord(nxt))
                i += 2
            elif nxt == 'n':
                out.append(10)
                i += 2
            elif nxt == 't':
                out.append(9)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out += c.encode('utf-8')
            i += 1
    return bytes(out)


def objects(text):
    """(binary name, object bytes) for each object, in order."""
    for binary in BINARY.finditer(text):
        end = text.find('\n', binary.end())
        line = text[binary.end():end if end >= 0 else len(text)]
        for obj in OBJECT.finditer(line):
            # The object's payload is its last string before the closing >.
            depth, i = 1, obj.end()
            last = None
            while depth:
                c = line[i]
                if c == '"':
                    last = i
                    j = i + 1
                    while line[j] != '"':
                        j += 2 if line[j] == '\\' else 1
                    i = j + 1
                    continue
                depth += {'<': 1, '>': -1}.get(c, 0)
                i += 1
            if last is not None:
                yield binary.group(1), string_at(line, last)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('input')
    parser.add_argument('-o', '--output', required=True)
    parser.add_argument('--all', action='store_true',
                        help='write every object into the folder -o names')
    args = parser.parse_args()
    text = sys.stdin.read() if args.input == '-' else open(args.input).read()
    found = list(objects(text))
    if not found:
        sys.exit('error: no gpu.binary object in ' + args.input)
    if args.all:
        os.makedirs(args.output, exist_ok=True)
        for n, (name, data) in enumerate(found):
            with open(os.path.join(args.output, '%s.%d.bin' % (name, n)),
                      'wb') as f:
                f.write(data)
        return
    if len(found) != 1:
        sys.exit('error: %d objects; use --all' % len(found))
    with open(args.output, 'wb') as f:
        f.write(found[0][1])


if __name__ == '__main__':
    main()
