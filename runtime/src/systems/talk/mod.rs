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

use rand::RngExt;

use crate::program::Program;
use crate::program::casts::{CastInfo, Msg};
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Vec2};
use crate::world::talk::*;
use crate::world::{MAX_INBOX, Message, World};

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
        t.vis[i as usize] = Vis::of(&t.chars[i as usize]);
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
            None => c.members.push(Member {
                npc: j,
                last_active: now,
            }),
        }
    }
    fn remove_member(&mut self, i: u32, j: u32) {
        let now = self.now;
        let c = self.cm(i);
        c.members.retain(|m| m.npc != j);
        c.speakers.retain(|&s| s != j);
        if c.speakers.is_empty() && !c.speaking && c.silent_since == 0 {
            c.silent_since = now;
        }
    }
    /// `i` enters a conversation: an event for the trace and the counters.
    fn entered(&mut self, i: u32, with: u32) {
        self.cm(i).counters.joins += 1;
        let now = self.now;
        self.cm(i).silent_since = now;
        self.emit(
            i,
            TraceEvent::GroupJoin {
                tick: now,
                npc: i,
                with,
            },
        );
    }

    // ---- speaking ------------------------------------------------------------------

    fn start_speaking(&mut self, i: u32, addressee: u32, how: Start) {
        let now = self.now;
        let (silent, had_speakers) = {
            let c = self.c(i);
            (c.silent_since, !c.speakers.is_empty())
        };
        // Gap since the last speech in its group (only between turns, not continuations).
        if how != Start::Continue && !had_speakers && silent > 0 && now > silent {
            let gap = now - silent;
            let secs = gap as f64 * self.p.talk.dt;
            let b = GAP_BUCKETS
                .iter()
                .position(|&u| secs < u)
                .unwrap_or(GAP_BUCKETS.len());
            let st = &mut self.w.talk.stats;
            st.gaps[b] += 1;
            st.gap_ticks += gap;
            st.gap_count += 1;
        }
        if how == Start::Interrupt {
            self.cm(i).counters.interruptions_made += 1;
            for k in 0..self.c(i).speakers.len() {
                let s = self.c(i).speakers[k];
                self.cm(s).counters.interruptions_suffered += 1;
            }
        }
        let interactivity = self.c(i).personality.interactivity;
        // Mean segment 1 s (interactivity 1) to 6 s (interactivity 0), ±50 %.
        let mean = 1.0 + 5.0 * (1.0 - interactivity);
        let secs = mean * (0.5 + self.rnd());
        let len = self.ticks(secs).max(3);
        let lead = self.ticks(PRE_TRP_LEAD).min(len / 2).max(1);
        let c = self.cm(i);
        c.speaking = true;
        c.addressee = addressee;
        c.speak_since = now;
        c.segment_end = now + len;
        c.pre_trp_at = now + len - lead;
        c.started_at_trp = how == Start::AtTrp;
        c.trp_wait = 0;
        c.want_turn = false;
        c.pending_start = 0;
        c.multi_since = 0;
        c.silent_since = 0;
        c.counters.segments += 1;
        if how == Start::Continue {
            c.counters.continued += 1;
        } else {
            c.counters.turns += 1;
        }
        self.emit(
            i,
            TraceEvent::SpeakStart {
                tick: now,
                npc: i,
                addressee,
                continued: how == Start::Continue,
                interrupt: how == Start::Interrupt,
            },
        );
        self.broadcast(i, Msg::SpeakStart);
        if addressee != NONE {
            self.set_gaze(i, addressee);
        }
    }

    fn stop_speaking(&mut self, i: u32) {
        if !self.c(i).speaking {
            return;
        }
        let now = self.now;
        let c = self.cm(i);
        c.speaking = false;
        c.overlapping = false;
        c.started_at_trp = false;
        if c.speakers.is_empty() {
            c.silent_since = now;
        }
        self.emit(i, TraceEvent::SpeakEnd { tick: now, npc: i });
        self.broadcast(i, Msg::SpeakEnd);
    }

    fn leave_conversation(&mut self, i: u32) {
        if !self.c(i).in_conversation() {
            return;
        }
        self.stop_speaking(i);
        self.broadcast(i, Msg::Leave);
        let c = self.cm(i);
        c.members.clear();
        c.speakers.clear();
        c.want_turn = false;
        c.pending_start = 0;
        c.multi_since = 0;
        c.trp_wait = 0;
        c.addressee = NONE;
        c.away = Vec2::ZERO;
        c.counters.leaves += 1;
        let cast = c.cast;
        if cast != NONE && self.p.talk.casts[cast as usize].position_aware {
            self.w.npcs[i as usize].target = None;
        }
        self.set_gaze(i, NONE);
        let tick = self.now;
        self.emit(i, TraceEvent::GroupLeave { tick, npc: i });
    }

    // ---- messages --------------------------------------------------------------------

    fn handle(&mut self, i: u32, j: u32, m: Msg) {
        if j == i || j as usize >= self.w.talk.chars.len() {
            return;
        }
        let my_cast = self.c(i).cast;
        if self.v(j).cast != my_cast {
            return; // it left the layer (or is in another cast) meanwhile
        }
        // Tracking participation: a member's signal refreshes it; a signal to someone in
        // my group brings its sender into my group.
        let in_view = self.c(i).has(j);
        let their_addressee = self.v(j).addressee;
        let to_my_group = self.c(i).in_conversation()
            && their_addressee != NONE
            && (their_addressee == i || self.c(i).has(their_addressee));
        if in_view || (to_my_group && m != Msg::Leave) {
            self.touch(i, j);
        }
        let in_view = self.c(i).has(j);
        match m {
            Msg::SpeakStart => {
                if in_view {
                    self.someone_started(i, j);
                } else if their_addressee == i {
                    self.addressed_from_outside(i, j);
                }
            }
            Msg::SpeakEnd => {
                let now = self.now;
                let c = self.cm(i);
                c.speakers.retain(|&s| s != j);
                if c.speakers.is_empty() && !c.speaking {
                    c.silent_since = now;
                }
            }
            Msg::PreTrp if in_view && !self.c(i).speaking => {
                let p = self.c(i).personality;
                // Claiming a turn: talkativeness to want it, transparency to show it.
                if self.test(p.talkativeness) {
                    self.cm(i).want_turn = true;
                    if self.test(p.transparency) {
                        self.cm(i).counters.claims += 1;
                        self.nonverbal(i, Nonverbal::PostureShift);
                        self.set_gaze(i, j);
                        self.send(i, j, Msg::Claim);
                    }
                } else if self.test(p.transparency) {
                    // Feedback (backchannel) to the speaker.
                    let positive = self.test(0.85);
                    let c = self.cm(i);
                    c.counters.feedback_given += 1;
                    if !positive {
                        c.counters.feedback_negative += 1;
                    }
                    let tick = self.now;
                    self.emit(
                        i,
                        TraceEvent::Feedback {
                            tick,
                            npc: i,
                            to: j,
                            positive,
                        },
                    );
                    if positive {
                        self.nonverbal(i, Nonverbal::Nod);
                    }
                    self.send(
                        i,
                        j,
                        if positive {
                            Msg::Feedback
                        } else {
                            Msg::FeedbackNegative
                        },
                    );
                }
            }
            Msg::Trp if in_view => {
                self.cm(i).speakers.retain(|&s| s != j);
                if self.c(i).speaking {
                    return;
                }
                let p = self.c(i).personality;
                let addressed = their_addressee == i;
                // The addressee of the segment usually answers; talkativeness decides.
                let take =
                    self.c(i).want_turn || (addressed && self.test(0.2 + 0.7 * p.talkativeness));
                self.cm(i).want_turn = false;
                if take {
                    // Answer the previous speaker, or address someone else.
                    let to = if self.test(0.6) {
                        j
                    } else {
                        self.random_member(i)
                    };
                    self.start_speaking(i, to, Start::AtTrp);
                }
            }
            Msg::Feedback | Msg::FeedbackNegative => {
                self.cm(i).counters.feedback_received += 1;
                if m == Msg::FeedbackNegative && self.c(i).speaking {
                    // Negative feedback: wrap up soon.
                    let now = self.now;
                    let soon = now + self.ticks(TRP_WINDOW);
                    let c = self.cm(i);
                    if c.segment_end > soon {
                        c.segment_end = soon;
                        c.pre_trp_at = c.pre_trp_at.min(now + 1);
                    }
                }
            }
            Msg::Join => {
                let was = self.c(i).in_conversation();
                self.touch(i, j);
                if !was {
                    self.entered(i, j);
                }
            }
            Msg::Leave => {
                if in_view {
                    self.remove_member(i, j);
                    if !self.c(i).in_conversation() {
                        self.alone(i);
                    }
                }
            }
            Msg::Claim | Msg::PreTrp | Msg::Trp => {}
        }
    }

    /// Its group dissolved around it.
    fn alone(&mut self, i: u32) {
        self.stop_speaking(i);
        let c = self.cm(i);
        c.counters.leaves += 1;
        c.want_turn = false;
        c.pending_start = 0;
        c.addressee = NONE;
        let cast = c.cast;
        if cast != NONE && self.p.talk.casts[cast as usize].position_aware {
            self.w.npcs[i as usize].target = None;
        }
        self.set_gaze(i, NONE);
        let tick = self.now;
        self.emit(i, TraceEvent::GroupLeave { tick, npc: i });
    }

    /// Responding to others: a member of its group started to speak.
    fn someone_started(&mut self, i: u32, j: u32) {
        let now = self.now;
        if !self.c(i).speakers.contains(&j) {
            self.cm(i).speakers.push(j);
        }
        let p = self.c(i).personality;
        if self.c(i).speaking {
            let c = self.c(i);
            let together = c.started_at_trp && now - c.speak_since <= self.ticks(TRP_WINDOW) + 1;
            if together && !self.test(p.confidence) {
                self.stop_speaking(i);
            }
            return;
        }
        // Someone beat it to it: drop a planned start.
        self.cm(i).pending_start = 0;
        let addressed = self.v(j).addressee == i;
        if addressed || self.test(p.transparency) {
            self.set_gaze(i, j);
        }
    }

    /// Someone outside its group speaks to it.
    fn addressed_from_outside(&mut self, i: u32, j: u32) {
        let p = self.c(i).personality;
        if self.c(i).in_conversation() {
            // Leave one conversation for another, rarely.
            if !self.test(0.3 * p.talkativeness) {
                return;
            }
            self.leave_conversation(i);
        } else if !self.test(p.talkativeness) {
            return;
        }
        self.join(i, j);
        self.someone_started(i, j);
    }

    /// `i` joins the group of `j` as `i` perceives it (`j` and the members `j` attends to).
    fn join(&mut self, i: u32, j: u32) {
        self.touch(i, j);
        let cast = self.c(i).cast;
        for k in 0..self.c(j).members.len() {
            let m = self.c(j).members[k].npc;
            if m != i && self.v(m).cast == cast {
                self.touch(i, m);
                if self.v(m).speaking && !self.c(i).speakers.contains(&m) {
                    self.cm(i).speakers.push(m);
                }
            }
        }
        if self.v(j).speaking && !self.c(i).speakers.contains(&j) {
            self.cm(i).speakers.push(j);
        }
        self.broadcast(i, Msg::Join);
        self.entered(i, j);
        if self.test(self.c(i).personality.transparency) {
            self.nonverbal(i, Nonverbal::Nod);
        }
        let look = self.c(i).speakers.first().copied().unwrap_or(j);
        self.set_gaze(i, look);
    }

    fn random_member(&mut self, i: u32) -> u32 {
        let n = self.c(i).members.len();
        if n == 0 {
            return NONE;
        }
        let k = self.pick(n);
        self.c(i).members[k].npc
    }

    // ---- per tick: segment clock ------------------------------------------------------

    fn speech_clock(&mut self, i: u32) {
        let now = self.now;
        let c = self.c(i);
        if c.speaking {
            if now == c.pre_trp_at {
                self.emit(i, TraceEvent::PreTrp { tick: now, npc: i });
                self.broadcast(i, Msg::PreTrp);
            }
            if now >= self.c(i).segment_end {
                self.emit(i, TraceEvent::Trp { tick: now, npc: i });
                self.broadcast(i, Msg::Trp);
                self.stop_speaking(i);
                let w = self.ticks(TRP_WINDOW).max(3);
                self.cm(i).trp_wait = now + w;
            }
        } else if c.trp_wait != 0 && now >= c.trp_wait {
            self.cm(i).trp_wait = 0;
            if self.c(i).speakers.is_empty() && self.c(i).in_conversation() {
                // Continuing speaking: nobody took the turn.
                self.cm(i).counters.unclaimed_trps += 1;
                if self.test(self.c(i).personality.verbosity) {
                    let a = self.c(i).addressee;
                    self.start_speaking(i, a, Start::Continue);
                }
            }
        } else if c.pending_start != 0 && now >= c.pending_start {
            let a = c.pending_addressee;
            self.cm(i).pending_start = 0;
            if self.c(i).speakers.is_empty() && self.c(i).in_conversation() {
                self.start_speaking(i, a, Start::Normal);
            }
        }
        // Overlap episodes (for the overlap metrics).
        let c = self.cm(i);
        if c.speaking {
            if !c.speakers.is_empty() {
                c.counters.overlap_ticks += 1;
                if !c.overlapping {
                    c.overlapping = true;
                    c.counters.overlaps += 1;
                }
            } else if c.overlapping {
                c.overlapping = false;
                c.counters.overlaps_won += 1;
            }
            c.counters.talk_ticks += 1;
        }
        if c.in_conversation() {
            c.counters.conv_ticks += 1;
        }
    }

    // ---- main cycle ------------------------------------------------------------------

    fn cycle(&mut self, i: u32) {
        let now = self.now;
        let (inactive, aware) = {
            let k = self.cast(i);
            (k.inactive_ticks, k.position_aware)
        };
        // Remove characters that were inactive for too long or left the layer.
        if self.c(i).in_conversation() {
            let cast = self.c(i).cast;
            let mut k = 0;
            while k < self.c(i).members.len() {
                let m = self.c(i).members[k];
                if now.saturating_sub(m.last_active) > inactive || self.v(m.npc).cast != cast {
                    self.remove_member(i, m.npc);
                } else {
                    k += 1;
                }
            }
            if !self.c(i).in_conversation() {
                self.alone(i);
                return;
            }
        } else {
            return;
        }
        if aware {
            self.noise_and_place(i);
        }
        let p = self.c(i).personality;
        let speaking = self.c(i).speaking;
        let nspeakers = self.c(i).speakers.len();
        if nspeakers == 0 && !speaking {
            if self.c(i).trp_wait != 0 {
                return; // its own TRP: waiting to see who takes the turn
            }
            if self.c(i).pending_start == 0 && self.test(p.talkativeness * 0.5) {
                // Start after a random interval, to a random addressee (or nobody).
                let delay = 1 + self.pick(self.cast(i).cycle_ticks as usize) as u64;
                let a = if self.test(0.7) {
                    self.random_member(i)
                } else {
                    NONE
                };
                let c = self.cm(i);
                c.pending_start = now + delay;
                c.pending_addressee = a;
                if self.test(p.transparency) {
                    self.nonverbal(i, Nonverbal::PostureShift);
                }
            }
            let silent = self.c(i).silent_since;
            if silent > 0 && now - silent > self.ticks(SILENCE_LEAVE) && !self.test(p.talkativeness)
            {
                self.leave_conversation(i);
            }
            return;
        }
        if !speaking {
            // Listening.
            if nspeakers > 1 {
                let since = self.c(i).multi_since;
                let after = self.ticks(SPLIT_AFTER / (1.0 + self.c(i).noise));
                if since == 0 {
                    self.cm(i).multi_since = now;
                } else if now - since >= after {
                    self.split_view(i);
                }
            } else {
                self.cm(i).multi_since = 0;
            }
            let speaker = self.c(i).speakers.first().copied().unwrap_or(NONE);
            if self.test(p.talkativeness * p.confidence * 0.12) {
                self.start_speaking(i, speaker, Start::Interrupt);
                return;
            }
            // Noise from other groups nearby: side talk with a neighbour.
            let noise = self.c(i).noise;
            if noise > 0.0
                && self.c(i).members.len() >= 3
                && self.test((noise * 0.1).min(0.3) * p.talkativeness)
            {
                let a = self.nearest_listener(i);
                if a != NONE {
                    self.start_speaking(i, a, Start::Interrupt);
                    return;
                }
            }
            let g = self.c(i).gaze;
            if speaker != NONE
                && g != speaker
                && !self.c(i).speakers.contains(&g)
                && self.test(p.transparency)
            {
                self.set_gaze(i, speaker);
            }
            return;
        }
        // Speaking.
        if nspeakers > 0 {
            if nspeakers == 1 {
                let s = self.c(i).speakers[0];
                let a = self.v(s).addressee;
                // (Two speakers addressing the same listener compete for the floor instead.)
                let mine = self.c(i).addressee;
                if a != NONE && a != i && a != mine && self.v(a).gaze == s && self.c(i).has(a) {
                    // Side talk: both leave my conversation.
                    self.remove_member(i, s);
                    self.remove_member(i, a);
                    if !self.c(i).in_conversation() {
                        self.alone(i);
                    }
                    return;
                }
            }
            if !self.test(p.confidence) {
                self.stop_speaking(i);
            }
            return;
        }
        // Speaking alone in a turn: gesture, gaze away, stop if nobody attends.
        if self.test(0.3) {
            self.nonverbal(i, Nonverbal::Gesture);
        }
        if self.test(0.15) {
            let m = self.random_member(i);
            self.set_gaze(i, m);
        } else if self.c(i).addressee != NONE && self.test(0.5) {
            let a = self.c(i).addressee;
            self.set_gaze(i, a);
        }
        let attended = (0..self.c(i).members.len()).any(|k| {
            let m = self.c(i).members[k].npc;
            self.v(m).gaze == i
        });
        if !attended && !self.test(p.confidence) {
            self.stop_speaking(i);
        }
    }

    /// More than one speaker for some time: keep the speaker it listens to, drop the
    /// members attending to the others.
    fn split_view(&mut self, i: u32) {
        let g = self.c(i).gaze;
        let keep = if self.c(i).speakers.contains(&g) {
            g
        } else {
            self.c(i).speakers[0]
        };
        self.set_gaze(i, keep);
        let mut k = 0;
        while k < self.c(i).members.len() {
            let m = self.c(i).members[k].npc;
            let other_speaker = m != keep && self.c(i).speakers.contains(&m);
            let mg = self.v(m).gaze;
            let attends_other = m != keep
                && mg != keep
                && mg != i
                && mg != NONE
                && self.c(i).speakers.contains(&mg);
            if other_speaker || attends_other {
                self.remove_member(i, m);
            } else {
                k += 1;
            }
        }
        self.cm(i).multi_since = 0;
    }

    fn nearest_listener(&self, i: u32) -> u32 {
        let me = self.w.pos[i as usize];
        let c = self.c(i);
        let mut best = (f64::INFINITY, NONE);
        for m in &c.members {
            if c.speakers.contains(&m.npc) {
                continue;
            }
            let d = self.w.pos[m.npc as usize].distance(me);
            if d < best.0 {
                best = (d, m.npc);
            }
        }
        best.1
    }

    /// Position-aware: the noise it hears from speakers of other groups, stepping away
    /// from it, and its place in the group circle (its movement target).
    fn noise_and_place(&mut self, i: u32) {
        let me = self.w.pos[i as usize];
        let hr = self.cast(i).hearing_radius;
        let mut noise = 0.0;
        let mut push = Vec2::ZERO;
        if hr > 0.0 {
            let w = &*self.w;
            let c = &w.talk.chars[i as usize];
            for_near(&w.talk.scratch, me, hr, |j| {
                let o = &w.talk.vis[j as usize];
                if j != i && o.speaking && !c.has(j) {
                    let off = me - w.pos[j as usize];
                    let d = off.length();
                    if d < hr {
                        let loud = 1.0 - d / hr;
                        noise += loud;
                        if d > 1e-9 {
                            push = push + off * (loud / d);
                        }
                    }
                }
            });
        }
        let c = self.cm(i);
        c.noise = noise;
        if noise > 0.3 {
            let l = push.length();
            if l > 1e-9 {
                let mut a = c.away + push * (0.4 / l);
                let al = a.length();
                if al > 4.0 {
                    a = a * (4.0 / al);
                }
                c.away = a;
            }
        }
        // Gather: stand on a circle around the group's centre, facing it.
        let n = c.members.len() as f64 + 1.0;
        let mut sum = me;
        for k in 0..self.c(i).members.len() {
            let m = self.c(i).members[k].npc;
            sum = sum + self.w.pos[m as usize];
        }
        let centre = sum * (1.0 / n);
        let off = me - centre;
        let d = off.length();
        let dir = if d > 1e-6 {
            off * (1.0 / d)
        } else {
            // Same spot as the centre: a direction of its own, from its index.
            let a = (i % 8) as f64;
            Vec2::new(1.0 - a / 4.0, if a < 4.0 { 0.5 } else { -0.5 })
        };
        let r = 0.45 + 0.22 * n;
        let spot = centre + dir * r + self.c(i).away * 0.25;
        self.w.npcs[i as usize].target = if spot.distance(me) > 0.35 {
            Some(spot)
        } else {
            None
        };
    }

    // ---- high-level planner ----------------------------------------------------------

    fn plan(&mut self, i: u32) {
        let p = self.c(i).personality;
        if self.c(i).in_conversation() {
            let noise = self.c(i).noise.min(2.0);
            if self.test(0.08 * (1.0 - p.talkativeness) + 0.1 * noise) {
                self.leave_conversation(i);
            }
            return;
        }
        if !self.test(p.talkativeness) {
            return;
        }
        let (grouped, single) = self.candidates(i);
        let j = match (grouped, single) {
            (NONE, NONE) => return,
            (g, NONE) => g,
            (NONE, s) => s,
            (g, s) => {
                if self.test(0.6) {
                    g
                } else {
                    s
                }
            }
        };
        if self.v(j).in_conversation {
            self.join(i, j);
        } else {
            // Start a new conversation: address `j`; it decides whether to join.
            self.touch(i, j);
            self.entered(i, j);
            self.start_speaking(i, j, Start::Normal);
        }
    }

    /// Someone to join (in a conversation) and someone to start one with (not in one):
    /// the nearest within the join radius when position-aware, random picks otherwise.
    fn candidates(&mut self, i: u32) -> (u32, u32) {
        let cast = self.c(i).cast;
        let k = &self.p.talk.casts[cast as usize];
        let mut grouped = (f64::INFINITY, NONE);
        let mut single = (f64::INFINITY, NONE);
        if k.position_aware {
            let me = self.w.pos[i as usize];
            let r = k.join_radius;
            let w = &*self.w;
            for_near(&w.talk.scratch, me, r, |j| {
                let o = &w.talk.vis[j as usize];
                if j == i || o.cast != cast {
                    return;
                }
                let d = w.pos[j as usize].distance(me);
                if d > r {
                    return;
                }
                let slot = if o.in_conversation {
                    &mut grouped
                } else {
                    &mut single
                };
                if d < slot.0 || (d == slot.0 && j < slot.1) {
                    *slot = (d, j);
                }
            });
        } else {
            let n = self.w.talk.chars.len();
            for _ in 0..8 {
                let j = self.pick(n) as u32;
                let o = self.v(j);
                if j == i || o.cast != cast {
                    continue;
                }
                let slot = if o.in_conversation {
                    &mut grouped
                } else {
                    &mut single
                };
                if slot.1 == NONE {
                    *slot = (0.0, j);
                }
            }
        }
        (grouped.1, single.1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Normal,
    AtTrp,
    Continue,
    Interrupt,
}

// ---- spatial grid ------------------------------------------------------------------------

fn cell_of(s: &Scratch, p: Vec2) -> (i64, i64) {
    (floor_i64(p.x / s.cell), floor_i64(p.y / s.cell))
}

/// `x.floor() as i64` (for every `x`, NaN and infinities included) without the call to
/// libm's `floor` that the default x86-64 target makes.
fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

fn bucket(s: &Scratch, c: (i64, i64)) -> usize {
    let h = (c.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (c.1 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 17) as usize & s.mask
}

/// Buckets every character in the layer by position (counting sort into a hashed grid).
fn build_grid(p: &Program, w: &mut World) {
    let t = &mut w.talk;
    let s = &mut t.scratch;
    let mut cell: f64 = 1.0;
    for k in &p.talk.casts {
        cell = cell.max(k.join_radius).max(k.hearing_radius);
    }
    s.cell = cell;
    let n = t.chars.len();
    let size = (2 * n).next_power_of_two().max(16);
    s.mask = size - 1;
    s.starts.clear();
    s.starts.resize(size + 1, 0);
    for (i, c) in t.vis.iter().enumerate() {
        if c.cast != NONE {
            let b = bucket(s, cell_of(s, w.pos[i]));
            s.starts[b + 1] += 1;
        }
    }
    for b in 0..size {
        s.starts[b + 1] += s.starts[b];
    }
    let total = s.starts[size] as usize;
    s.items.clear();
    s.items.resize(total, 0);
    s.fill.clear();
    s.fill.extend_from_slice(&s.starts);
    for (i, c) in t.vis.iter().enumerate() {
        if c.cast != NONE {
            let b = bucket(s, cell_of(s, w.pos[i]));
            s.items[s.fill[b] as usize] = i as u32;
            s.fill[b] += 1;
        }
    }
}

/// Calls `f` for every character in the layer whose grid cell may lie within `r` of `at`
/// (callers check the distance), each once, in a fixed order. `r` is at most the cell size
/// (the grid's cell is the largest radius of any cast), so the 3×3 cells around `at` cover it.
fn for_near(s: &Scratch, at: Vec2, r: f64, mut f: impl FnMut(u32)) {
    if s.starts.is_empty() || r <= 0.0 {
        return;
    }
    let (cx, cy) = cell_of(s, at);
    let mut seen: [usize; 9] = [usize::MAX; 9];
    let mut nseen = 0;
    for dx in -1..=1 {
        for dy in -1..=1 {
            let b = bucket(s, (cx + dx, cy + dy));
            // Two cells may hash to one bucket: visit each bucket once.
            if seen[..nseen].contains(&b) {
                continue;
            }
            seen[nseen] = b;
            nseen += 1;
            for &j in &s.items[s.starts[b] as usize..s.starts[b + 1] as usize] {
                f(j);
            }
        }
    }
}

// ---- the phase ---------------------------------------------------------------------------

/// The conversation phase of one tick (after the NPC trees, before movement).
pub(crate) fn step(p: &Program, w: &mut World, out: &mut Out<'_, '_>) {
    if p.talk.casts.is_empty() {
        return;
    }
    let now = w.tick;
    let n = w.npcs.len().min(w.talk.chars.len());
    let mut cx = Cx { p, w, out, now };
    // Hand-overs by `converse` nodes.
    let mut active = false;
    for i in 0..n as u32 {
        let Vis { want, cast, .. } = cx.v(i);
        if want != cast {
            if cast != NONE {
                cx.leave_conversation(i);
                let c = cx.cm(i);
                c.cast = NONE;
                c.speaking = false;
            }
            if want != NONE {
                let k = &p.talk.casts[want as usize];
                let personality = k.personality(i);
                let (cycle, plan) = (k.cycle_ticks, k.planner_ticks);
                let first_cycle = now + 1 + cx.pick(cycle as usize) as u64;
                let first_plan = now + 1 + cx.pick((plan as usize).min(cycle as usize * 2)) as u64;
                let c = cx.cm(i);
                c.cast = want;
                c.personality = personality;
                c.next_cycle = first_cycle;
                c.next_plan = first_plan;
                c.noise = 0.0;
                c.away = Vec2::ZERO;
            }
            cx.sync(i);
        }
        active |= cx.v(i).cast != NONE;
        if cx.out.stop {
            return;
        }
    }
    if !active {
        // Nothing to do; drop stale signals.
        discard_all(cx.p, cx.w);
        return;
    }
    cx.w.talk.stats.ticks += 1;
    if p.talk.casts.iter().any(|k| k.position_aware) {
        build_grid(p, cx.w);
    }
    let inbox = p.talk.inbox;
    for i in 0..n as u32 {
        // No delivery since the layer last emptied it: the `talk` inbox is empty.
        let slot = if std::mem::take(&mut cx.w.talk.mail[i as usize]) {
            cx.w.npcs[i as usize]
                .inboxes
                .iter()
                .position(|(s, _)| *s == inbox)
        } else {
            None
        };
        if cx.v(i).cast == NONE {
            if let Some(k) = slot {
                cx.w.npcs[i as usize].inboxes[k].1.clear();
            }
            continue;
        }
        if let Some(k) = slot {
            while let Some(m) = cx.w.npcs[i as usize].inboxes[k].1.pop_front() {
                if let (EntityId::Npc(j), Some(kind)) = (m.from, p.talk.msg_of(m.message)) {
                    cx.handle(i, j, kind);
                }
            }
        }
        cx.speech_clock(i);
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
        cx.sync(i);
        if cx.out.stop {
            return;
        }
    }
    if now.is_multiple_of(p.talk.ticks(GROUP_EVERY)) {
        observe_groups(&mut cx);
    }
}

fn discard_all(p: &Program, w: &mut World) {
    w.talk.mail.iter_mut().for_each(|m| *m = false);
    for npc in &mut w.npcs {
        if let Some((_, q)) = npc.inboxes.iter_mut().find(|(s, _)| *s == p.talk.inbox) {
            q.clear();
        }
    }
}

/// Stable counting sort of `v` by `key` (below `buckets`); `tmp` and `hist` are scratch.
/// Leaves `v` as it is when every key is the same.
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

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Groups as an observer sees them: characters connected by mutual membership (each in the
/// other's view). Keeps group labels stable, counts splits and merges, samples sizes.
fn observe_groups(cx: &mut Cx<'_, '_, '_>) {
    let now = cx.now;
    let t = &mut cx.w.talk;
    let n = t.chars.len();
    let mut s = std::mem::take(&mut t.scratch);
    s.parent.clear();
    s.parent.extend(0..n as u32);
    for i in 0..n {
        let c = &t.chars[i];
        if c.cast == NONE {
            continue;
        }
        for m in &c.members {
            let j = m.npc as usize;
            if j > i && t.vis[j].cast == c.cast && t.chars[j].has(i as u32) {
                let (a, b) = (find(&mut s.parent, i as u32), find(&mut s.parent, j as u32));
                if a != b {
                    // The smaller index is the root: roots are each group's first member.
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    s.parent[hi as usize] = lo;
                }
            }
        }
    }
    // (old label, root, member) for every member of a group of two or more.
    s.triples.clear();
    s.root_label.clear();
    s.root_label.resize(n, 0); // used first as sizes
    for i in 0..n {
        let r = find(&mut s.parent, i as u32);
        s.parent[i] = r;
        s.root_label[r as usize] += 1;
    }
    let mut groups = 0u64;
    let mut size_sum = 0u64;
    for i in 0..n {
        let r = s.parent[i];
        if s.root_label[r as usize] >= 2 {
            s.triples.push((t.chars[i].group, r, i as u32));
            if r == i as u32 {
                groups += 1;
                size_sum += s.root_label[i] as u64;
            }
        }
    }
    t.stats.group_samples += 1;
    t.stats.groups_seen += groups;
    t.stats.group_size_sum += size_sum;
    // Sorted by (old, root, member) in linear time: pushed by member, then stable counting
    // sorts by root and by the old label's bytes (members are distinct: one order only).
    let mut triples = std::mem::take(&mut s.triples);
    counting_sort(&mut triples, &mut s.sort_tmp, &mut s.hist, n, |t| {
        t.1 as usize
    });
    for shift in [0, 8, 16, 24] {
        counting_sort(&mut triples, &mut s.sort_tmp, &mut s.hist, 256, |t| {
            (t.0 >> shift) as usize & 0xFF
        });
    }
    s.triples = triples;
    // Splits: an old group with two or more members in each of two or more new groups.
    // `counts` collects (root, old, members) for merges and labels.
    s.counts.clear();
    let mut events: Vec<TraceEvent> = Vec::new();
    let mut k = 0;
    while k < s.triples.len() {
        let old = s.triples[k].0;
        let mut parts = 0u32;
        let mut first = u32::MAX;
        let mut e = k;
        while e < s.triples.len() && s.triples[e].0 == old {
            let root = s.triples[e].1;
            let mut f = e;
            while f < s.triples.len() && s.triples[f].0 == old && s.triples[f].1 == root {
                first = first.min(s.triples[f].2);
                f += 1;
            }
            s.counts.push((root, old, (f - e) as u32));
            if old != NONE && f - e >= 2 {
                parts += 1;
            }
            e = f;
        }
        if old != NONE && parts >= 2 {
            t.stats.splits += 1;
            events.push(TraceEvent::GroupSplit {
                tick: now,
                npc: first,
                group: old,
                parts,
            });
        }
        k = e;
    }
    // Labels: each new group keeps the label most of its members had (if still free);
    // merges: a new group with two or more members from each of two or more old groups.
    // Pushed by (old, root): a stable sort by root gives (root, old), each pair once.
    let mut counts = std::mem::take(&mut s.counts);
    counting_sort(&mut counts, &mut s.sort_tmp, &mut s.hist, n, |t| {
        t.0 as usize
    });
    s.counts = counts;
    // Only membership is asked of `taken`: its order never matters.
    s.taken.clear();
    s.root_label.iter_mut().for_each(|l| *l = NONE);
    let counts = &s.counts;
    let mut k = 0;
    while k < counts.len() {
        let root = counts[k].0;
        let mut e = k;
        let mut best = (0u32, NONE);
        let mut big_parts = 0u32;
        while e < counts.len() && counts[e].0 == root {
            let (_, old, c) = counts[e];
            if old != NONE {
                if c >= 2 {
                    big_parts += 1;
                }
                if c > best.0 || (c == best.0 && old < best.1) {
                    best = (c, old);
                }
            }
            e += 1;
        }
        let label = if best.1 != NONE && s.taken.insert(best.1) {
            best.1
        } else {
            let l = t.next_label;
            t.next_label = t.next_label.wrapping_add(1) % NONE;
            s.taken.insert(l);
            l
        };
        s.root_label[root as usize] = label;
        if big_parts >= 2 {
            t.stats.merges += 1;
            events.push(TraceEvent::GroupMerge {
                tick: now,
                npc: root,
                group: label,
                parts: big_parts,
            });
        }
        k = e;
    }
    for i in 0..n {
        let r = s.parent[i] as usize;
        t.chars[i].group = s.root_label[r];
    }
    t.scratch = s;
    for ev in events {
        let npc = match ev {
            TraceEvent::GroupSplit { npc, .. } | TraceEvent::GroupMerge { npc, .. } => npc,
            _ => continue,
        };
        cx.emit(npc, ev);
    }
}

#[cfg(test)]
mod tests;
