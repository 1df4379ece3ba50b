//! The metrics of `townsfolk talk`: per character and per run, from the counters the
//! conversation layer keeps in the world.

use serde::Serialize;

use crate::pack::Personality;
use crate::program::Program;
use crate::program::casts::{param_names, set_param};
use crate::world::World;
use crate::world::talk::{GAP_BUCKETS, NONE};

/// One character's metrics.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CharReport {
    pub npc: String,
    pub talkativeness: f64,
    pub transparency: f64,
    pub confidence: f64,
    pub interactivity: f64,
    pub verbosity: f64,
    /// Seconds in a conversation.
    pub conversation_seconds: f64,
    /// Seconds speaking.
    pub talk_seconds: f64,
    /// Its share of all talk time in the run.
    pub talk_share: f64,
    /// Fraction of its conversation time spent speaking.
    pub talk_fraction: f64,
    pub turns: u64,
    pub segments: u64,
    pub unclaimed_trps: u64,
    /// Continuations after unclaimed TRPs, and their rate.
    pub continued: u64,
    pub continue_rate: f64,
    pub interruptions_made: u64,
    pub interruptions_suffered: u64,
    pub feedback_given: u64,
    pub feedback_negative: u64,
    pub turn_claims: u64,
    /// Overlap episodes while it spoke, and how many it won (still speaking alone after).
    pub overlaps: u64,
    pub overlaps_won: u64,
    pub joins: u64,
    pub leaves: u64,
}

/// Run-wide metrics.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunReport {
    pub seconds: f64,
    /// Share of talk time during which another member of the speaker's group spoke too.
    pub overlap_rate: f64,
    pub gap_count: u64,
    pub gap_mean_seconds: f64,
    /// Gap counts: `< 0.25 s`, `< 0.5 s`, `< 1 s`, `< 2 s`, `< 4 s`, `>= 4 s`.
    pub gap_histogram: Vec<(String, u64)>,
    /// Mean size of the groups seen (samples every 0.5 s) and mean number of groups.
    pub mean_group_size: f64,
    pub mean_groups: f64,
    pub splits: u64,
    pub merges: u64,
    pub splits_per_minute: f64,
    pub merges_per_minute: f64,
}

/// The whole report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    pub characters: Vec<CharReport>,
    pub run: RunReport,
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Metrics of a world: every NPC that is listed in a cast or took part in a conversation.
pub fn report(p: &Program, w: &World) -> Report {
    let dt = p.dt;
    let listed = |i: u32| {
        p.talk
            .casts
            .iter()
            .find_map(|k| k.members.iter().find(|m| m.0 == i).map(|m| m.1))
    };
    let counters: Vec<_> = w.talk.chars.iter().map(|c| c.counters_at(w.tick)).collect();
    let total_talk: u64 = counters.iter().map(|k| k.talk_ticks).sum();
    let mut characters = Vec::new();
    for (i, (c, &k)) in w.talk.chars.iter().zip(&counters).enumerate() {
        let listed = listed(i as u32);
        if listed.is_none() && k.conv_ticks == 0 && k.joins == 0 && c.cast == NONE {
            continue;
        }
        let pers: Personality = if c.cast != NONE || k.joins > 0 {
            c.personality
        } else {
            listed.unwrap_or_default()
        };
        characters.push(CharReport {
            npc: p.npcs.get(i).map_or_else(String::new, |n| n.id.clone()),
            talkativeness: pers.talkativeness,
            transparency: pers.transparency,
            confidence: pers.confidence,
            interactivity: pers.interactivity,
            verbosity: pers.verbosity,
            conversation_seconds: k.conv_ticks as f64 * dt,
            talk_seconds: k.talk_ticks as f64 * dt,
            talk_share: ratio(k.talk_ticks, total_talk),
            talk_fraction: ratio(k.talk_ticks, k.conv_ticks),
            turns: k.turns,
            segments: k.segments,
            unclaimed_trps: k.unclaimed_trps,
            continued: k.continued,
            continue_rate: ratio(k.continued, k.unclaimed_trps),
            interruptions_made: k.interruptions_made,
            interruptions_suffered: k.interruptions_suffered,
            feedback_given: k.feedback_given,
            feedback_negative: k.feedback_negative,
            turn_claims: k.claims,
            overlaps: k.overlaps,
            overlaps_won: k.overlaps_won,
            joins: k.joins,
            leaves: k.leaves,
        });
    }
    let s = &w.talk.stats;
    let overlap: u64 = counters.iter().map(|k| k.overlap_ticks).sum();
    let seconds = w.tick as f64 * dt;
    let minutes = seconds / 60.0;
    let per_min = |x: u64| {
        if minutes > 0.0 {
            x as f64 / minutes
        } else {
            0.0
        }
    };
    let mut labels: Vec<String> = GAP_BUCKETS.iter().map(|u| format!("< {u} s")).collect();
    labels.push(format!(">= {} s", GAP_BUCKETS[GAP_BUCKETS.len() - 1]));
    Report {
        characters,
        run: RunReport {
            seconds,
            overlap_rate: ratio(overlap, total_talk),
            gap_count: s.gap_count,
            gap_mean_seconds: ratio(s.gap_ticks, s.gap_count) * dt,
            gap_histogram: labels.into_iter().zip(s.gaps).collect(),
            mean_group_size: ratio(s.group_size_sum, s.groups_seen),
            mean_groups: ratio(s.groups_seen, s.group_samples),
            splits: s.splits,
            merges: s.merges,
            splits_per_minute: per_min(s.splits),
            merges_per_minute: per_min(s.merges),
        },
    }
}

