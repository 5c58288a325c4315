// Finding and running the miauc binary. Kept free of the `vscode` module so
// it can be tested on its own.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');

/** The setting that names the binary; quoted in every "not found" message. */
const SETTING = 'miau.server.path';

/**
 * The absolute path `command` resolves to, as a shell would find it: as
 * given when it names a path, else the first executable of that name on
 * `PATH` (with `PATHEXT` on Windows). `undefined` when there is none.
 */
function resolveCommand(command, env = process.env, platform = process.platform) {
  if (!command) return undefined;
  const executable = (file) => {
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) return false;
      if (platform === 'win32') return true;
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT || '.EXE;.CMD;.BAT').split(';')] : [''];
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    return exts.map((e) => command + e).find(executable);
  }
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const found = exts.map((e) => path.join(dir, command + e)).find(executable);
    if (found) return found;
  }
  return undefined;
}

/** The message shown when the binary can't be found: what, why, and the fix. */
function notFoundMessage(command) {
  return (
    `Miau: the miauc binary "${command}" was not found, so there are no diagnostics, checks or builds. ` +
    `Install it (cargo install --locked --path . in the miau repository) or set "${SETTING}" to its full path.`
  );
}

/**
 * Runs `command args…` in `cwd`; resolves to `{ code, stdout, stderr }`
 * whatever the exit status, rejects only when the binary can't be started.
 */
function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(err);
        return;
      }
      resolve({ code: err ? err.code : 0, stdout, stderr });
    });
  });
}

module.exports = { SETTING, resolveCommand, notFoundMessage, run };
