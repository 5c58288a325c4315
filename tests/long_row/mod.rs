//! Issue 14's long pasted board row, shared by the growth test
//! (`tests/bounded_cost.rs`), the language server's stdio test
//! (`tests/lsp_hostile.rs`) and `benches/ide_growth.rs`.

/// A pack whose one level has a board row of `cells` cells (about five bytes
/// each): the words of two rules and three things, repeated.
pub fn long_row(cells: usize) -> String {
    const CELLS: [&str; 10] = [
        "WALL", "IS", "STOP", ".", "#", "MIAU", "IS", "YOU", "f", "FLAG",
    ];
    let mut row = String::from("    @");
    for i in 1..cells {
        row.push(' ');
        row.push_str(CELLS[i % CELLS.len()]);
    }
    format!(
        "pack long {{\n  name \"Long\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}}\n\n\
         legend {{\n  @ MIAU\n  # WALL\n  f FLAG\n}}\n\nlevel long {{\n  board {{\n{row}\n  }}\n}}\n"
    )
}
