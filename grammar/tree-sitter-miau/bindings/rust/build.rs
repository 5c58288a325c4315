//! Compiles the committed generated parser (`src/parser.c`), so neither the
//! tree-sitter CLI nor Node is needed to use or test the grammar.

fn main() {
    let src = std::path::Path::new("src");
    let mut build = cc::Build::new();
    build
        .include(src)
        .std("c11")
        // Generated code: its unused parameters and switch fallthroughs are
        // tree-sitter's, not ours.
        .warnings(false)
        .file(src.join("parser.c"));
    build.compile("tree-sitter-miau");
    println!("cargo:rerun-if-changed=src/parser.c");
    println!("cargo:rerun-if-changed=src/tree_sitter/parser.h");
}
