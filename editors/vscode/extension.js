// The Miau extension: starts `miauc lsp` over stdio for .miau files and adds
// palette commands around it. The `miauc` it runs is the `miau.server.path`
// setting, else the one a platform package carries in server/, else the one
// on PATH (lib/miauc.js); the Miau output says which. The server's own
// commands (the "Check" and "Replay solution" code lenses) are registered by
// the language client; the palette commands below add the document URI and
// level id those commands need, and show their results. The level preview
// (preview.js) is a webview drawn and played by the server's `miau/level`
// and `miau/step` requests: a "Preview level" lens is added beside each
// "Check" lens, and the "Replay solution" lens plays the route in the
// preview turn by turn.
'use strict';

const path = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const miauc = require('./lib/miauc');
const { levels, levelAt } = require('./lib/levels');
const { createStatus } = require('./lib/status');
const preview = require('./preview');

/** Every command this extension registers (package.json declares the same). */
const COMMANDS = [
  'miau.checkCurrentPack',
  'miau.checkCurrentLevel',
  'miau.cancelRunningCheck',
  'miau.buildPack',
  'miau.replayLevel',
  'miau.previewLevel',
  'miau.previewReplay',
];

let client;
let status;
let output;
let serverLog;
/** The miauc this window runs, from `miauc.resolveServer` at activation. */
let server;

function activeMiau() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'miau') {
    vscode.window.showWarningMessage('Miau: open a .miau file first.');
    return undefined;
  }
  return editor;
}

/** Says the binary is missing, with a button that opens the setting. */
async function reportMissing(command) {
  status.failed(miauc.notFoundMessage(command));
  const choice = await vscode.window.showErrorMessage(miauc.notFoundMessage(command), 'Open Settings');
  if (choice === 'Open Settings') {
    await vscode.commands.executeCommand('workbench.action.openSettings', miauc.SETTING);
  }
}

/** The client, or undefined (and the reason shown) when there is none. */
function liveClient() {
  if (!client) {
    reportMissing(server.command);
    return undefined;
  }
  return client;
}

/** Asks for a level of the document, the one under the cursor first. */
async function pickLevel(editor) {
  const text = editor.document.getText();
  const all = levels(text);
  if (all.length === 0) {
    vscode.window.showWarningMessage('Miau: this file has no level.');
    return undefined;
  }
  const here = levelAt(text, editor.selection.active.line);
  const ordered = here ? [here, ...all.filter((l) => l.id !== here.id)] : all;
  const picked = await vscode.window.showQuickPick(
    ordered.map((l) => ({ label: l.id, description: `line ${l.line + 1}` })),
    { placeHolder: 'Level' },
  );
  return picked && picked.label;
}

async function check(command, args, what) {
  const c = liveClient();
  if (!c) return undefined;
  status.running(what);
  let result;
  try {
    result = await c.sendRequest('workspace/executeCommand', { command, arguments: args });
  } catch (err) {
    status.failed(String(err && err.message ? err.message : err));
    throw err;
  }
  const s = status.show(result, what);
  if (s.failed.length) {
    vscode.window.showWarningMessage(
      `Miau: ${s.text}: ${s.failed.map((l) => `${l.level}: ${l.summary}`).join('; ')}`,
    );
  } else {
    vscode.window.showInformationMessage(`Miau: ${s.text}`);
  }
  return result;
}

async function checkPack() {
  const editor = activeMiau();
  if (!editor) return undefined;
  return check('miau.checkPack', [editor.document.uri.toString()], path.basename(editor.document.fileName));
}

async function checkLevel() {
  const editor = activeMiau();
  if (!editor) return undefined;
  const level = await pickLevel(editor);
  return level && check('miau.checkLevel', [editor.document.uri.toString(), level], level);
}

function cancelCheck() {
  const c = liveClient();
  return c && c.sendRequest('workspace/executeCommand', { command: 'miau.cancelCheck', arguments: [] });
}

/** `miauc build FILE -o DIR`: the pack JSON the game loads, from the saved file. */
async function buildPack() {
  const editor = activeMiau();
  if (!editor) return undefined;
  const doc = editor.document;
  if (doc.isUntitled) {
    vscode.window.showWarningMessage('Miau: save the pack before building it.');
    return undefined;
  }
  if (doc.isDirty) await doc.save();
  const bin = server.path;
  if (!bin) {
    await reportMissing(server.command);
    return undefined;
  }
  const configured = vscode.workspace.getConfiguration('miau').get('build.outDir') || '';
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  const base = folder ? folder.uri.fsPath : path.dirname(doc.fileName);
  const out = configured ? path.resolve(base, configured) : path.dirname(doc.fileName);
  const args = ['build', doc.fileName, '-o', out];
  output.appendLine(`$ ${bin} ${args.join(' ')}`);
  const r = await miauc.run(bin, args, base);
  if (r.stdout) output.append(r.stdout);
  if (r.stderr) output.append(r.stderr);
  if (r.code === 0) {
    vscode.window.showInformationMessage(`Miau: built ${path.basename(doc.fileName)} into ${out}`);
  } else {
    output.show(true);
    vscode.window.showErrorMessage(`Miau: the build failed (exit ${r.code}); see the Miau output.`);
  }
  return r;
}

