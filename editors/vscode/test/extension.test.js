// The extension without a real VS Code: package.json's contributions point at
// files that exist, `activate` (against a stubbed `vscode` module and a
// recording language client) registers every declared command and starts
// `miauc lsp` with the binary chosen in order (the setting, the carried
// miauc, PATH) and says why, the real language client accepts the output
// channels it is given, a missing binary gets an actionable message naming
// the setting, `npm run package` makes a .vsix of a few files whose bundle
// activates with nothing but `vscode` and Node, and `npm run package --
// --target linux-x64` packs a real miauc, executable and answering --version.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

// ---------------------------------------------------------------------------
// A stub of the parts of the `vscode` API the extension uses, recording calls.

/** VS Code's `LogLevel` enum. */
const LogLevel = { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 };

/**
 * An output channel as VS Code makes it: `createOutputChannel(name)` gives a
 * plain channel (text only), `createOutputChannel(name, { log: true })` a
 * log channel, which adds the levelled methods and `onDidChangeLogLevel`
 * that vscode-languageclient calls on the channels it is given.
 */
function outputChannel(name, options) {
  const lines = [];
  const plain = {
    name,
    lines,
    append(t) { lines.push(t); },
    appendLine(t) { lines.push(`${t}\n`); },
    replace(t) { lines.splice(0, lines.length, t); },
    clear() { lines.length = 0; },
    show() {},
    hide() {},
    dispose() {},
  };
  if (!(options && options.log === true)) return plain;
  const at = (level) => (message) => lines.push(`[${level}] ${message}\n`);
  return {
    ...plain,
    log: true,
    logLevel: LogLevel.Info,
    onDidChangeLogLevel: () => ({ dispose() {} }),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warning'),
    error: at('error'),
  };
}

