//! The pipeline the shells call: source text in, diagnostics and a pack model out.
