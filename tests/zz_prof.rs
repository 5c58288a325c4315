use std::time::Instant;
fn doc(n: usize) -> String {
    let mut row = String::from("    @");
    let cells = ["WALL", "IS", "STOP", ".", "#", "MIAU", "IS", "YOU", "f", "FLAG"];
    for i in 1..n { row.push(' '); row.push_str(cells[i % cells.len()]); }
    format!("pack tiny {{\n  name \"Tiny\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}}\n\nlegend {{\n  @ MIAU\n  # WALL\n  f FLAG\n}}\n\nlevel long {{\n  board {{\n{row}\n  }}\n}}\n")
}
#[test]
fn prof() {
    for n in [12_500usize, 25_000, 50_000] {
        let text = doc(n);
        let t = Instant::now();
        let a = miau::ide::Analysis::new(&text, usize::MAX);
        eprintln!("n={n} bytes={} analysis {:?} diags {}", text.len(), t.elapsed(), a.diagnostics().len());
        let t = Instant::now(); let s = miau::ide::semantic_tokens(&a); eprintln!("  tokens {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::inlay_hints(&a); eprintln!("  inlays {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::folding_ranges(&a); eprintln!("  folds {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::document_symbols(&a); eprintln!("  syms {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::code_lenses(&a); eprintln!("  lens {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::code_actions(&a, miau::span::Span::new(0, text.len())); eprintln!("  actions {} {:?}", s.len(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::format(&a); eprintln!("  format {} {:?}", s.map_or(0, |e| e.len()), t.elapsed());
        let t = Instant::now(); let s = miau::ide::hover(&a, text.len() - 20); eprintln!("  hover {} {:?}", s.is_some(), t.elapsed());
        let t = Instant::now(); let s = miau::ide::completions(&a, text.len() - 20); eprintln!("  compl {} {:?}", s.len(), t.elapsed());
    }
}