/// The report as a text table.
pub fn render_text(r: &Report) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{:<14} {:>4} {:>4} {:>4} {:>4} {:>4} | {:>6} {:>6} {:>5} {:>6} {:>9} {:>8} {:>8} {:>8}",
        "character",
        "talk",
        "trn",
        "conf",
        "int",
        "verb",
        "share",
        "speak",
        "turns",
        "cont",
        "intr m/s",
        "feedback",
        "claims",
        "ovl won"
    );
    for c in &r.characters {
        let _ = writeln!(
            o,
            "{:<14} {:>4.2} {:>4.2} {:>4.2} {:>4.2} {:>4.2} | {:>5.1}% {:>5.1}% {:>5} {:>6} {:>9} {:>8} {:>8} {:>8}",
            c.npc,
            c.talkativeness,
            c.transparency,
            c.confidence,
            c.interactivity,
            c.verbosity,
            c.talk_share * 100.0,
            c.talk_fraction * 100.0,
            c.turns,
            format!("{}/{}", c.continued, c.unclaimed_trps),
            format!("{}/{}", c.interruptions_made, c.interruptions_suffered),
            c.feedback_given,
            c.turn_claims,
            format!("{}/{}", c.overlaps_won, c.overlaps),
        );
    }
    let run = &r.run;
    let _ = writeln!(o, "run: {:.0} s simulated", run.seconds);
    let _ = writeln!(o, "  overlap rate      {:.1}%", run.overlap_rate * 100.0);
    let _ = writeln!(
        o,
        "  gaps              {} (mean {:.2} s): {}",
        run.gap_count,
        run.gap_mean_seconds,
        run.gap_histogram
            .iter()
            .map(|(l, n)| format!("{l}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        o,
        "  groups            mean size {:.2}, mean count {:.2}",
        run.mean_group_size, run.mean_groups
    );
    let _ = writeln!(
        o,
        "  churn             {:.2} splits/min, {:.2} merges/min ({} splits, {} merges)",
        run.splits_per_minute, run.merges_per_minute, run.splits, run.merges
    );
    o
}

/// A parameter sweep: `[NPC.]PARAM=FROM:TO:STEP` (one character, or every character of
/// every cast when no NPC is given).
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub npc: Option<String>,
    pub param: String,
    pub values: Vec<f64>,
}

/// Most values a sweep may take (it runs one simulation per value).
pub const MAX_SWEEP_VALUES: usize = 101;

