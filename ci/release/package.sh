#!/usr/bin/env bash
# Builds a release archive of miauc from the crate as crates.io would get it,
# and checks both. One run:
#
#   1. `cargo package` packages the crate (what `cargo install miauc`
#      downloads), `cargo publish --dry-run` checks what crates.io requires of
#      it, and it must stay under crates.io's 10 MB;
#   2. the packaged crate, unpacked, is built with `cargo build --release
#      --locked` for the target: this is the published crate's build check and
#      the release binary in one build;
#   3. the binary must be stripped (the release profile strips it), under
#      30 MB, answer `--version` with the crate's version and pass `check packs`
#      (unless --no-run: a cross-built binary the host can't execute);
#   4. the archive `miauc-vVERSION-TARGET.tar.gz` (`.zip` on Windows) holds
#      `miauc-vVERSION-TARGET/` with the binary, README.md and the notices of
#      the bundled pictures and font, and `ARCHIVE.sha256` beside it holds its
#      SHA-256 in `sha256sum` format; both are read back and checked.
#
# Usage: ci/release/package.sh [--target TRIPLE] [--out DIR] [--no-run]
# The target defaults to the host's; the output directory to target/dist.
# The release workflow (.github/workflows/release.yml) runs it for every
# platform, `.ci/run` for Linux x86-64.
set -euo pipefail
cd "$(dirname "$0")/../.."

target=$(rustc -vV | sed -n 's/^host: //p')
out=target/dist
run=true
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-run) run=false; shift ;;
    *) echo "package.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

readonly max_crate_bytes=$((10 * 1024 * 1024))
readonly max_binary_bytes=$((30 * 1024 * 1024))

# The version of the `miauc` package (the first `version =` of Cargo.toml is
# the [package] one).
version=$(tr -d '\r' <Cargo.toml | sed -n 's/^version = "\(.*\)"$/\1/p' | head -n 1)
# shellcheck source=ci/release/names.sh
. ci/release/names.sh
name=$(release_name "$version" "$target")
archive=$(release_archive "$version" "$target")
exe=$(release_exe "$target")
target_dir=${CARGO_TARGET_DIR:-target}

# Portable stat and hash (GNU coreutils on Linux and Git Bash, BSD on macOS).
size_of() { wc -c <"$1" | tr -d ' '; }
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}
fail() { echo "package.sh: $*" >&2; exit 1; }

package_crate() {
  echo "== cargo package and cargo publish --dry-run (the crate crates.io would get)"
  # --no-verify: the packaged crate's build is the release build below.
  # --allow-dirty: a local run checks the working tree as it is.
  cargo package -p miauc --locked --no-verify --allow-dirty
  cargo publish -p miauc --dry-run --locked --no-verify --allow-dirty
  crate="$target_dir/package/miauc-$version.crate"
  [ -f "$crate" ] || fail "no $crate after packaging"
  local bytes
  bytes=$(size_of "$crate")
  echo "crate: $crate, $bytes bytes"
  [ "$bytes" -lt "$max_crate_bytes" ] || fail "the crate is $bytes bytes, over crates.io's limit of $max_crate_bytes"
}

