#!/usr/bin/env bash
# This file implements the dependency installer for a Debian 12 build machine:
# it checks every apt package and Python module that building and testing mgp
# need, installs only the missing ones (apt-get as root or through sudo; pip
# only for the Python modules), does nothing but say so when all is present,
# and stops with a message naming the package when something cannot be
# installed. LLVM/MLIR 22 come from Debian's bookworm-security suite on the
# project's machines; where no configured source offers them, the script adds
# that suite and then, if still needed, apt.llvm.org's llvm-toolchain-*-22.
#
# Environment:
#   MGP_PYTHON          Python interpreter for the reference tests (python3)
#   MGP_DEPS_EXTRA_APT  more apt packages to require (space separated)
#   MGP_DEPS_EXTRA_PIP  more Python modules to require (module = pip name)
#   MGP_DEPS_DRY_RUN=1  print the commands that would change the system
#   MGP_DEPS_AS_USER=1  behave as a user without root or sudo (self-test)
set -euo pipefail

aptPackages=(
  # LLVM/MLIR 22 (mlir-tblgen, FileCheck, lit, static and shared libraries).
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  # What MLIR's CMake config looks for (find_package(MLIR) fails without).
  libzstd-dev libedit-dev libcurl4-openssl-dev libxml2-dev libz3-dev zlib1g-dev
  # clang's libFuzzer and sanitizer runtimes (make fuzz, make test-fuzz).
  libclang-rt-22-dev
  # Libraries and build tools.
  libfmt-dev libgtest-dev libstb-dev ccache ninja-build cmake g++ make
  # make test (file-size check) and make portable (xz archive).
  git xz-utils
)
# shellcheck disable=SC2206
aptPackages+=(${MGP_DEPS_EXTRA_APT:-})
# torch and triton: Triton's interpreter and compiler are the reference of the
# Triton-compatibility tests (TRITON_INTERPRET=1 on CPU tensors), pinned to the
# versions of the GPU machine so that both machines compare with one Triton.
# An entry is `module` or `module==version` (pip's spelling; the installed
# version must then match, a local suffix such as +cu130 aside).
# numpy below 2.4: Triton 3.6's interpreter converts one-element arrays with
# int(), which NumPy 2.4 refuses.
# matplotlib draws the benchmark's plot (tools/bench_report.py, its lit test);
# pytest runs Triton's own language tests (tests/triton_lang).
pipModules=(numpy==2.3.5 onnx onnxruntime safetensors torch==2.11.0 triton==3.6.0
            matplotlib pytest)
# shellcheck disable=SC2206
pipModules+=(${MGP_DEPS_EXTRA_PIP:-})
python=${MGP_PYTHON:-python3}
dryRun=${MGP_DEPS_DRY_RUN:-0}

changed=0
say() { echo "install-deps: $*"; }
die() { echo "install-deps: ERROR: $*" >&2; exit 1; }

# How this process can act as root: "root", "sudo" (sudo without a password
# prompt, so make never hangs on one) or "none". MGP_DEPS_AS_USER=1 pretends
# to be an ordinary user without sudo (the self-test's no-root case).
rootAccess() {
  if [ "${MGP_DEPS_AS_USER:-0}" = 1 ]; then
    echo none
  elif [ "$(id -u)" -eq 0 ]; then
    echo root
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    echo sudo
  else
    echo none
  fi
}

# Stops before anything changes when packages are missing and this process
# cannot become root: one message naming the installer and the packages.
needRoot() { # what is missing
  [ "$dryRun" = 1 ] && return
  [ "$(rootAccess)" != none ] && return
  die "missing $*; installing them needs root: run 'sudo tools/install-deps.sh' (or as root), then make again"
}

# Runs a command that changes the system, as root (directly or through sudo).
asRoot() {
  if [ "$dryRun" = 1 ]; then
    echo "[dry-run] $*"
    return
  fi
  case "$(rootAccess)" in
    root) "$@" ;;
    sudo) sudo -n "$@" ;;
    *) die "need root to run '$*': run 'sudo tools/install-deps.sh' or run it as root" ;;
  esac
}

