// `npm run package [-- --target T] [vsce options…]`: the .vsix.
//
// Without `--target` it is the universal package: the extension alone, which
// runs the `miauc` it finds through `miau.server.path` or on `PATH`. With a
// VS Code target (`linux-x64`, `darwin-arm64`, `win32-x64`, …) it is that
// platform's package, carrying the language server: `server/miauc`
// (`server/miauc.exe` for Windows) must hold a miauc built for the target;
// it is checked to be one, made executable, and packed beside the bundle.
// Every other option goes to `vsce package` unchanged.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');

/** The binary formats of the targets that carry a server, as the file's header says them. */
const TARGET_FORMATS = {
  'linux-x64': { format: 'elf', machine: 62 },
  'linux-arm64': { format: 'elf', machine: 183 },
  'linux-armhf': { format: 'elf', machine: 40 },
  'alpine-x64': { format: 'elf', machine: 62 },
  'alpine-arm64': { format: 'elf', machine: 183 },
  'darwin-x64': { format: 'macho', machine: 0x01000007 },
  'darwin-arm64': { format: 'macho', machine: 0x0100000c },
  'win32-x64': { format: 'pe', machine: 0x8664 },
  'win32-arm64': { format: 'pe', machine: 0xaa64 },
};

/** The server's file name inside the extension for a target (or the running platform). */
function serverFileName(targetOrPlatform) {
  return targetOrPlatform.startsWith('win32') ? 'miauc.exe' : 'miauc';
}

/** `--target T` or `--target=T` taken out of `args`: `{ target, rest }`. */
function splitTarget(args) {
  const rest = [];
  let target;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i];
    if (a === '--target' || a === '-t') {
      target = args[i + 1];
      i += 1;
    } else if (a.startsWith('--target=')) {
      target = a.slice('--target='.length);
    } else {
      rest.push(a);
    }
  }
  return { target, rest };
}

/**
 * What an executable's first bytes say it is: `{ format, machine }` for ELF,
 * Mach-O (thin; a universal binary is `{ format: 'macho', machine: 'fat' }`)
 * and PE files, else `undefined`.
 */
function binaryKind(header) {
  if (header.length >= 20 && header.readUInt32BE(0) === 0x7f454c46) {
    const little = header[5] === 1;
    return { format: 'elf', machine: little ? header.readUInt16LE(18) : header.readUInt16BE(18) };
  }
  if (header.length >= 8 && header.readUInt32LE(0) === 0xfeedfacf) {
    return { format: 'macho', machine: header.readUInt32LE(4) };
  }
  if (header.length >= 4 && header.readUInt32BE(0) === 0xcafebabe) {
    return { format: 'macho', machine: 'fat' };
  }
  if (header.length >= 64 && header.toString('latin1', 0, 2) === 'MZ') {
    const pe = header.readUInt32LE(60);
    if (header.length >= pe + 6 && header.readUInt32BE(pe) === 0x50450000) {
      return { format: 'pe', machine: header.readUInt16LE(pe + 4) };
    }
  }
  return undefined;
}

/**
 * Why `file` can't be the server of `target`, or `undefined` when it can:
 * it must exist and be an executable of the target's format and machine.
 */
function serverProblem(file, target) {
  const wanted = TARGET_FORMATS[target];
  if (!wanted) {
    return `the target ${target} has no native miauc (targets that carry one: ${Object.keys(TARGET_FORMATS).join(', ')})`;
  }
  let header;
  try {
    const fd = fs.openSync(file, 'r');
    header = Buffer.alloc(4096);
    const n = fs.readSync(fd, header, 0, header.length, 0);
    fs.closeSync(fd);
    header = header.subarray(0, n);
  } catch (e) {
    return `${file} can't be read (${e.code || e.message}): put the ${target} build of miauc there first`;
  }
  const kind = binaryKind(header);
  const describe = (k) => (k ? `${k.format} for machine ${k.machine === 'fat' ? 'fat' : `0x${k.machine.toString(16)}`}` : 'no executable');
  if (!kind || kind.format !== wanted.format || (kind.machine !== wanted.machine && kind.machine !== 'fat')) {
    return `${file} is ${describe(kind)}, where ${target} needs ${describe(wanted)}: put the ${target} build of miauc there`;
  }
  return undefined;
}

/** An ignore file for vsce: `.vscodeignore` with the target's server let in. */
function ignoreFileWithServer(name) {
  const base = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'miau-vscodeignore-')), 'ignore');
  fs.writeFileSync(file, `${base}\n# The language server of a platform-specific package.\n!server/${name}\n`);
  return file;
}

/** Runs vsce's `package` with the project's fixed options and `args`; exits with its status. */
function vscePackage(args) {
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json', { paths: [root] })), 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.error) throw r.error;
  return r.status === null ? 1 : r.status;
}

function main(argv) {
  const { target, rest } = splitTarget(argv);
  if (target === undefined) return vscePackage(rest);
  const name = serverFileName(target);
  const server = path.join(root, 'server', name);
  const problem = serverProblem(server, target);
  if (problem) {
    process.stderr.write(`npm run package: no ${target} package: ${problem}.\n`);
    return 2;
  }
  if (!target.startsWith('win32')) fs.chmodSync(server, 0o755);
  return vscePackage(['--target', target, '--ignoreFile', ignoreFileWithServer(name), ...rest]);
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { TARGET_FORMATS, serverFileName, splitTarget, binaryKind, serverProblem };
