//! The inspector of a tree tab: the selected node's name, comment, disabled state and typed
//! parameters; with nothing selected, the tree's name, comment and blackboard table. A text
//! field's edits are one undo step from focus to blur, a drag's from press to release.

use egui::{Grid, RichText, ScrollArea, TextEdit, Ui};
use townsfolk_runtime::pack::{Literal, Node, VarDecl};
use townsfolk_runtime::value::Type;

use super::catalogue;
use super::commands;
use super::params::{Form, kind_params_ui, local_problems};
use super::tab::TreeTab;
use crate::document::tree::find;
use crate::document::{Edit, NodeProps, TreeOp};
use crate::views::ViewCtx;
use crate::widgets::{ERROR_COLOR, choice_ui, number_ui, row_ui};

const TYPES: &[(Type, &str)] = &[
    (Type::Bool, "bool"),
    (Type::Int, "int"),
    (Type::Float, "float"),
    (Type::Str, "string"),
    (Type::Vec2, "vec2"),
    (Type::Entity, "entity"),
];

/// Applies an edit made by the inspector inside the gesture its widget opened (a focused text
/// field, a drag), and ends the gesture when the widget lets go. An edit while some widget
/// has the keyboard focus opens a gesture too (a value typed into a number field).
fn commit(
    ui: &Ui,
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    form: Form,
    label: &str,
    edit: Option<Edit>,
) {
    let focused = ui.ctx().memory(|m| m.focused());
    if !tab.gesture_open && (form.began || (edit.is_some() && focused.is_some())) {
        cx.doc.begin_gesture(label);
        tab.gesture_open = true;
        tab.gesture_focus = focused;
    }
    if let Some(edit) = edit
        && let Err(e) = cx.doc.apply(edit)
    {
        cx.status(format!("{label}: {e}"));
    }
    if form.ended && tab.gesture_open {
        cx.doc.end_gesture();
        tab.gesture_open = false;
    }
}

/// Ends a gesture whose widget let go without telling (it vanished with the selection, or the
/// focus moved elsewhere), before any other edit joins it.
fn settle_gesture(ui: &Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    if !tab.gesture_open {
        return;
    }
    let focused = ui.ctx().memory(|m| m.focused());
    let dragging = ui.ctx().dragged_id().is_some();
    if !dragging && (focused.is_none() || focused != tab.gesture_focus) {
        cx.doc.end_gesture();
        tab.gesture_open = false;
    }
}

fn opt_text(s: &str) -> Option<String> {
    if s.is_empty() {
        None
    } else {
        Some(s.to_string())
    }
}

/// The inspector of the selection in a tree tab.
pub fn tree_inspector_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    tab.follow_renames(cx.doc);
    settle_gesture(ui, tab, cx);
    let selected = tab.selected(cx.doc);
    ScrollArea::both()
        .id_salt(("tree_inspector", &tab.tree_id))
        .auto_shrink([false, false])
        .show(ui, |ui| match selected.as_slice() {
            [] => tree_info_ui(ui, tab, cx),
            [one] => {
                let node = cx
                    .doc
                    .pack()
                    .tree(&tab.tree_id)
                    .and_then(|t| find(&t.root, one))
                    .cloned();
                match node {
                    Some(n) => node_ui(ui, tab, cx, &n),
                    None => {
                        ui.weak(format!("`{one}` is not in this tree any more"));
                    }
                }
            }
            many => many_ui(ui, tab, cx, many),
        });
}

fn many_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx, many: &[String]) {
    ui.heading(format!("{} nodes selected", many.len()));
    ui.horizontal(|ui| {
        if ui.button("Disable / enable").clicked() {
            commands::toggle_disabled(tab, cx);
        }
        if ui.button("Extract to a new subtree…").clicked() {
            commands::ask_extract(tab, cx);
        }
    });
}

