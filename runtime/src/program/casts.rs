//! Compiling the pack's `casts` section: NPC ids resolved, parameters range-checked with
//! their JSON paths, durations turned into ticks.

use std::collections::HashMap;

use super::ctx::{Ctx, ticks_for};
use super::short;
use crate::expr::Resolver;
use crate::pack::diag::{index, key};
use crate::pack::{CastDef, Diagnostic, Personality};
use crate::value::Sym;

/// Names of the conversation signals exchanged through the `talk` inbox, by [`Msg`] order.
pub const MSG_NAMES: [&str; 9] = [
    "speak_start",
    "speak_end",
    "pre_trp",
    "trp",
    "feedback",
    "feedback_negative",
    "claim",
    "join",
    "leave",
];

/// The inbox that carries conversation signals between characters.
pub const INBOX: &str = "talk";

/// A conversation signal (the seed's Figure 1), sent as a message through the `talk` inbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    SpeakStart = 0,
    SpeakEnd = 1,
    PreTrp = 2,
    Trp = 3,
    Feedback = 4,
    FeedbackNegative = 5,
    /// A turn-claiming signal (posture shift towards the speaker).
    Claim = 6,
    /// "I am joining your group."
    Join = 7,
    /// "I am leaving your group."
    Leave = 8,
}

impl Msg {
    pub(crate) const ALL: [Msg; 9] = [
        Msg::SpeakStart,
        Msg::SpeakEnd,
        Msg::PreTrp,
        Msg::Trp,
        Msg::Feedback,
        Msg::FeedbackNegative,
        Msg::Claim,
        Msg::Join,
        Msg::Leave,
    ];
}

/// A cast, compiled.
#[derive(Clone, Debug)]
pub struct CastInfo {
    pub id: String,
    pub position_aware: bool,
    pub join_radius: f64,
    pub hearing_radius: f64,
    pub planner_ticks: u64,
    pub cycle_ticks: u64,
    pub inactive_ticks: u64,
    pub default: Personality,
    /// Personalities of listed NPCs, sorted by NPC index.
    pub members: Vec<(u32, Personality)>,
}

impl CastInfo {
    /// The personality an NPC has in this cast (the cast default if it is not listed).
    pub fn personality(&self, npc: u32) -> Personality {
        match self.members.binary_search_by_key(&npc, |m| m.0) {
            Ok(k) => self.members[k].1,
            Err(_) => self.default,
        }
    }
}

/// Everything the conversation layer needs from the pack.
#[derive(Clone, Debug, Default)]
pub struct TalkProgram {
    pub casts: Vec<CastInfo>,
    /// The `talk` inbox.
    pub inbox: Sym,
    /// Message kinds, by [`Msg`] order.
    pub msg: [Sym; 9],
    /// Seconds per tick.
    pub dt: f64,
}

impl TalkProgram {
    pub(crate) fn msg_of(&self, s: Sym) -> Option<Msg> {
        self.msg.iter().position(|&m| m == s).map(|k| Msg::ALL[k])
    }
    /// Seconds as ticks by the runtime's one rule ([`ticks_for`]), at least one: every
    /// conversation timing must let a tick pass.
    pub fn ticks(&self, seconds: f64) -> u64 {
        ticks_for(seconds, self.dt).max(1)
    }
}

const PARAMS: [&str; 5] = [
    "talkativeness",
    "transparency",
    "confidence",
    "interactivity",
    "verbosity",
];

fn param(p: &mut Personality, k: usize) -> &mut f64 {
    match k {
        0 => &mut p.talkativeness,
        1 => &mut p.transparency,
        2 => &mut p.confidence,
        3 => &mut p.interactivity,
        _ => &mut p.verbosity,
    }
}

/// The parameter names of a personality, in order.
pub fn param_names() -> &'static [&'static str] {
    &PARAMS
}

/// Sets one parameter by name; false for an unknown name.
pub fn set_param(p: &mut Personality, name: &str, v: f64) -> bool {
    match PARAMS.iter().position(|&n| n == name) {
        Some(k) => {
            *param(p, k) = v;
            true
        }
        None => false,
    }
}

fn unit(cx: &mut Ctx<'_>, path: String, what: &str, x: f64) -> f64 {
    if x.is_finite() && (0.0..=1.0).contains(&x) {
        x
    } else {
        cx.push(Diagnostic::error(
            path,
            format!("`{what}` must be between 0 and 1, found {}", short(x)),
        ));
        if x.is_finite() {
            x.clamp(0.0, 1.0)
        } else {
            0.5
        }
    }
}

