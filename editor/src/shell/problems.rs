//! The problems panel: every diagnostic of the document's last check and the preview's
//! runtime problems. Each row shows the path with ids (`trees[3] (cycle4).root`,
//! `Diagnostic::display_path`); clicking it opens its asset and selects the item, found from
//! the diagnostic's machine JSON path (`Diagnostic::path`).

use egui::{RichText, ScrollArea};
use townsfolk_runtime::pack::{Diagnostic, Node, Pack, Severity};

use crate::document::{AssetKind, AssetRef};
use crate::shell::Action;
use crate::shell::style::{ERROR_COLOR, OK_COLOR, WARNING_COLOR, count};

/// The widest the path column of the problems grid grows (points).
const PATH_COLUMN_WIDTH: f32 = 320.0;

/// Where a JSON path points: the asset and, inside a tree, the deepest node on the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Located {
    pub asset: AssetRef,
    pub item: Option<String>,
}

/// One `[i]` or `.key` step of a JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `trees[0].root.children[2].expr` into its steps (quoted keys `["a b"]` are read as
/// one key; anything unreadable ends the path there).
fn segments(path: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    let b = path.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'.' => i += 1,
            b'[' => {
                let Some(end) = path[i..].find(']').map(|e| i + e) else {
                    break;
                };
                let inner = &path[i + 1..end];
                if let Ok(n) = inner.parse::<usize>() {
                    out.push(Seg::Index(n));
                } else if inner.len() >= 2 && inner.starts_with('"') && inner.ends_with('"') {
                    out.push(Seg::Key(&inner[1..inner.len() - 1]));
                } else {
                    break;
                }
                i = end + 1;
            }
            _ => {
                let end = path[i..].find(['.', '[']).map_or(path.len(), |e| i + e);
                out.push(Seg::Key(&path[i..end]));
                i = end;
            }
        }
    }
    out
}

/// Maps a diagnostic's JSON path to the asset it is in (and the tree node, for trees).
/// `None` for paths outside any asset (the document, `world.bounds`, `editor`, …) or to an
/// asset that no longer exists.
pub(crate) fn locate_path(pack: &Pack, path: &str) -> Option<Located> {
    let segs = segments(path);
    let (kind, rest) = AssetKind::ALL.iter().find_map(|&kind| {
        let prefix = segments(kind.json_path());
        (segs.len() > prefix.len() && segs[..prefix.len()] == prefix[..])
            .then(|| (kind, &segs[prefix.len()..]))
    })?;
    let Seg::Index(i) = rest.first()? else {
        return None;
    };
    let id = kind.ids(pack).get(*i)?.to_string();
    let item = match kind {
        AssetKind::Tree => pack
            .trees
            .get(*i)
            .and_then(|t| deepest_node(&t.root, &rest[1..])),
        _ => None,
    };
    Some(Located {
        asset: AssetRef::new(kind, id),
        item,
    })
}

/// Where a diagnostic points: its machine path, checked against the asset id its named path
/// shows (`world.npcs[3] (cat).tree`). The paths are the text's; a pack read with losses
/// lacks the items that failed to read, so an index can name another asset there: then the
/// asset is found by that id, and an asset that is not in the pack is nowhere.
pub(crate) fn locate_diagnostic(pack: &Pack, d: &Diagnostic) -> Option<Located> {
    let at = locate_path(pack, &d.path);
    let Some(id) = d
        .named_path
        .as_deref()
        .and_then(|n| n.split_once("] ("))
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(id, _)| id)
    else {
        return at;
    };
    if at.as_ref().is_some_and(|a| a.asset.id == id) {
        return at;
    }
    let (kind, rest) = AssetKind::ALL.iter().find_map(|&k| {
        let rest = d.path.strip_prefix(k.json_path())?;
        rest.starts_with('[').then_some((k, rest))
    })?;
    let i = kind.ids(pack).iter().position(|x| *x == id)?;
    let after = &rest[rest.find(']')? + 1..];
    locate_path(pack, &format!("{}[{i}]{after}", kind.json_path()))
}