function makeVscode({ settings = {}, editor } = {}) {
  const calls = { commands: new Map(), errors: [], warnings: [], infos: [], executed: [], picks: [], channels: [] };
  const item = { text: '', tooltip: '', shown: false, show() { this.shown = true; }, dispose() {} };
  const vscode = {
    calls,
    item,
    version: '1.91.0',
    LogLevel,
    StatusBarAlignment: { Left: 1, Right: 2 },
    window: {
      activeTextEditor: editor,
      createStatusBarItem: () => item,
      createOutputChannel: (name, options) => {
        const channel = outputChannel(name, options);
        calls.channels.push(channel);
        return channel;
      },
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
  // `main` is the bundle `npm run bundle` writes (checked inside the .vsix below).
  assert.equal(manifest.main, `./${/--outfile=(\S+)/.exec(manifest.scripts.bundle)[1]}`);
  const files = [
    ...c.languages.map((l) => l.configuration),
    ...c.grammars.map((g) => g.path),
    ...c.snippets.map((s) => s.path),
  ];
  assert.ok(files.length >= 3);
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

// ---------------------------------------------------------------------------
// Which miauc runs: the setting, else the one the extension carries, else PATH.

/** An installed extension's directory; with `server/miauc` of `mode` when one is given. */
function extensionDirWith(mode) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-extension-'));
  if (mode !== undefined) {
    fs.mkdirSync(path.join(dir, 'server'));
    fs.writeFileSync(path.join(dir, 'server', 'miauc'), '#!/bin/sh\nexit 0\n', { mode });
    fs.chmodSync(path.join(dir, 'server', 'miauc'), mode);
  }
  return dir;
}

/** Activates with `settings`, `PATH` set to `pathDir` and the extension in `extensionPath`;
 * gives the command the client was started with and the Miau output's text. */
async function activateWith({ settings = {}, pathDir, extensionPath }) {
  const saved = process.env.PATH;
  process.env.PATH = pathDir;
  try {
    const vscode = makeVscode({ settings });
    const client = makeClientModule();
    await loadExtension(vscode, client.module).activate({ subscriptions: [], extensionPath });
    const log = vscode.calls.channels.find((c) => c.name === 'Miau').lines.join('');
    return { command: client.made.length ? client.made[0].args.serverOptions.run.command : undefined, log, vscode };
  } finally {
    process.env.PATH = saved;
  }
}

test('the miauc the extension carries is run before one on PATH, and the output says so', async () => {
  const onPath = fakeBinary();
  const extensionPath = extensionDirWith(0o755);
  const bundled = path.join(extensionPath, 'server', 'miauc');
  const { command, log } = await activateWith({ pathDir: onPath.dir, extensionPath });
  assert.equal(command, bundled);
  assert.match(log, new RegExp(`Running ${bundled}: miau\\.server\\.path is not set, and this extension carries its own miauc`));
});

test('miau.server.path is run before the carried miauc and the one on PATH', async () => {
  const onPath = fakeBinary();
  const configured = fakeBinary();
  const { command, log } = await activateWith({
    settings: { 'miau.server.path': configured.bin },
    pathDir: onPath.dir,
    extensionPath: extensionDirWith(0o755),
  });
  assert.equal(command, configured.bin);
  assert.match(log, new RegExp(`Running ${configured.bin}: miau\\.server\\.path is set to "${configured.bin}"`));
});

test('a miau.server.path that does not exist is reported, not replaced by another miauc', async () => {
  const onPath = fakeBinary();
  const { command, log, vscode } = await activateWith({
    settings: { 'miau.server.path': '/nowhere/miauc' },
    pathDir: onPath.dir,
    extensionPath: extensionDirWith(0o755),
  });
  assert.equal(command, undefined);
  assert.match(log, /No miauc to run: miau\.server\.path is set to "\/nowhere\/miauc", which was not found/);
  assert.match(vscode.calls.errors[0].m, /\/nowhere\/miauc/);
});

test('without the setting or a carried miauc, miauc is found on PATH', async () => {
  const onPath = fakeBinary();
  const { command, log } = await activateWith({ pathDir: onPath.dir, extensionPath: extensionDirWith() });
  assert.equal(command, onPath.bin);
  assert.match(log, new RegExp(`Running ${onPath.bin}: .*this package carries no miauc for this platform, so miauc is taken from PATH`));
});

test('a carried miauc that is not executable is passed over for the one on PATH', async () => {
  const onPath = fakeBinary();
  const extensionPath = extensionDirWith(0o644);
  const { command, log } = await activateWith({ pathDir: onPath.dir, extensionPath });
  assert.equal(command, onPath.bin);
  assert.match(log, /the miauc this extension carries \(.*server\/miauc\) is not an executable file, so miauc is taken from PATH/);
});

test('with no miauc anywhere, the output says where it looked', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-empty-path-'));
  const { command, log, vscode } = await activateWith({ pathDir: empty, extensionPath: extensionDirWith() });
  assert.equal(command, undefined);
  assert.match(log, /No miauc to run: .*carries no miauc for this platform, so miauc is taken from PATH, where there is none/);
  assert.match(vscode.calls.errors[0].m, /platform/);
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
  const real = realClientModule(withFallback({}));
  assert.equal(typeof real.LanguageClient, 'function');
  assert.equal(real.TransportKind.stdio, 0);
});

/** vscode-languageclient/node from node_modules, loaded afresh against `vscode`. */
function realClientModule(vscode) {
  const dir = path.join(root, 'node_modules', 'vscode-languageclient') + path.sep;
  for (const key of Object.keys(require.cache)) {
    if (key.startsWith(dir)) delete require.cache[key];
  }
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscode;
    return original.call(this, request, parent, isMain);
  };
  try {
    return require('vscode-languageclient/node');
  } finally {
    Module._load = original;
  }
}