build_packaged_crate() {
  echo "== cargo build --release --locked --target $target (the packaged crate)"
  # Unpacked under target/package/ (where Cargo stops looking for a
  # workspace, so the crate builds on its own as it does for its users), at
  # a fixed path so that the dependencies' builds are reused between runs. The
  # .crate gives every file the same fixed time, so Cargo can't tell changed
  # sources by their times: a crate whose contents changed is unpacked afresh
  # with the time of unpacking (tar -m), one that didn't is left alone, and
  # Cargo rebuilds exactly when the packaged sources changed.
  # Not target/package/miauc-VERSION, where `cargo package` unpacks to
  # verify with the fixed times.
  local into="$target_dir/package/release"
  unpacked="$into/miauc-$version"
  local sum stamp="$into/miauc-$version.sha256"
  sum=$(sha256_of "$crate")
  if [ ! -d "$unpacked" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
    rm -rf "$unpacked"
    mkdir -p "$into"
    tar -xzmf "$crate" -C "$into"
    echo "$sum" >"$stamp"
  fi
  CARGO_TARGET_DIR="$target_dir" cargo build --release --locked \
    --manifest-path "$unpacked/Cargo.toml" --target "$target" --bin miauc
  binary="$target_dir/$target/release/$exe"
  [ -x "$binary" ] || fail "no $binary after the build"
}

# `file` says whether an ELF binary is stripped (no .symtab section) and
# whether it is statically linked (the musl targets); other formats (Mach-O,
# PE) rely on the release profile's `strip = true`.
check_elf() {
  case "$target" in *linux*) ;; *) return 0 ;; esac
  local kind
  kind=$(file -b "$1")
  echo "file: $kind"
  case "$kind" in
    ELF*) ;;
    *) return 0 ;;
  esac
  case "$kind" in
    *"not stripped"*|*"with debug_info"*) fail "$1 is not stripped: $kind" ;;
    *", stripped"*) ;;
    *) fail "file does not say whether $1 is stripped: $kind" ;;
  esac
  case "$target" in
    *musl*) case "$kind" in *static*) ;; *) fail "$1 is not statically linked: $kind" ;; esac ;;
  esac
}

check_binary() {
  echo "== the binary: stripped, size, --version, check packs"
  local bytes
  bytes=$(size_of "$binary")
  echo "binary: $binary, $bytes bytes"
  [ "$bytes" -lt "$max_binary_bytes" ] || fail "the binary is $bytes bytes, over $max_binary_bytes"
  check_elf "$binary"
  if [ "$run" = true ]; then
    local said
    said=$("$binary" --version)
    [ "$said" = "miauc $version" ] || fail "--version says '$said', expected 'miauc $version'"
    "$binary" check packs
  fi
}

make_archive() {
  echo "== the archive $archive"
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  local stage="$target_dir/dist-stage"
  rm -rf "$stage" "${out:?}/$archive" "$out/$archive.sha256"
  mkdir -p "$stage/$name"
  cp "$binary" "$stage/$name/$exe"
  cp README.md assets/NOTICE.md assets/LICENSE-DejaVu.txt "$stage/$name/"
  case "$archive" in
    *.zip) (cd "$stage" && 7z a -tzip -bd "$out/$archive" "$name" >/dev/null) ;;
    *) (cd "$stage" && tar -czf "$out/$archive" "$name") ;;
  esac
  (cd "$out" && echo "$(sha256_of "$archive")  $archive" >"$archive.sha256")
  rm -rf "$stage"
}

check_archive() {
  echo "== reading the archive back"
  (cd "$out" && if command -v sha256sum >/dev/null 2>&1; then sha256sum -c "$archive.sha256"
    else shasum -a 256 -c "$archive.sha256"; fi)
  local back="$target_dir/dist-check"
  rm -rf "$back"
  mkdir -p "$back"
  case "$archive" in
    *.zip) (cd "$back" && 7z x -bd "$out/$archive" >/dev/null) ;;
    *) tar -xzf "$out/$archive" -C "$back" ;;
  esac
  local listed expected
  listed=$(cd "$back" && find . -type f | LC_ALL=C sort | tr '\n' ' ')
  expected="./$name/LICENSE-DejaVu.txt ./$name/NOTICE.md ./$name/README.md ./$name/$exe "
  [ "$listed" = "$expected" ] || fail "the archive holds '$listed', expected '$expected'"
  cmp "$back/$name/$exe" "$binary" || fail "the archived binary differs from the built one"
  [ -x "$back/$name/$exe" ] || fail "the archived binary is not executable"
  rm -rf "$back"
  echo "$out/$archive"
}

package_crate
build_packaged_crate
check_binary
make_archive
check_archive