fn node_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx, node: &Node) {
    let info = catalogue::info_of(&node.kind);
    ui.horizontal(|ui| {
        ui.label(RichText::new(info.icon).color(info.color()).size(20.0));
        ui.heading(info.label);
    });
    ui.weak(info.help);
    let problems = local_problems(cx.doc.pack(), node);
    for p in &problems {
        ui.label(RichText::new(p).color(ERROR_COLOR));
    }
    ui.separator();
    let mut name = node.name.clone().unwrap_or_default();
    let mut comment = node.comment.clone().unwrap_or_default();
    let mut disabled = node.disabled;
    let mut kind = node.kind.clone();
    let mut form = Form::default();
    let mut retype: Option<&'static str> = None;
    Grid::new(("node_grid", &tab.tree_id))
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            ui.label("id");
            ui.horizontal(|ui| {
                ui.monospace(&node.id);
                if ui
                    .small_button("Rename…")
                    .on_hover_text("Rename the id; references follow (F2)")
                    .clicked()
                {
                    commands::ask_rename(tab, node);
                }
            });
            ui.end_row();
            let current = node.kind.type_name();
            row_ui(
                ui,
                "type",
                "Change the node's type: id, comment, position and children stay",
                |ui| {
                    egui::ComboBox::from_id_salt(("node_type", &tab.tree_id))
                        .selected_text(format!("{} {}", info.icon, info.label))
                        .height(400.0)
                        .show_ui(ui, |ui| {
                            for g in catalogue::Group::ALL {
                                ui.weak(g.label());
                                for k in catalogue::CATALOGUE.iter().filter(|k| k.group == g) {
                                    let text = RichText::new(format!("{} {}", k.icon, k.label))
                                        .color(k.color());
                                    if ui
                                        .selectable_label(k.type_name == current, text)
                                        .on_hover_text(k.help)
                                        .clicked()
                                        && k.type_name != current
                                    {
                                        retype = Some(k.type_name);
                                    }
                                }
                            }
                        })
                        .response
                },
            );
            form.track(&row_ui(
                ui,
                "name",
                "Shown on the card instead of the id",
                |ui| {
                    ui.add(
                        TextEdit::singleline(&mut name)
                            .desired_width(f32::INFINITY)
                            .hint_text(&node.id),
                    )
                },
            ));
            form.track(&row_ui(ui, "comment", "", |ui| {
                ui.add(
                    TextEdit::multiline(&mut comment)
                        .desired_rows(2)
                        .desired_width(f32::INFINITY),
                )
            }));
            form.track(&row_ui(
                ui,
                "disabled",
                "A disabled node is skipped by its parent (D)",
                |ui| ui.checkbox(&mut disabled, ""),
            ));
            let pack = cx.doc.pack();
            let params = kind_params_ui(ui, &mut kind, pack, node.children.len());
            form.changed |= params.changed;
            form.began |= params.began;
            form.ended |= params.ended;
        });
    let edit = form.changed.then(|| {
        let props = NodeProps {
            name: opt_text(&name),
            comment: opt_text(&comment),
            disabled,
            kind: kind.clone(),
        };
        Edit::Tree {
            tree: tab.tree_id.clone(),
            op: TreeOp::SetProps {
                node: node.id.clone(),
                props,
            },
        }
    });
    let edit = edit.filter(|_| {
        node.name != opt_text(&name)
            || node.comment != opt_text(&comment)
            || node.disabled != disabled
            || node.kind != kind
    });
    commit(ui, tab, cx, form, &format!("Edit {}", node.id), edit);
    if let Some(type_name) = retype {
        commands::change_type(tab, cx, &node.id, type_name);
    }
    if let townsfolk_runtime::pack::NodeKind::Subtree { tree } = &node.kind
        && ui.button(format!("Open `{tree}`")).clicked()
    {
        cx.requests
            .push(crate::views::ViewRequest::OpenTree(tree.clone()));
    }
}

fn tree_info_ui(ui: &mut Ui, tab: &mut TreeTab, cx: &mut ViewCtx) {
    let Some(tree) = cx.doc.pack().tree(&tab.tree_id).cloned() else {
        ui.weak(format!("The tree `{}` is not in the pack", tab.tree_id));
        return;
    };
    ui.horizontal(|ui| {
        ui.heading(format!("Tree `{}`", tree.id));
        if ui
            .button("Rename tree…")
            .on_hover_text("Rename the tree's id; subtree nodes, NPCs and layouts follow (F2)")
            .clicked()
        {
            commands::ask_rename_tree(tab);
        }
    });
    let mut name = tree.name.clone().unwrap_or_default();
    let mut comment = tree.comment.clone().unwrap_or_default();
    let mut form = Form::default();
    Grid::new(("tree_grid", &tab.tree_id))
        .num_columns(2)
        .show(ui, |ui| {
            form.track(&row_ui(ui, "tree name", "", |ui| {
                ui.add(TextEdit::singleline(&mut name).desired_width(f32::INFINITY))
            }));
            form.track(&row_ui(ui, "tree comment", "", |ui| {
                ui.add(
                    TextEdit::multiline(&mut comment)
                        .desired_rows(2)
                        .desired_width(f32::INFINITY),
                )
            }));
        });
    let edit = (form.changed
        && (tree.name != opt_text(&name) || tree.comment != opt_text(&comment)))
    .then(|| Edit::Tree {
        tree: tab.tree_id.clone(),
        op: TreeOp::SetInfo {
            name: opt_text(&name),
            comment: opt_text(&comment),
        },
    });
    commit(ui, tab, cx, form, "Edit the tree", edit);
    ui.separator();
    blackboard_ui(ui, tab, cx, &tree.blackboard);
}

fn default_literal(ty: Type) -> Option<Literal> {
    match ty {
        Type::Bool => Some(Literal::Bool(false)),
        Type::Int => Some(Literal::Int(0)),
        Type::Float => Some(Literal::Float(0.0)),
        Type::Str => Some(Literal::Str(String::new())),
        Type::Vec2 => Some(Literal::Vec2([0.0, 0.0])),
        Type::Entity => None,
    }
}

