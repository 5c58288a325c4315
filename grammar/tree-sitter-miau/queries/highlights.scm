; Highlights for .miau, matching the scopes of grammar/miau.tmLanguage.json.
; No two patterns capture the same node: editors disagree on which of two
; such patterns wins (Neovim takes the later, tree-sitter-highlight the
; earlier), so the predicates below keep the patterns disjoint. The grammar's
; tests check that, and that every board cell gets a capture.

(comment) @comment
(string) @string
(escape_sequence) @string.escape

["pack" "level" "palette" "glossary" "legend" "board"] @keyword
(keyword) @keyword

(pack_block id: (identifier) @module)
(level_block id: (identifier) @module)

; Option names of statements, palette and glossary entries and legend things.
(statement
  (identifier) @attribute
  (#any-of? @attribute
    "faces" "terrain" "fallback" "accent" "describe" "glyph" "tagline"
    "channel" "property" "subject" "phase" "pattern" "effect" "at-least"))
(palette_entry
  (identifier) @attribute
  (#any-of? @attribute
    "faces" "terrain" "fallback" "accent" "describe" "glyph" "tagline"
    "channel" "property" "subject" "phase" "pattern" "effect"))
(glossary_entry
  (identifier) @attribute
  (#any-of? @attribute
    "faces" "terrain" "fallback" "accent" "describe" "glyph" "tagline"
    "channel" "property" "subject" "phase" "pattern" "effect"))
(thing
  (identifier) @attribute
  (#any-of? @attribute
    "faces" "terrain" "fallback" "accent" "describe" "glyph" "tagline"
    "channel" "property" "subject" "phase" "pattern" "effect"))

; Words: IS and AND join sentences, core properties are built in, any other
; word is a noun or a declared property.
((word) @operator
  (#any-of? @operator "IS" "AND"))
((word) @constant.builtin
  (#any-of? @constant.builtin "YOU" "PUSH" "STOP" "WIN" "SINK" "DEFEAT" "GOAL" "FRAIL" "FLOAT"))
((word) @type
  (#not-any-of? @type
    "IS" "AND" "YOU" "PUSH" "STOP" "WIN" "SINK" "DEFEAT" "GOAL" "FRAIL" "FLOAT"))
(fixed_word) @constant

(legend_key) @variable
(empty_cell) @punctuation.special
"+" @operator
(arrow) @operator
(number) @number
["{" "}"] @punctuation.bracket
"," @punctuation.delimiter
