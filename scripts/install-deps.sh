#!/usr/bin/env bash
# Installs the Debian packages coulomb needs to build, test and run.
# Idempotent: apt-get runs only when a package is missing. Needs root (or sudo) only then.
set -euo pipefail

# Build and test dependencies (see docs/architecture.md, "Dependencies"). OpenMPI and Dask
# (python3-distributed) run `coulomb sweep` over MPI ranks and `coulomb.sweep` on a Dask cluster.
packages=(
  build-essential cmake pkg-config
  libeigen3-dev libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev libccd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libfclib-dev libhdf5-dev
  libsundials-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib
  chromium
  libopenmpi-dev openmpi-bin python3-distributed
)
# `make check` (scripts/check.sh) sets COULOMB_CHECK=1: clang and its runtime libraries (libFuzzer,
# ASan, UBSan: libclang-rt-dev), clang's OpenMP runtime (libomp-dev), llvm-symbolizer (llvm) for
# readable sanitizer reports, ninja.
if [[ "${COULOMB_CHECK:-0}" == 1 ]]; then
  packages+=(clang libclang-rt-dev libomp-dev llvm ninja-build)
fi
# Optional extras: set COULOMB_PEERS=1 to install the peers used by bench/.
if [[ "${COULOMB_PEERS:-0}" == 1 ]]; then
  packages+=(python3-siconos libmujoco-dev libbullet-dev python3-h5py)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ "$(id -u)" != 0 ]]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
