//! Background conversations (SPEC §5, seed 002): the turn-taking model of Jan & Traum for
//! groups of background NPCs, made position-aware.
//!
//! An NPC takes part while a `converse` node of its tree runs: the node hands it to a *cast*
//! (the pack's `casts` section: five personality parameters per character and the cast's
//! settings). Each character then runs its own copy of the algorithm, with its own view of
//! the others (who speaks, whom they gaze at, when they were last active) and of its group's
//! membership; views may disagree, as in the seed. Characters signal each other only through
//! messages in their `talk` inbox (delivered at the end of the tick, like every message of
//! the runtime), and perceive only what is visible: gaze, who speaks and whom they address.
//!
//! Each tick, after the NPC trees ([`step`]):
//! - hand-overs: NPCs whose `converse` node started or ended enter or leave the layer;
//! - each character (in NPC order) handles its inbox: *tracking participation*, *responding
//!   to others* (gaze at the speaker, overlap resolution at a TRP by confidence, joining
//!   when addressed), *claiming a turn* at a pre-TRP cue (talkativeness; transparency for the
//!   claim signal and for feedback), taking the turn at the TRP;
//! - speakers run their segment clock: pre-TRP cue, TRP, and after an unclaimed TRP the
//!   verbosity test to go on (*continuing speaking*); segment length from interactivity;
//! - about every 0.5 s the *main cycle*: drop inactive members, start to speak in silence,
//!   leave after long silence, detect a split when several speak at once, interrupt
//!   (talkativeness × confidence), resolve simultaneous speech (confidence), detect side
//!   talk, gesture and gaze away, stop when nobody attends; position-aware: gather facing
//!   the group's centre (through the NPC's movement target) and react to noise;
//! - about every 5 s the *high-level planner*: leave, join a (nearby) group, or start a new
//!   conversation with a (nearby) character;
//! - every 0.5 s, the groups as an observer sees them (mutual membership) are recomputed:
//!   labels for the preview's outlines, splits and merges, group-size statistics.
//!
//! Every random test draws from the world's seeded generator in this fixed order, so one
//! seed and one pack give one conversation. The state lives in [`World::talk`]
//! ([`TalkState`], part of every snapshot and of the world hash); [`preview`] is the
//! read-only view the editor draws; [`metrics`] turns the counters into the report of
//! `townsfolk talk`.

mod cycle;
mod grid;
#[cfg(test)]
mod grid_tests;
mod groups;
#[cfg(test)]
mod groups_full;
#[cfg(test)]
mod inbox_tests;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod params_tests;
#[cfg(test)]
mod tests;
mod turns;
#[cfg(test)]
mod wake_tests;

use rand::RngExt;

use crate::program::Program;
use crate::program::casts::{CastInfo, Msg};
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Vec2};
use crate::world::mem::prefetch;
use crate::world::talk::*;
use crate::world::{MAX_INBOX, Message, World};
use grid::*;
use groups::*;

// ---------------------------------------------------------------------------------------
// Timing constants (seconds), from the seed where it gives them.

/// Window after a TRP within which starting to speak counts as "at the TRP".
const TRP_WINDOW: f64 = 0.4;
/// Lead of the pre-TRP cue before the TRP.
const PRE_TRP_LEAD: f64 = 0.8;
/// Silence after which a character may leave ("no one was speaking for some time").
const SILENCE_LEAVE: f64 = 4.0;
/// Simultaneous speakers for this long mean the group split.
const SPLIT_AFTER: f64 = 1.0;
/// How often observer-level groups are recomputed.
const GROUP_EVERY: f64 = 0.5;

struct Cx<'a, 'b, 'p> {
    p: &'a Program,
    w: &'a mut World,
    out: &'a mut Out<'b, 'p>,
    now: u64,
    /// Some cast is position-aware: noise is heard, and [`TalkState::view_sig`] is kept.
    aware: bool,
}

