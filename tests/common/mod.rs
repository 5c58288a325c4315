//! Helpers shared by the integration tests.

use miau::model::Pack;
use miau::span::Span;

/// The model without source positions, which formatting is allowed to move.
pub fn strip(mut p: Pack) -> Pack {
    let z = Span::default();
    p.span = z;
    if let Some(w) = &mut p.world {
        w.span = z;
    }
    for e in &mut p.palette {
        e.span = z;
        e.noun.span = z;
    }
    for e in &mut p.glossary {
        e.span = z;
        e.word.span = z;
    }
    for v in &mut p.vocabulary {
        v.span = z;
    }
    for a in &mut p.allow {
        a.span = z;
        a.code.span = z;
    }
    for l in &mut p.levels {
        l.span = z;
        l.board_span = z;
        l.id.span = z;
        if let Some(c) = &mut l.category {
            c.span = z;
        }
        for w in l.introduces.words.iter_mut().chain(&mut l.reuses.words) {
            w.span = z;
        }
        for t in &mut l.terrain {
            t.span = z;
        }
        for a in &mut l.automata {
            a.span = z;
            a.id.span = z;
            a.property.span = z;
            if let Some(s) = &mut a.subject {
                s.span = z;
            }
        }
        for pr in &mut l.pairs {
            pr.span = z;
            for w in &mut pr.words {
                w.span = z;
            }
        }
        if let Some(f) = &mut l.frail {
            f.span = z;
            for (a, b) in &mut f.leaves {
                a.span = z;
                b.span = z;
            }
        }
        let c = &mut l.check;
        for a in c
            .allow
            .iter_mut()
            .chain(c.allow_bypass.as_mut())
            .chain(c.allow_hands_off.as_mut())
        {
            a.span = z;
            a.code.span = z;
        }
        for m in &mut c.must_form {
            m.span = z;
        }
        if let Some(s) = &mut c.solution {
            s.span = z;
        }
        for o in &mut l.objects {
            o.span = z;
        }
    }
    p
}
