//! Turn-taking (SPEC §5, seed 002): speaking and stopping, the messages characters react
//! to (tracking participation, responding to others, claiming a turn), the segment clock.

use super::*;

impl Cx<'_, '_, '_> {
    // ---- speaking ------------------------------------------------------------------

    pub(super) fn start_speaking(&mut self, i: u32, addressee: u32, how: Start) {
        let now = self.now;
        if how != Start::Continue {
            self.count_gap(i);
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

    /// The gap statistics (see [`RunStats::gaps`]): a turn of `i` starts now.
    fn count_gap(&mut self, i: u32) {
        let now = self.now;
        let c = self.c(i);
        let mut last = c.spoke_until;
        for m in &c.members {
            if self.w.talk.vis[m.npc as usize].speaking {
                return; // it starts over someone: no gap
            }
            last = last.max(self.w.talk.chars[m.npc as usize].spoke_until);
        }
        if last == 0 || last < c.entered_at || now <= last {
            return;
        }
        let gap = now - last;
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

    pub(super) fn stop_speaking(&mut self, i: u32) {
        if !self.c(i).speaking {
            return;
        }
        let now = self.now;
        let c = self.cm(i);
        c.speaking = false;
        c.spoke_until = now;
        c.overlapping = false;
        c.started_at_trp = false;
        if c.speakers.is_empty() {
            c.silent_since = now;
        }
        self.emit(i, TraceEvent::SpeakEnd { tick: now, npc: i });
        self.broadcast(i, Msg::SpeakEnd);
    }

    pub(super) fn leave_conversation(&mut self, i: u32) {
        if !self.c(i).in_conversation() {
            return;
        }
        self.stop_speaking(i);
        self.broadcast(i, Msg::Leave);
        self.w.talk.mark(i);
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
            self.w.set_target(i, None);
        }
        self.set_gaze(i, NONE);
        let tick = self.now;
        self.emit(i, TraceEvent::GroupLeave { tick, npc: i });
    }

    // ---- messages --------------------------------------------------------------------

    pub(super) fn handle(&mut self, i: u32, j: u32, m: Msg) {
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
                c.speakers.retain(|s| *s != j);
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
                self.cm(i).speakers.retain(|s| *s != j);
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
    pub(super) fn alone(&mut self, i: u32) {
        self.stop_speaking(i);
        let c = self.cm(i);
        c.counters.leaves += 1;
        c.want_turn = false;
        c.pending_start = 0;
        c.addressee = NONE;
        c.away = Vec2::ZERO;
        let cast = c.cast;
        if cast != NONE && self.p.talk.casts[cast as usize].position_aware {
            self.w.set_target(i, None);
        }
        self.set_gaze(i, NONE);
        let tick = self.now;
        self.emit(i, TraceEvent::GroupLeave { tick, npc: i });
    }

    /// Responding to others: a member of its group started to speak.
    pub(super) fn someone_started(&mut self, i: u32, j: u32) {
        let now = self.now;
        let c = self.cm(i);
        if !c.speakers.contains(&j) {
            c.speakers.push(j);
        }
        // Someone speaks: the silence in its view is over.
        c.silent_since = 0;
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
    pub(super) fn addressed_from_outside(&mut self, i: u32, j: u32) {
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
    pub(super) fn join(&mut self, i: u32, j: u32) {
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

    pub(super) fn random_member(&mut self, i: u32) -> u32 {
        let n = self.c(i).members.len();
        if n == 0 {
            return NONE;
        }
        let k = self.pick(n);
        self.c(i).members[k].npc
    }

    // ---- per tick: segment clock ------------------------------------------------------

    pub(super) fn speech_clock(&mut self, i: u32) {
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
    }
}