impl Cx<'_, '_, '_> {
    fn rnd(&mut self) -> f64 {
        self.w.rng.random::<f64>()
    }
    fn test(&mut self, p: f64) -> bool {
        self.rnd() < p
    }
    fn pick(&mut self, n: usize) -> usize {
        ((self.rnd() * n as f64) as usize).min(n.saturating_sub(1))
    }
    fn ticks(&self, s: f64) -> u64 {
        self.p.talk.ticks(s)
    }
    fn c(&self, i: u32) -> &Char {
        &self.w.talk.chars[i as usize]
    }
    /// What `i` shows to others (up to date for every character but the one whose turn
    /// it is: read it only for others).
    fn v(&self, i: u32) -> Vis {
        self.w.talk.vis[i as usize]
    }
    fn sync(&mut self, i: u32) {
        let t = &mut self.w.talk;
        let c = &t.chars[i as usize];
        let v = Vis::of(c);
        t.vis[i as usize] = v;
        t.speaking[i as usize] = v.speaking;
        if self.aware {
            t.view_sig[i as usize] = c.view_sig();
        }
    }
    fn cm(&mut self, i: u32) -> &mut Char {
        &mut self.w.talk.chars[i as usize]
    }
    fn cast(&self, i: u32) -> &CastInfo {
        &self.p.talk.casts[self.c(i).cast as usize]
    }
    fn emit(&mut self, npc: u32, ev: TraceEvent) {
        // Once a debugger asked to pause, the rest of the tick is not reported: it is re-run.
        if !self.out.stop {
            self.out.emit(self.p, self.w, Some(npc), ev);
        }
    }
    fn send(&mut self, from: u32, to: u32, m: Msg) {
        if self.w.outbox.len() >= MAX_INBOX * 16 + self.w.talk.chars.len() * 8 {
            return;
        }
        self.w.outbox.push((
            EntityId::Npc(to),
            self.p.talk.inbox,
            Message {
                from: EntityId::Npc(from),
                message: self.p.talk.msg[m as usize],
                sent: self.now,
            },
        ));
    }
    fn broadcast(&mut self, from: u32, m: Msg) {
        for k in 0..self.c(from).members.len() {
            let to = self.c(from).members[k].npc;
            self.send(from, to, m);
        }
    }
    fn set_gaze(&mut self, i: u32, at: u32) {
        if self.c(i).gaze != at {
            self.cm(i).gaze = at;
            let tick = self.now;
            self.emit(i, TraceEvent::Gaze { tick, npc: i, at });
        }
    }
    fn nonverbal(&mut self, i: u32, what: Nonverbal) {
        let now = self.now;
        self.cm(i).nonverbal = Some((what, now));
        self.emit(
            i,
            TraceEvent::Gesture {
                tick: now,
                npc: i,
                what,
            },
        );
    }
    /// Adds `j` to `i`'s view (or refreshes it).
    fn touch(&mut self, i: u32, j: u32) {
        let now = self.now;
        let c = self.cm(i);
        match c.members.iter_mut().find(|m| m.npc == j) {
            Some(m) => m.last_active = now,
            None => {
                c.members.push(Member {
                    npc: j,
                    last_active: now,
                });
                self.w.talk.mark(i);
            }
        }
    }
    fn remove_member(&mut self, i: u32, j: u32) {
        let now = self.now;
        self.w.talk.mark(i);
        let c = self.cm(i);
        c.members.retain(|m| m.npc != j);
        c.speakers.retain(|s| *s != j);
        if c.speakers.is_empty() && !c.speaking && c.silent_since == 0 {
            c.silent_since = now;
        }
    }
    /// `i` enters a conversation: an event for the trace and the counters.
    fn entered(&mut self, i: u32, with: u32) {
        let now = self.now;
        let c = self.cm(i);
        c.counters.joins += 1;
        c.entered_at = now;
        // Silent since now, unless it joined someone speaking.
        c.silent_since = if c.speakers.is_empty() { now } else { 0 };
        self.emit(
            i,
            TraceEvent::GroupJoin {
                tick: now,
                npc: i,
                with,
            },
        );
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Normal,
    AtTrp,
    Continue,
    Interrupt,
}

// ---- the phase ---------------------------------------------------------------------------

