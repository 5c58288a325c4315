// The status bar item: the result of the last check, and a click to check
// the pack again.
'use strict';

/** Summary of a `miau.checkPack` / `miau.checkLevel` result for people. */
function summarize(result) {
  const levels = (result && Array.isArray(result.levels) && result.levels) || [];
  const failed = levels.filter((l) => l.passed === false);
  const text =
    `${levels.length - failed.length} of ${levels.length} level${levels.length === 1 ? '' : 's'} passed` +
    (result && result.cancelled ? ' (cancelled)' : '');
  return { text, failed, total: levels.length };
}

/** Creates the item (shown for .miau editors) and returns its updater. */
function createStatus(vscode) {
  const item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  item.name = 'Miau check';
  item.command = 'miau.checkCurrentPack';
  item.text = '$(circle-outline) Miau';
  item.tooltip = 'No check run yet: click to check this pack';
  return {
    item,
    running(what) {
      item.text = `$(sync~spin) Miau: checking ${what}`;
      item.tooltip = 'A check is running';
      item.show();
    },
    show(result, what) {
      const s = summarize(result);
      item.text = `${s.failed.length ? '$(error)' : '$(pass)'} Miau: ${s.text}`;
      item.tooltip =
        `Last check (${what}): ${s.text}` +
        (s.failed.length ? '\n' + s.failed.map((l) => `${l.level}: ${l.summary}`).join('\n') : '') +
        '\nClick to check this pack again';
      item.show();
      return s;
    },
    failed(message) {
      item.text = '$(warning) Miau';
      item.tooltip = message;
      item.show();
    },
  };
}

module.exports = { summarize, createStatus };
