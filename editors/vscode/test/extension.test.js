// The extension without a real VS Code: package.json's contributions point at
// files that exist, `activate` (against a stubbed `vscode` module and a
// recording language client) registers every declared command and starts
// `miauc lsp` with the configured binary, and a missing binary gets an
// actionable message naming the setting.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

// ---------------------------------------------------------------------------
// A stub of the parts of the `vscode` API the extension uses, recording calls.

function makeVscode({ settings = {}, editor } = {}) {
  const calls = { commands: new Map(), errors: [], warnings: [], infos: [], executed: [], picks: [] };
  const item = { text: '', tooltip: '', shown: false, show() { this.shown = true; }, dispose() {} };
  const vscode = {
    calls,
    item,
    StatusBarAlignment: { Left: 1, Right: 2 },
    window: {
      activeTextEditor: editor,
      createStatusBarItem: () => item,
      createOutputChannel: () => ({ lines: [], append(t) { this.lines.push(t); }, appendLine(t) { this.lines.push(t + '\n'); }, show() {}, dispose() {} }),
      showErrorMessage: async (m, ...buttons) => { calls.errors.push({ m, buttons }); return undefined; },
      showWarningMessage: async (m) => { calls.warnings.push(m); },
      showInformationMessage: async (m) => { calls.infos.push(m); },
      showQuickPick: async (items) => { calls.picks.push(items.map((i) => i.label)); return items[0]; },
      showInputBox: async () => undefined,
    },
    workspace: {
      getConfiguration: (section) => ({
        get: (key) => settings[`${section}.${key}`],
      }),
      onDidChangeConfiguration: () => ({ dispose() {} }),
      onDidChangeTextDocument: () => ({ dispose() {} }),
      getWorkspaceFolder: () => undefined,
    },
    commands: {
      registerCommand: (id, fn) => {
        assert.ok(!calls.commands.has(id), `${id} registered twice`);
        calls.commands.set(id, fn);
        return { dispose() {} };
      },
      executeCommand: async (...args) => { calls.executed.push(args); },
    },
  };
  return vscode;
}

// A language client that records how it was made and what it was asked.
function makeClientModule(responses = {}) {
  const made = [];
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      this.args = { id, name, serverOptions, clientOptions };
      this.requests = [];
      this.started = false;
      made.push(this);
    }
    start() { this.started = true; return Promise.resolve(); }
    stop() { return Promise.resolve(); }
    sendRequest(method, params) {
      this.requests.push({ method, params });
      return Promise.resolve(responses[params.command]);
    }
  }
  return { made, module: { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } } };
}

// Loads extension.js fresh with `vscode` and the client module replaced.
function loadExtension(vscode, clientModule) {
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'vscode-languageclient/node') return clientModule;
    return original.call(this, request, parent, isMain);
  };
  try {
    for (const key of Object.keys(require.cache)) {
      if (key.startsWith(root) && !key.includes('node_modules')) delete require.cache[key];
    }
    return require(path.join(root, 'extension.js'));
  } finally {
    Module._load = original;
  }
}

// An executable stand-in for miauc (never run by these tests).
function fakeBinary() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-vscode-'));
  const bin = path.join(dir, 'miauc');
  fs.writeFileSync(bin, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return { dir, bin };
}

function miauEditor(text, line = 0) {
  return {
    document: {
      languageId: 'miau',
      uri: { toString: () => 'file:///packs/p.miau', fsPath: '/packs/p.miau' },
      fileName: '/packs/p.miau',
      getText: () => text,
      isUntitled: false,
      isDirty: false,
    },
    selection: { active: { line } },
  };
}

// ---------------------------------------------------------------------------

test('every contribution points at a file that exists', () => {
  const c = manifest.contributes;
  const files = [
    manifest.main,
    ...c.languages.map((l) => l.configuration),
    ...c.grammars.map((g) => g.path),
    ...c.snippets.map((s) => s.path),
  ];
  assert.ok(files.length >= 4);
  for (const f of files) {
    assert.ok(f, 'an empty path in package.json');
    assert.ok(fs.existsSync(path.join(root, f)), `package.json names ${f}, which does not exist`);
  }
  for (const f of [...c.languages.map((l) => l.configuration), ...c.grammars.map((g) => g.path)]) {
    JSON.parse(fs.readFileSync(path.join(root, f), 'utf8'));
  }
  assert.deepEqual(c.grammars.map((g) => g.language), c.languages.map((l) => l.id));
});