test('the language client logs into log channels, as vscode-languageclient 11 needs', async () => {
  const { bin } = fakeBinary();
  const vscode = makeVscode({ settings: { 'miau.server.path': bin } });
  const client = makeClientModule();
  await loadExtension(vscode, client.module).activate({ subscriptions: [] });
  const options = client.made[0].args.clientOptions;
  for (const key of ['outputChannel', 'traceOutputChannel']) {
    assert.ok(options[key] && options[key].log, `${key} is not made with createOutputChannel(name, { log: true })`);
  }
  // The real client, given the same options against the stubbed `vscode`:
  // its constructor, its logging, and the log-level hook it sets up when it
  // starts (where a plain channel throws "onDidChangeLogLevel is not a function").
  const { LanguageClient } = realClientModule(withFallback(vscode));
  const real = new LanguageClient('miau', 'Miau language server', client.made[0].args.serverOptions, options);
  assert.equal(typeof real.hookLogLevelChanged, 'function', 'the client no longer hooks log-level changes here');
  real.hookLogLevelChanged();
  real.info('started');
  real.error('failed', undefined, false);
  assert.ok(options.outputChannel.lines.some((l) => l.includes('started')));
});

/** An inert value: any member, call or `new` of it gives itself. */
const anything = new Proxy(function stub() {}, {
  get: (t, k) => (k === 'then' ? undefined : anything),
  apply: () => anything,
  construct: () => anything,
});

/** The stub's members (at any depth), and `anything` for what the stub leaves out. */
function withFallback(stub) {
  return new Proxy(stub, {
    get: (t, k) => {
      if (!(k in t)) return anything;
      const v = t[k];
      return v && typeof v === 'object' && !Array.isArray(v) ? withFallback(v) : v;
    },
  });
}

// ---------------------------------------------------------------------------
// The packaged extension: `npm run package`, the documented command, then the
// .vsix read back (a zip) and its bundle activated against the stub.

/** The entries of a zip archive: `name -> Buffer` (stored or deflated); `modes`
 * holds each entry's Unix mode from the central directory. */
function unzip(buffer) {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'not a zip archive');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = new Map();
  entries.modes = new Map();
  for (let i = 0; i < count; i += 1) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, 'a broken central directory');
    const method = buffer.readUInt16LE(at + 10);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(start, start + size);
    entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    entries.modes.set(name, buffer.readUInt32LE(at + 38) >>> 16);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Runs the documented packaging command into a temporary directory, once. */
let vsixEntries;
function packageVsix() {
  if (vsixEntries) return vsixEntries;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-vsix-'));
  const vsix = path.join(dir, 'miau.vsix');
  execFileSync('npm', ['run', 'package', '--', '--out', vsix], { cwd: root, stdio: 'pipe' });
  vsixEntries = unzip(fs.readFileSync(vsix));
  return vsixEntries;
}

test('npm run package makes a .vsix of a handful of files around one bundle', () => {
  const entries = packageVsix();
  const names = [...entries.keys()].sort();
  assert.ok(names.length < 30, `the .vsix holds ${names.length} files: ${names.join(', ')}`);
  const main = `extension/${path.posix.normalize(manifest.main)}`;
  for (const f of [main, 'extension/package.json', 'extension/language-configuration.json',
    'extension/syntaxes/miau.tmLanguage.json', 'extension/snippets/miau.json', 'extension/media/preview.html',
    'extension/media/preview.js']) {
    assert.ok(entries.has(f), `${f} is not in the .vsix (it holds ${names.join(', ')})`);
  }
  assert.ok(!names.some((n) => n.includes('node_modules/')), 'node_modules are packaged beside the bundle');
  assert.ok(!names.some((n) => n.startsWith('extension/test/')), 'tests are packaged');
  assert.ok(!names.some((n) => n.startsWith('extension/lib/')), 'sources are packaged beside the bundle');
  assert.deepEqual(names.filter((n) => n.endsWith('.js')), ['extension/dist/extension.js', 'extension/media/preview.js']
    .sort(), 'JavaScript besides the bundle and the webview script');
  // The bundle carries the language client (no node_modules beside it).
  const bundle = entries.get(main).toString('utf8');
  assert.ok(bundle.includes('onDidChangeLogLevel'), 'the language client is not in the bundle');
  assert.equal(JSON.parse(entries.get('extension/package.json')).main, manifest.main);
  assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@vscode/vsce/package.json'), 'utf8')).version,
    manifest.devDependencies['@vscode/vsce']);
  assert.match(manifest.devDependencies['@vscode/vsce'], /^3\.9\.\d+$/);
});

