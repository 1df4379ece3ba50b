//! What the preview draws of conversations: a read-only snapshot of a world, built on
//! request (it allocates; the simulation never calls it).
//!
//! - [`Preview::speakers`]: who speaks (speech marks) and to whom (addressee);
//! - [`Preview::gazes`]: gaze lines, from a character to the one it looks at;
//! - [`Preview::signals`]: recent nods, gestures and posture shifts (within
//!   [`SIGNAL_SECONDS`]);
//! - [`Preview::groups`]: group outlines — the groups an observer sees (characters in each
//!   other's view of the group), with a stable label, their members, centre and radius.

use crate::program::Program;
use crate::value::Vec2;
use crate::world::World;
use crate::world::talk::{NONE, Nonverbal};

/// How long a non-verbal signal stays visible in the preview, in seconds.
pub const SIGNAL_SECONDS: f64 = 1.0;

/// A character speaking now.
#[derive(Clone, Debug, PartialEq)]
pub struct Speaker {
    pub npc: u32,
    /// The NPC it addresses, if anyone in particular.
    pub addressee: Option<u32>,
    /// Tick its current segment started.
    pub since: u64,
    /// Another member of its group speaks at the same time.
    pub overlapped: bool,
}

/// A gaze line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gaze {
    pub from: u32,
    pub to: u32,
}

/// A recent non-verbal signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    pub npc: u32,
    pub what: Nonverbal,
    pub tick: u64,
}

/// A conversation group's outline.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupOutline {
    /// Stable label (kept across ticks while most of the group stays together).
    pub id: u32,
    /// Cast index (`Program::talk.casts`).
    pub cast: u32,
    /// Members by NPC index, ascending.
    pub members: Vec<u32>,
    /// Centre of the members' positions and the distance of the farthest one.
    pub center: Vec2,
    pub radius: f64,
}

/// Everything the preview shows of conversations at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Preview {
    pub speakers: Vec<Speaker>,
    pub gazes: Vec<Gaze>,
    pub signals: Vec<Signal>,
    pub groups: Vec<GroupOutline>,
}

/// The conversation snapshot of a world (groups as of the last observation, every 0.5 s).
pub fn preview(p: &Program, w: &World) -> Preview {
    let mut out = Preview::default();
    let recent = p.talk.ticks(SIGNAL_SECONDS);
    for (i, c) in w.talk.chars.iter().enumerate() {
        if c.cast == NONE {
            continue;
        }
        let i = i as u32;
        if c.speaking {
            out.speakers.push(Speaker {
                npc: i,
                addressee: (c.addressee != NONE).then_some(c.addressee),
                since: c.speak_since,
                overlapped: !c.speakers.is_empty(),
            });
        }
        if c.gaze != NONE {
            out.gazes.push(Gaze {
                from: i,
                to: c.gaze,
            });
        }
        if let Some((what, tick)) = c.nonverbal
            && w.tick.saturating_sub(tick) <= recent
        {
            out.signals.push(Signal { npc: i, what, tick });
        }
        if c.group != NONE {
            match out.groups.iter_mut().find(|g| g.id == c.group) {
                Some(g) => g.members.push(i),
                None => out.groups.push(GroupOutline {
                    id: c.group,
                    cast: c.cast,
                    members: vec![i],
                    center: Vec2::ZERO,
                    radius: 0.0,
                }),
            }
        }
    }
    for g in &mut out.groups {
        let mut sum = Vec2::ZERO;
        for &m in &g.members {
            sum = sum + w.pos[m as usize];
        }
        g.center = sum * (1.0 / g.members.len() as f64);
        g.radius = g
            .members
            .iter()
            .map(|&m| w.pos[m as usize].distance(g.center))
            .fold(0.0, f64::max);
    }
    out
}