/** Plays a level's recorded solution turn by turn into the Miau output. */
async function replayLevel() {
  const editor = activeMiau();
  if (!editor) return undefined;
  const c = liveClient();
  if (!c) return undefined;
  const level = await pickLevel(editor);
  if (!level) return undefined;
  const text = await c.sendRequest('workspace/executeCommand', {
    command: 'miau.replaySolution',
    arguments: [editor.document.uri.toString(), level],
  });
  if (typeof text !== 'string') {
    vscode.window.showWarningMessage(`Miau: level ${level} has no recorded solution to replay, or has errors.`);
    return undefined;
  }
  output.appendLine(`── replay of ${level} ──`);
  output.appendLine(text);
  output.show(true);
  return text;
}

/** The document and level a preview command is for: its arguments (from a
 * code lens), else the active document and a level picked from it. */
async function previewTarget(uri, level) {
  if (uri && level) return { uri: String(uri), level };
  const editor = activeMiau();
  if (!editor) return undefined;
  const picked = await pickLevel(editor);
  return picked && { uri: editor.document.uri.toString(), level: picked };
}

/** Opens (or shows) the playable preview of a level. */
async function previewLevel(extensionUri, uri, level) {
  const c = liveClient();
  if (!c) return undefined;
  const target = await previewTarget(uri, level);
  return target && preview.open(c, extensionUri, target.uri, target.level);
}

/** Opens the preview and plays the level's recorded solution in it. */
async function previewReplay(extensionUri, uri, level) {
  const p = await previewLevel(extensionUri, uri, level);
  if (!p) return undefined;
  await p.refresh();
  return p.replay();
}

/** Code lenses as the server sends them, plus a "Preview level" lens beside
 * each "Check" lens; "Replay solution" opens the preview instead of the log. */
async function provideCodeLenses(document, token, next) {
  const lenses = (await next(document, token)) || [];
  const out = [];
  for (const lens of lenses) {
    const c = lens.command;
    if (c && c.command === 'miau.replaySolution') {
      out.push(new vscode.CodeLens(lens.range, { ...c, command: 'miau.previewReplay' }));
      continue;
    }
    out.push(lens);
    if (c && c.command === 'miau.checkLevel') {
      out.push(new vscode.CodeLens(lens.range, {
        title: 'Preview level',
        command: 'miau.previewLevel',
        arguments: c.arguments,
      }));
    }
  }
  return out;
}

const refreshTimers = new Map();

/** The installed extension's directory (undefined where the host gives none). */
function extensionDir(context) {
  return context.extensionPath || (context.extensionUri && context.extensionUri.fsPath);
}

/** Finds the miauc to run and says in the Miau output which one and why. */
function chooseServer(context, config) {
  const dir = extensionDir(context);
  const chosen = miauc.resolveServer({
    setting: config.get('server.path') || '',
    bundled: dir ? miauc.bundledPath(dir) : undefined,
  });
  output.appendLine(chosen.path
    ? `Running ${chosen.path}: ${chosen.reason}.`
    : `No miauc to run: ${chosen.reason}.`);
  return chosen;
}

function activate(context) {
  const config = vscode.workspace.getConfiguration('miau');
  output = vscode.window.createOutputChannel('Miau');
  // The language client logs and traces through a log channel: it calls
  // `info`, `error`, `trace` and `onDidChangeLogLevel` on it, which a plain
  // channel lacks. Build output and replays stay in the plain "Miau" channel.
  serverLog = vscode.window.createOutputChannel('Miau language server', { log: true });
  status = createStatus(vscode);
  context.subscriptions.push(
    output,
    serverLog,
    status.item,
    vscode.commands.registerCommand('miau.checkCurrentPack', checkPack),
    vscode.commands.registerCommand('miau.checkCurrentLevel', checkLevel),
    vscode.commands.registerCommand('miau.cancelRunningCheck', cancelCheck),
    vscode.commands.registerCommand('miau.buildPack', buildPack),
    vscode.commands.registerCommand('miau.replayLevel', replayLevel),
    vscode.commands.registerCommand('miau.previewLevel', (uri, level) => previewLevel(context.extensionUri, uri, level)),
    vscode.commands.registerCommand('miau.previewReplay', (uri, level) => previewReplay(context.extensionUri, uri, level)),
    // Previews redraw as the author types (debounced per document).
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId !== 'miau') return;
      const uri = e.document.uri.toString();
      clearTimeout(refreshTimers.get(uri));
      refreshTimers.set(uri, setTimeout(() => preview.refreshDocument(uri), 150));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(miauc.SETTING)) {
        vscode.window.showInformationMessage('Miau: reload the window to use the new miauc path.');
      }
    }),
  );
  status.item.show();

  server = chooseServer(context, config);
  const bin = server.path;
  if (!bin) {
    client = undefined;
    reportMissing(server.command);
    return undefined;
  }
  const serverOptions = {
    run: { command: bin, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command: bin, args: ['lsp'], transport: TransportKind.stdio },
  };
  const docs = config.get('diagnosticsDocs');
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'miau' },
      { scheme: 'untitled', language: 'miau' },
    ],
    initializationOptions: docs ? { diagnosticsDocs: docs } : {},
    outputChannel: serverLog,
    traceOutputChannel: serverLog,
    middleware: { provideCodeLenses },
  };
  client = new LanguageClient('miau', 'Miau language server', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, COMMANDS };