isInstalled() { [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" = "ii " ]; }

# The version apt would install, empty when no configured source has one.
candidate() {
  local c
  c=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
  [ "$c" = "(none)" ] && c=
  echo "$c"
}

codename() { . /etc/os-release && echo "${VERSION_CODENAME:-bookworm}"; }

# The project's machines get LLVM 22 from Debian's security suite, configured
# like this in /etc/apt/sources.list.d/debian.sources.
addSecuritySuite() {
  local suite file
  suite="$(codename)-security"
  if grep -rqs -- "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return 1
  fi
  file=/etc/apt/sources.list.d/mgp-debian-security.sources
  say "adding the $suite suite ($file)"
  printf 'Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$suite" | asRoot tee "$file" >/dev/null
}

# apt.llvm.org's LLVM 22 packages (the same package names).
addLlvmOrg() {
  local key=/usr/share/keyrings/llvm-snapshot.asc
  local file=/etc/apt/sources.list.d/llvm-toolchain-22.sources
  local cn
  cn=$(codename)
  [ -e "$file" ] && return 1
  say "adding apt.llvm.org llvm-toolchain-$cn-22 ($file)"
  if ! command -v curl >/dev/null; then
    asRoot apt-get install -y --no-install-recommends curl ca-certificates ||
      die "cannot install curl (needed to fetch apt.llvm.org's key)"
  fi
  curl -fsSL https://apt.llvm.org/llvm-snapshot.gpg.key | asRoot tee "$key" >/dev/null ||
    die "cannot download https://apt.llvm.org/llvm-snapshot.gpg.key"
  printf 'Types: deb\nURIs: http://apt.llvm.org/%s/\nSuites: llvm-toolchain-%s-22\nComponents: main\nSigned-By: %s\n' \
    "$cn" "$cn" "$key" | asRoot tee "$file" >/dev/null
}

# The packages this run installs, for the messages of a failed download.
aptMissing=()
aptUpdate() {
  asRoot apt-get update -q ||
    die "apt-get update failed (no network or broken apt sources); still missing: ${aptMissing[*]}"
}

installApt() {
  local missing=() p
  for p in "${aptPackages[@]}"; do
    isInstalled "$p" || missing+=("$p")
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    say "all ${#aptPackages[@]} apt packages present"
    return
  fi
  say "missing apt packages: ${missing[*]}"
  command -v apt-get >/dev/null || die "no apt-get: this script supports Debian 12 only"
  needRoot "apt packages: ${missing[*]}"
  aptMissing=("${missing[@]}")
  aptUpdate
  if [ -z "$(candidate llvm-22-dev)" ] && [ "$dryRun" != 1 ]; then
    if addSecuritySuite; then aptUpdate; fi
    if [ -z "$(candidate llvm-22-dev)" ] && addLlvmOrg; then aptUpdate; fi
  fi
  local unavailable=()
  for p in "${missing[@]}"; do
    [ -n "$(candidate "$p")" ] || unavailable+=("$p")
  done
  if [ "${#unavailable[@]}" -gt 0 ]; then
    die "no apt source offers: ${unavailable[*]} (check /etc/apt/sources.list.d)"
  fi
  asRoot env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}" || die "apt-get install failed for: ${missing[*]}"
  [ "$dryRun" = 1 ] && return
  local still=()
  for p in "${missing[@]}"; do isInstalled "$p" || still+=("$p"); done
  [ "${#still[@]}" -eq 0 ] || die "still not installed after apt-get: ${still[*]}"
  say "installed apt packages: ${missing[*]}"
  changed=1
}

# pip's flags for this interpreter: none in a virtual environment, --user for
# a non-root user outside one, --break-system-packages where the distribution
# marks its Python as externally managed (Debian's /usr/bin/python3).
pipFlags() {
  "$python" - <<'EOF'
import os, sys, sysconfig
flags = []
if sys.prefix == sys.base_prefix:
    if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")):
        flags.append("--break-system-packages")
    if os.geteuid() != 0 and not os.access(sysconfig.get_path("purelib"), os.W_OK):
        flags.append("--user")
if os.geteuid() == 0:
    flags.append("--root-user-action=ignore")
print(" ".join(flags))
EOF
}

# Prints each of the given modules (`name` or `name==version`) that the
# interpreter cannot import, or that has another version than the one pinned.
unimportable() {
  "$python" - "$@" <<'EOF'
import importlib, importlib.metadata, sys
for entry in sys.argv[1:]:
    name, _, version = entry.partition("==")
    try:
        if version:
            # The distribution's metadata, without importing (torch is slow).
            if importlib.metadata.version(name).split("+")[0] != version:
                print(entry)
            continue
        importlib.import_module(name)
    except Exception:
        print(entry)
EOF
}

installPip() {
  command -v "$python" >/dev/null || die "no Python interpreter '$python' (set MGP_PYTHON)"
  local missing=()
  mapfile -t missing < <(unimportable "${pipModules[@]}")
  if [ "${#missing[@]}" -eq 0 ]; then
    say "all ${#pipModules[@]} Python modules present ($python: ${pipModules[*]})"
    return
  fi
  say "missing Python modules for $python: ${missing[*]}"
  if ! "$python" -m pip --version >/dev/null 2>&1; then
    [ "$(command -v "$python")" = /usr/bin/python3 ] ||
      die "$python has no pip; install pip for it or set MGP_PYTHON"
    needRoot "python3-pip (for the Python modules ${missing[*]})"
    asRoot apt-get install -y --no-install-recommends python3-pip ||
      die "cannot install python3-pip"
  fi
  local flags
  flags=$(pipFlags)
  if [ "$dryRun" = 1 ]; then
    echo "[dry-run] $python -m pip install $flags ${missing[*]}"
    return
  fi
  # shellcheck disable=SC2086
  "$python" -m pip install --disable-pip-version-check -q $flags "${missing[@]}" ||
    die "pip install failed (no network, or no PyPI) for: ${missing[*]}"
  local still=()
  mapfile -t still < <(unimportable "${missing[@]}")
  [ "${#still[@]}" -eq 0 ] || die "installed but not importable by $python: ${still[*]}"
  say "installed Python modules: ${missing[*]}"
  changed=1
}

# The CUDA toolkit (cuda.h for the driver API types, ptxas for the PTX tests)
# comes from NVIDIA, not from Debian; the project's machines have it.
checkCuda() {
  if [ -f /usr/local/cuda/include/cuda.h ] || [ -f /usr/include/cuda.h ]; then
    say "CUDA headers present"
  else
    die "no cuda.h: install the CUDA toolkit 13 (https://developer.nvidia.com/cuda-downloads) to /usr/local/cuda"
  fi
}

[ -r /etc/os-release ] && . /etc/os-release
[ "${ID:-}" = debian ] && [ "${VERSION_ID:-}" = 12 ] ||
  say "warning: written for Debian 12, this is ${PRETTY_NAME:-an unknown system}"
installApt
installPip
checkCuda
if [ "$dryRun" = 1 ]; then
  say "dry run: nothing changed ([dry-run] lines are what would run)"
elif [ "$changed" = 0 ]; then
  say "everything present, nothing installed"
else
  say "done"
fi
