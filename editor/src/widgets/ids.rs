//! Id pickers: a text field for the id and a menu of the ids of that kind the pack has. A value
//! that must name something existing and does not is shown red.

use std::collections::BTreeSet;

use egui::{Response, RichText, TextEdit, Ui};
use townsfolk_runtime::pack::{NodeKind, Pack};
use townsfolk_runtime::value::Type;

use super::expr::ERROR_COLOR;

/// What an id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Tree,
    Area,
    /// An area with `"dynamic": true` (what `create_area` copies).
    DynamicArea,
    Object,
    Npc,
    Cast,
    /// Inbox names of NPCs, areas and templates (and `default`).
    Inbox,
    /// Behavior names offered by the areas' templates.
    Template,
    /// Area kinds (`pub`, `home`, …).
    AreaKind,
    /// Message kinds the pack sends anywhere.
    Message,
    /// Blackboard variables, of the given types (empty: any).
    Var(&'static [Type]),
}

impl IdKind {
    /// Whether a value not among the pack's ids is an error (rather than a new name).
    pub fn must_exist(self) -> bool {
        matches!(
            self,
            IdKind::Tree
                | IdKind::Area
                | IdKind::DynamicArea
                | IdKind::Object
                | IdKind::Npc
                | IdKind::Cast
                | IdKind::Var(_)
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            IdKind::Tree => "tree",
            IdKind::Area => "area",
            IdKind::DynamicArea => "dynamic area",
            IdKind::Object => "object",
            IdKind::Npc => "NPC",
            IdKind::Cast => "cast",
            IdKind::Inbox => "inbox",
            IdKind::Template => "behavior",
            IdKind::AreaKind => "area kind",
            IdKind::Message => "message",
            IdKind::Var(_) => "variable",
        }
    }
}

fn messages(node: &townsfolk_runtime::pack::Node, out: &mut BTreeSet<String>) {
    match &node.kind {
        NodeKind::SendMessage { message, .. } | NodeKind::MessageHolders { message, .. } => {
            out.insert(message.clone());
        }
        NodeKind::HasMessage {
            message: Some(m), ..
        }
        | NodeKind::Receive {
            message: Some(m), ..
        }
        | NodeKind::Peek {
            message: Some(m), ..
        }
        | NodeKind::WaitMessage {
            message: Some(m), ..
        } => {
            out.insert(m.clone());
        }
        _ => {}
    }
    for c in &node.children {
        messages(c, out);
    }
}

/// The ids of a kind the pack has, sorted, without duplicates or empty names.
pub fn ids_of(pack: &Pack, kind: IdKind) -> Vec<String> {
    let mut out = BTreeSet::new();
    let w = &pack.world;
    match kind {
        IdKind::Tree => out.extend(pack.trees.iter().map(|t| t.id.clone())),
        IdKind::Area => out.extend(pack.areas.iter().map(|a| a.id.clone())),
        IdKind::DynamicArea => out.extend(
            pack.areas
                .iter()
                .filter(|a| a.dynamic)
                .map(|a| a.id.clone()),
        ),
        IdKind::Object => out.extend(w.objects.iter().map(|o| o.id.clone())),
        IdKind::Npc => out.extend(w.npcs.iter().map(|n| n.id.clone())),
        IdKind::Cast => out.extend(pack.casts.iter().map(|c| c.id.clone())),
        IdKind::Inbox => {
            out.insert("default".to_string());
            out.extend(w.npcs.iter().flat_map(|n| n.inboxes.iter().cloned()));
            for a in &pack.areas {
                out.extend(a.inboxes.iter().cloned());
                for t in &a.templates {
                    out.extend(t.inboxes.iter().cloned());
                }
            }
        }
        IdKind::Template => out.extend(
            pack.areas
                .iter()
                .flat_map(|a| a.templates.iter().map(|t| t.name.clone())),
        ),
        IdKind::AreaKind => out.extend(pack.areas.iter().flat_map(|a| a.kinds.iter().cloned())),
        IdKind::Message => {
            for t in &pack.trees {
                messages(&t.root, &mut out);
            }
        }
        IdKind::Var(types) => {
            for t in &pack.trees {
                for (name, d) in &t.blackboard {
                    if types.is_empty() || types.contains(&d.ty) {
                        out.insert(name.clone());
                    }
                }
            }
        }
    }
    out.remove("");
    out.into_iter().collect()
}

/// A text field for an id with a `▾` menu of the existing ids of its kind. Red when the id
/// must exist and does not (or is empty). The response is marked changed when the text was
/// edited or an id picked from the menu.
pub fn id_picker_ui(
    ui: &mut Ui,
    id_salt: impl std::hash::Hash + std::fmt::Debug,
    value: &mut String,
    pack: &Pack,
    kind: IdKind,
) -> Response {
    let ids = ids_of(pack, kind);
    let missing = kind.must_exist() && !ids.iter().any(|i| i == value);
    ui.vertical(|ui| {
        let mut resp = ui
            .horizontal(|ui| {
                let mut edit = TextEdit::singleline(value)
                    .desired_width(ui.available_width() - 28.0)
                    .hint_text(format!("{} id", kind.label()));
                if missing {
                    edit = edit.text_color(ERROR_COLOR);
                }
                let mut resp = ui.add(edit);
                let mut picked = None;
                egui::ComboBox::from_id_salt(id_salt)
                    .width(20.0)
                    .selected_text("")
                    .show_ui(ui, |ui| {
                        if ids.is_empty() {
                            ui.weak(format!("no {} in the pack", kind.label()));
                        }
                        for id in &ids {
                            if ui.selectable_label(id == value, id.as_str()).clicked() {
                                picked = Some(id.clone());
                            }
                        }
                    });
                if let Some(p) = picked
                    && p != *value
                {
                    *value = p;
                    resp.mark_changed();
                }
                resp
            })
            .inner;
        if missing {
            let msg = if value.is_empty() {
                format!("choose a {}", kind.label())
            } else {
                format!("no {} `{value}`", kind.label())
            };
            ui.label(RichText::new(&msg).color(ERROR_COLOR).small());
            resp = resp.on_hover_text(msg);
        }
        resp
    })
    .inner
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_lists_the_pack_ids_sorted() {
        let p = townsfolk_runtime::pack::load_str(crate::DEFAULT_PACK)
            .pack
            .unwrap_or_else(|| Pack::new("empty"));
        let trees = ids_of(&p, IdKind::Tree);
        assert!(trees.contains(&"patrol".to_string()));
        let mut sorted = trees.clone();
        sorted.sort();
        assert_eq!(trees, sorted);
        assert!(ids_of(&p, IdKind::Inbox).contains(&"default".to_string()));
        assert!(ids_of(&p, IdKind::Var(&[Type::Float])).contains(&"fatigue".to_string()));
        assert!(!ids_of(&p, IdKind::Var(&[Type::Bool])).contains(&"fatigue".to_string()));
        assert!(IdKind::Tree.must_exist() && !IdKind::Message.must_exist());
    }
}
