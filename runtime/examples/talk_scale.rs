//! Cost of background conversations per simulated second for 100, 1,000 and 10,000
//! conversing characters (the whole world tick: trees with one `converse` node each, the
//! conversation layer, movement, message delivery), in two towns where a larger crowd is a
//! larger town, not a denser one:
//!
//! - **streets**: blocks of 16 characters on a 2.5-unit grid, a street (8.5 units) between
//!   blocks. Groups that step away from noise hear the next block, so the small towns, whose
//!   blocks are mostly at the edge, do less work per character (fewer neighbours to hear,
//!   fewer groups walking): at 10,000 each character executes about 1.1× the instructions it
//!   does at 100 (aware; callgrind over the tables' ticks).
//! - **squares**: squares of 20 characters (5 × 4 on the same grid), 100 units apart, out of
//!   earshot of each other even after groups have drifted (they do, stepping away from each
//!   other's noise), and the same 20 personalities in every square: each character
//!   has the same surroundings at every size, so its work is the same on average and the
//!   ratio of the costs measures only how the runtime's cost per character grows with the
//!   crowd (issue 14 item 5's flat cost). The run checks that nobody left its square's
//!   neighbourhood.
//!
//! Each row is the mean over towns played with seeds 1, 2, …, so that every row plays 10,000
//! characters in all (100 towns of 100, 10 of 1,000, one of 10,000): a town of 100 is five
//! squares, whose work over 20 seconds varies by ±6 % with the seed and the window. Each town
//! is timed over 20 simulated seconds after a 30-second warm-up, the fastest of three plays of
//! that window, each on a session built afresh (the same work, from the same memory).
//!
//! ```sh
//! cargo run --release -p townsfolk-runtime --example talk_scale                  # both towns
//! cargo run --release -p townsfolk-runtime --example talk_scale -- --town squares
//! ```
//!
//! One row only (for profilers): `talk_scale [--town T] aware|blind N [TICKS]` builds the town
//! of `N` characters, warms it up as the tables do and then runs `TICKS` ticks (default 200)
//! once, in the function `measured` (e.g. `valgrind --tool=callgrind
//! --toggle-collect=talk_scale::measured ...` counts only those ticks). `talk_scale [--town T]
//! pack aware|blind N` prints the town as a pack instead (to run it with `townsfolk run`, e.g.
//! to compare world hashes of two builds). `talk_scale [--town T] phases aware|blind` prints
//! where the time goes at each size: ns per character per tick in each phase of the tick
//! (`Session::step_timed`), the fastest of three plays of seed 1's window. `--help` lists
//! the options.

use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use townsfolk_runtime::Session;
use townsfolk_runtime::pack::{
    CastDef, CastMember, Node, NodeKind, NpcDef, Pack, Personality, Point, TreeDef,
    to_canonical_string,
};

/// The town's shape (see the module doc).
#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum Town {
    /// Blocks of 16 a street apart, within earshot of groups that walk.
    Streets,
    /// Isolated squares of 20, the same in every town.
    Squares,
}

impl Town {
    /// Characters per block, columns of a block and the distance from a block to the next.
    fn shape(self) -> (usize, usize, f64) {
        match self {
            Town::Streets => (16, 4, 16.0),
            Town::Squares => (20, 5, SQUARES_PITCH),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Town::Streets => "streets",
            Town::Squares => "squares",
        }
    }
}

/// The squares' pitch: a square is 10 × 7.5 units, so at least 90 units of empty ground lie
/// between two squares.
const SQUARES_PITCH: f64 = 100.0;

/// How far (units) a character of the squares town may stand outside its square's box: two
/// characters of different squares are then at least 90 − 2 × 40 = 10 units apart, beyond the
/// hearing radius (8) and the join radius (6). (The tables play 50 simulated seconds; over 90
/// seconds, a group of one of the hundred towns of 100 drifts 48 units.)
const SQUARES_SLACK: f64 = 40.0;

/// Where character `i` stands at the start: its block and its place in the block.
fn start(town: Town, n: usize, i: usize) -> Point {
    let (per, cols, pitch) = town.shape();
    let blocks = (n as f64 / per as f64).sqrt().ceil() as usize;
    let (b, k) = (i / per, i % per);
    Point {
        x: 5.0 + (b % blocks) as f64 * pitch + (k % cols) as f64 * 2.5,
        y: 5.0 + (b / blocks) as f64 * pitch + (k / cols) as f64 * 2.5,
    }
}

/// Varied personalities (xorshift64: deterministic): talkativeness, transparency, confidence,
/// interactivity and verbosity, each in `[0, 1)`.
fn personalities(count: usize) -> Vec<[f64; 5]> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut r = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 1000) as f64 / 1000.0
    };
    (0..count).map(|_| [r(), r(), r(), r(), r()]).collect()
}

