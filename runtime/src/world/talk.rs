//! Background-conversation state (SPEC §5): per character its own view of the others and
//! of its group, counters, and the run statistics; part of the world (snapshots, hash).
//! The algorithm is `systems::talk`.

use std::collections::HashSet;

use super::{MAX_INBOX, Message};
use crate::pack::Personality;
use crate::value::{EntityId, Sym, Vec2};

/// "Nobody": no addressee, no gaze target, no cast, no group.
pub const NONE: u32 = u32::MAX;

/// Visible non-verbal behavior, for the preview.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nonverbal {
    Nod,
    Gesture,
    PostureShift,
}

impl Nonverbal {
    pub fn name(self) -> &'static str {
        match self {
            Nonverbal::Nod => "nod",
            Nonverbal::Gesture => "gesture",
            Nonverbal::PostureShift => "posture_shift",
        }
    }
}

/// One entry of a character's view of its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub npc: u32,
    /// Tick of its last sign of participation seen by the viewer.
    pub last_active: u64,
}

/// Per-character counters, the raw material of [`metrics`].
///
/// The three tick counters (`talk_ticks`, `conv_ticks`, `overlap_ticks`) are kept lazily:
/// they hold the ticks of the spans that ended; [`Char::counters_at`] adds the spans still
/// going on. A tick counts when the character is in that state at the end of its turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct CharCounters {
    /// Ticks spent speaking.
    pub talk_ticks: u64,
    /// Ticks spent in a conversation (its view of a group not empty).
    pub conv_ticks: u64,
    /// Ticks spent speaking while another member of its group spoke too.
    pub overlap_ticks: u64,
    /// Episodes of simultaneous speech it took part in while speaking, and how many of them
    /// ended with it still speaking alone.
    pub overlaps: u64,
    pub overlaps_won: u64,
    /// Turns taken (starts of speech that are not continuations).
    pub turns: u64,
    /// Segments spoken (turns plus continuations).
    pub segments: u64,
    /// Transition points it reached with nobody taking the turn.
    pub unclaimed_trps: u64,
    /// Of those, how often it went on speaking (verbosity).
    pub continued: u64,
    pub interruptions_made: u64,
    pub interruptions_suffered: u64,
    /// Positive and negative feedback signals given.
    pub feedback_given: u64,
    pub feedback_negative: u64,
    pub feedback_received: u64,
    /// Turn-claiming signals made at a pre-TRP cue.
    pub claims: u64,
    pub joins: u64,
    pub leaves: u64,
}

