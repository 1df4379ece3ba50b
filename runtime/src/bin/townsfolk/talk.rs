//! `townsfolk talk`: the conversation metrics, and `--sweep`.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

/// Simulate background conversations and print their metrics.
///
/// Per character: talk share, turns, interruptions, feedback, overlaps; per run: overlap
/// rate, gaps, group size, churn.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk talk samples/plaza.json --seconds 120 --seed 1
  townsfolk talk samples/plaza.json --seconds 60 --sweep anna.confidence=0:1:0.5")]
pub(super) struct Args {
    /// The pack file (`.json`) to simulate; it needs a `casts` section.
    pack: PathBuf,
    /// Simulated seconds.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Run once per value of a parameter and show how the metrics move:
    /// `[NPC.]PARAM=FROM:TO:STEP`, e.g. `talkativeness=0.1:0.9:0.2` (every character) or
    /// `anna.confidence=0:1:0.25` (one character).
    #[arg(long)]
    sweep: Option<String>,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (path, seconds, seed, json, sweep) = (
        a.pack.as_path(),
        a.seconds,
        a.seed,
        a.json,
        a.sweep.as_deref(),
    );
    use townsfolk_runtime::tools::talk as metrics;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1.0e6) {
        errln!("error: --seconds must be between 0 and 1000000, found {seconds}");
        return Ok(ExitCode::from(1));
    }
    let p = match load_valid(path, "run") {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    if p.casts.is_empty() {
        errln!(
            "{}: the pack has no `casts`: nothing converses",
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    let simulate = |p: &pack::Pack| -> Result<metrics::Report, Vec<Diagnostic>> {
        let mut s = Session::from_pack(p, seed)?;
        let ticks = s.program().ticks(seconds);
        s.run(ticks);
        Ok(metrics::report(s.program(), s.world()))
    };
    let Some(spec) = sweep else {
        let r = match simulate(&p) {
            Ok(r) => r,
            Err(d) => {
                print_diags(path, &d);
                return Ok(ExitCode::from(1));
            }
        };
        if json {
            outln!("{}", serde_json::to_string_pretty(&r)?);
        } else {
            outln!(
                "pack `{}`: {} s of conversation, seed {seed}",
                p.name,
                r.run.seconds
            );
            out!("{}", metrics::render_text(&r));
        }
        return Ok(ExitCode::SUCCESS);
    };
    let sw = match metrics::Sweep::parse(spec) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: --sweep {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut rows = Vec::new();
    for &v in &sw.values {
        let mut q = p.clone();
        if let Err(e) = sw.apply(&mut q, v) {
            errln!("error: --sweep: {e}");
            return Ok(ExitCode::from(1));
        }
        match simulate(&q) {
            Ok(r) => rows.push((v, r)),
            Err(d) => {
                print_diags(path, &d);
                return Ok(ExitCode::from(1));
            }
        }
    }
    let who = sw.npc.clone();
    if json {
        let v: Vec<_> = rows
            .iter()
            .map(|(v, r)| serde_json::json!({"value": v, "report": r}))
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "npc": who, "param": sw.param, "seed": seed, "runs": v
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "sweep of {} for {} ({} s each, seed {seed})",
        sw.param,
        who.as_deref()
            .map_or("every character".to_string(), |n| format!("`{n}`")),
        seconds
    );
    outln!(
        "{:>6} | {:>7} {:>6} {:>8} {:>8} {:>7} | {:>7} {:>8} {:>6} {:>9} {:>9}",
        "value",
        "share",
        "turns",
        "intr m/s",
        "feedback",
        "ovl won",
        "overlap",
        "mean gap",
        "group",
        "splits/m",
        "merges/m"
    );
    for (v, r) in &rows {
        // The swept character, or the mean over every character.
        let chars: Vec<&metrics::CharReport> = r
            .characters
            .iter()
            .filter(|c| who.as_deref().is_none_or(|n| c.npc == n))
            .collect();
        let n = chars.len().max(1) as f64;
        let share = chars.iter().map(|c| c.talk_share).sum::<f64>() / n;
        let turns = chars.iter().map(|c| c.turns as f64).sum::<f64>() / n;
        let made = chars
            .iter()
            .map(|c| c.interruptions_made as f64)
            .sum::<f64>()
            / n;
        let suffered = chars
            .iter()
            .map(|c| c.interruptions_suffered as f64)
            .sum::<f64>()
            / n;
        let fb = chars.iter().map(|c| c.feedback_given as f64).sum::<f64>() / n;
        let won: u64 = chars.iter().map(|c| c.overlaps_won).sum();
        let ovl: u64 = chars.iter().map(|c| c.overlaps).sum();
        outln!(
            "{:>6.2} | {:>6.1}% {:>6.1} {:>8} {:>8.1} {:>6.0}% | {:>6.1}% {:>7.2}s {:>6.2} {:>9.2} {:>9.2}",
            v,
            share * 100.0,
            turns,
            format!("{made:.0}/{suffered:.0}"),
            fb,
            if ovl == 0 {
                0.0
            } else {
                won as f64 * 100.0 / ovl as f64
            },
            r.run.overlap_rate * 100.0,
            r.run.gap_mean_seconds,
            r.run.mean_group_size,
            r.run.splits_per_minute,
            r.run.merges_per_minute
        );
    }
    if who.is_none() {
        outln!("(character columns are means over every character)");
    }
    Ok(ExitCode::SUCCESS)
}