fn town(town: Town, n: usize, position_aware: bool) -> Pack {
    let mut p = Pack::new("talk scale");
    let (per, _, pitch) = town.shape();
    let blocks = (n as f64 / per as f64).sqrt().ceil() as usize;
    let side = blocks as f64 * pitch + 10.0;
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
    // Streets: every character its own personality; squares: the same `per` in every square.
    let traits = personalities(match town {
        Town::Streets => n,
        Town::Squares => per,
    });
    let mut members = Vec::new();
    for i in 0..n {
        p.world.npcs.push(NpcDef {
            id: format!("c{i}"),
            name: None,
            pos: start(town, n, i),
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
        let [t, tr, c, int, v] = traits[i % traits.len()];
        members.push(CastMember {
            npc: format!("c{i}"),
            talkativeness: Some(t),
            transparency: Some(tr),
            confidence: Some(c),
            interactivity: Some(int),
            verbosity: Some(v),
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

/// The squares town measures the same work at every size only while no square hears another:
/// an error names the first character that stands more than `SQUARES_SLACK` outside its
/// square's box (start positions of its square's first and last places).
fn check_squares(town: Town, n: usize, s: &Session) -> anyhow::Result<()> {
    if town != Town::Squares {
        return Ok(());
    }
    let per = town.shape().0;
    for (i, p) in s.world().positions().iter().enumerate().take(n) {
        let (lo, hi) = (
            start(town, n, i - i % per),
            start(town, n, i - i % per + per - 1),
        );
        let out_x = (lo.x - p.x).max(p.x - hi.x).max(0.0);
        let out_y = (lo.y - p.y).max(p.y - hi.y).max(0.0);
        let out = out_x.hypot(out_y);
        if out > SQUARES_SLACK {
            anyhow::bail!(
                "talk_scale: c{i} stands {out:.1} units outside its square (at most {SQUARES_SLACK}): squares may hear each other, so the sizes no longer do the same work"
            );
        }
    }
    Ok(())
}

fn mode_name(aware: bool) -> &'static str {
    if aware {
        "position-aware"
    } else {
        "position-blind"
    }
}

/// Times conversations per character in generated towns (see the module doc).
#[derive(Parser)]
struct Args {
    /// The town (default: both, one table each).
    #[arg(long, value_enum, global = true)]
    town: Option<Town>,
    #[command(subcommand)]
    one: Option<One>,
}

/// One row, or one town as a pack.
#[derive(Subcommand)]
enum One {
    /// Position-aware casts: one run of TICKS ticks after the warm-up (for profilers).
    Aware {
        #[arg(value_parser = clap::value_parser!(u64).range(1..))]
        n: u64,
        #[arg(default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
        ticks: u64,
    },
    /// Position-blind casts: as `aware`.
    Blind {
        #[arg(value_parser = clap::value_parser!(u64).range(1..))]
        n: u64,
        #[arg(default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
        ticks: u64,
    },
    /// Time per phase of the tick at each size (ns per character per tick).
    Phases {
        #[arg(value_parser = ["aware", "blind"])]
        mode: String,
    },
    /// Print the town of N characters as a pack (e.g. to compare world hashes of two builds
    /// with `townsfolk run`).
    Pack {
        #[arg(value_parser = ["aware", "blind"])]
        mode: String,
        #[arg(value_parser = clap::value_parser!(u64).range(1..))]
        n: u64,
    },
}

/// A town's session under `seed` after the warm-up (30 simulated seconds, so groups have
/// formed).
fn warm(town_: Town, n: usize, aware: bool, seed: u64) -> anyhow::Result<Session> {
    let pack = town(town_, n, aware);
    let mut s = Session::from_pack(&pack, seed)
        .map_err(|d| anyhow::anyhow!("talk_scale: the generated pack is invalid: {d:?}"))?;
    s.run(300);
    Ok(s)
}

/// The characters each table row plays in all: the row of `n` characters plays `SAMPLE / n`
/// towns of `n` (seeds 1, 2, …), so that every row is the mean over as many squares (500) or
/// blocks. One town of 100 is five squares: its work in a given 20 seconds is a small sample
/// (trace events per character per tick vary ±6 % from seed to seed and from one 20-second
/// window to the next), where the town of 10,000 plays 500 squares at once.
const SAMPLE: usize = 10_000;

/// The simulated seconds each town is timed for.
const SECONDS: f64 = 20.0;

/// One town's timed window: the fastest of three plays of the same window of the same seed
/// (the same work, each play on a session built and warmed up afresh, so each starts from the
/// same memory too), in seconds; and how many characters are in a conversation at its end.
fn timed(town_: Town, n: usize, aware: bool, seed: u64) -> anyhow::Result<(f64, usize)> {
    let mut best = f64::INFINITY;
    let mut talking_at_end = 0;
    for _ in 0..3 {
        let mut s = warm(town_, n, aware, seed)?;
        let ticks = (SECONDS / s.program().dt) as u64;
        let t = Instant::now();
        measured(&mut s, ticks);
        best = best.min(t.elapsed().as_secs_f64());
        check_squares(town_, n, &s)?;
        talking_at_end = talking(&s);
    }
    Ok((best, talking_at_end))
}

/// A table row's cells but the last `|`: town, mode, characters, ms per simulated second (of
/// one town), ns per character, share in a conversation.
fn cells(town_: Town, aware: bool, n: usize, per_sec: f64, talking: f64) -> String {
    format!(
        "| {} | {} | {n} | {:.3} | {:.0} | {:.0}%",
        town_.name(),
        mode_name(aware),
        per_sec * 1e3,
        per_sec * 1e9 / n as f64,
        talking * 100.0 / n as f64
    )
}

/// One row, one run of `ticks` ticks after the warm-up (seed 1).
fn one_row(town_: Town, aware: bool, n: usize, ticks: u64) -> anyhow::Result<()> {
    let mut s = warm(town_, n, aware, 1)?;
    let t = Instant::now();
    measured(&mut s, ticks);
    let secs = ticks as f64 * s.program().dt;
    let per_sec = t.elapsed().as_secs_f64() / secs;
    check_squares(town_, n, &s)?;
    println!(
        "{} | {ticks} ticks, one run |",
        cells(town_, aware, n, per_sec, talking(&s) as f64)
    );
    Ok(())
}

/// The `phases` table: for each size, seed 1's window played three times (sessions built
/// afresh), each phase's fastest time, in ns per character per tick.
fn phases(town_: Town, aware: bool) -> anyhow::Result<()> {
    use townsfolk_runtime::session::{Phase, PhaseTimes};
    let names: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
    println!(
        "| {} | characters | {} | total |",
        town_.name(),
        names.join(" | ")
    );
    println!("|---|---:|{}---:|", "---:|".repeat(names.len()));
    for n in [100usize, 1_000, 10_000] {
        let mut best = [f64::INFINITY; Phase::ALL.len()];
        for _ in 0..3 {
            let mut s = warm(town_, n, aware, 1)?;
            let ticks = (SECONDS / s.program().dt) as u64;
            let mut times = PhaseTimes::default();
            for _ in 0..ticks {
                s.step_timed(&mut times);
            }
            check_squares(town_, n, &s)?;
            for (b, p) in best.iter_mut().zip(Phase::ALL) {
                *b = b.min(times.of(p).as_secs_f64() * 1e9 / (ticks as f64 * n as f64));
            }
        }
        let cells: Vec<String> = best.iter().map(|b| format!("{b:.1}")).collect();
        println!(
            "| {} | {n} | {} | {:.1} |",
            mode_name(aware),
            cells.join(" | "),
            best.iter().sum::<f64>()
        );
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let town_ = args.town.unwrap_or(Town::Streets);
    match args.one {
        Some(One::Aware { n, ticks }) => return one_row(town_, true, n as usize, ticks),
        Some(One::Blind { n, ticks }) => return one_row(town_, false, n as usize, ticks),
        Some(One::Phases { mode }) => return phases(town_, mode == "aware"),
        Some(One::Pack { mode, n }) => {
            print!(
                "{}",
                to_canonical_string(&town(town_, n as usize, mode == "aware"))
            );
            return Ok(());
        }
        None => {}
    }
    let towns = match args.town {
        Some(t) => vec![t],
        None => vec![Town::Streets, Town::Squares],
    };
    let mut per_char: Vec<(Town, bool, usize, f64)> = Vec::new();
    println!(
        "| town | mode | characters | ms per simulated second | ns per character per simulated second | in a conversation | towns (seeds) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    for &town_ in &towns {
        for aware in [true, false] {
            for n in [100usize, 1_000, 10_000] {
                let towns_played = (SAMPLE / n).max(1);
                let (mut secs, mut talking) = (0.0, 0);
                for seed in 1..=towns_played as u64 {
                    let (best, at_end) = timed(town_, n, aware, seed)?;
                    secs += best;
                    talking += at_end;
                }
                let per_sec = secs / (towns_played as f64 * SECONDS);
                per_char.push((town_, aware, n, per_sec * 1e9 / n as f64));
                println!(
                    "{} | {towns_played} |",
                    cells(
                        town_,
                        aware,
                        n,
                        per_sec,
                        talking as f64 / towns_played as f64
                    )
                );
            }
        }
    }
    println!();
    println!("| town | mode | ns per character, 10,000 ÷ 100 | target | status |");
    println!("|---|---|---:|---:|---|");
    for &town_ in &towns {
        for aware in [true, false] {
            let at = |n: usize| {
                per_char
                    .iter()
                    .find(|r| r.0 == town_ && r.1 == aware && r.2 == n)
                    .map_or(f64::NAN, |r| r.3)
            };
            let ratio = at(10_000) / at(100);
            // Three decimals: the status compares the ratio itself, and 1.2026 printed as
            // 1.20 read "1.20 ≤ 1.2: not met".
            println!(
                "| {} | {} | {ratio:.3} | ≤ {FLAT} | {} |",
                town_.name(),
                mode_name(aware),
                if ratio <= FLAT { "met" } else { "not met" }
            );
        }
    }
    Ok(())
}
