//! `townsfolk info`: a pack's assets by kind and who uses what.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::tools::info;

/// List a pack's assets by kind and who uses each of them.
///
/// Prints each kind of asset (trees, areas, behaviors offered by area templates, NPCs,
/// objects, events, scenarios, casts, trigger systems and triggers, content tests, flags,
/// counters, inboxes) with its count and ids, then, for every tree, area, behavior, NPC, object,
/// inbox, cast, flag, counter, event, scenario and trigger, where it is used (the asset and
/// the JSON path of each use). Node positions in the `editor` section are not uses. Works on
/// packs with semantic errors too (it reads the document only).
#[derive(clap::Args)]
#[command(after_help = "Examples:
  townsfolk info samples/guards.json
  townsfolk info samples/daily_life.json --uses drink
  townsfolk info samples/dungeon.json --json")]
pub(super) struct Args {
    /// The pack file (`.json`) to describe.
    pack: PathBuf,
    /// Print only where this id is defined and who uses it (any kind of name: tree, area,
    /// behavior, NPC, inbox, flag, blackboard variable, node id, …).
    #[arg(long, value_name = "ID")]
    uses: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let path = a.pack.as_path();
    let loaded = pack::load_file(path);
    let Some(p) = loaded.pack else {
        print_diags(path, &loaded.diagnostics);
        errln!(
            "{}: cannot describe a pack that cannot be read",
            path.display()
        );
        return Ok(ExitCode::from(1));
    };
    let Some(id) = a.uses else {
        let i = info::info(&p);
        if a.json {
            outln!("{}", serde_json::to_string_pretty(&i)?);
        } else {
            out!("{}", i.to_text());
        }
        return Ok(ExitCode::SUCCESS);
    };
    let found = info::uses_of(&p, &id);
    if found.is_empty() {
        let names = info::all_names(&p);
        let known: Vec<&str> = names.iter().map(String::as_str).collect();
        match pack::suggest(&id, &known) {
            Some(s) => errln!(
                "error: {}: nothing in the pack is called `{id}`; did you mean `{s}`?",
                path.display()
            ),
            None => errln!(
                "error: {}: nothing in the pack is called `{id}`",
                path.display()
            ),
        }
        return Ok(ExitCode::from(1));
    }
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&found)?);
    } else {
        for u in &found {
            out!("{}", u.to_text(true));
        }
    }
    Ok(ExitCode::SUCCESS)
}
