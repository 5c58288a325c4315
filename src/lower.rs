//! Lowering: the typed AST to the pack model (legend resolution, stacks, stable ids).
