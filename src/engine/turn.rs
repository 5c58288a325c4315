//! The turn (§6): rejection, the ten steps, and the settled state.

use super::game::Game;
use super::parse::Rules;
use super::report::*;
use super::scratch::{Channels, NONE, Scratch, Walk, relink_lists};
use super::state::{self, State};
use super::vocab::{FLOAT, FRAIL, GOAL, PUSH, STOP, Tok, YOU};
use std::sync::Arc;

/// Adds a parse's rules to the turn's formed set, kept sorted so the solver
/// can binary-search it (§10.5).
fn union(into: &mut Vec<(Tok, Tok)>, from: &[(Tok, Tok)]) {
    if into.is_empty() {
        // A parse's pairs are already sorted and distinct.
        into.extend_from_slice(from);
        return;
    }
    into.extend_from_slice(from);
    into.sort_unstable();
    into.dedup();
}

/// Records one parse point of the turn: its rules join the formed set, and
/// when they differ from the turn start's, the turn changed the rules and
/// every start rule the parse lacks was broken (§10.5).
fn note_parse(rep: &mut TurnReport, start: &Rules, rules: &Rules) {
    union(&mut rep.formed, &rules.pairs);
    if rules.pairs == start.pairs {
        return;
    }
    rep.rules_changed = true;
    for r in &start.pairs {
        if rules.pairs.binary_search(r).is_err() && rep.broken.binary_search(r).is_err() {
            rep.broken.push(*r);
            rep.broken.sort_unstable();
        }
    }
}

impl Game {
    /// Restores the working copy from the turn start kept in `sc.t0` (the
    /// state of the last [`Game::prepare`]) and lends its parse to the turn.
    fn restore_start(&self, sc: &mut Scratch) -> Result<(Arc<Rules>, Channels), Rejection> {
        if let Some(r) = sc.t0.rejected {
            return Err(r);
        }
        // Taken, not cloned (no reference-count traffic); the turn puts it
        // back when it ends. Missing only when nothing was prepared.
        let Some(rules) = sc.t0.rules.take() else {
            return Err(Rejection::NoYou);
        };
        if std::mem::take(&mut sc.t0.fresh) {
            // The first turn after step 1: the working copy is still the
            // one step 1 built.
            return Ok((rules, sc.t0.pressed));
        }
        let t0 = &sc.t0;
        sc.ents.clear();
        sc.ents.extend_from_slice(&sc.start);
        sc.phases.clear();
        sc.phases.extend(
            (0..self.automata.len()).map(|i| state::phase_at(&t0.words, self.ents.len(), i)),
        );
        sc.head.clone_from(&t0.head);
        sc.next.clone_from(&t0.next);
        sc.movers.clone_from(&t0.movers);
        Ok((rules, t0.pressed))
    }

    /// Step 1: unpacks `s`, parses it, finds the YOU things, records the
    /// start of the turn and indexes the cells; outside reference mode it
    /// also keeps all of it in `sc.t0` for every turn from this state.
    fn turn_start(&self, s: &[u32], sc: &mut Scratch) -> Result<(Arc<Rules>, Channels), Rejection> {
        let n = self.ents.len();
        sc.t0.words.clear();
        sc.t0.rules = None;
        sc.t0.rejected = None;
        sc.t0.fresh = false;
        sc.t0.walk = None;
        state::unpack_into(s, n, self.automata.len(), &mut sc.ents, &mut sc.phases);
        let rules0 = self.parse_cached(sc);
        // One pass for the YOU things and, for the contact step, the YOU or
        // GOAL things.
        sc.movers.clear();
        sc.t0.contact_things.clear();
        let (movers, things) = (&mut sc.movers, &mut sc.t0.contact_things);
        let mut classify = |i: usize, e: &state::Ent| {
            let p = self.ent_props(&rules0, i, e);
            if p & YOU != 0 {
                movers.push(i as u16);
            }
            if p & (YOU | GOAL) != 0 {
                things.push(i as u16);
            }
        };
        if !sc.reference && state::same_nouns(&sc.ents, &self.init_ents) {
            // Every thing is live with its reset noun (the usual case): only
            // the things of nouns that are YOU or GOAL need looking at
            // (words are only PUSH).
            for (noun, &p) in rules0.props.iter().enumerate() {
                if p & (YOU | GOAL) != 0 {
                    for &i in self.things_by_noun.get(noun).into_iter().flatten() {
                        classify(usize::from(i), &sc.ents[usize::from(i)]);
                    }
                }
            }
            movers.sort_unstable();
            things.sort_unstable();
        } else {
            for (i, e) in sc.ents.iter().enumerate().filter(|(_, e)| e.alive()) {
                classify(i, e);
            }
        }
        if sc.movers.is_empty() {
            return Err(Rejection::NoYou);
        }
        sc.start.clear();
        sc.start.extend_from_slice(&sc.ents);
        sc.frail_start.clear();
        if rules0.any_props & FRAIL == 0 && !sc.reference {
            // No noun is FRAIL: nothing can crumble this turn (step 6 only
            // considers things FRAIL at the start of the turn).
            sc.frail_start.resize(n, false);
            sc.any_frail = false;
        } else {
            for i in 0..n {
                let e = sc.ents[i];
                sc.frail_start
                    .push(e.alive() && self.ent_props(&rules0, i, &e) & FRAIL != 0);
            }
            sc.any_frail = sc.frail_start.contains(&true) || sc.reference;
        }
        self.grid(sc);
        // Only the gate step reads the pressed channels, and it runs only on
        // levels with channels.
        let pressed = if self.has_channels {
            self.pressed(sc)
        } else {
            [0; 4]
        };
        if !sc.reference {
            let t0 = &mut sc.t0;
            t0.words.extend_from_slice(s);
            t0.stamp = self.stamp;
            t0.head.clone_from(&sc.head);
            t0.next.clone_from(&sc.next);
            t0.movers.clone_from(&sc.movers);
            t0.pressed = pressed;
            t0.fresh = true;
            sc.t0.walk = self.walk(sc, &rules0);
        }
        Ok((rules0, pressed))
    }

