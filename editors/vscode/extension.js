// The Miau extension: starts `miauc lsp` over stdio for .miau files.
// The server's own commands (the "Check" and "Replay solution" code lenses)
// are registered by the language client; the palette commands below add the
// active document's URI that those commands need.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

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
    { dispose: () => client && client.stop() },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