/// One character's conversation state. Public fields are what others can perceive
/// (`speaking`, `addressee`, `gaze`, `nonverbal`); the rest is its own view and plans.
///
/// Layout (`repr(C)`, cache-line aligned; the offsets are checked by a test): what the
/// layer reads or writes at every one of its turns (ids, flags, which lazy spans are open,
/// the tick of its last turn, its clocks and its two views) fills the first two cache lines;
/// what message handling and the main cycle read (its personality, the silence clocks, the
/// noise it heard) the third; the lazy counters' spans, touched only when one opens or
/// closes (see `spans`), and the gathering and gap statistics' fields the fourth; the rest
/// of the statistics after them. A character has a turn only in ticks with mail in its
/// `talk` inbox or a clock due ([`TalkState`]'s `wake`); what *other* characters read of it
/// is mirrored in a compact array ([`TalkState`]'s `vis`).
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Char {
    // ---- line 0
    /// Cast its `converse` node asks for (NONE: not handed over).
    pub want: u32,
    /// Cast it takes part in (NONE: none).
    pub cast: u32,
    pub addressee: u32,
    pub gaze: u32,
    pub speaking: bool,
    /// It started speaking at a TRP (overlap at a TRP is resolved by confidence).
    pub started_at_trp: bool,
    /// Decided at a pre-TRP cue to take the next turn.
    pub want_turn: bool,
    /// Speaking while another member speaks (an overlap episode is going on).
    pub overlapping: bool,
    /// Which of the lazy spans are open ([`SPAN_TALK`], [`SPAN_CONV`], [`SPAN_OVERLAP`]: set
    /// exactly when `talk_since`, `conv_since`, `overlap_since` is not [`OFF`]), so that a
    /// turn that opens or closes none of them reads none of them ([`Char::settle`]).
    pub(crate) spans: u8,
    /// Tick of its last turn (or hand-over).
    pub last_turn: u64,
    pub next_cycle: u64,
    pub next_plan: u64,
    /// Its own speech: pre-TRP cue tick, end of the segment (TRP).
    pub pre_trp_at: u64,
    pub segment_end: u64,
    // ---- line 1
    /// After its own TRP: until this tick it waits for someone to take the turn (0: not).
    pub trp_wait: u64,
    /// A start of speech planned at this tick (0: none), to `pending_addressee`.
    pub pending_start: u64,
    /// Its view of its group (others only); empty = not in a conversation.
    pub members: Vec<Member>,
    /// Members it believes are speaking (up to four kept in the char itself).
    pub speakers: Speakers,
    // ---- line 2
    pub personality: Personality,
    /// Since when nobody in its view (itself included) speaks.
    pub silent_since: u64,
    /// Since when more than one member speaks at once (0: not now).
    pub multi_since: u64,
    /// Noise heard at the last cycle (position-aware).
    pub noise: f64,
    // ---- line 3
    /// Addressee of a planned start of speech (see `pending_start`).
    pub pending_addressee: u32,
    /// Group label as an observer sees it (NONE: in no group).
    pub group: u32,
    /// Start of the spans counted lazily into `talk_ticks`, `conv_ticks`, `overlap_ticks`
    /// (tick of the turn that entered the state; [`OFF`]: not in it).
    pub talk_since: u64,
    pub conv_since: u64,
    pub overlap_since: u64,
    /// Start tick of its own speech.
    pub speak_since: u64,
    /// Tick its last speech ended (0: never), and tick it last entered a conversation:
    /// the observer-level gap statistics (not part of its view).
    pub spoke_until: u64,
    /// How far it has stepped away from noise (added to its place in the group).
    pub away: Vec2,
    // ---- line 4 on
    pub entered_at: u64,
    /// Last non-verbal signal and its tick.
    pub nonverbal: Option<(Nonverbal, u64)>,
    pub counters: CharCounters,
}

/// The members a character believes are speaking, in the order it came to believe so. Most
/// such lists hold none or one, so up to four are kept inline, in the char's line that holds
/// the list (a turn reads that line anyway; 24 bytes, as a `Vec`); a longer list moves to the
/// heap.
pub type Speakers = smallvec::SmallVec<[u32; 4]>;

/// [`Char::spans`]' bits: the span of `talk_since`, `conv_since`, `overlap_since` is open.
pub(crate) const SPAN_TALK: u8 = 1;
pub(crate) const SPAN_CONV: u8 = 2;
pub(crate) const SPAN_OVERLAP: u8 = 4;

/// What other characters perceive of (or look up about) a character, copied from its
/// [`Char`] into a compact array indexed by NPC: the loops over group members, message
/// senders and grid neighbours read 20 bytes per character instead of touching the
/// others' full state. Derived state (rebuilt with the chars, not hashed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Vis {
    pub(crate) want: u32,
    pub(crate) cast: u32,
    pub(crate) addressee: u32,
    pub(crate) gaze: u32,
    pub(crate) speaking: bool,
    pub(crate) in_conversation: bool,
}

impl Vis {
    const NEW: Vis = Vis {
        want: NONE,
        cast: NONE,
        addressee: NONE,
        gaze: NONE,
        speaking: false,
        in_conversation: false,
    };
    pub(crate) fn of(c: &Char) -> Vis {
        Vis {
            want: c.want,
            cast: c.cast,
            addressee: c.addressee,
            gaze: c.gaze,
            speaking: c.speaking,
            in_conversation: c.in_conversation(),
        }
    }
}

