//! Moving a level's syntax tree with its text: the spans of every node of a
//! level block (and of the comments beside it), so the parse of an unchanged
//! block can be reused where an edit before it moved it.

use super::ast::*;
use crate::span::{Move, Shift};

impl Shift for Ident {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}

impl Shift for Str {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}

impl Shift for Num {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}

impl Shift for Comment {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}

impl Shift for BlockSpan {
    fn shift(&mut self, m: Move) {
        self.header.shift(m);
        self.close.shift(m);
    }
}

impl Shift for Allow {
    fn shift(&mut self, m: Move) {
        self.code.shift(m);
        self.reason.shift(m);
    }
}

impl Shift for Level {
    fn shift(&mut self, m: Move) {
        self.id.shift(m);
        self.block.shift(m);
        self.stmts.shift(m);
        self.legend.shift(m);
        self.board.shift(m);
    }
}

impl Shift for LevelStmt {
    fn shift(&mut self, m: Move) {
        self.keyword.shift(m);
        self.span.shift(m);
        self.kind.shift(m);
    }
}

impl Shift for LevelStmtKind {
    fn shift(&mut self, m: Move) {
        match self {
            LevelStmtKind::Title(s)
            | LevelStmtKind::Hint(s)
            | LevelStmtKind::Solution(s)
            | LevelStmtKind::MustForm(s)
            | LevelStmtKind::MustBreak(s) => s.shift(m),
            LevelStmtKind::Category(i) => i.shift(m),
            LevelStmtKind::Introduces(v) | LevelStmtKind::Reuses(v) => v.shift(m),
            LevelStmtKind::Steps(n, at_least) => {
                n.shift(m);
                at_least.shift(m);
            }
            LevelStmtKind::Budget(n) => n.shift(m),
            LevelStmtKind::MustLoseWord => {}
            LevelStmtKind::Allow(a) => a.shift(m),
            LevelStmtKind::Terrain(v) => v.shift(m),
            LevelStmtKind::Automaton(a) => a.shift(m),
            LevelStmtKind::Pair(p) => p.shift(m),
            LevelStmtKind::Frail(v) => v.shift(m),
            LevelStmtKind::MustHappen(_, v) => v.shift(m),
        }
    }
}

impl Shift for Listed {
    fn shift(&mut self, m: Move) {
        match self {
            Listed::Word(i) => i.shift(m),
            Listed::Idea(s) => s.shift(m),
        }
    }
}

impl Shift for AutomatonStmt {
    fn shift(&mut self, m: Move) {
        self.id.shift(m);
        self.property.shift(m);
        self.subject.shift(m);
        self.phase.shift(m);
        self.pattern.shift(m);
    }
}

impl Shift for PairStmt {
    fn shift(&mut self, m: Move) {
        self.words.shift(m);
        self.effect.shift(m);
    }
}

impl Shift for Legend {
    fn shift(&mut self, m: Move) {
        self.block.shift(m);
        self.entries.shift(m);
    }
}

impl Shift for LegendEntry {
    fn shift(&mut self, m: Move) {
        self.key.shift(m);
        self.things.shift(m);
        self.span.shift(m);
    }
}

impl Shift for LegendThing {
    fn shift(&mut self, m: Move) {
        self.noun.shift(m);
        self.channel.shift(m);
        self.span.shift(m);
    }
}

impl Shift for Board {
    fn shift(&mut self, m: Move) {
        self.block.shift(m);
        self.rows.shift(m);
    }
}

impl Shift for Row {
    fn shift(&mut self, m: Move) {
        self.cells.shift(m);
        self.span.shift(m);
    }
}

impl Shift for Cell {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}
