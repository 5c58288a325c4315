//! The statements of a `level` block (besides its `legend` and `board`).

use chumsky::prelude::*;

use super::grammar::{Opt, allow_args, kw, listed, name, names, num, string, tok};
use super::{Frame, K, LEVEL_BLOCKS, LEVEL_STMTS, P, T};
use crate::model::{ClaimArgs, EventClaimKind};
use crate::span::Span;
use crate::syntax::ast::{AutomatonStmt, LevelStmt, LevelStmtKind as L, PairStmt};

impl P<'_> {
    /// A statement of the open level.
    pub(super) fn level_stmt(&mut self, toks: Vec<T>, stmt_end: usize) {
        let first = &toks[0];
        let span = Span::new(first.span.start as usize, stmt_end);
        let args = &toks[1..];
        let kw_text = if first.k == K::Ident {
            first.text.as_str()
        } else {
            ""
        };
        let kind = match kw_text {
            "title" => self.run_grammar(string(), args, stmt_end).map(L::Title),
            "hint" => self.run_grammar(string(), args, stmt_end).map(L::Hint),
            "solution" => self.run_grammar(string(), args, stmt_end).map(L::Solution),
            "must-form" => self.run_grammar(string(), args, stmt_end).map(L::MustForm),
            "must-break" => self.run_grammar(string(), args, stmt_end).map(L::MustBreak),
            "must-lose-word" => self
                .run_grammar(empty(), args, stmt_end)
                .map(|()| L::MustLoseWord),
            kw if EventClaimKind::of_keyword(kw).is_some() => self.event_claim(kw, args, stmt_end),
            "category" => self
                .run_grammar(name("a category"), args, stmt_end)
                .map(L::Category),
            "introduces" => self
                .run_grammar(listed(), args, stmt_end)
                .map(L::Introduces),
            "reuses" => self.run_grammar(listed(), args, stmt_end).map(L::Reuses),
            "steps" => {
                let bound = kw("at-least").ignore_then(num()).or_not();
                self.run_grammar(num().then(bound), args, stmt_end)
                    .map(|(n, at_least)| L::Steps(n, at_least))
            }
            "budget" => self.run_grammar(num(), args, stmt_end).map(L::Budget),
            "allow" => self.run_grammar(allow_args(), args, stmt_end).map(L::Allow),
            "terrain" => self
                .run_grammar(names("a noun"), args, stmt_end)
                .map(L::Terrain),
            "automaton" => self.automaton_stmt(args, stmt_end),
            "pair" => self.pair_stmt(args, stmt_end),
            "frail" => self.frail_stmt(args, stmt_end),
            _ => {
                let mut valid = LEVEL_STMTS.to_vec();
                valid.extend(LEVEL_BLOCKS);
                self.m104(first, &valid, false);
                None
            }
        };
        if let (Some(kind), Some(Frame::Level(l))) = (kind, self.stack.last_mut()) {
            l.stmts.push(LevelStmt {
                kind,
                keyword: toks[0].span,
                span,
            });
        }
    }

    /// A claim over events: its keyword, then nouns or channels as the
    /// kind takes them ([`ClaimArgs`]).
    fn event_claim(&mut self, keyword: &str, args: &[T], stmt_end: usize) -> Option<L> {
        let kind = EventClaimKind::of_keyword(keyword)?;
        let list = match kind.args() {
            ClaimArgs::Nouns => self.run_grammar(names("a noun"), args, stmt_end),
            ClaimArgs::SomeNouns => {
                self.run_grammar(name("a noun").repeated().collect(), args, stmt_end)
            }
            ClaimArgs::Channels => {
                self.run_grammar(name("a channel").repeated().collect(), args, stmt_end)
            }
            ClaimArgs::Nothing => self.run_grammar(empty(), args, stmt_end).map(|()| vec![]),
        };
        list.map(|list| L::MustHappen(kind, list))
    }

    /// `automaton ID property WORD pattern "…"` with `subject` and `phase` optional.
    fn automaton_stmt(&mut self, args: &[T], stmt_end: usize) -> Option<L> {
        let p = name("an automaton id").then(
            choice((
                kw("property")
                    .ignore_then(name("a word"))
                    .map(Opt::Property),
                kw("subject").ignore_then(name("a noun")).map(Opt::Subject),
                kw("phase").ignore_then(num()).map(Opt::Phase),
                kw("pattern").ignore_then(string()).map(Opt::Pattern),
            ))
            .repeated()
            .collect::<Vec<_>>(),
        );
        self.run_grammar(p, args, stmt_end).and_then(|(id, opts)| {
            let mut a = AutomatonStmt {
                id,
                ..Default::default()
            };
            let (mut prop, mut pat) = (false, false);
            for o in opts {
                match o {
                    Opt::Property(w) => {
                        a.property = w;
                        prop = true;
                    }
                    Opt::Subject(w) => a.subject = Some(w),
                    Opt::Phase(n) => a.phase = Some(n),
                    Opt::Pattern(s) => {
                        a.pattern = s;
                        pat = true;
                    }
                    _ => {}
                }
            }
            if !prop {
                self.missing("`property WORD`", stmt_end);
                None
            } else if !pat {
                self.missing("`pattern \"…\"`", stmt_end);
                None
            } else {
                Some(L::Automaton(a))
            }
        })
    }

    /// `pair WORD WORD` with `effect` and `enter` optional.
    fn pair_stmt(&mut self, args: &[T], stmt_end: usize) -> Option<L> {
        let p = name("a word").then(name("a word")).then(
            choice((
                kw("effect").ignore_then(name("an effect")).map(Opt::Effect),
                kw("enter").to(Opt::Enter),
            ))
            .repeated()
            .collect::<Vec<_>>(),
        );
        self.run_grammar(p, args, stmt_end).map(|((a, b), opts)| {
            let mut pair = PairStmt {
                words: vec![a, b],
                ..Default::default()
            };
            for o in opts {
                match o {
                    Opt::Effect(e) => pair.effect = Some(e),
                    Opt::Enter => pair.enter = true,
                    _ => {}
                }
            }
            L::Pair(pair)
        })
    }

    /// `frail FROM -> TO, …`: the leftovers of crumbled things.
    fn frail_stmt(&mut self, args: &[T], stmt_end: usize) -> Option<L> {
        let entry = name("a noun")
            .then_ignore(tok(K::Arrow, "->"))
            .then(name("a noun"));
        let p = entry.separated_by(tok(K::Comma, ",")).collect::<Vec<_>>();
        self.run_grammar(p, args, stmt_end).map(L::Frail)
    }
}
