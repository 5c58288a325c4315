// Level ids of a .miau document, read from its text: the palette commands
// offer them without waiting for the language server.
'use strict';

const HEADER = /^\s*level\s+([a-z][a-z0-9._-]*)\s*\{/;

/** Every level of `text`: `{ id, line }` with 0-based lines, in order. */
function levels(text) {
  const out = [];
  text.split('\n').forEach((l, line) => {
    const m = HEADER.exec(l);
    if (m) out.push({ id: m[1], line });
  });
  return out;
}

/** The level whose block holds `line`: the last header at or above it. */
function levelAt(text, line) {
  let found;
  for (const l of levels(text)) {
    if (l.line > line) break;
    found = l;
  }
  return found;
}

module.exports = { levels, levelAt };