/// Why a `--sweep` specification was refused, or could not be applied to a pack.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SweepError {
    #[error("`{0}`: expected [NPC.]PARAM=FROM:TO:STEP")]
    Syntax(String),
    #[error("unknown parameter `{param}`; one of: {known}")]
    UnknownParameter { param: String, known: String },
    #[error("`{0}`: expected FROM:TO:STEP")]
    Range(String),
    #[error("`{0}` is not a number")]
    NotANumber(String),
    #[error("parameters lie in [0, 1]; the sweep goes from {from} to {to}")]
    OutOfRange { from: f64, to: f64 },
    #[error("the step must be positive and FROM at most TO")]
    Step,
    #[error("the sweep takes more than {MAX_SWEEP_VALUES} values; use a larger step")]
    TooManyValues,
    #[error("the pack has no `casts`")]
    NoCasts,
    #[error("unknown NPC `{0}`")]
    UnknownNpc(String),
}

impl Sweep {
    pub fn parse(spec: &str) -> Result<Sweep, SweepError> {
        let (lhs, range) = spec
            .split_once('=')
            .ok_or_else(|| SweepError::Syntax(spec.to_string()))?;
        let (npc, param) = match lhs.rsplit_once('.') {
            Some((n, p)) => (Some(n.to_string()), p),
            None => (None, lhs),
        };
        if !param_names().contains(&param) {
            return Err(SweepError::UnknownParameter {
                param: param.to_string(),
                known: param_names().join(", "),
            });
        }
        let nums: Vec<&str> = range.split(':').collect();
        let [from, to, step] = nums.as_slice() else {
            return Err(SweepError::Range(range.to_string()));
        };
        let num = |s: &str| -> Result<f64, SweepError> {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| SweepError::NotANumber(s.to_string()))
        };
        let (from, to, step) = (num(from)?, num(to)?, num(step)?);
        if !(0.0..=1.0).contains(&from) || !(0.0..=1.0).contains(&to) {
            return Err(SweepError::OutOfRange { from, to });
        }
        if step <= 0.0 || from > to {
            return Err(SweepError::Step);
        }
        let mut values = Vec::new();
        let mut k = 0u32;
        loop {
            // Computed from the index, not accumulated, so 0.1:0.9:0.2 ends exactly at 0.9.
            let v = from + step * k as f64;
            if v > to + 1e-9 {
                break;
            }
            values.push((v * 1e9).round() / 1e9);
            k += 1;
            if values.len() > MAX_SWEEP_VALUES {
                return Err(SweepError::TooManyValues);
            }
        }
        Ok(Sweep {
            npc,
            param: param.to_string(),
            values,
        })
    }

    /// Sets the swept parameter to `v` in a pack: for one NPC in every cast (added as a
    /// member where it is not listed), or for every member and default of every cast.
    pub fn apply(&self, pack: &mut crate::pack::Pack, v: f64) -> Result<(), SweepError> {
        if pack.casts.is_empty() {
            return Err(SweepError::NoCasts);
        }
        let set = |m: &mut crate::pack::CastMember| {
            let slot = match self.param.as_str() {
                "talkativeness" => &mut m.talkativeness,
                "transparency" => &mut m.transparency,
                "confidence" => &mut m.confidence,
                "interactivity" => &mut m.interactivity,
                _ => &mut m.verbosity,
            };
            *slot = Some(v);
        };
        match &self.npc {
            Some(npc) => {
                if !pack.world.npcs.iter().any(|n| n.id == *npc) {
                    return Err(SweepError::UnknownNpc(npc.clone()));
                }
                for c in &mut pack.casts {
                    match c.members.iter_mut().find(|m| m.npc == *npc) {
                        Some(m) => set(m),
                        None => {
                            let mut m = crate::pack::CastMember {
                                npc: npc.clone(),
                                talkativeness: None,
                                transparency: None,
                                confidence: None,
                                interactivity: None,
                                verbosity: None,
                                comment: None,
                            };
                            set(&mut m);
                            c.members.push(m);
                        }
                    }
                }
            }
            None => {
                for c in &mut pack.casts {
                    set_param(&mut c.default, &self.param, v);
                    c.members.iter_mut().for_each(set);
                }
            }
        }
        Ok(())
    }
}
