; Folding regions for .miau: every block folds, as the language server's
; folding ranges do.

[
  (pack_block)
  (palette_block)
  (glossary_block)
  (legend_block)
  (level_block)
  (board_block)
] @fold