/// The conversation phase of one tick (after the NPC trees, before movement).
pub(crate) fn step(p: &Program, w: &mut World, out: &mut Out<'_, '_>) {
    if p.talk.casts.is_empty() {
        w.talk.handovers.clear();
        return;
    }
    let now = w.tick;
    let n = w.npcs.len().min(w.talk.chars.len());
    let aware = p.talk.casts.iter().any(|k| k.position_aware);
    let mut cx = Cx {
        p,
        w,
        out,
        now,
        aware,
    };
    // Hand-overs by `converse` nodes (only the NPCs whose request changed), in NPC order.
    let mut handovers = std::mem::take(&mut cx.w.talk.handovers);
    handovers.sort_unstable();
    handovers.dedup();
    for &i in &handovers {
        if i as usize >= n {
            continue;
        }
        let Vis { want, cast, .. } = cx.v(i);
        if want == cast {
            continue;
        }
        if cast != NONE {
            if now > cx.c(i).last_turn + 1 {
                // The ticks since its last turn saw the state it ended that turn in.
                let others = !cx.c(i).speakers.is_empty();
                cx.cm(i).episodes(others);
            }
            cx.leave_conversation(i);
            cx.w.talk.mark(i);
            let c = cx.cm(i);
            c.cast = NONE;
            c.speaking = false;
            let t = &mut cx.w.talk;
            t.in_layer -= 1;
            if let Ok(k) = t.layer.binary_search(&i) {
                t.layer.remove(k);
                t.scratch.relist = true;
            }
            t.left.push(i);
        }
        if want != NONE {
            let k = &p.talk.casts[want as usize];
            let personality = k.personality(i);
            let (cycle, plan) = (k.cycle_ticks, k.planner_ticks);
            let first_cycle = now + 1 + cx.pick(cycle as usize) as u64;
            let first_plan = now + 1 + cx.pick((plan as usize).min(cycle as usize * 2)) as u64;
            cx.w.talk.mark(i);
            let c = cx.cm(i);
            c.cast = want;
            c.personality = personality;
            c.next_cycle = first_cycle;
            c.next_plan = first_plan;
            c.noise = 0.0;
            c.away = Vec2::ZERO;
            let t = &mut cx.w.talk;
            t.in_layer += 1;
            if let Err(k) = t.layer.binary_search(&i) {
                t.layer.insert(k, i);
                t.scratch.relist = true;
            }
        }
        cx.cm(i).settle(now);
        cx.cm(i).last_turn = now;
        cx.schedule(i);
        cx.sync(i);
        if cx.out.stop {
            return;
        }
    }
    handovers.clear();
    cx.w.talk.handovers = handovers;
    if cx.w.talk.in_layer == 0 {
        // Nothing to do; drop stale signals.
        discard_all(cx.p, cx.w);
        return;
    }
    cx.w.talk.stats.ticks += 1;
    if aware {
        build_grid(p, cx.w);
    }
    // Mail to NPCs outside the layer is dropped (nothing else of theirs happens here, so
    // before the turns of those inside): their counts here, their entries in `post` as the
    // turns pass them. Dropping draws nothing and reports nothing, so the order does not
    // matter: the list is not sorted.
    let mut mailed = std::mem::take(&mut cx.w.talk.mailed);
    for &i in &mailed {
        let iu = i as usize;
        if iu >= n || cx.w.talk.mail[iu] == 0 || cx.v(i).cast != NONE {
            continue;
        }
        cx.w.talk.mail[iu] = 0;
        cx.w.talk.wake[iu] = u64::MAX;
    }
    mailed.clear();
    cx.w.talk.mailed = mailed;
    // The turns: only characters in the layer have one, in NPC order, and of those only
    // the ones with mail or a clock due (idle until then). A turn changes no one's wake
    // tick but its own and mail arrives only at the end of a tick, so they are known before
    // the first turn: the memory of the characters a few turns ahead is fetched while this
    // one runs, instead of one character's misses after another's. Their mail is `post`,
    // grouped by recipient: read in one pass as the turns go.
    let layer = std::mem::take(&mut cx.w.talk.layer);
    let mut due = std::mem::take(&mut cx.w.talk.scratch.due);
    due.clear();
    {
        let t = &cx.w.talk;
        due.extend(layer.iter().copied().filter(|&i| {
            (i as usize) < n && (t.mail[i as usize] > 0 || t.wake[i as usize] <= now)
        }));
    }
    let post = group_post(&mut cx.w.talk, &due);
    // The entries before `read` are read (or dropped: mail to NPCs outside the layer).
    let mut read = 0;
    for (k, &i) in due.iter().enumerate() {
        if let Some(&j) = due.get(k + AHEAD) {
            let c: *const Char = &cx.w.talk.chars[j as usize];
            for line in 0..HOT_LINES {
                prefetch(c.cast::<u8>().wrapping_add(64 * line));
            }
        }
        // Its view of its group, once the list's head (in its first lines) is in (who it
        // believes speaks is mostly in those lines).
        if let Some(&j) = due.get(k + AHEAD * 3 / 4) {
            let c = &cx.w.talk.chars[j as usize];
            prefetch(c.members.as_ptr());
        }
        cx.w.talk.mail[i as usize] = 0;
        while post.get(read).is_some_and(|e| e.0 < i) {
            read += 1;
        }
        let mail = read;
        while post.get(read).is_some_and(|e| e.0 == i) {
            read += 1;
        }
        cx.catch_up_cycle(i);
        if now > cx.c(i).last_turn + 1 {
            // The ticks since its last turn saw the state it ended that turn in.
            let others = !cx.c(i).speakers.is_empty();
            cx.cm(i).episodes(others);
        }
        for &(_, m) in &post[mail..read] {
            if let (EntityId::Npc(j), Some(kind)) = (m.from, p.talk.msg_of(m.message)) {
                cx.handle(i, j, kind);
            }
        }
        cx.speech_clock(i);
        // This tick counts the state at its segment clock.
        let c = cx.cm(i);
        c.settle(now);
        let others = !c.speakers.is_empty();
        c.episodes(others);
        if now >= cx.c(i).next_cycle {
            let every = cx.cast(i).cycle_ticks;
            cx.cm(i).next_cycle = now + every;
            cx.cycle(i);
        }
        if now >= cx.c(i).next_plan {
            let every = cx.cast(i).planner_ticks;
            cx.cm(i).next_plan = now + every;
            cx.plan(i);
        }
        // The ticks after it count the state it ends its turn in.
        let c = cx.cm(i);
        c.settle(now + 1);
        c.last_turn = now;
        cx.schedule(i);
        cx.sync(i);
        if cx.out.stop {
            break;
        }
    }
    let mut post = post;
    if cx.out.stop {
        // Paused within the phase: the characters after this one have their mail still
        // (everyone else's is read or dropped).
        post.drain(..read);
        let counts = &cx.w.talk.mail;
        post.retain(|e| counts[e.0 as usize] > 0);
        // (Listed again, so that every NPC with mail is one the next step looks at.)
        let t = &mut cx.w.talk;
        t.mailed.extend(post.iter().map(|e| e.0));
        t.mailed.dedup();
    } else {
        post.clear();
    }
    cx.w.talk.post = post;
    cx.w.talk.scratch.due = due;
    cx.w.talk.layer = layer;
    if cx.out.stop {
        return;
    }
    if now.is_multiple_of(p.talk.ticks(GROUP_EVERY)) {
        observe_groups(&mut cx);
    }
}