impl Char {
    pub(crate) fn new() -> Char {
        Char {
            want: NONE,
            cast: NONE,
            personality: Personality::default(),
            speaking: false,
            addressee: NONE,
            gaze: NONE,
            nonverbal: None,
            members: Vec::new(),
            speakers: Speakers::new(),
            silent_since: 0,
            multi_since: 0,
            talk_since: OFF,
            conv_since: OFF,
            overlap_since: OFF,
            spans: 0,
            last_turn: 0,
            speak_since: 0,
            spoke_until: 0,
            entered_at: 0,
            pre_trp_at: 0,
            segment_end: 0,
            started_at_trp: false,
            trp_wait: 0,
            want_turn: false,
            pending_start: 0,
            pending_addressee: NONE,
            overlapping: false,
            next_cycle: 0,
            next_plan: 0,
            noise: 0.0,
            away: Vec2::ZERO,
            group: NONE,
            counters: CharCounters::default(),
        }
    }
    /// Whether `j` is in its view of the group.
    pub fn has(&self, j: u32) -> bool {
        self.members.iter().any(|m| m.npc == j)
    }
    /// The signature of its view ([`TalkState::view_sig`]).
    pub(crate) fn view_sig(&self) -> u64 {
        self.members.iter().fold(0, |s, m| s | 1 << (m.npc % 64))
    }
    /// Whether it is in a conversation (its view of a group is not empty).
    pub fn in_conversation(&self) -> bool {
        !self.members.is_empty()
    }
    /// Its counters after the world's tick `tick` (the last tick run): the lazily kept
    /// tick counters with the spans still going on added, and the overlap episode that
    /// the ticks since its last turn would have seen.
    pub fn counters_at(&self, tick: u64) -> CharCounters {
        let mut c = Char {
            members: Vec::new(),
            speakers: Speakers::new(),
            ..*self
        };
        let open = |since: u64| {
            if since == OFF {
                0
            } else {
                (tick + 1).saturating_sub(since)
            }
        };
        c.counters.talk_ticks += open(self.talk_since);
        c.counters.conv_ticks += open(self.conv_since);
        c.counters.overlap_ticks += open(self.overlap_since);
        if tick > self.last_turn {
            c.episodes(!self.speakers.is_empty());
        }
        c.counters
    }
    /// Brings the lazy tick counters up to its state, which counts from tick `at` on
    /// (the state at its segment clock in a tick it has a turn, the state at the end of
    /// its turn in the ticks after it).
    #[inline]
    pub(crate) fn settle(&mut self, at: u64) {
        fn span(since: &mut u64, total: &mut u64, on: bool, at: u64) {
            match (*since != OFF, on) {
                (true, false) => {
                    *total += at.saturating_sub(*since);
                    *since = OFF;
                }
                (false, true) => *since = at,
                _ => {}
            }
        }
        debug_assert_eq!(self.spans, self.spans_of_since(), "{self:?}");
        let speaking = self.speaking;
        let overlap = speaking && !self.speakers.is_empty();
        let conv = self.in_conversation();
        let on = if speaking { SPAN_TALK } else { 0 }
            | if conv { SPAN_CONV } else { 0 }
            | if overlap { SPAN_OVERLAP } else { 0 };
        if on == self.spans {
            return; // no span opens or closes
        }
        self.spans = on;
        let k = &mut self.counters;
        span(&mut self.talk_since, &mut k.talk_ticks, speaking, at);
        span(&mut self.conv_since, &mut k.conv_ticks, conv, at);
        span(&mut self.overlap_since, &mut k.overlap_ticks, overlap, at);
    }
    /// What [`Char::spans`] is by definition: the spans whose start is not [`OFF`].
    pub(crate) fn spans_of_since(&self) -> u8 {
        let bit = |since: u64, b: u8| if since == OFF { 0 } else { b };
        bit(self.talk_since, SPAN_TALK)
            | bit(self.conv_since, SPAN_CONV)
            | bit(self.overlap_since, SPAN_OVERLAP)
    }
    /// Overlap episodes (for the overlap metrics): one begins when it speaks while a
    /// member speaks too; it is won if it still speaks when the others stopped. Seen at
    /// its segment clock in every tick (idempotent while nothing changes).
    pub(crate) fn episodes(&mut self, others_speak: bool) {
        if self.speaking {
            if others_speak {
                if !self.overlapping {
                    self.overlapping = true;
                    self.counters.overlaps += 1;
                }
            } else if self.overlapping {
                self.overlapping = false;
                self.counters.overlaps_won += 1;
            }
        }
    }
}

/// "Not in that state" for the spans of [`Char`]'s lazy counters.
pub const OFF: u64 = u64::MAX;

/// Run-wide statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunStats {
    /// Ticks simulated while the layer was active.
    pub ticks: u64,
    /// Gaps between turns, counted by bucket: < 0.25 s, < 0.5, < 1, < 2, < 4, ≥ 4 s. A gap
    /// is measured as an observer (or the trace) sees it: a turn (not a continuation)
    /// starts while no member of the starter's view speaks; its gap is the time since the
    /// latest end of speech of the starter or those members, if that end came after the
    /// starter entered its conversation.
    pub gaps: [u64; 6],
    pub gap_ticks: u64,
    pub gap_count: u64,
    /// Group samples (every 0.5 s): number of groups seen and their summed sizes.
    pub group_samples: u64,
    pub groups_seen: u64,
    pub group_size_sum: u64,
    pub splits: u64,
    pub merges: u64,
}

