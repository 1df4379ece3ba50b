//! The parameters of every node kind as typed inspector fields, and the local checks that make
//! a card red before the document's checks come back (empty expressions, ids that name
//! nothing).

use egui::{Response, TextEdit, Ui};
use townsfolk_runtime::pack::{ChildChoice, MoveTarget, Node, NodeKind, Pack, Point, Preference};
use townsfolk_runtime::value::Type;

use crate::widgets::{
    IdKind, check_expr, choice_ui, count_ui, expr_field_ui, id_picker_ui, ids_of, number_ui,
    optional_ui, row_ui,
};

/// Longest duration the runtime accepts, in seconds.
const MAX_SECONDS: f64 = 1.0e7;
/// Largest coordinate the runtime accepts.
const MAX_COORD: f64 = 1.0e7;
const MAX_WEIGHT: f64 = 1.0e9;
const MAX_THRESHOLD: u32 = 64;

/// What the fields of one frame did: whether a value changed, and whether a text field or a
/// drag started or ended (the inspector turns those into one undo gesture).
#[derive(Default, Debug, Clone, Copy)]
pub struct Form {
    pub changed: bool,
    pub began: bool,
    pub ended: bool,
}

impl Form {
    pub fn track(&mut self, r: &Response) {
        self.changed |= r.changed();
        self.began |= r.gained_focus() || r.drag_started();
        self.ended |= r.lost_focus() || r.drag_stopped();
    }
}

fn text_ui(ui: &mut Ui, value: &mut String, hint: &str) -> Response {
    ui.add(
        TextEdit::singleline(value)
            .desired_width(f32::INFINITY)
            .hint_text(hint),
    )
}

fn seconds_ui(ui: &mut Ui, v: &mut f64) -> Response {
    number_ui(ui, v, 0.0..=MAX_SECONDS, " s")
}

/// An optional id picker: empty means absent.
fn opt_id_ui(
    ui: &mut Ui,
    salt: &str,
    value: &mut Option<String>,
    pack: &Pack,
    kind: IdKind,
) -> Response {
    let mut s = value.clone().unwrap_or_default();
    let r = id_picker_ui(ui, salt, &mut s, pack, kind);
    if r.changed() {
        *value = if s.is_empty() { None } else { Some(s) };
    }
    r
}

fn opt_expr_ui(ui: &mut Ui, value: &mut Option<String>, pack: &Pack) -> Response {
    optional_ui(ui, value, "none", String::new, |ui, s| {
        expr_field_ui(ui, s, pack, Some(Type::Bool))
    })
}

fn opt_seconds_ui(ui: &mut Ui, value: &mut Option<f64>, none: &str) -> Response {
    optional_ui(ui, value, none, || 1.0, seconds_ui)
}

fn inbox_message_ui(
    ui: &mut Ui,
    f: &mut Form,
    pack: &Pack,
    inbox: &mut String,
    message: &mut Option<String>,
) {
    f.track(&row_ui(ui, "inbox", "Which inbox", |ui| {
        id_picker_ui(ui, "p_inbox", inbox, pack, IdKind::Inbox)
    }));
    f.track(&row_ui(
        ui,
        "message",
        "Only messages of this kind (empty: any)",
        |ui| opt_id_ui(ui, "p_message", message, pack, IdKind::Message),
    ));
}

/// The type an assignment to `var` must have (`None` when the variable is unknown).
pub fn set_target_type(pack: &Pack, var: &str) -> Option<Type> {
    if var.starts_with("flags.") || var.starts_with("flag.") {
        return Some(Type::Bool);
    }
    if var.starts_with("counters.") || var.starts_with("counter.") {
        return Some(Type::Int);
    }
    if let Some(name) = var.strip_prefix("area.") {
        return pack
            .areas
            .iter()
            .find_map(|a| a.vars.get(name).map(|d| d.ty));
    }
    pack.trees
        .iter()
        .find_map(|t| t.blackboard.get(var).map(|d| d.ty))
}

#[derive(Clone, Copy, PartialEq)]
enum TargetKind {
    Point,
    Object,
    Area,
    Npc,
    Var,
}

