//! The editor's playable preview (`miau/level`, `miau/step`): a level played
//! along a route, one action more, drawn by [`crate::render`].
//!
//! Stateless on purpose: the client keeps the route and sends it with every
//! request, so the preview survives edits (the route is replayed on the new
//! text, and cut where it stops applying) and never depends on which
//! requests the server saw before.

use super::Analysis;
use crate::render::{Options, Scene};
use crate::session::{Action, Outcome, Session};

/// Longest route a request may carry (the loader's solution limit is far below).
pub const MAX_ROUTE: usize = 100_000;

/// One picture of the preview and what goes with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The level id.
    pub level: String,
    /// The level's title (or its id).
    pub title: String,
    /// Every level id of the document, in order.
    pub levels: Vec<String>,
    /// The board as SVG.
    pub svg: String,
    /// Accepted turns.
    pub turn: usize,
    /// Whether the play is won.
    pub won: bool,
    /// The route that reaches this picture (send it back with the next step).
    pub route: String,
    /// What the last turn did.
    pub events: Vec<String>,
    /// The active rules, `SUBJECT IS PREDICATE`.
    pub rules: Vec<String>,
    /// Why the route was cut, or what the action did (`undone`, a refusal).
    pub message: Option<String>,
    /// The level's recorded solution, if any.
    pub solution: Option<String>,
}

/// The preview of level `id` after `route` and then `action`; `None` when the
/// document has no such level.
pub fn preview(a: &Analysis, id: &str, route: &str, action: Option<Action>) -> Option<Preview> {
    let pack = a.pack()?;
    let level = pack.level(id)?;
    // Only the end of the route is drawn: the play keeps no history (a
    // 100,000-move route costs one board), and the route is kept as letters.
    let letters: String = route
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(MAX_ROUTE)
        .collect();
    let mut session = Session::last_only(level);
    let mut message = session
        .play_route(&letters)
        .err()
        .map(|(n, why)| format!("the route stops applying at input {n}: {why}"));
    // The inputs that applied: a prefix of the route (play stops at the first refusal).
    let mut played: String = letters.chars().take(session.turns()).collect();
    match action {
        Some(Action::Undo) if played.is_empty() => message = Some(Outcome::NothingToUndo.message()),
        Some(Action::Undo) => {
            played.pop();
            session = Session::last_only(level);
            let _ = session.play_route(&played);
            message = Some(Outcome::Undone.message());
        }
        Some(act) => {
            let out = session.apply(act);
            match (act, &out) {
                (Action::Input(input), Outcome::Accepted) => played.push(input.letter()),
                (Action::Restart, _) => played.clear(),
                _ => {}
            }
            if out != Outcome::Accepted {
                message = Some(out.message());
            }
        }
        None => {}
    }
    let scene = Scene::new(pack, level, session.game());
    let svg = scene.svg(
        session.current(),
        &Options {
            note: message.clone(),
            min_height: 0,
        },
    );
    let snap = session.current();
    Some(Preview {
        level: id.to_string(),
        title: level.title.clone().unwrap_or_else(|| id.to_string()),
        levels: pack.levels.iter().map(|l| l.id.text.clone()).collect(),
        svg,
        turn: snap.turn,
        won: snap.state.won(),
        route: played.to_uppercase(),
        events: snap.events.clone(),
        rules: session.rules().into_iter().map(|r| r.0).collect(),
        message,
        solution: level.check.solution.as_ref().map(|s| s.text.clone()),
    })
}

/// The action a client names: `U D L R W`, `undo` or `restart`.
pub fn parse_action(s: &str) -> Option<Action> {
    match s {
        "undo" => Some(Action::Undo),
        "restart" => Some(Action::Restart),
        _ => {
            let mut cs = s.chars();
            let c = cs.next()?;
            if cs.next().is_some() {
                return None;
            }
            crate::engine::Input::from_char(c).map(Action::Input)
        }
    }
}