impl Cx<'_, '_, '_> {
    /// The main cycle runs only while it is in a conversation (out of one it does nothing),
    /// so an idle character is not woken for it: moves `next_cycle` past the cycles it
    /// skipped, keeping their phase (the tick it would have run at, had it been woken).
    fn catch_up_cycle(&mut self, i: u32) {
        let now = self.now;
        let every = self.cast(i).cycle_ticks.max(1);
        let c = self.cm(i);
        if c.next_cycle < now {
            let k = (now - c.next_cycle).div_ceil(every);
            c.next_cycle += k * every;
        }
    }

    /// End of a turn (or of a hand-over): the next tick it has a turn without mail (see
    /// [`TalkState::wake`]).
    fn schedule(&mut self, i: u32) {
        let now = self.now;
        let c = &self.w.talk.chars[i as usize];
        let wake = if c.cast == NONE {
            u64::MAX
        } else {
            let after = |t: u64| t.max(now + 1);
            let mut w = after(c.next_plan);
            if c.in_conversation() {
                w = w.min(after(c.next_cycle));
            }
            if c.speaking {
                if c.pre_trp_at > now {
                    w = w.min(c.pre_trp_at);
                }
                w = w.min(after(c.segment_end));
            } else if c.trp_wait != 0 {
                w = w.min(after(c.trp_wait));
            } else if c.pending_start != 0 {
                w = w.min(after(c.pending_start));
            }
            w
        };
        self.w.talk.wake[i as usize] = wake;
    }
}

