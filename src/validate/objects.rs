//! Stage 2 on a level's objects: ids, bounds, nouns, fixed words, and the
//! channels that link plates to gates.

use std::collections::{BTreeMap, HashMap};

use super::limits::{self, is_reserved};
use super::suggest::{did_you_mean, or_list};
use super::{Lv, Validator};
use crate::model::{Kind, Named, Object};
use crate::span::Span;

/// Plates and gates counted per channel colour, in colour order.
type Channels<'a> = BTreeMap<&'a str, (usize, usize)>;

impl Validator {
    /// Every object's checks in board order, then each channel's plates and gates.
    pub(super) fn objects(&mut self, lv: &Lv<'_>) {
        let mut seen_ids: HashMap<&str, usize> = HashMap::new();
        let mut channels: Channels<'_> = BTreeMap::new();
        for (j, o) in lv.level.objects.iter().enumerate() {
            self.object_id(lv, j, o, &mut seen_ids);
            self.object_bounds(lv, j, o);
            let ok = self.object_noun(lv, j, o);
            match o.kind {
                Kind::Word => self.word_channel(lv, j, o),
                Kind::Thing => self.thing(lv, j, o, ok, &mut channels),
            }
        }
        self.channel_pairs(lv, &channels);
    }

    /// M210: an object id used twice.
    fn object_id<'a>(
        &mut self,
        lv: &Lv<'_>,
        j: usize,
        o: &'a Object,
        seen_ids: &mut HashMap<&'a str, usize>,
    ) {
        let path = format!(".objects[{j}]");
        let name = &lv.name;
        if !o.id.is_empty() {
            if let Some(&first) = seen_ids.get(o.id.as_str()) {
                let d = self.level_diag(
                    lv,
                    "M210",
                    o.span,
                    &format!("{path}.id"),
                    format!("Level {name}: two objects are called {} (objects {first} and {j}). Each needs its own id.", o.id),
                );
                self.emit(d.with_cell(o.x, o.y));
            } else {
                seen_ids.insert(&o.id, j);
            }
        }
    }

    /// M214: an object outside the board.
    fn object_bounds(&mut self, lv: &Lv<'_>, j: usize, o: &Object) {
        let path = format!(".objects[{j}]");
        let name = &lv.name;
        let (w, h) = (lv.level.width, lv.level.height);
        if o.x >= w || o.y >= h {
            let what = match o.kind {
                Kind::Word => format!("the word {}", o.text),
                Kind::Thing => format!("the {}", o.text),
            };
            let d = self.level_diag(
                lv,
                "M214",
                o.span,
                &path,
                format!(
                    "Level {name}: {what} at column {}, row {} is outside the {w}×{h} board.",
                    o.x, o.y
                ),
            );
            self.emit(d.with_cell(o.x, o.y));
        }
    }

    /// M207 for an object's word or noun; whether it is one.
    fn object_noun(&mut self, lv: &Lv<'_>, j: usize, o: &Object) -> bool {
        let path = format!(".objects[{j}]");
        let lid = Some(lv.level.id.text.as_str());
        if o.kind == Kind::Thing && o.legend != Span::default() {
            self.legend_noun(lv, o, lv.path(&format!("{path}.noun")), lid)
        } else {
            let field = if o.kind == Kind::Word { "text" } else { "noun" };
            let word = Named {
                text: o.text.clone(),
                span: o.written(),
            };
            let ok = self.token(
                &word,
                lv.level.span,
                lv.path(&format!("{path}.{field}")),
                lid,
            );
            if let Some(last) = self.diags.last_mut()
                && !ok
            {
                last.cells.push((o.x, o.y));
            }
            ok
        }
    }

    /// M204: a word tile with a channel.
    fn word_channel(&mut self, lv: &Lv<'_>, j: usize, o: &Object) {
        let path = format!(".objects[{j}]");
        let i = lv.i;
        if o.channel.is_some() {
            let d = self.level_diag(
                lv,
                "M204",
                o.span,
                &format!("{path}.channel"),
                format!("levels[{i}]{path}.channel: unsupported field."),
            );
            self.emit(d.with_cell(o.x, o.y));
        }
    }

    /// A thing: a core word as its noun (M208), fixed (M204), and its channel.
    fn thing<'a>(
        &mut self,
        lv: &Lv<'_>,
        j: usize,
        o: &'a Object,
        ok: bool,
        channels: &mut Channels<'a>,
    ) {
        let path = format!(".objects[{j}]");
        let name = &lv.name;
        let i = lv.i;
        if ok && is_reserved(&o.text) {
            let d = self.level_diag(
                lv,
                "M208",
                o.span,
                &format!("{path}.noun"),
                format!("Level {name}, column {}, row {}: a thing can't be called {t}; {t} is a core word.", o.x, o.y, t = o.text),
            );
            self.emit(d.with_cell(o.x, o.y));
        }
        // A thing named after an automaton property is M302, a stage 3
        // error: reporting it here as M208 would gate stage 3 and hide it.
        if o.fixed {
            let d = self.level_diag(
                lv,
                "M204",
                o.span,
                &format!("{path}.fixed"),
                format!(
                    "levels[{i}]{path}.fixed: unsupported field. Only word tiles can be fixed."
                ),
            );
            self.emit(d.with_cell(o.x, o.y));
        }
        self.thing_channel(lv, j, o, channels);
    }

    /// A thing's channel: only plates and gates have one (M245, M246), of a
    /// known colour (M244); counted per colour for [`Self::channel_pairs`].
    fn thing_channel<'a>(
        &mut self,
        lv: &Lv<'_>,
        j: usize,
        o: &'a Object,
        channels: &mut Channels<'a>,
    ) {
        let path = format!(".objects[{j}]");
        let name = &lv.name;
        let gateish = limits::CHANNEL_NOUNS.contains(&o.text.as_str());
        match &o.channel {
            Some(_) if !gateish => {
                let d = self.level_diag(
                    lv,
                    "M245",
                    o.span,
                    &format!("{path}.channel"),
                    format!(
                        "Level {name}, {} at column {}, row {} has a channel, but only plates and gates are linked by channels.",
                        o.text, o.x, o.y
                    ),
                );
                self.emit(d.with_cell(o.x, o.y));
            }
            Some(c) => {
                if limits::CHANNELS.contains(&c.as_str()) {
                    let e = channels.entry(c.as_str()).or_default();
                    if o.text == "PLATE" {
                        e.0 += 1;
                    } else {
                        e.1 += 1;
                    }
                } else {
                    let sugg = did_you_mean(c, limits::CHANNELS);
                    let mean = if sugg.is_empty() {
                        format!(" The channels are {}.", limits::CHANNELS.join(", "))
                    } else {
                        format!(" Did you mean {}?", or_list(&sugg))
                    };
                    let d = self.level_diag(
                        lv,
                        "M244",
                        o.span,
                        &format!("{path}.channel"),
                        format!(
                            "Level {name}, {} at column {}, row {}: channel {c} isn't a channel colour.{mean}",
                            o.text, o.x, o.y
                        ),
                    );
                    self.emit(d.with_cell(o.x, o.y));
                }
            }
            None if gateish => {
                let d = self.level_diag(
                    lv,
                    "M246",
                    o.span,
                    &path,
                    format!(
                        "Level {name}, the {} at column {}, row {} has no channel, so {}.",
                        o.text,
                        o.x,
                        o.y,
                        if o.text == "GATE" {
                            "no plate opens it"
                        } else {
                            "it opens no gate"
                        }
                    ),
                );
                self.emit(d.with_cell(o.x, o.y));
            }
            None => {}
        }
    }

    /// M247: a channel with plates and no gate, or a gate and no plate.
    fn channel_pairs(&mut self, lv: &Lv<'_>, channels: &Channels<'_>) {
        let name = &lv.name;
        for (c, (plates, gates)) in channels {
            let msg = match (plates, gates) {
                (p, 0) if *p > 0 => format!(
                    "Level {name}: the {c} channel has plates but no gate, so pressing them does nothing."
                ),
                (0, g) if *g > 0 => format!(
                    "Level {name}: the {c} channel has a gate but no plate, so the gate never opens."
                ),
                _ => continue,
            };
            let d = self.level_diag(lv, "M247", lv.level.board_span, ".objects", msg);
            self.emit(d);
        }
    }
}