/// Follows `root.children[i].children[j]…` and returns the last node reached.
fn deepest_node(root: &Node, rest: &[Seg<'_>]) -> Option<String> {
    if rest.first() != Some(&Seg::Key("root")) {
        return None;
    }
    let mut node = root;
    let mut steps = rest[1..].iter();
    while let (Some(Seg::Key("children")), Some(Seg::Index(k))) =
        (steps.next(), steps.clone().next())
    {
        match node.children.get(*k) {
            Some(child) => {
                node = child;
                steps.next();
            }
            None => break,
        }
    }
    Some(node.id.clone())
}

/// The problems tab.
pub(crate) fn problems_ui(
    ui: &mut egui::Ui,
    pack: &Pack,
    diagnostics: &[Diagnostic],
    checking: bool,
    runtime_problems: &[String],
    actions: &mut Vec<Action>,
) {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    ui.horizontal(|ui| {
        let summary = format!("{}, {}", count(errors, "error"), count(warnings, "warning"));
        let color = if errors > 0 {
            ERROR_COLOR
        } else if warnings > 0 {
            WARNING_COLOR
        } else {
            OK_COLOR
        };
        ui.label(RichText::new(summary).color(color).strong());
        if checking {
            ui.spinner();
            ui.label(RichText::new("checking…").weak());
        }
        if !runtime_problems.is_empty() {
            ui.label(
                RichText::new(format!(
                    "· {}",
                    count(runtime_problems.len(), "runtime problem")
                ))
                .color(WARNING_COLOR),
            );
        }
    });
    ui.separator();
    ScrollArea::vertical()
        .id_salt("problems_scroll")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if diagnostics.is_empty() && runtime_problems.is_empty() {
                ui.label(RichText::new("✔ No problems found: the pack is valid.").color(OK_COLOR));
                return;
            }
            egui::Grid::new("problems_grid")
                .striped(true)
                .num_columns(4)
                .spacing([14.0, 4.0])
                .show(ui, |ui| {
                    for d in diagnostics {
                        diagnostic_row_ui(ui, pack, d, actions);
                    }
                    for p in runtime_problems {
                        ui.label(RichText::new("⚠").color(WARNING_COLOR))
                            .on_hover_text("runtime problem");
                        ui.label(RichText::new("runtime").monospace().weak());
                        ui.label("");
                        ui.label(p);
                        ui.end_row();
                    }
                });
        });
}

