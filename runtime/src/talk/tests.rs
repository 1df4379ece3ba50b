use super::*;
use crate::pack::{CastDef, CastMember, Node, NodeKind, NpcDef, Pack, Point, TreeDef};
use crate::world::Session;

const SEEDS: std::ops::Range<u64> = 0..12;

/// A cast member with all five parameters.
fn m(npc: &str, p: [f64; 5]) -> CastMember {
    CastMember {
        npc: npc.into(),
        talkativeness: Some(p[0]),
        transparency: Some(p[1]),
        confidence: Some(p[2]),
        interactivity: Some(p[3]),
        verbosity: Some(p[4]),
        comment: None,
    }
}

/// A pack where every NPC only converses, in one cast.
fn pack(chars: &[(&str, [f64; 2], [f64; 5])], position_aware: bool) -> Pack {
    let mut pack = Pack::new("talk test");
    pack.world.bounds.max = Point { x: 200.0, y: 200.0 };
    pack.trees.push(TreeDef {
        id: "chat".into(),
        name: None,
        comment: None,
        blackboard: Default::default(),
        root: Node {
            id: "talk".into(),
            name: None,
            comment: None,
            disabled: false,
            kind: NodeKind::Converse {
                cast: "c".into(),
                until: None,
                seconds: None,
            },
            children: Vec::new(),
        },
    });
    for (id, pos, _) in chars {
        pack.world.npcs.push(NpcDef {
            id: (*id).into(),
            name: None,
            pos: Point {
                x: pos[0],
                y: pos[1],
            },
            speed: 1.5,
            tags: Vec::new(),
            tree: "chat".into(),
            vars: Default::default(),
            inboxes: Vec::new(),
            comment: None,
        });
    }
    pack.casts.push(CastDef {
        id: "c".into(),
        name: None,
        comment: None,
        position_aware,
        join_radius: 6.0,
        hearing_radius: 10.0,
        planner_seconds: 5.0,
        cycle_seconds: 0.5,
        inactive_seconds: 20.0,
        default: Personality::default(),
        members: chars.iter().map(|(id, _, p)| m(id, *p)).collect(),
    });
    pack
}

fn run(pack: &Pack, seed: u64, seconds: u64) -> Session {
    let mut s = Session::from_pack(pack, seed).expect("valid pack");
    s.run(seconds * 10);
    s
}

fn ring(n: usize, params: impl Fn(usize) -> [f64; 5]) -> Vec<(String, [f64; 2], [f64; 5])> {
    (0..n)
        .map(|i| {
            let a = i as f64;
            (
                format!("n{i}"),
                [50.0 + (a * 0.7).cos() * 1.5, 50.0 + (a * 0.7).sin() * 1.5],
                params(i),
            )
        })
        .collect()
}

fn as_refs(v: &[(String, [f64; 2], [f64; 5])]) -> Vec<(&str, [f64; 2], [f64; 5])> {
    v.iter().map(|(a, b, c)| (a.as_str(), *b, *c)).collect()
}

/// Counters of every character summed over seeds.
fn totals(pack: &Pack, seeds: std::ops::Range<u64>, seconds: u64) -> Vec<CharCounters> {
    let mut sum = vec![CharCounters::default(); pack.world.npcs.len()];
    for seed in seeds {
        let s = run(pack, seed, seconds);
        for (t, c) in sum.iter_mut().zip(&s.world().talk.chars) {
            let k = c.counters;
            t.talk_ticks += k.talk_ticks;
            t.conv_ticks += k.conv_ticks;
            t.turns += k.turns;
            t.unclaimed_trps += k.unclaimed_trps;
            t.continued += k.continued;
            t.feedback_negative += k.feedback_negative;
            t.feedback_given += k.feedback_given;
            t.overlaps += k.overlaps;
            t.overlaps_won += k.overlaps_won;
            t.interruptions_made += k.interruptions_made;
            t.claims += k.claims;
        }
    }
    sum
}


/// Two characters differing in one parameter (index `k`), in a group of four whose other
/// members are average.
fn contrast(k: usize) -> (Pack, usize, usize) {
    let chars = ring(4, |i| {
        let mut p = [0.5; 5];
        match i {
            0 => p[k] = 0.9,
            1 => p[k] = 0.1,
            _ => {}
        }
        p
    });
    (pack(&as_refs(&chars), true), 0, 1)
}

#[test]
fn talkative_characters_talk_a_larger_share() {
    let (p, hi, lo) = contrast(0);
    let t = totals(&p, SEEDS, 300);
    let (a, b) = (t[hi].talk_ticks, t[lo].talk_ticks);
    assert!(a > 2 * b, "talkativeness 0.9 talked {a} ticks, 0.1 talked {b}");
    // Per seed too, most of the time.
    let wins = SEEDS
        .filter(|&seed| {
            let s = run(&p, seed, 300);
            let c = &s.world().talk.chars;
            c[hi].counters.talk_ticks > c[lo].counters.talk_ticks
        })
        .count();
    assert!(wins >= 10, "the talkative one talked more in only {wins}/12 seeds");
}

#[test]
fn confident_characters_win_more_overlaps() {
    let (p, hi, lo) = contrast(2);
    let t = totals(&p, SEEDS, 300);
    let rate = |c: &CharCounters| c.overlaps_won as f64 / c.overlaps.max(1) as f64;
    assert!(t[hi].overlaps >= 30 && t[lo].overlaps >= 30, "{t:?}");
    assert!(
        rate(&t[hi]) > rate(&t[lo]) + 0.25,
        "won {:.2} of overlaps at confidence 0.9, {:.2} at 0.1",
        rate(&t[hi]),
        rate(&t[lo])
    );
}

#[test]
fn verbose_characters_continue_more_after_unclaimed_trps() {
    let (p, hi, lo) = contrast(4);
    let t = totals(&p, SEEDS, 300);
    let rate = |c: &CharCounters| c.continued as f64 / c.unclaimed_trps.max(1) as f64;
    assert!(t[hi].unclaimed_trps >= 20 && t[lo].unclaimed_trps >= 20, "{t:?}");
    assert!(
        rate(&t[hi]) > rate(&t[lo]) + 0.5,
        "continued after {:.2} of unclaimed TRPs at verbosity 0.9, {:.2} at 0.1",
        rate(&t[hi]),
        rate(&t[lo])
    );
}

#[test]
fn opaque_characters_give_less_feedback() {
    let (p, hi, lo) = contrast(1);
    let t = totals(&p, SEEDS, 300);
    let (a, b) = (t[hi].feedback_given, t[lo].feedback_given);
    assert!(a >= 40, "{a}");
    assert!(
        a > 3 * b,
        "transparency 0.9 gave {a} feedback signals, 0.1 gave {b}"
    );
}
