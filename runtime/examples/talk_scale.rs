//! Cost of background conversations per simulated second for 100, 1,000 and 10,000
//! conversing characters (the whole world tick: trees with one `converse` node each, the
//! conversation layer, movement, message delivery). Characters stand at a constant density
//! (a 2.5-unit grid in blocks of 16 with streets between them), so a larger crowd is a
//! larger town, not a denser one. Run in release:
//!
//! ```sh
//! cargo run --release -p townsfolk-runtime --example talk_scale
//! ```
//!
//! With arguments, one row only (for profilers): `talk_scale aware|blind N [TICKS]` builds
//! the town of `N` characters, warms it up as above and then runs `TICKS` ticks (default
//! 200) once, in the function `measured` (e.g. `valgrind --tool=callgrind
//! --toggle-collect=talk_scale::measured ...` counts only those ticks).

use std::time::Instant;

use townsfolk_runtime::Session;
use townsfolk_runtime::pack::{
    CastDef, CastMember, Node, NodeKind, NpcDef, Pack, Personality, Point, TreeDef,
    to_canonical_string,
};

fn town(n: usize, position_aware: bool) -> Pack {
    let mut p = Pack::new("talk scale");
    let blocks = (n as f64 / 16.0).sqrt().ceil() as usize;
    let side = blocks as f64 * 16.0 + 10.0;
    p.world.bounds.max = Point { x: side, y: side };
    p.trees.push(TreeDef {
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
                cast: "town".into(),
                until: None,
                seconds: None,
            },
            children: Vec::new(),
        },
    });
    let mut members = Vec::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..n {
        let (b, k) = (i / 16, i % 16);
        let (bx, by) = ((b % blocks) as f64 * 16.0, (b / blocks) as f64 * 16.0);
        let pos = Point {
            x: 5.0 + bx + (k % 4) as f64 * 2.5,
            y: 5.0 + by + (k / 4) as f64 * 2.5,
        };
        p.world.npcs.push(NpcDef {
            id: format!("c{i}"),
            name: None,
            pos,
            speed: 1.4,
            tags: Vec::new(),
            tree: "chat".into(),
            vars: Default::default(),
            inboxes: Vec::new(),
            health: 100.0,
            items: Vec::new(),
            equipped: Vec::new(),
            prototype: false,
            comment: None,
        });
        // Varied personalities (xorshift64: deterministic).
        let mut r = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 1000) as f64 / 1000.0
        };
        members.push(CastMember {
            npc: format!("c{i}"),
            talkativeness: Some(r()),
            transparency: Some(r()),
            confidence: Some(r()),
            interactivity: Some(r()),
            verbosity: Some(r()),
            comment: None,
        });
    }
    p.casts.push(CastDef {
        id: "town".into(),
        name: None,
        comment: None,
        position_aware,
        join_radius: 6.0,
        hearing_radius: 8.0,
        planner_seconds: 5.0,
        cycle_seconds: 0.5,
        inactive_seconds: 20.0,
        default: Personality::default(),
        members,
    });
    p
}

/// The flat-cost target: ns per character at 10,000 characters within this factor of the
/// figure at 100 (issue 14 item 5).
const FLAT: f64 = 1.2;

/// The ticks measured (a function of its own, so that profilers can count only them).
#[inline(never)]
fn measured(s: &mut Session, ticks: u64) {
    s.run(ticks);
}

fn talking(s: &Session) -> usize {
    s.world()
        .talk
        .chars
        .iter()
        .filter(|c| c.in_conversation())
        .count()
}

fn mode_name(aware: bool) -> &'static str {
    if aware {
        "position-aware"
    } else {
        "position-blind"
    }
}

/// `talk_scale aware|blind N [TICKS]`: one row, one run of `TICKS` ticks after the warm-up.
/// `talk_scale pack aware|blind N`: prints the town as a pack file instead (to run it with
/// `townsfolk run`, e.g. to compare world hashes of two builds).
fn one_row(args: &[String]) -> anyhow::Result<()> {
    if args[0] == "pack" {
        let aware = args.get(1).is_some_and(|m| m == "aware");
        let n: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1_000);
        print!("{}", to_canonical_string(&town(n, aware)));
        return Ok(());
    }
    let aware = match args[0].as_str() {
        "aware" => true,
        "blind" => false,
        other => {
            anyhow::bail!("talk_scale: first argument {other:?} is neither `aware` nor `blind`")
        }
    };
    let Some(n) = args.get(1) else {
        anyhow::bail!("talk_scale: usage `talk_scale aware|blind N [TICKS]` (N missing)");
    };
    let n: usize = n
        .parse()
        .map_err(|e| anyhow::anyhow!("talk_scale: character count {n:?}: {e}"))?;
    let ticks: u64 = match args.get(2) {
        Some(t) => t
            .parse()
            .map_err(|e| anyhow::anyhow!("talk_scale: tick count {t:?}: {e}"))?,
        None => 200,
    };
    if n == 0 || ticks == 0 {
        anyhow::bail!("talk_scale: N and TICKS must be at least 1");
    }
    let pack = town(n, aware);
    let mut s = Session::from_pack(&pack, 1)
        .map_err(|d| anyhow::anyhow!("talk_scale: the generated pack is invalid: {d:?}"))?;
    s.run(300);
    let t = Instant::now();
    measured(&mut s, ticks);
    let secs = ticks as f64 * s.program().dt;
    let per_sec = t.elapsed().as_secs_f64() / secs;
    println!(
        "| {} | {n} | {:.3} | {:.0} | {:.0}% | {ticks} ticks, one run |",
        mode_name(aware),
        per_sec * 1e3,
        per_sec * 1e9 / n as f64,
        talking(&s) as f64 * 100.0 / n as f64
    );
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        return one_row(&args);
    }
    let mut per_char: Vec<(bool, usize, f64)> = Vec::new();
    println!(
        "| mode | characters | ms per simulated second | ns per character per simulated second | in a conversation |"
    );
    println!("|---|---:|---:|---:|---:|");
    for aware in [true, false] {
        for n in [100usize, 1_000, 10_000] {
            let pack = town(n, aware);
            let mut s = Session::from_pack(&pack, 1).expect("valid pack");
            // Warm up: 30 simulated seconds, so groups have formed.
            s.run(300);
            let secs = 20u64;
            let ticks = (secs as f64 / s.program().dt) as u64;
            let reps = (100_000 / n).clamp(1, 20);
            let mut best = f64::INFINITY;
            for _ in 0..reps.min(3) {
                let t = Instant::now();
                s.run(ticks);
                best = best.min(t.elapsed().as_secs_f64());
            }
            let per_sec = best / secs as f64;
            let talking = talking(&s);
            per_char.push((aware, n, per_sec * 1e9 / n as f64));
            println!(
                "| {} | {n} | {:.3} | {:.0} | {:.0}% |",
                mode_name(aware),
                per_sec * 1e3,
                per_sec * 1e9 / n as f64,
                talking as f64 * 100.0 / n as f64
            );
        }
    }
    println!();
    println!("| mode | ns per character, 10,000 ÷ 100 | target | status |");
    println!("|---|---:|---:|---|");
    for aware in [true, false] {
        let at = |n: usize| {
            per_char
                .iter()
                .find(|r| r.0 == aware && r.1 == n)
                .map_or(f64::NAN, |r| r.2)
        };
        let ratio = at(10_000) / at(100);
        println!(
            "| {} | {ratio:.2} | ≤ {FLAT} | {} |",
            mode_name(aware),
            if ratio <= FLAT { "met" } else { "not met" }
        );
    }
    Ok(())
}