fn target_ui(ui: &mut Ui, f: &mut Form, pack: &Pack, target: &mut MoveTarget) {
    let mut tk = match target {
        MoveTarget::Point(_) => TargetKind::Point,
        MoveTarget::Object(_) => TargetKind::Object,
        MoveTarget::Area(_) => TargetKind::Area,
        MoveTarget::Npc(_) => TargetKind::Npc,
        MoveTarget::Var(_) => TargetKind::Var,
    };
    let r = row_ui(ui, "target", "Where to walk", |ui| {
        choice_ui(
            ui,
            "p_target_kind",
            &mut tk,
            &[
                (TargetKind::Point, "a point"),
                (TargetKind::Object, "an object"),
                (TargetKind::Area, "an area"),
                (TargetKind::Npc, "an NPC"),
                (TargetKind::Var, "a variable"),
            ],
        )
    });
    if r.changed() {
        let first = |k| ids_of(pack, k).into_iter().next().unwrap_or_default();
        *target = match tk {
            TargetKind::Point => MoveTarget::Point(Point { x: 0.0, y: 0.0 }),
            TargetKind::Object => MoveTarget::Object(first(IdKind::Object)),
            TargetKind::Area => MoveTarget::Area(first(IdKind::Area)),
            TargetKind::Npc => MoveTarget::Npc(first(IdKind::Npc)),
            TargetKind::Var => MoveTarget::Var(first(IdKind::Var(&[Type::Vec2, Type::Entity]))),
        };
    }
    f.track(&r);
    match target {
        MoveTarget::Point(p) => {
            f.track(&row_ui(ui, "x", "", |ui| {
                number_ui(ui, &mut p.x, -MAX_COORD..=MAX_COORD, "")
            }));
            f.track(&row_ui(ui, "y", "", |ui| {
                number_ui(ui, &mut p.y, -MAX_COORD..=MAX_COORD, "")
            }));
        }
        MoveTarget::Object(id) => f.track(&row_ui(ui, "object", "", |ui| {
            id_picker_ui(ui, "p_object", id, pack, IdKind::Object)
        })),
        MoveTarget::Area(id) => f.track(&row_ui(ui, "area", "", |ui| {
            id_picker_ui(ui, "p_area", id, pack, IdKind::Area)
        })),
        MoveTarget::Npc(id) => f.track(&row_ui(ui, "NPC", "", |ui| {
            id_picker_ui(ui, "p_npc", id, pack, IdKind::Npc)
        })),
        MoveTarget::Var(v) => f.track(&row_ui(ui, "variable", "A vec2 or entity variable", |ui| {
            id_picker_ui(
                ui,
                "p_var",
                v,
                pack,
                IdKind::Var(&[Type::Vec2, Type::Entity]),
            )
        })),
    }
}

fn list_ui<T>(
    ui: &mut Ui,
    f: &mut Form,
    label: &str,
    items: &mut Vec<T>,
    make: impl Fn() -> T,
    mut item_ui: impl FnMut(&mut Ui, usize, &mut T) -> Response,
) {
    let mut remove = None;
    for (i, it) in items.iter_mut().enumerate() {
        let l = ui.label(format!("{label} {}", i + 1));
        ui.horizontal(|ui| {
            let r = item_ui(ui, i, it).labelled_by(l.id);
            f.track(&r);
            if ui.small_button("✖").on_hover_text("Remove").clicked() {
                remove = Some(i);
            }
        });
        ui.end_row();
    }
    if let Some(i) = remove {
        items.remove(i);
        f.changed = true;
    }
    ui.label("");
    if ui.button(format!("Add {label}")).clicked() {
        items.push(make());
        f.changed = true;
    }
    ui.end_row();
}