fn diagnostic_row_ui(ui: &mut egui::Ui, pack: &Pack, d: &Diagnostic, actions: &mut Vec<Action>) {
    let (icon, color) = match d.severity {
        Severity::Error => ("⊗", ERROR_COLOR),
        Severity::Warning => ("⚠", WARNING_COLOR),
        Severity::Note => ("ℹ", ui.visuals().weak_text_color()),
    };
    ui.label(RichText::new(icon).color(color).strong())
        .on_hover_text(d.severity.to_string());
    let pos = match (d.line, d.column) {
        (Some(l), Some(c)) => format!("{l}:{c}"),
        (Some(l), None) => format!("{l}"),
        _ => "—".to_string(),
    };
    ui.label(RichText::new(pos).monospace());
    // The path with ids, cut to a column's width (in full on hover) so that long paths do
    // not push the messages out of the panel.
    let shown = d.display_path();
    ui.scope(|ui| {
        ui.set_max_width(PATH_COLUMN_WIDTH);
        ui.add(egui::Label::new(RichText::new(shown).monospace().weak()).truncate())
    })
    .inner
    .on_hover_text(shown);
    let text = RichText::new(&d.message).color(if d.is_error() {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().text_color()
    });
    match locate_diagnostic(pack, d) {
        Some(at) => {
            let tip = match &at.item {
                Some(item) => format!(
                    "Open {} `{}` at node `{item}`",
                    at.asset.kind.label(),
                    at.asset.id
                ),
                None => format!("Open {} `{}`", at.asset.kind.label(), at.asset.id),
            };
            if ui.link(text).on_hover_text(tip).clicked() {
                actions.push(Action::Reveal(at));
            }
        }
        None => {
            ui.label(text);
        }
    }
    ui.end_row();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack() -> Pack {
        let text = include_str!("../../../samples/guards.json");
        townsfolk_runtime::pack::load_str(text)
            .pack
            .expect("the sample reads")
    }

    #[test]
    fn paths_split_into_keys_and_indexes() {
        assert_eq!(
            segments("trees[0].root.children[12].expr"),
            vec![
                Seg::Key("trees"),
                Seg::Index(0),
                Seg::Key("root"),
                Seg::Key("children"),
                Seg::Index(12),
                Seg::Key("expr")
            ]
        );
        assert_eq!(
            segments("world.npcs[1][\"odd key\"]"),
            vec![
                Seg::Key("world"),
                Seg::Key("npcs"),
                Seg::Index(1),
                Seg::Key("odd key")
            ]
        );
        assert_eq!(segments(""), vec![]);
    }

    #[test]
    fn a_tree_path_finds_the_deepest_node_on_it() {
        let p = pack();
        let t = &p.trees[0];
        let child = t
            .root
            .children
            .first()
            .expect("the sample's first tree has children");
        let at = locate_path(&p, "trees[0].root.children[0].seconds").expect("in a tree");
        assert_eq!(at.asset, AssetRef::tree(t.id.clone()));
        assert_eq!(at.item.as_deref(), Some(child.id.as_str()));
        let at = locate_path(&p, "trees[0].root.type").expect("in a tree");
        assert_eq!(at.item.as_deref(), Some(t.root.id.as_str()));
        // An index past the children stops at the parent.
        let at = locate_path(&p, "trees[0].root.children[999].id").expect("in a tree");
        assert_eq!(at.item.as_deref(), Some(t.root.id.as_str()));
        assert_eq!(locate_path(&p, "trees[0]").map(|a| a.item), Some(None));
    }

    /// The panel shows the path with ids and selects by the machine path: both come with
    /// every diagnostic of the checks.
    #[test]
    fn a_named_diagnostic_still_selects_by_its_machine_path() {
        let mut p = pack();
        let tree = p.trees[0].id.clone();
        let child = p.trees[0].root.children[0].id.clone();
        p.world.npcs[1].tree = "no_such_tree".into();
        let ds = townsfolk_runtime::program::check(&p);
        let d = ds
            .iter()
            .find(|d| d.path == "world.npcs[1].tree")
            .expect("the unknown tree is reported");
        let npc = p.world.npcs[1].id.clone();
        assert_eq!(d.display_path(), format!("world.npcs[1] ({npc}).tree"));
        let at = locate_path(&p, &d.path).expect("an NPC");
        assert_eq!(at.asset, AssetRef::new(AssetKind::Npc, npc));
        // A node's path: shown with the tree's and the node's ids, found by the machine path.
        let mut d = townsfolk_runtime::pack::Diagnostic::error("trees[0].root.children[0].x", "m");
        townsfolk_runtime::program::name_paths(&p, std::slice::from_mut(&mut d));
        assert_eq!(
            d.display_path(),
            format!("trees[0] ({tree}).root.children[0] ({child}).x")
        );
        let at = locate_path(&p, &d.path).expect("in a tree");
        assert_eq!(at.item.as_deref(), Some(child.as_str()));
    }

    /// A load with losses: tree 0 fails to read, so the pack's trees are the text's from 1 on.
    /// The diagnostics' paths are the text's; the panel still opens the tree they name.
    #[test]
    fn a_lossy_load_selects_the_asset_the_diagnostic_names() {
        let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "p", "world": {},
          "trees": [{"id": "bad", "root": {"id": "x", "type": "sequnce"}},
                    {"id": "good", "root": {"id": "w", "type": "wait", "seconds": -1}}]}"#;
        let loaded = townsfolk_runtime::program::load_str(text);
        assert!(loaded.lossy);
        let p = loaded.pack.expect("the rest reads");
        let wait = loaded
            .diagnostics
            .iter()
            .find(|d| d.message.contains("duration"))
            .expect("the bad wait is reported");
        assert_eq!(wait.path, "trees[1].root.seconds");
        let at = locate_diagnostic(&p, wait).expect("tree `good` is in the pack");
        assert_eq!(at.asset, AssetRef::tree("good".to_string()));
        assert_eq!(at.item.as_deref(), Some("w"));
        // The tree that failed to read is not in the pack: its error opens nothing.
        let typo = loaded
            .diagnostics
            .iter()
            .find(|d| d.message.contains("sequnce"))
            .expect("the typo is reported");
        assert_eq!(locate_diagnostic(&p, typo), None);
    }

    #[test]
    fn other_kinds_map_to_their_asset_and_the_rest_to_nothing() {
        let p = pack();
        let npc = &p.world.npcs[1];
        let at = locate_path(&p, "world.npcs[1].tree").expect("an NPC");
        assert_eq!(at.asset, AssetRef::new(AssetKind::Npc, npc.id.clone()));
        assert_eq!(at.item, None);
        assert_eq!(locate_path(&p, ""), None);
        assert_eq!(locate_path(&p, "world.bounds"), None);
        assert_eq!(locate_path(&p, "world.npcs"), None);
        assert_eq!(locate_path(&p, "world.npcs[999]"), None);
        assert_eq!(locate_path(&p, "editor.layouts"), None);
    }
}