test('the snippets cover a pack, a level, a board and a mechanics block', () => {
  const snippets = JSON.parse(fs.readFileSync(path.join(root, manifest.contributes.snippets[0].path), 'utf8'));
  const prefixes = Object.values(snippets).map((s) => s.prefix);
  for (const p of ['pack', 'level', 'board', 'mechanics']) {
    assert.ok(prefixes.includes(p), `no ${p} snippet`);
  }
  for (const [name, s] of Object.entries(snippets)) {
    assert.ok(Array.isArray(s.body) && s.body.length > 0, `${name} has no body`);
    assert.ok(s.description, `${name} has no description`);
  }
  // The level snippet's board is a real board: every row as wide as the first.
  const rows = snippets.level.body.filter((l) => /^ {4}\S/.test(l)).map((l) => l.trim().split(/\s+/).length);
  assert.ok(rows.length >= 2 && rows.every((n) => n === rows[0]), `ragged snippet board: ${rows}`);
});

test('every declared command is registered by activate, and no other', async () => {
  const { bin } = fakeBinary();
  const vscode = makeVscode({ settings: { 'miau.server.path': bin } });
  const client = makeClientModule();
  const ext = loadExtension(vscode, client.module);
  await ext.activate({ subscriptions: [] });
  const declared = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...vscode.calls.commands.keys()].sort(), declared);
  assert.deepEqual([...ext.COMMANDS].sort(), declared);
  for (const m of manifest.contributes.menus.commandPalette) {
    assert.ok(declared.includes(m.command), `menu names undeclared ${m.command}`);
  }
  for (const c of manifest.contributes.commands) {
    assert.equal(c.category, 'Miau', `${c.command} has no Miau category`);
  }
});

test('activate starts the client with the configured server command', async () => {
  const { bin } = fakeBinary();
  const vscode = makeVscode({ settings: { 'miau.server.path': bin, 'miau.diagnosticsDocs': 'https://x/docs.md' } });
  const client = makeClientModule();
  const ext = loadExtension(vscode, client.module);
  await ext.activate({ subscriptions: [] });
  assert.equal(client.made.length, 1);
  const c = client.made[0];
  assert.ok(c.started, 'the client was not started');
  assert.equal(c.args.id, 'miau');
  for (const mode of ['run', 'debug']) {
    assert.equal(c.args.serverOptions[mode].command, bin);
    assert.deepEqual(c.args.serverOptions[mode].args, ['lsp']);
    assert.equal(c.args.serverOptions[mode].transport, client.module.TransportKind.stdio);
  }
  assert.deepEqual(c.args.clientOptions.documentSelector.map((s) => s.language), ['miau', 'miau']);
  assert.deepEqual(c.args.clientOptions.initializationOptions, { diagnosticsDocs: 'https://x/docs.md' });
  assert.deepEqual(vscode.calls.errors, []);
});

