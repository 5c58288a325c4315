; Highlights for .miau, matching the scopes of grammar/miau.tmLanguage.json.
; When several patterns capture one node, the later pattern wins (checked by
; test/highlight), so general captures come before specific ones.

(comment) @comment
(string) @string
(escape_sequence) @string.escape

["pack" "level" "palette" "glossary" "legend" "board"] @keyword
(keyword) @keyword

(pack_block id: (identifier) @module)
(level_block id: (identifier) @module)

((identifier) @attribute
  (#any-of? @attribute
    "faces" "terrain" "fallback" "accent" "describe" "glyph" "tagline"
    "channel" "property" "subject" "phase" "pattern" "effect"))

; Any word is a noun unless a later, more specific pattern says otherwise.
(word) @type
((word) @operator
  (#any-of? @operator "IS" "AND"))
((word) @constant.builtin
  (#any-of? @constant.builtin "YOU" "PUSH" "STOP" "WIN" "SINK" "DEFEAT" "GOAL" "FRAIL" "FLOAT"))
(fixed_word) @constant

(legend_key) @variable
(empty_cell) @punctuation.special
"+" @operator
(arrow) @operator
(number) @number
["{" "}"] @punctuation.bracket
"," @punctuation.delimiter