/// Upper bounds (seconds) of the gap histogram buckets; the last one is open.
pub const GAP_BUCKETS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// The conversation layer's state in a [`World`].
#[derive(Clone, Debug, Default)]
pub struct TalkState {
    /// By NPC index.
    pub chars: Vec<Char>,
    /// Mirror of what others read of each char (by NPC index), kept equal to `Vis::of` of
    /// the char by the layer: `hand_over`, the hand-over pass and after each character's
    /// turn in [`step`] (the only places a char's visible fields change).
    pub(crate) vis: Vec<Vis>,
    /// By NPC index, `vis`' `speaking` once more, a byte each: noise looks at every
    /// character near a listener and goes on only with those speaking, so that test reads
    /// one line for 64 characters instead of one for three. Kept with `vis` (derived, not
    /// hashed).
    pub(crate) speaking: Vec<bool>,
    /// By NPC index, a signature of its view of its group: bit `m % 64` set for each member
    /// `m` (kept with `vis` while some cast is position-aware: a view changes only in its
    /// owner's turn or hand-over). Whether another character counts a listener in its view
    /// is asked of its members, when noise is summed, only when the bit says it may
    /// ([`TalkState::may_have`]): a compact array instead of the other's state and its list.
    /// Derived (not hashed).
    pub(crate) view_sig: Vec<u64>,
    /// By NPC index: how many messages wait in its `talk` inbox (its entries in `post`;
    /// counted by every delivery to that inbox, zeroed when the layer empties it), so that
    /// the layer gives a turn to the characters with mail without looking for it.
    pub(crate) mail: Vec<u16>,
    /// By NPC index: the next tick at which one of its clocks is due (segment clock,
    /// main cycle while in a conversation, planner; `u64::MAX`: none, not in the layer).
    /// A character has a turn in a tick only if mail came or its wake tick is reached:
    /// between events an idle character costs a compare, not a turn.
    pub(crate) wake: Vec<u64>,
    /// NPCs whose `converse` node asked for or gave back a cast since the last step
    /// (unsorted, may repeat): the hand-over pass looks only at them.
    pub(crate) handovers: Vec<u32>,
    /// How many characters take part in a cast (`cast` not NONE).
    pub(crate) in_layer: u32,
    /// Those characters, in NPC order (the only ones with a turn, in the grid and in the
    /// observer-level groups), and the ones that left the layer since the groups were last
    /// observed (their group label is cleared then). Derived from `chars` (not hashed).
    pub(crate) layer: Vec<u32>,
    pub(crate) left: Vec<u32>,
    /// NPCs whose `mail` count went above zero since the layer's last step (each once).
    pub(crate) mailed: Vec<u32>,
    /// The `talk` inboxes of the NPCs that can converse (those the layer has a char for):
    /// every message delivered to one, as (recipient, message), in the order delivered; an
    /// NPC's inbox is its entries, oldest first (at most [`MAX_INBOX`]: a delivery beyond
    /// drops its oldest). One list for all rather than a queue in each NPC's list of
    /// inboxes: a delivery appends to it, and the layer's step reads it in one pass in NPC
    /// order (grouped by recipient first, keeping each NPC's order), where reaching each
    /// character's queue through its NPC cost a few cache misses a character at 10,000.
    /// Trees read and take these messages as from any inbox (`systems::host`), the
    /// inspector shows them; part of the world hash.
    pub(crate) post: Vec<(u32, Message)>,
    /// By NPC index: each char's `group` label, mirrored in a compact array (kept equal by
    /// `systems::talk::groups`, the only place labels change): the observation of groups
    /// reads the old labels here and writes a char's label only when it changed, so that it
    /// touches one line of each char (its views) instead of three. Derived (not hashed).
    pub(crate) labels: Vec<u32>,
    /// By NPC index: its view's members or its cast changed since groups were last
    /// observed (`dirty`; those NPCs in `dirtied`, each once), and the ring of the group it
    /// was in then (the next member, in NPC order, the last one back to the first; itself
    /// when alone), and how many groups of two or more there were and their summed sizes:
    /// the observation of groups looks only at what changed (`systems::talk::groups`).
    /// Derived (not hashed).
    pub(crate) dirty: Vec<bool>,
    pub(crate) dirtied: Vec<u32>,
    pub(crate) ring: Vec<u32>,
    pub(crate) groups_now: u64,
    pub(crate) sizes_now: u64,
    pub stats: RunStats,
    pub next_label: u32,
    /// Scratch, rebuilt before use every tick (not state): spatial grid, union-find. A
    /// clone starts it empty ([`Scratch`]'s `Clone`).
    pub(crate) scratch: Scratch,
}

