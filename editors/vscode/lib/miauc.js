// Finding and running the miauc binary. Kept free of the `vscode` module so
// it can be tested on its own.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');

/** The setting that names the binary; quoted in every "not found" message. */
const SETTING = 'miau.server.path';

/** Whether `file` is a regular file this platform can run (any file on Windows). */
function isExecutable(file, platform = process.platform) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path `command` resolves to, as a shell would find it: as
 * given when it names a path, else the first executable of that name on
 * `PATH` (with `PATHEXT` on Windows). `undefined` when there is none.
 */
function resolveCommand(command, env = process.env, platform = process.platform) {
  if (!command) return undefined;
  const executable = (file) => isExecutable(file, platform);
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

/** The miauc a platform-specific package carries, inside the installed extension. */
function bundledPath(extensionPath, platform = process.platform) {
  return path.join(extensionPath, 'server', platform === 'win32' ? 'miauc.exe' : 'miauc');
}

/**
 * The miauc the extension runs, and why, in this order: the `miau.server.path`
 * setting when it is set (and nothing else then, so a wrong setting is
 * reported rather than bypassed); else the binary this extension carries
 * (`bundled`, the path `bundledPath` gives; only platform-specific packages
 * have one); else `miauc` on `PATH`.
 *
 * Returns `{ command, path, reason }`: `command` is what was looked for (the
 * name the messages quote), `path` the executable found (`undefined` when
 * none was), `reason` one sentence saying which was taken and why.
 */
function resolveServer({ setting, bundled, env = process.env, platform = process.platform }) {
  if (setting) {
    const found = resolveCommand(setting, env, platform);
    return {
      command: setting,
      path: found,
      reason: found ? `${SETTING} is set to "${setting}"` : `${SETTING} is set to "${setting}", which was not found`,
    };
  }
  if (bundled && isExecutable(bundled, platform)) {
    return { command: bundled, path: bundled, reason: `${SETTING} is not set, and this extension carries its own miauc` };
  }
  const carried = !bundled || !fs.existsSync(bundled)
    ? 'this package carries no miauc for this platform'
    : `the miauc this extension carries (${bundled}) is not an executable file`;
  const found = resolveCommand('miauc', env, platform);
  return {
    command: 'miauc',
    path: found,
    reason: `${SETTING} is not set and ${carried}, so miauc is taken from PATH${found ? '' : ', where there is none'}`,
  };
}

/** The message shown when the binary can't be found: what, why, and the fix. */
function notFoundMessage(command) {
  return (
    `Miau: the miauc binary "${command}" was not found, so there are no diagnostics, checks or builds. ` +
    'Install the extension package for your platform (it carries miauc), or install miauc ' +
    `(a release binary, or cargo install miauc --locked) and put it on PATH, or set "${SETTING}" to its full path.`
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

module.exports = { SETTING, isExecutable, resolveCommand, bundledPath, resolveServer, notFoundMessage, run };
