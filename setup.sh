#!/usr/bin/env bash
# Sets up warnscope on Debian 12 from nothing: Debian packages (compilers, plugin
# headers, clang tools), a virtualenv in .venv with the Python dependencies, the
# installed `warnscope` command, and a Meson build dir (./build) for `meson test`.
# Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")"

APT_PACKAGES=(
  ca-certificates xz-utils git python3 python3-venv python3-dev
  gcc g++ gcc-11 g++-11 gcc-12 g++-12 gcc-11-plugin-dev gcc-12-plugin-dev
  clang-14 clang-16 clang-19 clang-tools-14 clang-tools-16 clang-tools-19
  libclang1-14 libclang1-16 libclang1-19 libclang-rt-14-dev libclang-rt-16-dev libclang-rt-19-dev
  chromium passwd util-linux dpkg-dev libtool libtool-bin cmake make tcl valgrind
  debootstrap bubblewrap bpftrace
  clang-tidy-14 clang-tidy-16 clang-tidy-19 cppcheck
  # Cross compilers and user-mode emulation: the target as an axis of the UB matrix.
  gcc-12-aarch64-linux-gnu g++-12-aarch64-linux-gnu libc6-dev-arm64-cross
  gcc-12-arm-linux-gnueabihf g++-12-arm-linux-gnueabihf libc6-dev-armhf-cross
  gcc-12-riscv64-linux-gnu g++-12-riscv64-linux-gnu libc6-dev-riscv64-cross
  qemu-user
  # WebAssembly as a target: clang-16 --target=wasm32-wasi links against Debian's wasi-libc
  # with wasm-ld (lld-16) and the wasm32 builtins; the programs run under Wasmtime (the
  # [wasm] extra below); C++ with libc++ for WASI.
  wasi-libc libclang-rt-16-dev-wasm32 lld-16 libc++-16-dev-wasm32 libc++abi-16-dev-wasm32
  # The tests validate warnscope's SARIF with Microsoft's SARIF Multitool (from npm), a
  # self-contained .NET program that loads the system's ICU.
  libicu72
)
# npm to install the Multitool: Debian's nodejs and npm, unless an npm is there already
# (NodeSource's nodejs brings its own and conflicts with Debian's npm package).
command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(nodejs npm)
# The build backend and Meson itself (also for `meson test`); warnscope's own runtime
# dependencies come from pyproject.toml, with the extras for Dask and the tests.
BUILD_PACKAGES=(meson meson-python ninja)

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# warnscope fetches gcc-N-source and libclang-N-dev with apt-get download: it needs fresh lists.
stale=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -720 2>/dev/null | head -1)
if [ ${#missing[@]} -gt 0 ] || [ -z "$stale" ]; then
  sudo_ apt-get update -q
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's python3, whatever else is on PATH (pyenv, conda): the sandbox shows a program
# only the system's directories, and the libclang warnings step runs this interpreter in it.
if [ -x .venv/bin/python ] && ! grep -qx 'home = /usr/bin' .venv/pyvenv.cfg; then
  echo "setup: .venv was made with another python than /usr/bin/python3: making it again"
  rm -rf .venv build
fi
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
# meson-python looks for meson and ninja on PATH: the venv's own, never whatever the machine has.
export PATH="$PWD/.venv/bin:$PATH"
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q "${BUILD_PACKAGES[@]}"
.venv/bin/python -m pip install -q --no-build-isolation ".[dask,test,wasm]"
if [ ! -f build/build.ninja ]; then
  .venv/bin/meson setup build -Dpython.install_env=auto >/dev/null
fi
echo "setup: done. warnscope is .venv/bin/warnscope"
