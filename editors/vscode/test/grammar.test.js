// Tokenizes real `.miau` lines with the TextMate engine VS Code uses
// (vscode-textmate + the Oniguruma WASM build) and checks the scopes of each
// construct, so a grammar change that breaks highlighting fails CI.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const repo = path.resolve(__dirname, '..', '..', '..');
const grammarPath = path.join(repo, 'grammar', 'miau.tmLanguage.json');
const extensionCopy = path.join(repo, 'editors', 'vscode', 'syntaxes', 'miau.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.miau'
        ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
        : null,
  });
  return registry.loadGrammar('source.miau');
}

const grammarReady = loadGrammar();

// Tokenize a whole text, line by line, carrying the rule stack across lines
// (boards and legends are multi-line regions).
async function tokenize(text) {
  const grammar = await grammarReady;
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return {
      line,
      tokens: r.tokens.map((t) => ({
        text: line.slice(t.startIndex, t.endIndex),
        start: t.startIndex,
        scopes: t.scopes,
      })),
    };
  });
}

// The scopes of the token at `needle` (its `nth` occurrence) on the first
// line that contains `lineMarker`. The token must span the needle exactly,
// unless `whole` is false (the needle lies inside a longer token).
function scopesAt(lines, lineMarker, needle, { nth = 0, whole = true } = {}) {
  // Markers match whatever the column alignment: `miauc fmt` pads with spaces.
  const squash = (t) => t.replace(/\s+/g, ' ');
  const l = lines.find((x) => squash(x.line).includes(squash(lineMarker)));
  assert.ok(l, `no line containing ${JSON.stringify(lineMarker)}`);
  let at = -1;
  for (let i = 0; i <= nth; i += 1) {
    at = l.line.indexOf(needle, at + 1);
    assert.ok(at >= 0, `${JSON.stringify(needle)} not found in ${JSON.stringify(l.line)}`);
  }
  const tok = l.tokens.find((t) => t.start <= at && at < t.start + t.text.length);
  if (whole) {
    assert.equal(tok.text, needle, `token at ${JSON.stringify(needle)} in ${JSON.stringify(l.line)}`);
  }
  return tok.scopes;
}

function hasScope(scopes, scope, what) {
  assert.ok(scopes.includes(scope), `${what}: expected ${scope}, got ${scopes.join(' ')}`);
}

function notScope(scopes, prefix, what) {
  assert.ok(!scopes.some((s) => s.startsWith(prefix)), `${what}: unexpected ${prefix}*, got ${scopes.join(' ')}`);
}

// Snapshots of two early packs, so these tests don't follow the packs' edits.
const pack = (name) => fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

test('the extension ships the same grammar as grammar/', () => {
  assert.equal(fs.readFileSync(extensionCopy, 'utf8'), fs.readFileSync(grammarPath, 'utf8'));
});

test('comments', async () => {
  const lines = await tokenize(pack('clockwork.miau'));
  const s = scopesAt(lines, '// Clockwork', '// Clockwork: automata keep time. The proof level of the automata contract.');
  hasScope(s, 'comment.line.double-slash.miau', 'header comment');
  // A board's `#` is a symbol, not a comment.
  const wall = scopesAt(lines, '#    BELL IS', '#');
  notScope(wall, 'comment', 'board #');
});

test('strings with emoji and escapes', async () => {
  const lines = await tokenize(pack('clockwork.miau') + '\n  hint "say \\"miau\\" \\\\ \\q 🐈"\n');
  const emoji = scopesAt(lines, 'MIAU  "🐈"', '🐈');
  hasScope(emoji, 'string.quoted.double.miau', 'emoji in string');
  const text = scopesAt(lines, 'The mouse takes', 'The mouse takes one step', { whole: false });
  hasScope(text, 'string.quoted.double.miau', 'hint text');
  const quote = scopesAt(lines, 'say ', '\\"');
  hasScope(quote, 'constant.character.escape.miau', 'escaped quote');
  hasScope(quote, 'string.quoted.double.miau', 'escape inside string');
  hasScope(scopesAt(lines, 'say ', '\\\\'), 'constant.character.escape.miau', 'escaped backslash');
  hasScope(scopesAt(lines, 'say ', '\\q'), 'invalid.illegal.escape.miau', 'invalid escape');
  // The string ends at its closing quote: the comment-like text inside stays a string.
  const url = await tokenize('  hint "see //here" // real comment');
  hasScope(scopesAt(url, 'see', '//here', { whole: false }), 'string.quoted.double.miau', '// in string');
  hasScope(scopesAt(url, 'see', '// real comment'), 'comment.line.double-slash.miau', 'trailing comment');
});

