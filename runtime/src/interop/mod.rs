//! Importing trees from other behavior-tree tools and exporting ours: BehaviorTree.CPP v4
//! XML both ways (`btcpp_read`/`btcpp_nodes` in, `btcpp_write` out) and behavior3 JSON in
//! (`behavior3`). Every import returns a pack and an [`ImportReport`] (warnings naming file,
//! line and construct; placeholders to map) or an [`ImportError`]; hostile input is bounded by
//! [`limits`] and file references never leave the imported file's folder tree (`files`).
//!
//! Layer: above `program` (imports are validated with `program::check`), below `world`.

mod behavior3;
mod btcpp_nodes;
mod btcpp_read;
mod btcpp_write;
mod files;
pub mod limits;
mod params;
mod report;
mod script;
pub use behavior3::import_behavior3_file;
pub use btcpp_read::{import_btcpp_file, import_btcpp_str};
pub use btcpp_write::{ExportError, export_btcpp};
pub use report::{ImportError, ImportReport, Placeholder, Warning};

use std::collections::BTreeSet;

use crate::pack::{Node, Pack, Severity};

/// An imported pack and what the import has to say about it.
#[derive(Clone, Debug)]
pub struct Imported {
    pub pack: Pack,
    pub report: ImportReport,
}

/// Makes node ids unique per tree and adds the pack checker's findings to the report.
fn finish(mut pack: Pack, mut report: ImportReport) -> Imported {
    for t in &mut pack.trees {
        let mut seen = BTreeSet::new();
        unique_ids(&mut t.root, &mut seen);
    }
    for d in crate::program::check(&pack) {
        let severity = match d.severity {
            Severity::Error => "error",
            _ => "warning",
        };
        report.warn(
            "(imported pack)",
            0,
            &d.path,
            format!("the pack checker reports this {severity}: {}", d.message),
        );
    }
    Imported { pack, report }
}

fn unique_ids(n: &mut Node, seen: &mut BTreeSet<String>) {
    if n.id.is_empty() {
        n.id = "n".into();
    }
    if !seen.insert(n.id.clone()) {
        let base = n.id.clone();
        let mut k = 2;
        while seen.contains(&format!("{base}_{k}")) {
            k += 1;
        }
        n.id = format!("{base}_{k}");
        seen.insert(n.id.clone());
    }
    for c in &mut n.children {
        unique_ids(c, seen);
    }
}
