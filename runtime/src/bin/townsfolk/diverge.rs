//! `townsfolk diverge`: where two playthroughs part.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::tools::diverge::{Outcome, diverge};

/// Run two versions of a pack (A and B), or one pack with two seeds, side by side and
/// report the first tick at which they differ and what differs there (NPCs, nodes,
/// variables, flags, counters, triggers, events). Exits 0 either way.
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  townsfolk diverge samples/guards.json --seed 1 --seed2 2 --ticks 500
  sed 's/"seconds": 4.0/"seconds": 6.0/' samples/guards.json > edited.json
  townsfolk diverge samples/guards.json edited.json --ticks 3000 --json"#)]
pub(super) struct DivergeArgs {
    /// The pack file (`.json`) A; a pack with errors is refused.
    a: PathBuf,
    /// The pack file (`.json`) B (default: A again, with --seed2).
    b: Option<PathBuf>,
    /// Seed of A.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seed of B (default: --seed).
    #[arg(long)]
    seed2: Option<u64>,
    /// Most ticks compared.
    #[arg(long, default_value_t = 100_000)]
    ticks: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn compiled(path: &Path) -> Result<std::sync::Arc<Program>, ExitCode> {
    Ok(load_program(path, "compare")?.1)
}

pub(super) fn diverge_cmd(a: DivergeArgs) -> anyhow::Result<ExitCode> {
    let seed2 = a.seed2.unwrap_or(a.seed);
    if a.b.is_none() && seed2 == a.seed {
        errln!("error: give a second pack, or a second seed with --seed2");
        return Ok(ExitCode::from(1));
    }
    let pa = match compiled(&a.a) {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let pb = match &a.b {
        Some(b) => match compiled(b) {
            Ok(p) => p,
            Err(code) => return Ok(code),
        },
        None => pa.clone(),
    };
    match diverge(&pa, a.seed, &pb, seed2, a.ticks) {
        Outcome::Same { ticks } => {
            if a.json {
                outln!("{}", serde_json::json!({"diverged": false, "ticks": ticks}));
            } else {
                outln!("no difference in {ticks} ticks");
            }
        }
        Outcome::Diverged(d) => {
            if a.json {
                outln!("{}", serde_json::to_string_pretty(&d.to_json())?);
            } else {
                out!("{}", d.to_text());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
