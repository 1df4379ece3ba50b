//! The main cycle (about every 0.5 s: leave, split, interrupt, side talk, gather, noise) and
//! the high-level planner (about every 5 s: leave, join, start a conversation).

use super::*;

impl Cx<'_, '_, '_> {
    // ---- main cycle ------------------------------------------------------------------

    pub(super) fn cycle(&mut self, i: u32) {
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
    pub(super) fn split_view(&mut self, i: u32) {
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

    pub(super) fn nearest_listener(&self, i: u32) -> u32 {
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
    pub(super) fn noise_and_place(&mut self, i: u32) {
        let me = self.w.pos[i as usize];
        let hr = self.cast(i).hearing_radius;
        let mut noise = 0.0;
        let mut push = Vec2::ZERO;
        if hr > 0.0 {
            let w = &*self.w;
            let c = &w.talk.chars[i as usize];
            for_near(&w.talk.scratch, me, hr, |j| {
                // Noise is speech of *other* conversations: not a speaker in its view, nor
                // one that counts it in its own view or speaks to its group (views disagree;
                // its own group's speech is no reason to step away). Who speaks from the
                // compact flags first (most nearby characters do not), within hearing range
                // next: most of the 3×3 cells lie beyond it, and that test reads only
                // positions, while the last one reads the other character's view.
                if j == i || !w.talk.speaking[j as usize] {
                    return;
                }
                let o = &w.talk.vis[j as usize];
                let off = me - w.pos[j as usize];
                let d = off.length();
                if d < hr
                    && !c.has(j)
                    && o.addressee != i
                    && !(o.addressee != NONE && c.has(o.addressee))
                    && !(w.talk.may_have(j, i) && w.talk.chars[j as usize].has(i))
                {
                    let loud = 1.0 - d / hr;
                    noise += loud;
                    if d > 1e-9 {
                        push = push + off * (loud / d);
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
        } else {
            // Quiet: the step away fades (halves about every 1.5 s at a 0.5 s cycle), so
            // a group that stepped away from noise does not keep walking once it is gone.
            c.away = if c.away.length() < 0.05 {
                Vec2::ZERO
            } else {
                c.away * 0.8
            };
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
        let to = if spot.distance(me) > 0.35 {
            Some(spot)
        } else {
            None
        };
        self.w.set_target(i, to);
    }

    // ---- high-level planner ----------------------------------------------------------

    pub(super) fn plan(&mut self, i: u32) {
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
    pub(super) fn candidates(&mut self, i: u32) -> (u32, u32) {
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