/// A duration or distance of a cast in `[lo, hi]` (the context's range check).
fn seconds(cx: &mut Ctx<'_>, path: String, what: &str, x: f64, lo: f64, hi: f64) -> f64 {
    cx.number(path, x, lo, hi, &format!("`{what}`"))
}

fn cast(cx: &mut Ctx<'_>, c: &CastDef, path: &str, known_npcs: &[&str]) -> CastInfo {
    let mut default = c.default;
    for (k, name) in PARAMS.iter().enumerate() {
        let v = *param(&mut default, k);
        *param(&mut default, k) = unit(cx, key(&key(path, "default"), name), name, v);
    }
    // Cycles and timeouts must let a tick pass: at least one.
    let dt = cx.p.dt;
    let ticks = |s: f64| ticks_for(s, dt).max(1);
    let join_radius = seconds(
        cx,
        key(path, "join_radius"),
        "join_radius",
        c.join_radius,
        0.1,
        1.0e4,
    );
    let hearing_radius = seconds(
        cx,
        key(path, "hearing_radius"),
        "hearing_radius",
        c.hearing_radius,
        0.0,
        1.0e4,
    );
    let planner = seconds(
        cx,
        key(path, "planner_seconds"),
        "planner_seconds",
        c.planner_seconds,
        0.1,
        3600.0,
    );
    let cycle = seconds(
        cx,
        key(path, "cycle_seconds"),
        "cycle_seconds",
        c.cycle_seconds,
        0.05,
        60.0,
    );
    let inactive = seconds(
        cx,
        key(path, "inactive_seconds"),
        "inactive_seconds",
        c.inactive_seconds,
        0.5,
        3600.0,
    );
    let mut members: Vec<(u32, Personality)> = Vec::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    for (mi, m) in c.members.iter().enumerate() {
        let mpath = index(&key(path, "members"), mi);
        let mut p = default;
        let given = [
            m.talkativeness,
            m.transparency,
            m.confidence,
            m.interactivity,
            m.verbosity,
        ];
        for (k, v) in given.iter().enumerate() {
            if let Some(v) = *v {
                *param(&mut p, k) = unit(cx, key(&mpath, PARAMS[k]), PARAMS[k], v);
            }
        }
        match cx.npc(&m.npc) {
            Some(n) => {
                if let Some(first) = seen.get(&n) {
                    cx.push(Diagnostic::error(
                        key(&mpath, "npc"),
                        format!(
                            "NPC `{}` is listed twice in cast `{}` (first at members[{first}])",
                            m.npc, c.id
                        ),
                    ));
                } else {
                    seen.insert(n, mi);
                    members.push((n, p));
                }
            }
            None => {
                let hint = crate::pack::suggest(&m.npc, known_npcs)
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                cx.push(Diagnostic::error(
                    key(&mpath, "npc"),
                    format!("unknown NPC `{}`{hint}", m.npc),
                ));
            }
        }
    }
    members.sort_by_key(|m| m.0);
    CastInfo {
        id: c.id.clone(),
        position_aware: c.position_aware,
        join_radius,
        hearing_radius,
        planner_ticks: ticks(planner),
        cycle_ticks: ticks(cycle),
        inactive_ticks: ticks(inactive),
        default,
        members,
    }
}

impl Ctx<'_> {
    /// Compiles every cast into `p.talk`.
    pub(crate) fn talk(&mut self) {
        let syms = MSG_NAMES.map(|n| Resolver::intern(self, n));
        let inbox = Resolver::intern(self, INBOX);
        let pack = self.pack;
        let known: Vec<&str> = pack.world.npcs.iter().map(|n| n.id.as_str()).collect();
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut casts = Vec::new();
        for (ci, c) in pack.casts.iter().enumerate() {
            let path = index("casts", ci);
            if let Some(first) = ids.get(c.id.as_str()) {
                self.push(Diagnostic::error(
                    key(&path, "id"),
                    format!(
                        "duplicate cast id `{}` (first used at casts[{first}])",
                        c.id
                    ),
                ));
            } else {
                ids.insert(&c.id, ci);
            }
            casts.push(cast(self, c, &path, &known));
        }
        self.p.talk = TalkProgram {
            casts,
            inbox,
            msg: syms,
            dt: self.p.dt,
        };
    }
}
