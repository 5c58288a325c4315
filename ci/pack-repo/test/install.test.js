// The install action's script (install-miauc/install.sh) against a release
// directory of this test's own, reached through a file:// URL (no network):
// each runner platform gets the archive the release workflow builds for it,
// its checksum is checked, and a platform or version without an archive
// falls back to a build (a stub `cargo` records what it would build).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const repo = path.resolve(__dirname, '..', '..', '..');
const script = path.join(repo, 'ci', 'pack-repo', 'install-miauc', 'install.sh');
const names = path.join(repo, 'ci', 'release', 'names.sh');
const version = /^version = "(.*)"$/m.exec(fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8'))[1];

/** The release file names names.sh gives, computed by bash. */
function releaseNames(v, target) {
  const out = spawnSync('bash', ['-c', `. "${names}"; release_name "$1" "$2"; release_archive "$1" "$2"; release_exe "$2"`, 'names', v, target], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const [name, archive, exe] = out.stdout.trim().split('\n');
  return { name, archive, exe };
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'miau-install-'));
}

/** A fake release of `v` for `target` in `releases`: an archive laid out as
 * ci/release/package.sh lays it out, whose binary prints its target, and its
 * .sha256 (or a wrong one, `corrupt`). */
function fakeRelease(releases, v, target, { corrupt = false } = {}) {
  const { name, archive, exe } = releaseNames(v, target);
  const dir = path.join(releases, `v${v}`);
  const stage = tempDir();
  fs.mkdirSync(path.join(stage, name));
  fs.writeFileSync(path.join(stage, name, exe), `#!/bin/sh\necho "miauc ${v} ${target}"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(stage, name, 'README.md'), 'miau\n');
  fs.mkdirSync(dir, { recursive: true });
  const make = archive.endsWith('.zip')
    ? spawnSync('zip', ['-qr', path.join(dir, archive), name], { cwd: stage })
    : spawnSync('tar', ['-czf', path.join(dir, archive), name], { cwd: stage });
  assert.equal(make.status, 0, String(make.stderr));
  const sum = spawnSync('sha256sum', [archive], { cwd: dir, encoding: 'utf8' }).stdout;
  fs.writeFileSync(path.join(dir, `${archive}.sha256`), corrupt ? sum.replace(/^./, (c) => (c === '0' ? '1' : '0')) : sum);
  fs.rmSync(stage, { recursive: true });
  return { archive, exe };
}

/** A `cargo` and a `curl` on PATH that record their arguments; the stub
 * curl fails like a download of a missing file. */
function stubs(dir, { curl = false } = {}) {
  const bin = path.join(dir, 'stub-bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'cargo'), `#!/bin/sh\necho "$@" >> "${dir}/cargo.log"\n`, { mode: 0o755 });
  if (curl) fs.writeFileSync(path.join(bin, 'curl'), `#!/bin/sh\necho "$@" >> "${dir}/curl.log"\nexit 22\n`, { mode: 0o755 });
  return bin;
}

/** Runs install.sh with `env` over a clean environment (no GITHUB_OUTPUT). */
function install(args, env, scriptPath = script) {
  const dir = env.dir;
  const out = spawnSync('bash', [scriptPath, ...args], {
    encoding: 'utf8',
    env: {
      PATH: `${stubs(dir, env)}:${process.env.PATH}`,
      HOME: dir,
      MIAUC_ROOT: path.join(dir, 'root'),
      MIAUC_SOURCE: repo,
      ...env.vars,
    },
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

const PLATFORMS = [
  ['Linux', 'X64', 'x86_64-unknown-linux-musl'],
  ['Linux', 'ARM64', 'aarch64-unknown-linux-musl'],
  ['macOS', 'X64', 'x86_64-apple-darwin'],
  ['macOS', 'ARM64', 'aarch64-apple-darwin'],
  ['Windows', 'X64', 'x86_64-pc-windows-msvc'],
];

test('every runner platform gets the archive built for it, checked and installed', () => {
  const dir = tempDir();
  const releases = path.join(dir, 'releases');
  for (const [, , target] of PLATFORMS) fakeRelease(releases, version, target);
  for (const [runnerOs, arch, target] of PLATFORMS) {
    fs.rmSync(path.join(dir, 'root'), { recursive: true, force: true });
    const run = install(['download'], { dir, vars: { RUNNER_OS: runnerOs, RUNNER_ARCH: arch, MIAUC_RELEASES: `file://${releases}` } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'installed=true\n', run.stderr);
    const { exe } = releaseNames(version, target);
    const installed = path.join(dir, 'root', 'bin', exe);
    const said = spawnSync(installed, ['--version'], { encoding: 'utf8' });
    assert.equal(said.stdout, `miauc ${version} ${target}\n`, `${runnerOs}/${arch}`);
    assert.match(run.stderr, /SHA-256 [0-9a-f]{64}/);
  }
  assert.ok(!fs.existsSync(path.join(dir, 'cargo.log')), 'nothing was built');
  fs.rmSync(dir, { recursive: true });
});

test('the release workflow builds every target the action downloads', () => {
  const listed = spawnSync('bash', ['-c', `. "${names}"; release_targets`], { encoding: 'utf8' }).stdout.trim().split('\n');
  assert.deepEqual([...listed].sort(), PLATFORMS.map((p) => p[2]).sort());
});

test('an archive whose checksum does not match fails the install', () => {
  const dir = tempDir();
  const releases = path.join(dir, 'releases');
  fakeRelease(releases, version, 'x86_64-unknown-linux-musl', { corrupt: true });
  const run = install(['download'], { dir, vars: { RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', MIAUC_RELEASES: `file://${releases}` } });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /::error::install-miauc: miauc-v.*\.tar\.gz has SHA-256 [0-9a-f]{64}, its \.sha256 says [0-9a-f]{64}/);
  assert.ok(!fs.existsSync(path.join(dir, 'root', 'bin', 'miauc')), 'the corrupt binary was installed');
  assert.ok(!fs.existsSync(path.join(dir, 'cargo.log')), 'a corrupt download was replaced by a build');
  fs.rmSync(dir, { recursive: true });
});

test('a platform or version without an archive is built instead', () => {
  const dir = tempDir();
  const releases = path.join(dir, 'releases');
  fakeRelease(releases, version, 'x86_64-unknown-linux-musl');
  const base = { MIAUC_RELEASES: `file://${releases}` };
  for (const vars of [
    { RUNNER_OS: 'Linux', RUNNER_ARCH: 'ARM' },
    { RUNNER_OS: 'Windows', RUNNER_ARCH: 'ARM64' },
    { RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64', MIAUC_VERSION: '0.0.1' },
  ]) {
    const run = install(['download'], { dir, vars: { ...base, ...vars } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'installed=false\n', JSON.stringify(vars));
    assert.match(run.stderr, /no release archive/);
  }
  fs.rmSync(dir, { recursive: true });
});

test('the build is the action checkout at its own version, else the crate of the version asked for', () => {
  const dir = tempDir();
  const root = path.join(dir, 'root');
  for (const [asked, expected] of [
    ['', `install --locked --root ${root} --path ${repo}`],
    [`v${version}`, `install --locked --root ${root} --path ${repo}`],
    ['0.0.1', `install --locked --root ${root} miauc --version =0.0.1`],
  ]) {
    fs.rmSync(path.join(dir, 'cargo.log'), { force: true });
    const run = install(['build'], { dir, vars: { MIAUC_VERSION: asked } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'cargo.log'), 'utf8'), `${expected}\n`, `version "${asked}"`);
  }
  fs.rmSync(dir, { recursive: true });
});

test('the archives come from the releases of the repository the action was taken from', () => {
  // The runner checks an action out under _actions/OWNER/NAME/REF/.
  const dir = tempDir();
  const copy = path.join(dir, '_actions', 'acme', 'miau-fork', 'v9', 'ci', 'pack-repo', 'install-miauc');
  fs.mkdirSync(copy, { recursive: true });
  fs.copyFileSync(script, path.join(copy, 'install.sh'));
  const expected = `https://github.com/acme/miau-fork/releases/download/v${version}/miauc-v${version}-aarch64-apple-darwin.tar.gz`;
  const run = install(['download'], { dir, curl: true, vars: { RUNNER_OS: 'macOS', RUNNER_ARCH: 'ARM64' } }, path.join(copy, 'install.sh'));
  assert.equal(run.stdout, 'installed=false\n', run.stderr);
  assert.equal(fs.readFileSync(path.join(dir, 'curl.log'), 'utf8').trim().split(' ').pop(), expected);
  // The repository input wins.
  fs.rmSync(path.join(dir, 'curl.log'));
  install(['download'], { dir, curl: true, vars: { RUNNER_OS: 'macOS', RUNNER_ARCH: 'ARM64', MIAUC_REPOSITORY: 'other/miau' } }, path.join(copy, 'install.sh'));
  assert.match(fs.readFileSync(path.join(dir, 'curl.log'), 'utf8'), /^.* https:\/\/github\.com\/other\/miau\/releases\/download\//);
  fs.rmSync(dir, { recursive: true });
});

test("the checkout's version is read from a Cargo.toml with CRLF line ends (a Windows checkout)", () => {
  const dir = tempDir();
  const source = path.join(dir, 'source');
  fs.mkdirSync(path.join(source, 'ci', 'release'), { recursive: true });
  fs.copyFileSync(names, path.join(source, 'ci', 'release', 'names.sh'));
  const manifest = fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8');
  fs.writeFileSync(path.join(source, 'Cargo.toml'), manifest.replace(/\n/g, '\r\n'));
  const releases = path.join(dir, 'releases');
  fakeRelease(releases, version, 'x86_64-pc-windows-msvc');
  const run = install(['download'], { dir, vars: { MIAUC_SOURCE: source, RUNNER_OS: 'Windows', RUNNER_ARCH: 'X64', MIAUC_RELEASES: `file://${releases}` } });
  assert.equal(run.stdout, 'installed=true\n', run.stderr);
  fs.rmSync(dir, { recursive: true });
});
