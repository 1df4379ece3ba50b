//! `townsfolk diff`: what changed between two packs.

#[allow(unused_imports)]
use super::common::*;
#[allow(unused_imports)]
use super::*;

use townsfolk_runtime::tools::diff;

/// Show what changed between two packs, asset by asset and node by node.
///
/// Lists assets (NPCs, objects, trees, areas, events, scenarios, casts, trigger systems,
/// content tests, and the pack's, world's and editor's settings) that were added, removed or changed,
/// keyed by id; for a changed asset, each field that differs by its JSON path (entries of
/// lists with ids by id: `templates[drink].max_instances`); for a changed tree, each node
/// added, removed, moved (to another parent or among its siblings) or whose parameters
/// changed, by node id. Compares the documents as read: formatting and key order are not
/// changes. Exit code 0: no difference, 1: they differ, 2: a pack cannot be read (like
/// diff(1)).
#[derive(clap::Args)]
#[command(after_help = r#"Examples:
  townsfolk diff samples/guards.json samples/guards.json
  sed 's/"seconds": 4.0/"seconds": 6.0/' samples/guards.json > edited.json
  townsfolk diff samples/guards.json edited.json   # exit 1: they differ
  townsfolk diff samples/guards.json edited.json --json   # exit 1"#)]
pub(super) struct Args {
    /// The pack file (`.json`) before.
    #[arg(value_name = "OLD_PACK")]
    a: PathBuf,
    /// The pack file (`.json`) after.
    #[arg(value_name = "NEW_PACK")]
    b: PathBuf,
    /// Print JSON (`{"same": bool, "changes": [...]}`) instead of text.
    #[arg(long)]
    json: bool,
}

/// Exit code when a pack cannot be read (1 means "they differ").
const TROUBLE: u8 = 2;

fn read(path: &Path) -> Option<pack::Pack> {
    let loaded = pack::load_file(path);
    match loaded.pack {
        Some(p) => {
            if loaded.lossy {
                errln!(
                    "warning: {}: parts of the pack could not be read (see `townsfolk validate`); the diff shows what was read",
                    path.display()
                );
            }
            Some(p)
        }
        None => {
            print_diags(path, &loaded.diagnostics);
            errln!(
                "{}: cannot compare a pack that cannot be read",
                path.display()
            );
            None
        }
    }
}

pub(super) fn main(a: Args) -> anyhow::Result<ExitCode> {
    let (Some(old), Some(new)) = (read(&a.a), read(&a.b)) else {
        return Ok(ExitCode::from(TROUBLE));
    };
    let d = diff::diff(&old, &new);
    if a.json {
        let v = serde_json::json!({"same": d.is_empty(), "changes": d.changes});
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        out!("{}", d.to_text());
    }
    Ok(if d.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