test('block keywords with ids', async () => {
  const lines = await tokenize(pack('crate-works.miau'));
  hasScope(scopesAt(lines, 'pack crate-works', 'pack'), 'keyword.other.block.miau', 'pack');
  hasScope(scopesAt(lines, 'pack crate-works', 'crate-works'), 'entity.name.section.miau', 'pack id');
  hasScope(scopesAt(lines, 'level short-one-crate', 'level'), 'keyword.other.block.miau', 'level');
  hasScope(scopesAt(lines, 'level short-one-crate', 'short-one-crate'), 'entity.name.section.miau', 'level id');
  for (const kw of ['palette', 'legend', 'board']) {
    hasScope(scopesAt(lines, `${kw} {`, kw), 'keyword.other.block.miau', kw);
  }
});

test('statement and attribute keywords', async () => {
  const lines = await tokenize(pack('clockwork.miau'));
  for (const [marker, kw] of [
    ['name    "Clockwork"', 'name'],
    ['engine  1', 'engine'],
    ['category  required', 'category'],
    ['introduces MOUSE', 'introduces'],
    ['solution  "DRR', 'solution'],
    ['steps     11', 'steps'],
    ['automaton mouse-shuttle', 'automaton'],
    ['allow     hands-off', 'allow'],
  ]) {
    hasScope(scopesAt(lines, marker, kw), 'keyword.other.statement.miau', kw);
  }
  hasScope(scopesAt(lines, 'engine  1', '1'), 'constant.numeric.miau', 'number');
  for (const attr of ['property', 'subject', 'phase', 'pattern']) {
    hasScope(scopesAt(lines, 'automaton mouse-shuttle', attr), 'keyword.other.attribute.miau', attr);
  }
  hasScope(scopesAt(lines, 'MIAU  "🐈"', 'faces'), 'keyword.other.attribute.miau', 'faces');
  hasScope(scopesAt(lines, 'TICK accent', 'describe'), 'keyword.other.attribute.miau', 'describe');
  // A recorded length's bound: `at-least` is an attribute, its figure a number.
  const bound = await tokenize('level l {\n  steps 131 at-least 38\n}\n');
  hasScope(scopesAt(bound, 'steps 131', 'at-least'), 'keyword.other.attribute.miau', 'at-least');
  hasScope(scopesAt(bound, 'steps 131', '38'), 'constant.numeric.miau', 'bound');
  // An id that merely contains an attribute word is not a keyword.
  notScope(scopesAt(lines, 'automaton mouse-shuttle', 'mouse-shuttle', { whole: false }), 'keyword', 'automaton id');
});

test('IS, AND and core properties in boards', async () => {
  const lines = await tokenize(pack('crate-works.miau'));
  hasScope(scopesAt(lines, 'MIAU IS YOU . WALL IS STOP . CRATE', 'IS'), 'keyword.operator.word.miau', 'IS');
  hasScope(scopesAt(lines, '#    CRATE AND', 'AND'), 'keyword.operator.word.miau', 'AND');
  for (const p of ['YOU', 'STOP', 'PUSH']) {
    hasScope(scopesAt(lines, 'MIAU IS YOU . WALL IS STOP . CRATE', p), 'support.constant.property.miau', p);
  }
  hasScope(scopesAt(lines, 'DOCK  IS GOAL', 'GOAL'), 'support.constant.property.miau', 'GOAL');
  hasScope(scopesAt(lines, 'GAP  IS SINK', 'SINK'), 'support.constant.property.miau', 'SINK');
  const noun = scopesAt(lines, 'MIAU IS YOU . WALL IS STOP . CRATE', 'CRATE');
  hasScope(noun, 'entity.name.type.noun.miau', 'noun word');
  hasScope(noun, 'meta.block.board.miau', 'inside the board');
  // A longer word that starts with a property name is a noun, not the property.
  const longer = await tokenize('board {\n  WINDOW IS WIN-ISH .\n}');
  hasScope(scopesAt(longer, 'WINDOW', 'WINDOW'), 'entity.name.type.noun.miau', 'WINDOW');
  hasScope(scopesAt(longer, 'WINDOW', 'WIN-ISH'), 'entity.name.type.noun.miau', 'WIN-ISH');
});

