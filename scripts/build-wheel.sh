#!/usr/bin/env bash
# Builds the Python package's sdist and, from that sdist, its wheel (abi3: one wheel for
# CPython 3.9 and later), into DIR (default target/wheels). maturin, installed in a
# virtual environment of its own under target/, checks the wheel against the manylinux
# policies and tags it with the oldest it meets. Needs Rust and Python 3; the wheel
# then installs with pip on machines without Rust:
#
#   scripts/build-wheel.sh
#   pip install "target/wheels/isolo_ai-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl[openspiel]"
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/target/wheels}" && cd "${1:-$root/target/wheels}" && pwd)
tools="$root/target/maturin-venv"
if [ ! -x "$tools/bin/maturin" ]; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install --quiet --upgrade pip
    "$tools/bin/pip" install --quiet "maturin>=1.5,<2"
fi
rm -f "$out"/isolo_ai-*
(cd "$root/python" && "$tools/bin/maturin" sdist --out "$out")
# The wheel from the unpacked sdist, not from the tree: a file the sdist lacks fails
# here. Unpacked in one place under target/, so that the crates it depends on stay built.
unpacked="$root/target/sdist-build"
rm -rf "$unpacked"
mkdir -p "$unpacked"
# (`m`: files dated now, not the sdist's fixed 2006 date, which would make cargo take a
# build of older sources in target/wheel for up to date.)
tar xzmf "$out"/isolo_ai-*.tar.gz -C "$unpacked"
(cd "$unpacked"/isolo_ai-* && CARGO_TARGET_DIR="$root/target/wheel" "$tools/bin/maturin" build --release --out "$out")
ls "$out"