/// The mail of the characters due (`due`, in NPC order) taken out of `post`, grouped by
/// recipient in that order, each one's in the order delivered: a counting scatter over
/// their counts (`mail`), where a sort of `post` would cost a log factor more and a buffer
/// a tick. Mail to NPCs outside the layer (their counts zeroed) is left out.
fn group_post(t: &mut TalkState, due: &[u32]) -> Vec<(u32, Message)> {
    let mut post = std::mem::take(&mut t.post);
    if post.is_empty() {
        return post;
    }
    let s = &mut t.scratch;
    s.start.resize(t.mail.len(), 0);
    let mut at = 0u32;
    for &i in due {
        let c = t.mail[i as usize];
        if c > 0 {
            s.start[i as usize] = at;
            at += u32::from(c);
        }
    }
    let mut grouped = std::mem::take(&mut s.grouped);
    grouped.clear();
    grouped.resize(at as usize, post[0]);
    for &e in &post {
        if t.mail[e.0 as usize] > 0 {
            // Every NPC with mail is due or outside the layer with its count zeroed (the
            // step lists each one whose count rises): its run starts at `start`.
            let k = &mut s.start[e.0 as usize];
            debug_assert!(due.binary_search(&e.0).is_ok(), "mail for {} not due", e.0);
            if let Some(slot) = grouped.get_mut(*k as usize) {
                *slot = e;
                *k += 1;
            }
        }
    }
    post.clear();
    s.grouped = post;
    grouped
}

/// How many turns ahead the characters' memory is fetched ([`step`]).
const AHEAD: usize = 8;
/// The cache lines of a [`Char`] that a turn reads (see its layout).
const HOT_LINES: usize = 3;

fn discard_all(p: &Program, w: &mut World) {
    w.talk.mail.iter_mut().for_each(|m| *m = 0);
    w.talk.mailed.clear();
    w.talk.post.clear();
    for npc in &mut w.npcs {
        if let Some((_, q)) = npc.inboxes.iter_mut().find(|(s, _)| *s == p.talk.inbox) {
            q.clear();
        }
    }
}

/// Stable counting sort of `v` by `key` (below `buckets`); `tmp` and `hist` are scratch.
/// Leaves `v` as it is when every key is the same. (The observation of groups' former sort,
/// now its oracle's.)
#[cfg(test)]
fn counting_sort<T: Copy>(
    v: &mut [T],
    tmp: &mut Vec<T>,
    hist: &mut Vec<u32>,
    buckets: usize,
    key: impl Fn(&T) -> usize,
) {
    if v.len() < 2 {
        return;
    }
    hist.clear();
    hist.resize(buckets + 1, 0);
    for x in v.iter() {
        hist[key(x) + 1] += 1;
    }
    if hist.iter().any(|&c| c as usize == v.len()) {
        return;
    }
    for b in 0..buckets {
        hist[b + 1] += hist[b];
    }
    tmp.clear();
    tmp.extend_from_slice(v);
    for x in tmp.iter() {
        let k = key(x);
        v[hist[k] as usize] = *x;
        hist[k] += 1;
    }
}