    /// Step 1 for `s` by updating the prepared turn start, when `s` is that
    /// state or differs from it only in where some things stand (or gates'
    /// `open` flags): the
    /// usual case for a search, whose consecutive states are often siblings.
    /// Words, nouns and what is live are the same, so the parse, the YOU and
    /// GOAL things and the FRAIL flags stand; only the moved things are
    /// relinked in the cell index, and the channels and the plain walk are
    /// worked out again. `false` (nothing changed) when that does not apply.
    fn turn_start_moved(&self, s: &[u32], sc: &mut Scratch) -> bool {
        let n = self.ents.len();
        let t0 = &sc.t0;
        if sc.reference
            || t0.stamp != self.stamp
            || t0.rules.is_none()
            || t0.rejected.is_some()
            || t0.words.len() != s.len()
            || sc.start.len() != n
        {
            return false;
        }
        // The changed entities, found a block of eight words at a time.
        const MOST: usize = 8;
        let mut changed = [0usize; MOST];
        let mut count = 0;
        for (b, (old, new)) in t0.words.chunks(8).zip(s.chunks(8)).enumerate() {
            // Whole blocks compare as arrays: one inline vector comparison.
            if let (Ok(a), Ok(w)) = (<&[u32; 8]>::try_from(old), <&[u32; 8]>::try_from(new)) {
                if a == w {
                    continue;
                }
            } else if old == new {
                continue;
            }
            for (k, (&a, &w)) in old.iter().zip(new).enumerate() {
                if a == w {
                    continue;
                }
                let i = b * 8 + k;
                if i >= n
                    || count == MOST
                    || self.flags[i] & super::game::F_WORD != 0
                    || !state::same_live_noun(a, w)
                {
                    return false;
                }
                changed[count] = i;
                count += 1;
            }
        }
        if count == 0 {
            return true;
        }
        let width = usize::from(self.width);
        let t0 = &mut sc.t0;
        for &i in &changed[..count] {
            let old = sc.start[i];
            let new = state::Ent::from_word(s[i]);
            sc.start[i] = new;
            let from = usize::from(old.y()) * width + usize::from(old.x());
            let to = usize::from(new.y()) * width + usize::from(new.x());
            if from != to {
                relink_lists(&mut t0.head, &mut t0.next, i, from, to);
            }
        }
        t0.words.copy_from_slice(s);
        // Channels and the plain walk read the working copy: lend it the
        // turn start for a moment.
        std::mem::swap(&mut sc.ents, &mut sc.start);
        std::mem::swap(&mut sc.head, &mut sc.t0.head);
        std::mem::swap(&mut sc.next, &mut sc.t0.next);
        sc.movers.clone_from(&sc.t0.movers);
        let pressed = if self.has_channels {
            self.pressed(sc)
        } else {
            [0; 4]
        };
        let rules = sc.t0.rules.take();
        let walk = rules.as_deref().and_then(|r| self.walk(sc, r));
        sc.t0.rules = rules;
        std::mem::swap(&mut sc.ents, &mut sc.start);
        std::mem::swap(&mut sc.head, &mut sc.t0.head);
        std::mem::swap(&mut sc.next, &mut sc.t0.next);
        let t0 = &mut sc.t0;
        t0.pressed = pressed;
        t0.walk = walk;
        // The working copy is whatever the last turn left: restore it.
        t0.fresh = false;
        true
    }

