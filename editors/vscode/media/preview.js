// The level preview's webview: draws the SVG the language server renders
// (`miau/level`, `miau/step`) and turns keys into steps. It keeps no game
// state of its own: every key goes to the extension, which asks the server
// and posts the new view back, so the preview always runs the Rust engine.
'use strict';
(function () {
  const vscode = acquireVsCodeApi();
  const board = document.getElementById('board');
  const status = document.getElementById('status');
  const message = document.getElementById('message');
  const replay = document.getElementById('replay');

  const KEYS = {
    ArrowUp: 'U', w: 'U', k: 'U',
    ArrowDown: 'D', s: 'D', j: 'D',
    ArrowLeft: 'L', a: 'L', h: 'L',
    ArrowRight: 'R', d: 'R', l: 'R',
    ' ': 'W', '.': 'W',
    z: 'undo', u: 'undo', Backspace: 'undo',
    r: 'restart',
  };

  function show(view) {
    board.innerHTML = view.svg;
    const turns = view.turn === 1 ? '1 turn' : `${view.turn} turns`;
    status.textContent = view.won
      ? `${view.title}: won in ${turns}`
      : `${view.title}: turn ${view.turn}${view.route ? ` · ${view.route}` : ''}`;
    status.className = view.won ? 'won' : '';
    message.textContent = view.message || '';
    replay.disabled = !view.solution;
    document.body.dataset.turn = String(view.turn);
    document.body.dataset.route = view.route;
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m && m.type === 'view') show(m.view);
    if (m && m.type === 'error') message.textContent = m.message;
  });

  window.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = KEYS[event.key];
    if (!action) return;
    event.preventDefault();
    vscode.postMessage({ type: 'step', action });
  });
  document.getElementById('undo').addEventListener('click', () => vscode.postMessage({ type: 'step', action: 'undo' }));
  document.getElementById('restart').addEventListener('click', () => vscode.postMessage({ type: 'step', action: 'restart' }));
  replay.addEventListener('click', () => vscode.postMessage({ type: 'replay' }));
  board.focus();
  vscode.postMessage({ type: 'ready' });
}());
