/**
 * Tree-sitter grammar for the `.miau` pack language (shared/spec/language.md).
 *
 * The language is line-oriented: a statement is a keyword and its arguments
 * up to the end of the line, so newlines are tokens here rather than extras.
 * Boards and legends have their own tokens (cells and keys are any run of
 * non-space characters), which tree-sitter's context-aware lexer only
 * considers inside those blocks.
 */

const STATEMENT_KEYWORDS = [
  'name', 'version', 'engine', 'rules', 'world', 'vocabulary', 'title',
  'category', 'introduces', 'reuses', 'hint', 'solution', 'steps',
  'must-form', 'must-break', 'must-lose-word', 'must-lose', 'must-crumble', 'must-become',
  'must-press', 'must-pair', 'must-push-word', 'budget', 'allow', 'terrain', 'automaton', 'pair', 'frail',
];

module.exports = grammar({
  name: 'miau',

  extras: $ => [/[ \t\r]/, $.comment],

  word: $ => $.identifier,

  rules: {
    source_file: $ => repeat(choice($._newline, $._top_block)),

    _top_block: $ => choice(
      $.pack_block, $.palette_block, $.glossary_block, $.legend_block, $.level_block,
    ),

    // Blocks may also be nested in `pack { }` (language.md §11); `miauc fmt`
    // moves them out, but a nested pack is still a valid file.
    pack_block: $ => seq(
      'pack', field('id', $.identifier), $._open,
      repeat(choice($._newline, $.statement, $.palette_block, $.glossary_block, $.legend_block, $.level_block)),
      '}',
    ),

    level_block: $ => seq(
      'level', field('id', $.identifier), $._open,
      repeat(choice($._newline, $.statement, $.legend_block, $.board_block)),
      '}',
    ),

    palette_block: $ => seq('palette', $._open, repeat(choice($._newline, $.palette_entry)), '}'),
    palette_entry: $ => seq(field('noun', $.word), repeat($._argument), $._newline),

    glossary_block: $ => seq('glossary', $._open, repeat(choice($._newline, $.glossary_entry)), '}'),
    glossary_entry: $ => seq(field('property', $.word), repeat($._argument), $._newline),

    legend_block: $ => seq('legend', $._open, repeat(choice($._newline, $.legend_entry)), '}'),
    // `key THING [+ THING]…`, each thing a noun with its options
    // (`PLATE channel amber + GATE channel teal`, or `CRATE+DOCK`).
    // An uppercase key is the checker's M110, not a syntax error.
    legend_entry: $ => seq(
      field('key', choice($.legend_key, alias($.word, $.legend_key), alias($.fixed_word, $.legend_key))),
      field('value', $.thing),
      repeat(seq('+', field('value', $.thing))),
      $._newline,
    ),
    // A lowercase noun is the checker's M111, not a syntax error: the
    // entry still ends at its line, so the next entry parses.
    thing: $ => seq(field('noun', choice($._tile, $.identifier)), repeat($._argument)),

    board_block: $ => seq('board', $._open, repeat(choice($._newline, $.board_row)), '}'),
    board_row: $ => seq(repeat1($._cell), $._newline),
    _cell: $ => choice($.empty_cell, $.legend_key, $._tile, $.stack),
    // A stack is one cell: `+` and each part after it follow without a
    // space, so `CRATE+ .` is a broken stack, not a stack of CRATE and `.`.
    stack: $ => seq($._stack_part, repeat1(seq(token.immediate('+'), $._stack_next))),
    _stack_part: $ => choice($.legend_key, $._tile),
    _stack_next: $ => choice(
      alias($._next_key, $.legend_key),
      alias($._next_word, $.word),
      alias($._next_fixed_word, $.fixed_word),
    ),
    _next_key: _ => token.immediate(/[^\sA-Z+{}"][^\s+]*/),
    _next_word: _ => token.immediate(/[A-Z][A-Z0-9_-]*/),
    _next_fixed_word: _ => token.immediate(/[A-Z][A-Z0-9_-]*!/),
    _tile: $ => choice($.word, $.fixed_word),

    statement: $ => seq(field('keyword', $.keyword), repeat($._argument), $._newline),
    keyword: _ => choice(...STATEMENT_KEYWORDS),

    _argument: $ => choice($.string, $.number, $.identifier, $.word, $.fixed_word, $.arrow, ','),

    _open: $ => seq('{', $._newline),

    string: $ => seq(
      '"',
      repeat(choice($.string_content, $.escape_sequence)),
      token.immediate('"'),
    ),
    string_content: _ => token.immediate(prec(1, /[^"\\\n]+/)),
    escape_sequence: _ => token.immediate(/\\./),

    // A word tile or noun; `!` makes it fixed.
    word: _ => /[A-Z][A-Z0-9_-]*/,
    fixed_word: _ => /[A-Z][A-Z0-9_-]*!/,
    identifier: _ => /[a-z][a-z0-9._-]*/,
    number: _ => /[0-9]+/,
    arrow: _ => '->',

    // A legend key or board symbol: not uppercase (that is a word), no `+`.
    legend_key: _ => /[^\sA-Z+{}"][^\s+]*/,
    empty_cell: _ => token(prec(1, '.')),

    comment: _ => token(prec(2, seq('//', /[^\n]*/))),

    _newline: _ => /\n/,
  },
});