    /// The plain walk of the state step 1 just built in `sc`, if it has one.
    fn walk(&self, sc: &Scratch, rules0: &Rules) -> Option<Walk> {
        // SINK, DEFEAT, FRAIL and channels need no exclusion: a settled
        // state has no SINK or DEFEAT contact left to resolve and its gates
        // are as the gate step leaves them, and a walk from a cell where the
        // mover is alone into an empty one brings nothing together, parts
        // nothing (no crumbling) and presses or frees no plate.
        let simple = self.automata.is_empty()
            && self.pairs.is_empty()
            && rules0.transforms.is_empty()
            && rules0.any_props & FLOAT == 0;
        let &[mover] = &sc.movers[..] else {
            return None;
        };
        if !simple || self.shares(sc, usize::from(mover)) {
            return None;
        }
        let props = |i: usize| self.ent_props(rules0, i, &sc.ents[i]);
        let things = sc.t0.contact_things.iter().map(|&i| usize::from(i));
        let (win, goals) = self.win_and_goals(sc, things, props);
        Some(Walk { mover, win, goals })
    }

    /// The turn for `input` when it is the state's plain walk (see [`Walk`]):
    /// the successor's words are the state's with the mover's cell changed;
    /// or, when the move is refused by the edge or by a STOP thing met
    /// before any PUSH thing in the target cell, the rejection `plan` gives
    /// (§5.1; the level has no gates and no pairs). `None` when the turn
    /// is neither: it needs the full turn. With `detail`, the mover's own
    /// move is the turn's one event, as the full turn would report it.
    fn plain_walk(
        &self,
        input: Input,
        sc: &Scratch,
        detail: bool,
        rep: &mut TurnReport,
        out: &mut Vec<u32>,
    ) -> Option<Result<(), Rejection>> {
        let t0 = &sc.t0;
        let walk = t0.walk?;
        let (dx, dy) = input.delta()?;
        let rules = t0.rules.as_deref()?;
        let mover = usize::from(walk.mover);
        let mut e = sc.start[mover];
        let x = i32::from(e.x()) + i32::from(dx);
        let y = i32::from(e.y()) + i32::from(dy);
        let refuse = |rep: &mut TurnReport, reason, blocker| {
            rep.blocked.push(Blocked {
                id: walk.mover,
                dir: input,
                reason,
                blocker,
            });
            Some(Err(Rejection::Blocked))
        };
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            return refuse(rep, BlockReason::Edge, None);
        }
        let mut o = t0.head[y as usize * usize::from(self.width) + x as usize];
        if o != NONE {
            // Occupants in id order, as `plan` meets them: a closed gate
            // refuses the move; a PUSH thing needs the full turn; a STOP
            // thing before it refuses the move.
            while o != NONE {
                let oi = usize::from(o);
                let occupant = sc.start[oi];
                if self.is_gate(oi, &occupant) && !occupant.open() {
                    return refuse(rep, BlockReason::Gate, Some(o));
                }
                let p = self.ent_props(rules, oi, &occupant);
                if p & PUSH != 0 {
                    return None;
                }
                if p & STOP != 0 {
                    return refuse(rep, BlockReason::Stop, Some(o));
                }
                o = t0.next[oi];
            }
            // Entering an occupied cell changes what WIN and GOAL see.
            return None;
        }
        let from = (e.x(), e.y());
        e.set_cell(x as u8, y as u8);
        if detail {
            rep.moved.push(Moved {
                id: walk.mover,
                from,
                to: (e.x(), e.y()),
                by: By::Player,
                pushed: false,
            });
        }
        let base = out.len();
        out.extend_from_slice(&t0.words);
        out[base + mover] = e.pack();
        if let Some(last) = out.last_mut() {
            *last = u32::from(walk.win);
        }
        rep.formed.extend_from_slice(&rules.pairs);
        rep.goals = walk.goals;
        rep.won = walk.win;
        Some(Ok(()))
    }

    /// Step 1 for every turn that will start from packed state `s` (a
    /// solver tries each input on a state in a row): unpacks, parses and
    /// indexes it once, for [`Game::step_prepared`]. Does nothing when `s`
    /// is already the prepared state. An error is the rejection every input
    /// from `s` gets (the play is won, or no YOU thing exists).
    pub fn prepare(&self, s: &[u32], sc: &mut Scratch) -> Result<(), Rejection> {
        if sc.reference {
            sc.t0 = Default::default();
            sc.t0.words.extend_from_slice(s);
            sc.t0.stamp = self.stamp;
            return Ok(());
        }
        // The same state, or one whose things only moved: the prepared turn
        // start stands or is updated (a won state is never prepared, so
        // it cannot be either).
        if self.turn_start_moved(s, sc) {
            return Ok(());
        }
        if state::won(s) {
            sc.t0.words.clear();
            sc.t0.words.extend_from_slice(s);
            sc.t0.stamp = self.stamp;
            sc.t0.rules = None;
            sc.t0.rejected = Some(Rejection::Won);
            return Err(Rejection::Won);
        }
        match self.turn_start(s, sc) {
            Ok((rules, _)) => {
                sc.t0.rules = Some(rules);
                Ok(())
            }
            Err(r) => {
                sc.t0.rejected = Some(r);
                Err(r)
            }
        }
    }

    /// One input on a state (§6): the engine's single turn function.
    pub fn step(&self, s: &State, input: Input) -> TurnResult {
        let mut sc = Scratch::default();
        self.step_with(s, input, &mut sc, true)
    }

    /// [`Game::step`] with reusable buffers. With `detail` false the event
    /// lists of the report (`moved`, `transformed`, …) are left empty; the
    /// flags, `goals`, `blocked` and `formed` are always filled. This is the
    /// solver's entry point.
    pub fn step_with(&self, s: &State, input: Input, sc: &mut Scratch, detail: bool) -> TurnResult {
        let mut rep = TurnReport::default();
        match self.step_into(s, input, sc, detail, &mut rep) {
            Ok(state) => TurnResult::Accepted {
                state,
                report: Box::new(rep),
            },
            Err(reason) => TurnResult::Rejected {
                reason,
                blocked: rep.blocked,
            },
        }
    }

    /// The turn function with a caller-owned report, for solvers that step
    /// millions of times: `rep` is cleared and refilled (its buffers are
    /// reused). On rejection `rep.blocked` holds the `blocked` list.
    pub fn step_into(
        &self,
        s: &State,
        input: Input,
        sc: &mut Scratch,
        detail: bool,
        rep: &mut TurnReport,
    ) -> Result<State, Rejection> {
        let mut out = Vec::with_capacity(s.data.len());
        self.step_words(&s.data, input, sc, detail, rep, &mut out)?;
        Ok(State {
            data: out.into_boxed_slice(),
        })
    }

    /// [`Game::step_into`] on packed words ([`State::words`] of a state of
    /// this game): on acceptance the successor's words are appended to
    /// `out`, so a solver can keep states in one flat buffer and never
    /// allocate one per turn. On rejection `out` is left as it was.
    pub fn step_words(
        &self,
        s: &[u32],
        input: Input,
        sc: &mut Scratch,
        detail: bool,
        rep: &mut TurnReport,
        out: &mut Vec<u32>,
    ) -> Result<(), Rejection> {
        if sc.reference {
            // Reference mode: step 1 in full on every turn, nothing kept.
            rep.clear();
            if state::won(s) {
                return Err(Rejection::Won);
            }
            let (rules0, pressed) = self.turn_start(s, sc)?;
            return self.turn(rules0, pressed, input, sc, detail, rep, out);
        }
        if let Err(r) = self.prepare(s, sc) {
            rep.clear();
            return Err(r);
        }
        self.step_prepared(input, sc, detail, rep, out)
    }

    /// The turn for `input` from the state of the last successful
    /// [`Game::prepare`] on `sc` (as [`Game::step_words`] from that state,
    /// without comparing the state again). When the last prepare failed, it
    /// gives the same rejection; when `sc` was never prepared for this game,
    /// every input is rejected as [`Rejection::NoYou`].
    pub fn step_prepared(
        &self,
        input: Input,
        sc: &mut Scratch,
        detail: bool,
        rep: &mut TurnReport,
        out: &mut Vec<u32>,
    ) -> Result<(), Rejection> {
        rep.clear();
        if sc.t0.stamp != self.stamp {
            // Prepared for another game (or not at all): nothing to move.
            return Err(Rejection::NoYou);
        }
        if sc.reference {
            let words = std::mem::take(&mut sc.t0.words);
            let r = self.step_words(&words, input, sc, detail, rep, out);
            sc.t0.words = words;
            return r;
        }
        sc.walked = None;
        if sc.t0.rejected.is_none() {
            if let Some(result) = self.plain_walk(input, sc, detail, rep, out) {
                if result.is_ok() {
                    sc.walked = sc.t0.walk.map(|w| w.mover);
                }
                return result;
            }
        }
        let (rules0, pressed) = self.restore_start(sc)?;
        self.turn(rules0, pressed, input, sc, detail, rep, out)
    }

    /// Steps 2 to 10 of a turn whose step 1 left the working copy in `sc`.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &self,
        rules0: Arc<Rules>,
        pressed_start: Channels,
        input: Input,
        sc: &mut Scratch,
        detail: bool,
        rep: &mut TurnReport,
        out: &mut Vec<u32>,
    ) -> Result<(), Rejection> {
        let n = self.ents.len();
        for v in [&mut sc.planned, &mut sc.in_t, &mut sc.moved] {
            v.clear();
            v.resize(n, false);
        }
        let mut blocked = std::mem::take(&mut rep.blocked);

        // Step 2: YOU phase.
        if input != Input::Wait {
            let (any, wm) =
                self.move_phase(sc, &rules0, input, By::Player, detail, rep, &mut blocked);
            if !any {
                rep.blocked = blocked;
                if !sc.reference {
                    sc.t0.rules = Some(rules0);
                }
                return Err(Rejection::Blocked);
            }
            rep.word_moved = wm;
            rep.word_moved_by_you = wm;
        }
        rep.blocked = blocked;

        // Step 3: parse 1 and transform. Unmoved words give the same parse.
        let mut reparsed = (rep.word_moved || sc.reference).then(|| self.parse_cached(sc));
        let rules: &Rules = reparsed.as_deref().unwrap_or(&rules0);
        note_parse(rep, &rules0, rules);
        self.transform(sc, rules, When::AfterMove, &mut rep.transformed);

        // Step 4: automata.
        let (running, auto_word_moved) = self.automata_beat(sc, rules, detail, rep);
        rep.word_moved |= auto_word_moved;

        // Step 5: parse 2 (the same rules when no word moved since parse 1).
        let parse2 = running && (auto_word_moved || sc.reference);
        if parse2 {
            reparsed = Some(self.parse_cached(sc));
        }
        let rules: &Rules = reparsed.as_deref().unwrap_or(&rules0);
        if parse2 {
            note_parse(rep, &rules0, rules);
        }
        if running {
            self.transform(sc, rules, When::AfterAutomata, &mut rep.transformed);
        }
        let transformed = !rep.transformed.is_empty();
        if !detail {
            rep.transformed.clear();
        }

        // Step 6: crumble.
        let (removed, crumbled) = self.crumble(sc, rules, detail, rep);

        // Step 7: contacts. When no noun changed, nothing was removed and the
        // parse is the turn start's, every thing has the properties it had
        // at the start of the turn: the start's YOU and GOAL things are the
        // ones WIN and GOAL need, and a YOU thing is certainly left.
        let unchanged = !sc.reference && reparsed.is_none() && !transformed && !crumbled;
        let things = std::mem::take(&mut sc.t0.contact_things);
        let (win, goals, cremoved, word_removed) = self.contacts(
            sc,
            rules,
            unchanged.then_some(&things[..]),
            &mut rep.destroyed,
        );
        sc.t0.contact_things = things;
        if !detail {
            rep.destroyed.clear();
        }
        rep.goals = goals;
        if cremoved {
            self.grid(sc);
        }

        // Step 8: gates.
        self.gate_step(sc, &pressed_start, detail, rep);

        // Step 9: re-parse after removals (only a removed word can change it).
        let parse3 = word_removed || (sc.reference && (removed || cremoved));
        if parse3 {
            reparsed = Some(self.parse_cached(sc));
        }
        let rules: &Rules = reparsed.as_deref().unwrap_or(&rules0);
        if parse3 {
            note_parse(rep, &rules0, rules);
        }

        // Step 10: settle.
        // Only whether a YOU thing is left matters here: the next turn
        // finds its movers itself. When nothing changed any thing's
        // properties or removed one, the start's YOU things are all left.
        let may_lose = !unchanged || cremoved;
        rep.lost_control = may_lose
            && !sc
                .ents
                .iter()
                .enumerate()
                .any(|(i, e)| e.alive() && self.ent_props(rules, i, e) & YOU != 0);
        rep.won = win;
        if !sc.reference {
            sc.t0.rules = Some(rules0);
        }
        state::pack_into(&sc.ents, &sc.phases, win, out);
        Ok(())
    }
}