test('the default server command is miauc found on PATH', async () => {
  const { dir, bin } = fakeBinary();
  const saved = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${saved}`;
  try {
    const vscode = makeVscode();
    const client = makeClientModule();
    await loadExtension(vscode, client.module).activate({ subscriptions: [] });
    assert.equal(client.made[0].args.serverOptions.run.command, bin);
  } finally {
    process.env.PATH = saved;
  }
});

test('a missing miauc gets a message naming the setting, and no client', async () => {
  const vscode = makeVscode({ settings: { 'miau.server.path': 'no-such-miauc-binary' }, editor: miauEditor('') });
  const client = makeClientModule();
  const ext = loadExtension(vscode, client.module);
  await ext.activate({ subscriptions: [] });
  assert.equal(client.made.length, 0, 'a client was started for a missing binary');
  assert.equal(vscode.calls.errors.length, 1);
  const { m, buttons } = vscode.calls.errors[0];
  assert.match(m, /no-such-miauc-binary/);
  assert.match(m, /miau\.server\.path/);
  assert.match(m, /cargo install/);
  assert.deepEqual(buttons, ['Open Settings']);
  // The commands still answer, with the same message.
  await vscode.calls.commands.get('miau.checkCurrentPack')();
  await vscode.calls.commands.get('miau.buildPack')();
  assert.equal(vscode.calls.errors.length, 3);
  assert.match(vscode.item.tooltip, /miau\.server\.path/);
});

test('Check pack asks the server and shows the result in the status bar', async () => {
  const { bin } = fakeBinary();
  const result = {
    levels: [
      { level: 'a', passed: true, summary: 'solved in 3' },
      { level: 'b', passed: false, summary: 'UNSOLVED' },
    ],
  };
  const vscode = makeVscode({ settings: { 'miau.server.path': bin }, editor: miauEditor('level a {\n}\n') });
  const client = makeClientModule({ 'miau.checkPack': result });
  const ext = loadExtension(vscode, client.module);
  await ext.activate({ subscriptions: [] });
  assert.ok(vscode.item.shown);
  await vscode.calls.commands.get('miau.checkCurrentPack')();
  assert.deepEqual(client.made[0].requests, [
    { method: 'workspace/executeCommand', params: { command: 'miau.checkPack', arguments: ['file:///packs/p.miau'] } },
  ]);
  assert.match(vscode.item.text, /1 of 2 levels passed/);
  assert.match(vscode.item.text, /\$\(error\)/);
  assert.match(vscode.item.tooltip, /b: UNSOLVED/);
  assert.equal(vscode.calls.warnings.length, 1);
});

test('Check level and Replay level offer the level under the cursor first', async () => {
  const { bin } = fakeBinary();
  const text = 'pack p {\n}\nlevel one {\n  board {\n  }\n}\nlevel two {\n  title "x"\n}\n';
  const vscode = makeVscode({ settings: { 'miau.server.path': bin }, editor: miauEditor(text, 7) });
  const client = makeClientModule({
    'miau.checkLevel': { levels: [{ level: 'two', passed: true, summary: 'ok' }] },
    'miau.replaySolution': 'turn 1 …\nresult: WIN',
  });
  const ext = loadExtension(vscode, client.module);
  await ext.activate({ subscriptions: [] });
  await vscode.calls.commands.get('miau.checkCurrentLevel')();
  assert.deepEqual(vscode.calls.picks[0], ['two', 'one']);
  assert.deepEqual(client.made[0].requests[0].params, {
    command: 'miau.checkLevel',
    arguments: ['file:///packs/p.miau', 'two'],
  });
  assert.match(vscode.item.text, /\$\(pass\) Miau: 1 of 1 level passed/);
  const replay = await vscode.calls.commands.get('miau.replayLevel')();
  assert.equal(replay, 'turn 1 …\nresult: WIN');
  assert.deepEqual(client.made[0].requests[1].params, {
    command: 'miau.replaySolution',
    arguments: ['file:///packs/p.miau', 'two'],
  });
});

test('the pinned language client is the current line and has the API used', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const installed = lock.packages['node_modules/vscode-languageclient'].version;
  assert.equal(installed, manifest.dependencies['vscode-languageclient']);
  assert.match(installed, /^11\./);
  // The client's engine requirement is within the extension's.
  const clientEngine = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules/vscode-languageclient/package.json'), 'utf8'),
  ).engines.vscode;
  assert.equal(clientEngine, manifest.engines.vscode);
  // The real module loads against a stub `vscode` and exports what extension.js uses.
  const anything = new Proxy(function stub() {}, { get: (t, k) => (k === 'then' ? undefined : anything) });
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return anything;
    return original.call(this, request, parent, isMain);
  };
  try {
    const real = require('vscode-languageclient/node');
    assert.equal(typeof real.LanguageClient, 'function');
    assert.equal(real.TransportKind.stdio, 0);
  } finally {
    Module._load = original;
  }
});

test('vsce packages the runtime files and the client, not the tests', () => {
  const vsce = path.join(root, 'node_modules', '.bin', 'vsce');
  const files = execFileSync(vsce, ['ls'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  for (const f of ['extension.js', 'lib/miauc.js', 'lib/levels.js', 'lib/status.js', 'snippets/miau.json',
    'syntaxes/miau.tmLanguage.json', 'language-configuration.json', 'LICENSE', 'README.md',
    'node_modules/vscode-languageclient/package.json']) {
    assert.ok(files.includes(f), `${f} is not packaged`);
  }
  assert.ok(!files.some((f) => f.startsWith('test/')), 'tests are packaged');
  assert.ok(!files.some((f) => f.startsWith('node_modules/@vscode/vsce')), 'vsce itself is packaged');
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@vscode/vsce/package.json'), 'utf8')).version,
    manifest.devDependencies['@vscode/vsce']);
  assert.match(manifest.devDependencies['@vscode/vsce'], /^3\.9\.\d+$/);
});