/// The conversation phase's buffers. The spatial grid is kept from one tick to the next,
/// but it is derived: what the next update leaves is what a build from scratch makes of the
/// layer and the positions (`systems::talk::grid_tests`), so a clone of the world (a
/// debugger's snapshot, a copy re-run) starts with none, the way a new world does, and
/// rebuilds it at its first tick: a snapshot of the town of 10,000 carries about a megabyte
/// less, and taking it copies that much less.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) cell: f64,
    /// The table of the spatial grid: its size less one, and log2 of its rows' length
    /// (`systems::talk::grid::table_shape`).
    pub(crate) mask: usize,
    pub(crate) row_bits: u32,
    /// The spatial grid (`systems::talk::grid`), kept from one tick to the next: per bucket
    /// the first character of its list (`u32::MAX`: empty); by NPC the next character of
    /// its bucket's list (in NPC order), its bucket (`u32::MAX`: not listed) and the
    /// position its bucket was found at; the characters listed, in NPC order.
    pub(crate) heads: Vec<u32>,
    pub(crate) next: Vec<u32>,
    pub(crate) at: Vec<u32>,
    pub(crate) seen: Vec<Vec2>,
    pub(crate) listed: Vec<u32>,
    /// `layer` changed since the grid was last brought up to date (set wherever `layer`
    /// changes, cleared by the update): while it is off, `listed` equals `layer`, and the
    /// update does not compare them.
    pub(crate) relist: bool,
    pub(crate) parent: Vec<u32>,
    pub(crate) triples: Vec<(u32, u32, u32)>,
    pub(crate) counts: Vec<(u32, u32, u32)>,
    pub(crate) taken: HashSet<u32>,
    pub(crate) root_label: Vec<u32>,
    /// The characters with a turn this tick (`systems::talk::step`).
    pub(crate) due: Vec<u32>,
    /// The characters an observation of groups looks at, by NPC whether one is, and each
    /// group's last member while the rings are rebuilt (`systems::talk::groups`).
    pub(crate) aff: Vec<u32>,
    pub(crate) in_aff: Vec<bool>,
    pub(crate) tail: Vec<u32>,
    /// Grouping the `talk` inboxes by recipient (`systems::talk::group_post`): by NPC the
    /// next slot of its mail, and the list grouped.
    pub(crate) start: Vec<u32>,
    pub(crate) grouped: Vec<(u32, Message)>,
}

