// The level preview panel on the extension side: one webview per document
// and level, fed by the language server's `miau/level` and `miau/step`.
'use strict';

const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

/** Turn-by-turn replay speed, in milliseconds per turn. */
const REPLAY_MS = 350;

/** The webview's HTML: the media/preview.html template, filled in. */
function html(webview, extensionUri) {
  const nonce = crypto.randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'preview.js'));
  const csp = `default-src 'none'; img-src data: ${webview.cspSource}; style-src 'unsafe-inline' ${webview.cspSource}; script-src 'nonce-${nonce}'`;
  const template = fs.readFileSync(path.join(extensionUri.fsPath, 'media', 'preview.html'), 'utf8');
  return template.replace('{{csp}}', csp).replace('{{nonce}}', nonce).replace('{{script}}', script.toString());
}

class Preview {
  constructor(client, extensionUri, uri, level) {
    this.client = client;
    this.uri = uri;
    this.level = level;
    this.route = '';
    this.solution = null;
    this.replaying = null;
    this.panel = vscode.window.createWebviewPanel('miau.preview', `Preview ${level}`, vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media')],
    });
    this.panel.webview.html = html(this.panel.webview, extensionUri);
    this.panel.webview.onDidReceiveMessage((m) => this.onMessage(m));
    this.panel.onDidDispose(() => this.dispose());
  }

  post(view) {
    this.route = view.route;
    this.solution = view.solution;
    this.panel.title = `Preview ${view.level}`;
    this.panel.webview.postMessage({ type: 'view', view });
  }

  async request(method, params) {
    try {
      this.post(await this.client.sendRequest(method, { uri: this.uri, level: this.level, ...params }));
    } catch (e) {
      this.panel.webview.postMessage({ type: 'error', message: String(e.message || e) });
    }
  }

  /** Redraws after an edit: the same route on the new text. */
  refresh() {
    return this.request('miau/level', { moves: this.route });
  }

  stopReplay() {
    if (this.replaying) clearTimeout(this.replaying);
    this.replaying = null;
  }

  /** Shows the recorded solution turn by turn from reset. */
  async replay() {
    this.stopReplay();
    await this.request('miau/level', { moves: '' });
    const route = this.solution || '';
    let i = 0;
    const next = async () => {
      if (i >= route.length) return;
      i += 1;
      await this.request('miau/level', { moves: route.slice(0, i) });
      this.replaying = setTimeout(next, REPLAY_MS);
    };
    this.replaying = setTimeout(next, REPLAY_MS);
  }

  onMessage(m) {
    if (m.type === 'ready') return this.refresh();
    if (m.type === 'replay') return this.replay();
    if (m.type === 'step') {
      this.stopReplay();
      return this.request('miau/step', { route: this.route, action: m.action });
    }
    return undefined;
  }

  dispose() {
    this.stopReplay();
    if (this.onDispose) this.onDispose();
  }
}

/** Open previews by `uri#level`. */
const previews = new Map();

function open(client, extensionUri, uri, level) {
  const key = `${uri}#${level}`;
  let p = previews.get(key);
  if (p) {
    p.panel.reveal(vscode.ViewColumn.Beside, true);
  } else {
    p = new Preview(client, extensionUri, uri, level);
    p.onDispose = () => previews.delete(key);
    previews.set(key, p);
  }
  return p;
}

/** Redraws every preview of a document (debounced by the caller). */
function refreshDocument(uri) {
  for (const p of previews.values()) {
    if (p.uri === uri) p.refresh();
  }
}

/** The level ids of a document, in order. */
function levelIds(text) {
  return [...text.matchAll(/^\s*level\s+([A-Za-z0-9_.-]+)/gm)].map((m) => m[1]);
}

module.exports = { open, refreshDocument, levelIds };
