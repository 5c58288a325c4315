// The Miau extension: starts `miauc lsp` over stdio for .miau files.
// The server's own commands (the "Check" code lens) are registered by the
// language client; the palette commands below add the active document's URI
// that those commands need. The level preview (preview.js) is a webview
// drawn and played by the server's `miau/level` and `miau/step` requests: a
// "Preview level" lens is added beside each "Check" lens, and the "Replay
// solution" lens shows the route in the preview turn by turn.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const preview = require('./preview');

let client;

function activeMiau() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'miau') {
    vscode.window.showWarningMessage('Open a .miau file first.');
    return undefined;
  }
  return editor.document;
}

async function run(command, args) {
  const result = await client.sendRequest('workspace/executeCommand', { command, arguments: args });
  if (result && Array.isArray(result.levels)) {
    const failed = result.levels.filter((l) => l.passed === false);
    const summary = `${result.levels.length - failed.length} of ${result.levels.length} levels passed` +
      (result.cancelled ? ' (cancelled)' : '');
    if (failed.length) {
      vscode.window.showWarningMessage(`${summary}: ${failed.map((l) => `${l.level}: ${l.summary}`).join('; ')}`);
    } else {
      vscode.window.showInformationMessage(summary);
    }
  }
}

const refreshTimers = new Map();

/** The document and level a preview command is for: its arguments (from a
 * code lens), else the active document and a level picked from its ids. */
async function previewTarget(uri, level) {
  if (uri && level) return { uri: String(uri), level };
  const doc = activeMiau();
  if (!doc) return undefined;
  const ids = preview.levelIds(doc.getText());
  const picked = ids.length === 1 ? ids[0] : await vscode.window.showQuickPick(ids, { placeHolder: 'Level to preview' });
  return picked && { uri: doc.uri.toString(), level: picked };
}

function activate(context) {
  const config = vscode.workspace.getConfiguration('miau');
  const command = config.get('server.path') || 'miauc';
  const serverOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const docs = config.get('diagnosticsDocs');
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'miau' }, { scheme: 'untitled', language: 'miau' }],
    initializationOptions: docs ? { diagnosticsDocs: docs } : {},
    middleware: {
      async provideCodeLenses(document, token, next) {
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
      },
    },
  };
  client = new LanguageClient('miau', 'Miau language server', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand('miau.checkCurrentPack', () => {
      const doc = activeMiau();
      return doc && run('miau.checkPack', [doc.uri.toString()]);
    }),
    vscode.commands.registerCommand('miau.checkCurrentLevel', async () => {
      const doc = activeMiau();
      if (!doc) return undefined;
      const level = await vscode.window.showInputBox({ prompt: 'Level id' });
      return level && run('miau.checkLevel', [doc.uri.toString(), level]);
    }),
    vscode.commands.registerCommand('miau.cancelRunningCheck', () => run('miau.cancelCheck', [])),
    vscode.commands.registerCommand('miau.previewLevel', async (uri, level) => {
      const target = await previewTarget(uri, level);
      return target && preview.open(client, context.extensionUri, target.uri, target.level);
    }),
    vscode.commands.registerCommand('miau.previewReplay', async (uri, level) => {
      const target = await previewTarget(uri, level);
      if (!target) return undefined;
      const p = preview.open(client, context.extensionUri, target.uri, target.level);
      await p.refresh();
      return p.replay();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.languageId !== 'miau') return;
      const uri = e.document.uri.toString();
      clearTimeout(refreshTimers.get(uri));
      refreshTimers.set(uri, setTimeout(() => preview.refreshDocument(uri), 150));
    }),
    { dispose: () => client && client.stop() },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
