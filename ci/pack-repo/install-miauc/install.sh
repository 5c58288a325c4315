#!/usr/bin/env bash
# The install action's work (action.yml), in two parts:
#
#   install.sh download   fetch the release archive of miauc for this runner,
#                         check its SHA-256 and put the binary in $MIAUC_ROOT/bin;
#                         prints `installed=true` or `installed=false` (no
#                         archive for this platform or version: build instead)
#   install.sh build      build it instead: `cargo install --locked` from the
#                         action's own checkout when the version asked for is
#                         the checkout's, else the crate of that version
#
# Settings, from the environment:
#   MIAUC_SOURCE      the miau repository checked out at the action's ref
#   MIAUC_VERSION     the version to install (empty: the checkout's Cargo.toml)
#   MIAUC_REPOSITORY  OWNER/NAME whose releases hold the archives (empty: the
#                     repository the action was taken from)
#   MIAUC_RELEASES    where the releases are (default
#                     https://github.com/$MIAUC_REPOSITORY/releases/download);
#                     the tests point it at a local directory with file://
#   MIAUC_ROOT        the install root (the binary goes to $MIAUC_ROOT/bin)
#   RUNNER_OS, RUNNER_ARCH   the runner's platform, as GitHub names it
# A corrupt download (the checksum doesn't match) fails: it is never run and
# never replaced by a build.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source_dir=${MIAUC_SOURCE:-$(cd "$here/../../.." && pwd)}
# shellcheck source=ci/release/names.sh
. "$source_dir/ci/release/names.sh"

fail() { echo "::error::install-miauc: $*" >&2; exit 1; }
note() { echo "install-miauc: $*" >&2; }

# The version of the miauc crate in the checkout (the first `version =` of
# Cargo.toml is the [package] one).
source_version() { tr -d '\r' <"$source_dir/Cargo.toml" | sed -n 's/^version = "\(.*\)"$/\1/p' | head -n 1; }

MIAUC_ROOT=${MIAUC_ROOT:-$HOME/.miauc}
version=${MIAUC_VERSION:-}
[ -n "$version" ] || version=$(source_version)
version=${version#v}

# The release target for a runner, or nothing for a platform without one.
runner_target() {
  case "$1/$2" in
    Linux/X64) echo x86_64-unknown-linux-musl ;;
    Linux/ARM64) echo aarch64-unknown-linux-musl ;;
    macOS/X64) echo x86_64-apple-darwin ;;
    macOS/ARM64) echo aarch64-apple-darwin ;;
    Windows/X64) echo x86_64-pc-windows-msvc ;;
    *) echo "" ;;
  esac
}

# OWNER/NAME of the action's repository, from where the runner checked the
# action out: …/_actions/OWNER/NAME/REF/ci/pack-repo/install-miauc.
action_repository() {
  case "$here" in
    */_actions/*/*/*) local rest=${here#*/_actions/}; echo "${rest%%/*}/$(echo "$rest" | cut -d/ -f2)" ;;
    *) echo "" ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# Prints `installed=VALUE` where the action reads it.
report() { echo "installed=$1" | tee -a "${GITHUB_OUTPUT:-/dev/null}"; }

download() {
  local target repository releases
  target=$(runner_target "${RUNNER_OS:-}" "${RUNNER_ARCH:-}")
  if [ -z "$target" ]; then
    note "no release archive for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
    report false
    return
  fi
  repository=${MIAUC_REPOSITORY:-$(action_repository)}
  releases=${MIAUC_RELEASES:-${repository:+https://github.com/$repository/releases/download}}
  if [ -z "$releases" ]; then
    note "the action's repository is unknown (set the repository input)"
    report false
    return
  fi
  local archive exe name url work
  archive=$(release_archive "$version" "$target")
  exe=$(release_exe "$target")
  name=$(release_name "$version" "$target")
  url="$releases/v$version/$archive"
  work=$(mktemp -d)
  note "downloading $url"
  if ! curl -fsSL --retry 3 -o "$work/$archive" "$url" ||
    ! curl -fsSL --retry 3 -o "$work/$archive.sha256" "$url.sha256"; then
    note "no release archive $archive of v$version"
    rm -rf "$work"
    report false
    return
  fi
  local expected actual
  expected=$(cut -d' ' -f1 <"$work/$archive.sha256")
  actual=$(sha256_of "$work/$archive")
  [ "$expected" = "$actual" ] || fail "$archive has SHA-256 $actual, its .sha256 says $expected"
  case "$archive" in
    *.zip) (cd "$work" && unzip -q "$archive") ;;
    *) tar -xzf "$work/$archive" -C "$work" ;;
  esac
  [ -f "$work/$name/$exe" ] || fail "$archive holds no $name/$exe"
  mkdir -p "$MIAUC_ROOT/bin"
  cp "$work/$name/$exe" "$MIAUC_ROOT/bin/$exe"
  chmod +x "$MIAUC_ROOT/bin/$exe"
  rm -rf "$work"
  note "installed $archive (SHA-256 $actual)"
  report true
}

build() {
  if [ "$version" = "$(source_version)" ]; then
    note "building miauc $version from the action's checkout"
    cargo install --locked --root "$MIAUC_ROOT" --path "$source_dir"
  else
    note "building miauc $version from crates.io"
    cargo install --locked --root "$MIAUC_ROOT" miauc --version "=$version"
  fi
}

case "${1:-}" in
  download) download ;;
  build) build ;;
  *) echo "usage: install.sh download|build" >&2; exit 2 ;;
esac