/// The parameter rows of a node kind inside a two-column `Grid`. Edits `kind` in place.
pub fn kind_params_ui(ui: &mut Ui, kind: &mut NodeKind, pack: &Pack, children: usize) -> Form {
    let mut f = Form::default();
    match kind {
        NodeKind::Sequence { reactive } | NodeKind::Selector { reactive } => {
            f.track(&row_ui(
                ui,
                "reactive",
                "Re-check earlier children every tick",
                |ui| ui.checkbox(reactive, ""),
            ));
        }
        NodeKind::Parallel {
            success_threshold,
            failure_threshold,
        } => {
            let max = (children as u32).clamp(1, MAX_THRESHOLD);
            f.track(&row_ui(
                ui,
                "success threshold",
                "Children that must succeed",
                |ui| {
                    optional_ui(
                        ui,
                        success_threshold,
                        "all",
                        || max,
                        |ui, v| count_ui(ui, v, 1..=max),
                    )
                },
            ));
            f.track(&row_ui(
                ui,
                "failure threshold",
                "Children whose failure fails it",
                |ui| {
                    optional_ui(
                        ui,
                        failure_threshold,
                        "1",
                        || 1,
                        |ui, v| count_ui(ui, v, 1..=max),
                    )
                },
            ));
        }
        NodeKind::RandomSelector { weights } => {
            list_ui(
                ui,
                &mut f,
                "weight",
                weights,
                || 1.0,
                |ui, _, w| number_ui(ui, w, 0.0..=MAX_WEIGHT, ""),
            );
        }
        NodeKind::Inverter
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::RemoveArea => {
            ui.weak("no parameters");
            ui.end_row();
        }
        NodeKind::Repeat { times } => {
            f.track(&row_ui(
                ui,
                "times",
                "How often (unticked: forever)",
                |ui| {
                    optional_ui(
                        ui,
                        times,
                        "forever",
                        || 2,
                        |ui, v| count_ui(ui, v, 1..=u32::MAX),
                    )
                },
            ));
        }
        NodeKind::Retry { times } => {
            f.track(&row_ui(ui, "times", "Attempts in all", |ui| {
                count_ui(ui, times, 1..=u32::MAX)
            }));
        }
        NodeKind::Cooldown { seconds }
        | NodeKind::Timeout { seconds }
        | NodeKind::Wait { seconds } => {
            f.track(&row_ui(ui, "seconds", "", |ui| seconds_ui(ui, seconds)));
        }
        NodeKind::Guard { condition } => {
            f.track(&row_ui(ui, "condition", "A bool expression", |ui| {
                expr_field_ui(ui, condition, pack, Some(Type::Bool))
            }));
        }
        NodeKind::Condition { expr } => {
            f.track(&row_ui(ui, "expression", "A bool expression", |ui| {
                expr_field_ui(ui, expr, pack, Some(Type::Bool))
            }));
        }
        NodeKind::InArea { area } => {
            f.track(&row_ui(ui, "area", "", |ui| {
                id_picker_ui(ui, "p_area", area, pack, IdKind::Area)
            }));
        }
        NodeKind::TimeWindow { from_hour, to_hour } => {
            f.track(&row_ui(ui, "from hour", "", |ui| {
                number_ui(ui, from_hour, 0.0..=24.0, " h")
            }));
            f.track(&row_ui(ui, "to hour", "", |ui| {
                number_ui(ui, to_hour, 0.0..=24.0, " h")
            }));
        }
        NodeKind::HasMessage { inbox, message } => {
            inbox_message_ui(ui, &mut f, pack, inbox, message)
        }
        NodeKind::Chance { probability } => {
            f.track(&row_ui(ui, "probability", "", |ui| {
                number_ui(ui, probability, 0.0..=1.0, "")
            }));
        }
        NodeKind::MoveTo { target, tolerance } => {
            target_ui(ui, &mut f, pack, target);
            f.track(&row_ui(
                ui,
                "tolerance",
                "Arrived within (default 0.25)",
                |ui| {
                    optional_ui(
                        ui,
                        tolerance,
                        "0.25",
                        || 0.25,
                        |ui, v| number_ui(ui, v, 0.0..=1.0e6, ""),
                    )
                },
            ));
        }
        NodeKind::Set { var, value } => {
            f.track(&row_ui(
                ui,
                "variable",
                "A blackboard variable, flags.X or counters.X",
                |ui| id_picker_ui(ui, "p_var", var, pack, IdKind::Var(&[])),
            ));
            let want = set_target_type(pack, var);
            f.track(&row_ui(
                ui,
                "value",
                "An expression of the variable's type",
                |ui| expr_field_ui(ui, value, pack, want),
            ));
        }
        NodeKind::SendMessage { to, inbox, message } => {
            f.track(&row_ui(
                ui,
                "to",
                "An NPC or area id, self, area, subject or an entity variable",
                |ui| id_picker_ui(ui, "p_to", to, pack, IdKind::Npc),
            ));
            f.track(&row_ui(ui, "inbox", "", |ui| {
                id_picker_ui(ui, "p_inbox", inbox, pack, IdKind::Inbox)
            }));
            f.track(&row_ui(ui, "message", "", |ui| {
                id_picker_ui(ui, "p_message", message, pack, IdKind::Message)
            }));
        }
        NodeKind::Receive {
            inbox,
            message,
            sender_var,
        }
        | NodeKind::Peek {
            inbox,
            message,
            sender_var,
        }
        | NodeKind::WaitMessage {
            inbox,
            message,
            sender_var,
        } => {
            inbox_message_ui(ui, &mut f, pack, inbox, message);
            f.track(&row_ui(
                ui,
                "sender variable",
                "An entity variable to store the sender in",
                |ui| {
                    opt_id_ui(
                        ui,
                        "p_sender",
                        sender_var,
                        pack,
                        IdKind::Var(&[Type::Entity]),
                    )
                },
            ));
        }
        NodeKind::Animate { animation, seconds } => {
            f.track(&row_ui(ui, "animation", "", |ui| {
                text_ui(ui, animation, "animation name")
            }));
            f.track(&row_ui(ui, "seconds", "", |ui| seconds_ui(ui, seconds)));
        }
        NodeKind::Say { text, seconds } => {
            f.track(&row_ui(ui, "text", "", |ui| {
                text_ui(ui, text, "what to say")
            }));
            f.track(&row_ui(ui, "seconds", "", |ui| seconds_ui(ui, seconds)));
        }
        NodeKind::Log { text } => {
            f.track(&row_ui(ui, "text", "", |ui| {
                text_ui(ui, text, "trace line")
            }));
        }
        NodeKind::Subtree { tree } => {
            f.track(&row_ui(
                ui,
                "tree",
                "Double-click the node to open it",
                |ui| id_picker_ui(ui, "p_tree", tree, pack, IdKind::Tree),
            ));
        }
        NodeKind::Request {
            prefer,
            forbid,
            area_kind,
        } => {
            list_ui(
                ui,
                &mut f,
                "preference",
                prefer,
                || Preference {
                    template: String::new(),
                    weight: 1.0,
                },
                |ui, i, p| {
                    let a =
                        id_picker_ui(ui, ("p_pref", i), &mut p.template, pack, IdKind::Template);
                    let b = number_ui(ui, &mut p.weight, 0.0..=MAX_WEIGHT, "");
                    a.union(b)
                },
            );
            list_ui(ui, &mut f, "forbidden", forbid, String::new, |ui, i, s| {
                id_picker_ui(ui, ("p_forbid", i), s, pack, IdKind::Template)
            });
            f.track(&row_ui(
                ui,
                "area kind",
                "Only areas of this kind (empty: any)",
                |ui| opt_id_ui(ui, "p_area_kind", area_kind, pack, IdKind::AreaKind),
            ));
        }
        NodeKind::GoToChild { kind, choose } => {
            f.track(&row_ui(ui, "kind", "The child area kind", |ui| {
                id_picker_ui(ui, "p_kind", kind, pack, IdKind::AreaKind)
            }));
            f.track(&row_ui(ui, "choose", "", |ui| {
                choice_ui(
                    ui,
                    "p_choose",
                    choose,
                    &[
                        (ChildChoice::Weight, "by weight"),
                        (ChildChoice::Nearest, "nearest"),
                    ],
                )
            }));
        }
        NodeKind::EnableTemplate { template, enabled } => {
            f.track(&row_ui(ui, "behavior", "", |ui| {
                id_picker_ui(ui, "p_template", template, pack, IdKind::Template)
            }));
            f.track(&row_ui(ui, "enabled", "", |ui| ui.checkbox(enabled, "")));
        }
        NodeKind::MessageHolders {
            template,
            inbox,
            message,
        } => {
            f.track(&row_ui(
                ui,
                "behavior",
                "Only holders of this behavior (empty: all)",
                |ui| opt_id_ui(ui, "p_template", template, pack, IdKind::Template),
            ));
            f.track(&row_ui(ui, "inbox", "", |ui| {
                id_picker_ui(ui, "p_inbox", inbox, pack, IdKind::Inbox)
            }));
            f.track(&row_ui(ui, "message", "", |ui| {
                id_picker_ui(ui, "p_message", message, pack, IdKind::Message)
            }));
        }
        NodeKind::CreateArea { prototype, seconds } => {
            f.track(&row_ui(ui, "prototype", "A dynamic area", |ui| {
                id_picker_ui(ui, "p_proto", prototype, pack, IdKind::DynamicArea)
            }));
            f.track(&row_ui(ui, "seconds", "Unticked: until removed", |ui| {
                opt_seconds_ui(ui, seconds, "until removed")
            }));
        }
        NodeKind::Converse {
            cast,
            until,
            seconds,
        } => {
            f.track(&row_ui(ui, "cast", "", |ui| {
                id_picker_ui(ui, "p_cast", cast, pack, IdKind::Cast)
            }));
            f.track(&row_ui(ui, "until", "Stop when this holds", |ui| {
                opt_expr_ui(ui, until, pack)
            }));
            f.track(&row_ui(
                ui,
                "seconds",
                "Stop after (unticked: no limit)",
                |ui| opt_seconds_ui(ui, seconds, "no limit"),
            ));
        }
    }
    f
}