test('the packaged bundle activates needing only vscode and Node built-ins', async () => {
  const entries = packageVsix();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-bundle-'));
  const file = path.join(dir, 'extension.js');
  fs.writeFileSync(file, entries.get(`extension/${path.posix.normalize(manifest.main)}`));
  const vscode = makeVscode({ settings: { 'miau.server.path': 'no-such-miauc-binary' } });
  const required = new Set();
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (parent && parent.filename === file) required.add(request);
    if (request === 'vscode') return withFallback(vscode);
    return original.call(this, request, parent, isMain);
  };
  let ext;
  try {
    ext = require(file);
  } finally {
    Module._load = original;
  }
  const outside = [...required].filter((r) => r !== 'vscode' && !Module.isBuiltin(r));
  assert.deepEqual(outside, [], 'the bundle requires modules it does not carry');
  await ext.activate({ subscriptions: [] });
  assert.deepEqual([...vscode.calls.commands.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  assert.equal(vscode.calls.errors.length, 1);
  assert.match(vscode.calls.errors[0].m, /no-such-miauc-binary/);
});

// ---------------------------------------------------------------------------
// Platform-specific packages: `npm run package -- --target T` with the
// target's miauc in server/, run in a copy of the extension so that the
// binary placed there is the test's own.

const packageScript = require('../scripts/package');

/**
 * The real miauc these tests pack: `$MIAU_SERVER_BINARY`, else the
 * repository's debug build. Fails saying how to get one when there is none.
 */
function realMiauc() {
  const file = process.env.MIAU_SERVER_BINARY || path.join(root, '..', '..', 'target', 'debug', 'miauc');
  assert.ok(fs.existsSync(file), `no miauc at ${file}: build it (cargo build --bin miauc in the repository) or set MIAU_SERVER_BINARY`);
  return file;
}

/** A copy of the extension's sources (node_modules linked, not copied) in a temporary directory. */
function extensionCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'miau-extension-copy-'));
  const skip = new Set(['node_modules', 'dist', 'server', 'test', 'test-output']);
  for (const name of fs.readdirSync(root)) {
    if (skip.has(name) || name.endsWith('.vsix')) continue;
    fs.cpSync(path.join(root, name), path.join(dir, name), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** `npm run package -- args…` in `dir`; the .vsix's entries, or the failure's output. */
function packageIn(dir, args) {
  const vsix = path.join(dir, 'out.vsix');
  fs.rmSync(vsix, { force: true });
  try {
    execFileSync('npm', ['run', 'package', '--', ...args, '--out', vsix], { cwd: dir, stdio: 'pipe' });
  } catch (e) {
    return { failed: `${e.stdout}${e.stderr}` };
  }
  return { entries: unzip(fs.readFileSync(vsix)) };
}

/** The first bytes of executables: ELF, Mach-O and PE for a machine number. */
function elfHeader(machine) {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b[5] = 1;
  b.writeUInt16LE(machine, 18);
  return b;
}

function machoHeader(cpu) {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}

function peHeader(machine) {
  const b = Buffer.alloc(256);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(128, 60);
  b.writeUInt32BE(0x50450000, 128);
  b.writeUInt16LE(machine, 132);
  return b;
}

let targetPackage;
/** The linux-x64 package of a copy of the extension with the real miauc in server/, made once. */
function linuxX64Package() {
  if (targetPackage) return targetPackage;
  const dir = extensionCopy();
  fs.mkdirSync(path.join(dir, 'server'));
  // Copied without its executable bit: packaging sets it.
  fs.writeFileSync(path.join(dir, 'server', 'miauc'), fs.readFileSync(realMiauc()), { mode: 0o644 });
  targetPackage = { dir, ...packageIn(dir, ['--target', 'linux-x64']) };
  assert.ok(targetPackage.entries, `npm run package -- --target linux-x64 failed:\n${targetPackage.failed}`);
  return targetPackage;
}

test('the linux-x64 .vsix carries an executable miauc that answers --version', () => {
  const { entries } = linuxX64Package();
  const binary = entries.get('extension/server/miauc');
  assert.ok(binary, `no extension/server/miauc in the .vsix (it holds ${[...entries.keys()].join(', ')})`);
  const mode = entries.modes.get('extension/server/miauc');
  assert.equal(mode & 0o111, 0o111, `server/miauc is packed with mode ${mode.toString(8)}, not executable`);
  // Unpacked as VS Code does, with the mode the archive records.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'miau-unpacked-')), 'miauc');
  fs.writeFileSync(file, binary, { mode: mode & 0o777 });
  const version = execFileSync(file, ['--version'], { encoding: 'utf8' });
  assert.match(version, /^miauc \d+\.\d+\.\d+/);
  assert.match(entries.get('extension.vsixmanifest').toString('utf8'), /TargetPlatform="linux-x64"/);
});

test('the linux-x64 .vsix holds under 30 files besides the binary, and no other server', () => {
  const { entries } = linuxX64Package();
  const names = [...entries.keys()].filter((n) => n !== 'extension/server/miauc');
  assert.ok(names.length < 30, `the .vsix holds ${names.length} files besides miauc: ${names.join(', ')}`);
  assert.deepEqual(names.filter((n) => n.startsWith('extension/server/')), []);
  assert.ok(entries.has(`extension/${path.posix.normalize(manifest.main)}`));
});

test('without --target the package carries no miauc, even with one in server/', () => {
  const { dir } = linuxX64Package();
  const { entries, failed } = packageIn(dir, []);
  assert.ok(entries, `npm run package failed:\n${failed}`);
  assert.deepEqual([...entries.keys()].filter((n) => n.includes('server/')), []);
  assert.doesNotMatch(entries.get('extension.vsixmanifest').toString('utf8'), /TargetPlatform=/);
});

test('a target package refuses a missing server or one built for another platform', () => {
  const dir = extensionCopy();
  const missing = packageIn(dir, ['--target', 'linux-x64']);
  assert.match(missing.failed || '', /no linux-x64 package: .*server\/miauc can't be read .*put the linux-x64 build of miauc there/);
  fs.mkdirSync(path.join(dir, 'server'));
  fs.writeFileSync(path.join(dir, 'server', 'miauc.exe'), elfHeader(62));
  const wrong = packageIn(dir, ['--target=win32-x64']);
  assert.match(wrong.failed || '', /server\/miauc\.exe is elf for machine 0x3e, where win32-x64 needs pe for machine 0x8664/);
  const web = packageIn(dir, ['--target', 'web']);
  assert.match(web.failed || '', /the target web has no native miauc/);
});

test('the header check knows each target\'s executable format', () => {
  const headers = {
    'linux-x64': elfHeader(62),
    'linux-arm64': elfHeader(183),
    'darwin-x64': machoHeader(0x01000007),
    'darwin-arm64': machoHeader(0x0100000c),
    'win32-x64': peHeader(0x8664),
  };
  for (const [target, header] of Object.entries(headers)) {
    assert.deepEqual(packageScript.binaryKind(header), packageScript.TARGET_FORMATS[target], target);
  }
  assert.equal(packageScript.binaryKind(Buffer.from('#!/bin/sh\n')), undefined);
  assert.equal(packageScript.serverFileName('win32-x64'), 'miauc.exe');
  assert.equal(packageScript.serverFileName('darwin-arm64'), 'miauc');
  assert.deepEqual(packageScript.splitTarget(['--out', 'x', '--target', 'linux-arm64']), { target: 'linux-arm64', rest: ['--out', 'x'] });
});
