# The names of the release files, sourced by the scripts that make them
# (ci/release/package.sh) and that download them
# (ci/pack-repo/install-miauc/install.sh); Cargo.toml's
# [package.metadata.binstall] spells the same names in cargo-binstall's
# template syntax (ci/pack-repo/test/release.test.js checks they agree).

# The directory inside the archive, and the archive's name without its
# extension: miauc-vVERSION-TARGET.
release_name() { echo "miauc-v$1-$2"; }

# The archive of VERSION for TARGET: a zip on Windows, a gzipped tar elsewhere.
release_archive() {
  case "$2" in
    *windows*) echo "$(release_name "$1" "$2").zip" ;;
    *) echo "$(release_name "$1" "$2").tar.gz" ;;
  esac
}

# The binary's file name on TARGET.
release_exe() {
  case "$1" in
    *windows*) echo miauc.exe ;;
    *) echo miauc ;;
  esac
}

# The release targets, one per line: what the release workflow builds.
release_targets() {
  printf '%s\n' \
    x86_64-unknown-linux-musl \
    aarch64-unknown-linux-musl \
    x86_64-apple-darwin \
    aarch64-apple-darwin \
    x86_64-pc-windows-msvc
}