test('fixed words and stacks', async () => {
  const lines = await tokenize(
    'legend {\n  * CRATE+DOCK               // a stack\n  _ PLATE channel amber\n}\n' +
      'level stacks {\n  board {\n    f+WIN+STOP MIAU IS YOU WIN! . *\n  }\n}\n',
  );
  hasScope(scopesAt(lines, 'MIAU IS YOU WIN!', 'WIN!'), 'constant.language.fixed.miau', 'fixed word');
  hasScope(scopesAt(lines, 'f+WIN', 'f'), 'variable.other.legend-key.miau', 'stack part key');
  hasScope(scopesAt(lines, 'f+WIN', '+'), 'keyword.operator.stack.miau', 'stack +');
  hasScope(scopesAt(lines, 'f+WIN', 'WIN', { nth: 0 }), 'support.constant.property.miau', 'stack part WIN');
  hasScope(scopesAt(lines, 'f+WIN', 'STOP'), 'support.constant.property.miau', 'stack part STOP');
  hasScope(scopesAt(lines, 'CRATE+DOCK', '*'), 'variable.other.legend-key.miau', 'legend key *');
  hasScope(scopesAt(lines, 'CRATE+DOCK', '+'), 'keyword.operator.stack.miau', 'legend stack +');
  hasScope(scopesAt(lines, 'CRATE+DOCK', 'DOCK'), 'entity.name.type.noun.miau', 'legend stack noun');
  hasScope(scopesAt(lines, 'CRATE+DOCK', '// a stack'), 'comment.line.double-slash.miau', 'legend comment');
  hasScope(scopesAt(lines, 'PLATE channel', 'channel'), 'keyword.other.attribute.miau', 'channel');
});

test('board symbols and legend keys', async () => {
  const lines = await tokenize(pack('crate-works.miau'));
  for (const sym of ['#', '@', 'o']) {
    hasScope(scopesAt(lines, '#    .  @   . .    .  o', sym), 'variable.other.legend-key.miau', sym);
  }
  hasScope(scopesAt(lines, '#    .  $    . $    .  |', '$'), 'variable.other.legend-key.miau', 'crate $');
  hasScope(scopesAt(lines, '#    .  @   . .    .  o', '.'), 'constant.character.empty-cell.miau', 'empty cell');
  hasScope(scopesAt(lines, '#    .  $    . $    .  |', '|'), 'variable.other.legend-key.miau', 'gate |');
  hasScope(scopesAt(lines, '#    .  $    . $    .  |', '~'), 'variable.other.legend-key.miau', 'gap ~');
  hasScope(scopesAt(lines, '@ MIAU', '@'), 'variable.other.legend-key.miau', 'legend key @');
  hasScope(scopesAt(lines, '@ MIAU', 'MIAU'), 'entity.name.type.noun.miau', 'legend value');
  hasScope(scopesAt(lines, '_ PLATE channel amber', '_'), 'variable.other.legend-key.miau', 'legend key _');
  // Clockwork's lowercase keys (m, u, e) are keys in the legend and on the board.
  const clock = await tokenize(pack('clockwork.miau'));
  hasScope(scopesAt(clock, '  m MIAU', 'm'), 'variable.other.legend-key.miau', 'legend key m');
  hasScope(scopesAt(clock, '#    BELL IS  . .    WIN .    . .     u  #', 'u'), 'variable.other.legend-key.miau', 'board u');
  // The board's closing brace ends the region: the next level is outside it.
  const after = scopesAt(lines, 'level short-one-crate', 'level');
  notScope(after, 'meta.block.board', 'after the board');
});

// Every .miau file of the repository (packs, conformance levels, fixtures,
// the highlight test of the tree-sitter grammar).
function repositoryMiauFiles() {
  const skip = new Set(['node_modules', 'target', '.git', '.venv', 'corpus', 'artifacts']);
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(p);
      } else if (e.name.endsWith('.miau')) {
        out.push(p);
      }
    }
  };
  walk(repo);
  return out;
}

test('every board cell of every .miau in the repository gets a scope', async () => {
  const files = repositoryMiauFiles();
  assert.ok(files.some((f) => f.includes(`${path.sep}packs${path.sep}`)), 'no bundled pack found');
  const plain = new Set(['source.miau', 'meta.block.board.miau']);
  const failures = [];
  let cells = 0;
  for (const file of files) {
    const lines = await tokenize(fs.readFileSync(file, 'utf8'));
    lines.forEach((l, row) => {
      for (const t of l.tokens) {
        if (!t.scopes.includes('meta.block.board.miau') || t.text.trim() === '') continue;
        // The board's own header and closing brace carry their own scopes.
        if (t.scopes.every((s) => plain.has(s))) {
          failures.push(`${path.relative(repo, file)}:${row + 1}:${t.start + 1}: ${JSON.stringify(t.text)} has no scope`);
        } else {
          cells += 1;
        }
      }
    });
  }
  assert.deepEqual(failures, []);
  assert.ok(cells > 100, `only ${cells} board tokens seen`);
});