impl Clone for Scratch {
    /// Empty: see the type.
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

#[cfg(test)]
impl Scratch {
    /// A copy of the kept spatial grid, which a clone does not carry (tests of its updates).
    pub(crate) fn grid_copy(&self) -> Scratch {
        Scratch {
            cell: self.cell,
            mask: self.mask,
            row_bits: self.row_bits,
            heads: self.heads.clone(),
            next: self.next.clone(),
            at: self.at.clone(),
            seen: self.seen.clone(),
            listed: self.listed.clone(),
            relist: self.relist,
            ..Scratch::default()
        }
    }
}

impl TalkState {
    pub fn new(npcs: usize) -> TalkState {
        TalkState {
            chars: (0..npcs).map(|_| Char::new()).collect(),
            vis: vec![Vis::NEW; npcs],
            speaking: vec![false; npcs],
            view_sig: vec![0; npcs],
            mail: vec![0; npcs],
            wake: vec![u64::MAX; npcs],
            handovers: Vec::new(),
            in_layer: 0,
            layer: Vec::new(),
            left: Vec::new(),
            mailed: Vec::new(),
            post: Vec::new(),
            labels: vec![NONE; npcs],
            dirty: vec![false; npcs],
            dirtied: Vec::new(),
            ring: (0..npcs as u32).collect(),
            groups_now: 0,
            sizes_now: 0,
            stats: RunStats::default(),
            next_label: 0,
            scratch: Scratch::default(),
        }
    }
    /// Whether `j`'s view of its group may hold `i` (false: it does not; true: ask
    /// [`Char::has`]), from [`TalkState::view_sig`].
    #[inline]
    pub(crate) fn may_have(&self, j: u32, i: u32) -> bool {
        self.view_sig[j as usize] >> (i % 64) & 1 != 0
    }
    /// Whether NPC `npc`'s `talk` inbox is kept here (`post`): it can converse (one of the
    /// NPCs the world started with).
    pub(crate) fn keeps_inbox_of(&self, npc: u32) -> bool {
        (npc as usize) < self.mail.len()
    }
    /// The NPC whose inbox `inbox` of `to` is, when that is a `talk` inbox (`talk`: the
    /// program's name of it) kept here: the one test of delivery, trees' reads and the
    /// mail phase's prefetches.
    pub(crate) fn kept_inbox(&self, talk: Sym, to: EntityId, inbox: Sym) -> Option<u32> {
        match to {
            EntityId::Npc(n) if inbox == talk && self.keeps_inbox_of(n) => Some(n),
            _ => None,
        }
    }
    /// Message `m` reaches NPC `npc`'s `talk` inbox (message delivery, scripted messages;
    /// `npc` one [`TalkState::keeps_inbox_of`]): past [`MAX_INBOX`] messages its oldest
    /// goes. The layer looks into that inbox on its next step.
    pub(crate) fn deliver(&mut self, npc: u32, m: Message) {
        let Some(count) = self.mail.get_mut(npc as usize) else {
            return;
        };
        if *count == 0 {
            self.mailed.push(npc);
        }
        if usize::from(*count) >= MAX_INBOX {
            if let Some(k) = self.post.iter().position(|e| e.0 == npc) {
                self.post.remove(k);
            }
        } else {
            *count += 1;
        }
        self.post.push((npc, m));
    }
    /// NPC `npc`'s `talk` inbox, oldest first (empty for an NPC whose inbox is not kept
    /// here): its entries of `post`, found by a scan of the tick's list when it has any.
    pub fn talk_inbox(&self, npc: u32) -> impl Iterator<Item = &Message> {
        let has = self.mail.get(npc as usize).is_some_and(|&c| c > 0);
        let post = if has { &self.post[..] } else { &[] };
        post.iter().filter(move |e| e.0 == npc).map(|e| &e.1)
    }
    /// Where in `post` the oldest message of NPC `npc`'s `talk` inbox (of kind `message`,
    /// if given) is.
    pub(crate) fn find_in_inbox(&self, npc: u32, message: Option<Sym>) -> Option<usize> {
        if self.mail.get(npc as usize).is_none_or(|&c| c == 0) {
            return None;
        }
        self.post
            .iter()
            .position(|e| e.0 == npc && message.is_none_or(|m| e.1.message == m))
    }
    /// Takes entry `at` of `post` (one [`TalkState::find_in_inbox`] found) out of its NPC's
    /// `talk` inbox.
    pub(crate) fn take_from_inbox(&mut self, at: usize) -> Message {
        let (npc, m) = self.post.remove(at);
        if let Some(c) = self.mail.get_mut(npc as usize) {
            *c = c.saturating_sub(1);
        }
        m
    }
    /// The members of `npc`'s view or its cast changed: the next observation of groups
    /// looks at its group.
    pub(crate) fn mark(&mut self, npc: u32) {
        if let Some(d) = self.dirty.get_mut(npc as usize)
            && !*d
        {
            *d = true;
            self.dirtied.push(npc);
        }
    }
    /// The NPC left the world or died: it leaves the conversation layer at its next step,
    /// whatever cast it was handed to.
    pub(crate) fn release(&mut self, npc: u32) {
        if let Some(c) = self.chars.get_mut(npc as usize) {
            c.want = NONE;
            self.vis[npc as usize].want = NONE;
            self.handovers.push(npc);
        }
    }
    /// Called by the `converse` node through the NPC's host.
    pub(crate) fn hand_over(&mut self, npc: u32, cast: u32, on: bool) {
        if let Some(c) = self.chars.get_mut(npc as usize) {
            let was = c.want;
            if on {
                c.want = cast;
            } else if c.want == cast {
                c.want = NONE;
            }
            self.vis[npc as usize].want = c.want;
            if c.want != was {
                self.handovers.push(npc);
            }
        }
    }
}