/// The default value's widget for a declared type; `None` default shows the zero value.
fn default_ui(ui: &mut Ui, ty: Type, value: &mut Option<Literal>) -> egui::Response {
    let mut lit = value.clone().or_else(|| default_literal(ty));
    let r = match &mut lit {
        Some(Literal::Bool(b)) => ui.checkbox(b, ""),
        Some(Literal::Int(i)) => ui.add(egui::DragValue::new(i)),
        Some(Literal::Float(x)) => number_ui(ui, x, f64::MIN..=f64::MAX, ""),
        Some(Literal::Str(s)) => ui.add(TextEdit::singleline(s).desired_width(80.0)),
        Some(Literal::Vec2(v)) => {
            let (a, b) = v.split_at_mut(1);
            let ra = ui.add(egui::DragValue::new(&mut a[0]).speed(0.1));
            let rb = ui.add(egui::DragValue::new(&mut b[0]).speed(0.1));
            ra.union(rb)
        }
        None => ui
            .weak("none")
            .on_hover_text("An entity variable starts empty"),
    };
    if r.changed() {
        *value = lit;
    }
    r
}

fn blackboard_ui(
    ui: &mut Ui,
    tab: &mut TreeTab,
    cx: &mut ViewCtx,
    bb: &std::collections::BTreeMap<String, VarDecl>,
) {
    ui.heading("Blackboard");
    let uses = commands::variable_uses(cx.doc.pack(), &tab.tree_id);
    let mut edits: Vec<(String, Option<VarDecl>, Form)> = Vec::new();
    let mut find_usages = None;
    let mut rename = None;
    Grid::new(("blackboard", &tab.tree_id))
        .num_columns(5)
        .show(ui, |ui| {
            ui.strong("name");
            ui.strong("type");
            ui.strong("default");
            ui.strong("uses");
            ui.label("");
            ui.end_row();
            for (name, decl) in bb {
                let mut d = decl.clone();
                let mut form = Form::default();
                let l = ui.monospace(name);
                let r = choice_ui(ui, ("bb_type", name), &mut d.ty, TYPES).labelled_by(l.id);
                if r.changed() {
                    d.default = None;
                }
                form.track(&r);
                form.track(&default_ui(ui, d.ty, &mut d.default));
                let n = uses.get(name).copied().unwrap_or(0);
                if ui
                    .link(n.to_string())
                    .on_hover_text("Find usages of this variable")
                    .clicked()
                {
                    find_usages = Some(name.clone());
                }
                let hover = if n == 0 {
                    "Remove the declaration".to_string()
                } else {
                    format!("Used {n} time(s): remove or change the uses first")
                };
                let remove = ui
                    .add_enabled(n == 0, egui::Button::new("✖").small())
                    .on_hover_text(&hover)
                    .on_disabled_hover_text(&hover)
                    .clicked();
                ui.end_row();
                // Under the row: its comment and the rename button.
                ui.label("");
                let mut comment = d.comment.clone().unwrap_or_default();
                let c = ui
                    .add(
                        TextEdit::singleline(&mut comment)
                            .hint_text("comment")
                            .desired_width(96.0),
                    )
                    .on_hover_text(d.comment.as_deref().unwrap_or("The variable's comment"));
                if c.changed() {
                    d.comment = opt_text(&comment);
                }
                form.track(&c);
                if ui
                    .small_button("Rename…")
                    .on_hover_text("Rename the variable; every use in the tree follows")
                    .clicked()
                {
                    rename = Some(name.clone());
                }
                ui.end_row();
                if remove {
                    edits.push((
                        name.clone(),
                        None,
                        Form {
                            changed: true,
                            ..Form::default()
                        },
                    ));
                } else if form.changed || form.began || form.ended {
                    edits.push((name.clone(), Some(d), form));
                }
            }
        });
    for (name, decl, form) in edits {
        let changed = form.changed && decl.as_ref() != bb.get(&name);
        let edit = changed.then(|| Edit::Tree {
            tree: tab.tree_id.clone(),
            op: TreeOp::SetBlackboard {
                var: name.clone(),
                decl,
            },
        });
        commit(ui, tab, cx, form, &format!("Edit variable {name}"), edit);
    }
    if let Some(var) = rename {
        commands::ask_rename_var(tab, &var);
    }
    if let Some(var) = find_usages {
        commands::find_variable_usages(tab, cx, &var);
    }
    ui.horizontal(|ui| {
        ui.add(
            TextEdit::singleline(&mut tab.new_var)
                .hint_text("new variable")
                .desired_width(120.0),
        );
        let mut ty = tab.new_var_type;
        choice_ui(ui, ("bb_new_type", &tab.tree_id), &mut ty, TYPES);
        tab.new_var_type = ty;
        let name = tab.new_var.trim().to_string();
        let valid = commands::is_var_name(&name) && !bb.contains_key(&name);
        if ui
            .add_enabled(valid, egui::Button::new("Add variable"))
            .clicked()
        {
            let edit = Edit::Tree {
                tree: tab.tree_id.clone(),
                op: TreeOp::SetBlackboard {
                    var: name,
                    decl: Some(VarDecl {
                        ty,
                        default: None,
                        comment: None,
                    }),
                },
            };
            match cx.doc.apply(edit) {
                Ok(()) => tab.new_var.clear(),
                Err(e) => cx.status(format!("Add variable: {e}")),
            }
        }
    });
}