fn need_text(out: &mut Vec<String>, field: &str, value: &str) {
    if value.is_empty() {
        out.push(format!("`{field}` is not filled in"));
    }
}

fn need_id(out: &mut Vec<String>, pack: &Pack, field: &str, value: &str, kind: IdKind) {
    if value.is_empty() {
        out.push(format!("`{field}` is not filled in"));
    } else if kind.must_exist() && !ids_of(pack, kind).iter().any(|i| i == value) {
        out.push(format!("`{field}`: no {} `{value}`", kind.label()));
    }
}

fn need_expr(out: &mut Vec<String>, pack: &Pack, field: &str, src: &str, want: Option<Type>) {
    if let Err(e) = check_expr(pack, src, want) {
        out.push(format!("`{field}`: {e}"));
    }
}

/// Problems the editor sees in a node without waiting for the document's checks: unfilled
/// parameters, expressions that do not parse or type-check, ids that name nothing.
pub fn local_problems(pack: &Pack, node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    match &node.kind {
        NodeKind::Guard { condition } => {
            need_expr(&mut out, pack, "condition", condition, Some(Type::Bool))
        }
        NodeKind::Condition { expr } => need_expr(&mut out, pack, "expr", expr, Some(Type::Bool)),
        NodeKind::InArea { area } => need_id(&mut out, pack, "area", area, IdKind::Area),
        NodeKind::MoveTo { target, .. } => match target {
            MoveTarget::Point(_) => {}
            MoveTarget::Object(id) => need_id(&mut out, pack, "target", id, IdKind::Object),
            MoveTarget::Area(id) => need_id(&mut out, pack, "target", id, IdKind::Area),
            MoveTarget::Npc(id) => need_id(&mut out, pack, "target", id, IdKind::Npc),
            MoveTarget::Var(v) => need_id(
                &mut out,
                pack,
                "target",
                v,
                IdKind::Var(&[Type::Vec2, Type::Entity]),
            ),
        },
        NodeKind::Set { var, value } => {
            need_text(&mut out, "var", var);
            need_expr(&mut out, pack, "value", value, set_target_type(pack, var));
        }
        NodeKind::SendMessage { to, message, .. } => {
            need_text(&mut out, "to", to);
            need_text(&mut out, "message", message);
        }
        NodeKind::Subtree { tree } => need_id(&mut out, pack, "tree", tree, IdKind::Tree),
        NodeKind::GoToChild { kind, .. } => {
            need_text(&mut out, "kind", kind);
        }
        NodeKind::EnableTemplate { template, .. } => {
            need_text(&mut out, "template", template);
        }
        NodeKind::MessageHolders { message, .. } => {
            need_text(&mut out, "message", message);
        }
        NodeKind::CreateArea { prototype, .. } => {
            need_id(&mut out, pack, "prototype", prototype, IdKind::DynamicArea)
        }
        NodeKind::Converse { cast, until, .. } => {
            need_id(&mut out, pack, "cast", cast, IdKind::Cast);
            if let Some(u) = until {
                need_expr(&mut out, pack, "until", u, Some(Type::Bool));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::tree::catalogue;

    fn pack() -> Pack {
        townsfolk_runtime::pack::load_str(crate::DEFAULT_PACK)
            .pack
            .unwrap_or_else(|| Pack::new("empty"))
    }

    fn node(kind: NodeKind) -> Node {
        Node {
            id: "n".into(),
            name: None,
            comment: None,
            disabled: false,
            kind,
            children: Vec::new(),
        }
    }

    #[test]
    fn unfilled_defaults_are_problems_and_filled_ones_are_not() {
        let p = pack();
        let fresh = node(catalogue::info("condition").unwrap().default_kind());
        assert_eq!(local_problems(&p, &fresh).len(), 1);
        let ok = node(NodeKind::Condition {
            expr: "flags.alarm".into(),
        });
        assert!(local_problems(&p, &ok).is_empty());
        let bad_tree = node(NodeKind::Subtree {
            tree: "nope".into(),
        });
        assert!(local_problems(&p, &bad_tree)[0].contains("nope"));
        let good_tree = node(NodeKind::Subtree {
            tree: "patrol".into(),
        });
        assert!(local_problems(&p, &good_tree).is_empty());
        assert!(
            local_problems(&p, &node(catalogue::info("wait").unwrap().default_kind())).is_empty()
        );
    }

    #[test]
    fn set_checks_its_value_against_the_variable_type() {
        let p = pack();
        assert_eq!(set_target_type(&p, "flags.alarm"), Some(Type::Bool));
        assert_eq!(set_target_type(&p, "fatigue"), Some(Type::Float));
        let bad = node(NodeKind::Set {
            var: "flags.alarm".into(),
            value: "1 + 2".into(),
        });
        assert_eq!(local_problems(&p, &bad).len(), 1);
        let good = node(NodeKind::Set {
            var: "fatigue".into(),
            value: "fatigue + 0.1".into(),
        });
        assert!(local_problems(&p, &good).is_empty());
    }
}
