//! The node-kind catalogue: every behavior-tree node kind of the runtime, grouped as the
//! palette shows them, with its colour, icon, default parameters and the key parameter a card
//! shows. One row per `NodeKind::TYPE_NAMES` entry (checked by a test).

use egui::Color32;
use townsfolk_runtime::pack::{MoveTarget, NodeKind};

use crate::document::ops;

/// A palette group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    Composites,
    Decorators,
    Conditions,
    Actions,
    SmartAreas,
    Conversations,
}

impl Group {
    /// Every group, in palette order.
    pub const ALL: [Group; 6] = [
        Group::Composites,
        Group::Decorators,
        Group::Conditions,
        Group::Actions,
        Group::SmartAreas,
        Group::Conversations,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Group::Composites => "Composites",
            Group::Decorators => "Decorators",
            Group::Conditions => "Conditions",
            Group::Actions => "Actions",
            Group::SmartAreas => "Smart areas",
            Group::Conversations => "Conversations",
        }
    }

    /// The colour of the group's cards and palette entries.
    pub fn color(self) -> Color32 {
        match self {
            Group::Composites => Color32::from_rgb(110, 160, 255),
            Group::Decorators => Color32::from_rgb(190, 140, 255),
            Group::Conditions => Color32::from_rgb(80, 200, 200),
            Group::Actions => Color32::from_rgb(235, 160, 90),
            Group::SmartAreas => Color32::from_rgb(255, 130, 190),
            Group::Conversations => Color32::from_rgb(140, 210, 100),
        }
    }
}

/// One node kind as the editor presents it.
#[derive(Clone, Copy, Debug)]
pub struct KindInfo {
    /// The JSON `type` name (`sequence`, `wait`, …).
    pub type_name: &'static str,
    /// What the palette shows.
    pub label: &'static str,
    pub group: Group,
    /// A glyph from egui's default fonts.
    pub icon: &'static str,
    /// One line for the palette's hover text.
    pub help: &'static str,
}

impl KindInfo {
    pub fn color(&self) -> Color32 {
        self.group.color()
    }

    /// The kind with its default parameters. Parameters that name something (an area, a tree,
    /// an expression) start empty: the node shows them red until they are filled.
    pub fn default_kind(&self) -> NodeKind {
        // Every catalogue row is a runtime type name (a test checks both tables agree), so
        // the fallback is never taken.
        ops::default_kind(self.type_name).unwrap_or(NodeKind::Sequence { reactive: false })
    }

    /// Whether a palette search matches (case-insensitive, on the type name, the label or the
    /// group).
    pub fn matches(&self, query: &str) -> bool {
        let q = query.trim().to_lowercase();
        q.is_empty()
            || self.type_name.contains(&q)
            || self.label.to_lowercase().contains(&q)
            || self.group.label().to_lowercase().contains(&q)
    }
}

const fn k(
    type_name: &'static str,
    label: &'static str,
    group: Group,
    icon: &'static str,
    help: &'static str,
) -> KindInfo {
    KindInfo {
        type_name,
        label,
        group,
        icon,
        help,
    }
}

use Group::*;

/// Every node kind, in palette order (the runtime's documentation order).
pub const CATALOGUE: &[KindInfo] = &[
    k(
        "sequence",
        "Sequence",
        Composites,
        "»",
        "Runs children in order until one fails",
    ),
    k(
        "selector",
        "Selector",
        Composites,
        "?",
        "Runs children in order until one succeeds",
    ),
    k(
        "parallel",
        "Parallel",
        Composites,
        "||",
        "Ticks all children at once",
    ),
    k(
        "random_selector",
        "Random selector",
        Composites,
        "🎲",
        "Picks a child at random by weight",
    ),
    k(
        "inverter",
        "Inverter",
        Decorators,
        "!",
        "Success becomes failure and back",
    ),
    k(
        "force_success",
        "Force success",
        Decorators,
        "✔",
        "Always succeeds when the child ends",
    ),
    k(
        "force_failure",
        "Force failure",
        Decorators,
        "✖",
        "Always fails when the child ends",
    ),
    k(
        "repeat",
        "Repeat",
        Decorators,
        "🔁",
        "Repeats its child while it succeeds",
    ),
    k("retry", "Retry", Decorators, "↺", "Re-runs a failing child"),
    k(
        "cooldown",
        "Cooldown",
        Decorators,
        "❄",
        "Fails for a while after the child ends",
    ),
    k(
        "timeout",
        "Timeout",
        Decorators,
        "⏱",
        "Fails if the child runs too long",
    ),
    k(
        "guard",
        "Guard",
        Decorators,
        "🛡",
        "Ticks its child only while a condition holds",
    ),
    k(
        "condition",
        "Condition",
        Conditions,
        "❓",
        "A boolean expression",
    ),
    k(
        "in_area",
        "In area",
        Conditions,
        "⛶",
        "Succeeds while inside an area",
    ),
    k(
        "time_window",
        "Time window",
        Conditions,
        "🕒",
        "Succeeds between two hours",
    ),
    k(
        "has_message",
        "Has message",
        Conditions,
        "✉",
        "Succeeds when an inbox holds a message",
    ),
    k(
        "chance",
        "Chance",
        Conditions,
        "%",
        "Succeeds with a probability",
    ),
    k(
        "move_to",
        "Move to",
        Actions,
        "🚶",
        "Walks to a point, object, area or NPC",
    ),
    k("wait", "Wait", Actions, "⏳", "Running for some seconds"),
    k(
        "set",
        "Set",
        Actions,
        "=",
        "Assigns an expression to a variable",
    ),
    k(
        "send_message",
        "Send message",
        Actions,
        "📤",
        "Sends a message",
    ),
    k(
        "receive",
        "Receive",
        Actions,
        "📥",
        "Takes a message from an inbox",
    ),
    k("animate", "Animate", Actions, "🎞", "Plays an animation"),
    k("say", "Say", Actions, "💬", "Says a line"),
    k("log", "Log", Actions, "📝", "Writes a line to the trace"),
    k("subtree", "Subtree", Actions, "🖧", "Runs another tree"),
    k(
        "request",
        "Request",
        SmartAreas,
        "🙋",
        "Asks the smart area for a behavior",
    ),
    k(
        "go_to_child",
        "Go to child area",
        SmartAreas,
        "⤵",
        "Walks into a child area of a kind",
    ),
    k(
        "peek",
        "Peek",
        Actions,
        "👁",
        "Looks at a message without taking it",
    ),
    k(
        "wait_message",
        "Wait for message",
        Actions,
        "⌛",
        "Running until a message arrives",
    ),
    k(
        "enable_template",
        "Enable template",
        SmartAreas,
        "±",
        "Enables or disables a behavior",
    ),
    k(
        "message_holders",
        "Message holders",
        SmartAreas,
        "📣",
        "Messages every holder of a behavior",
    ),
    k(
        "create_area",
        "Create area",
        SmartAreas,
        "➕",
        "Places a dynamic area",
    ),
    k(
        "remove_area",
        "Remove area",
        SmartAreas,
        "➖",
        "Removes the dynamic area",
    ),
    k(
        "converse",
        "Converse",
        Conversations,
        "🗣",
        "Talks in a conversation cast",
    ),
];

/// The catalogue row of a type name.
pub fn info(type_name: &str) -> Option<&'static KindInfo> {
    CATALOGUE.iter().find(|k| k.type_name == type_name)
}

/// The catalogue row of a node kind. Every kind has one (checked by a test), so a missing row
/// falls back to a neutral action row rather than failing.
pub fn info_of(kind: &NodeKind) -> &'static KindInfo {
    const UNKNOWN: KindInfo = k("?", "Unknown", Actions, "•", "");
    info(kind.type_name()).unwrap_or(&UNKNOWN)
}

/// The rows that match a search, prefix matches first, otherwise in palette order.
pub fn search(query: &str) -> Vec<&'static KindInfo> {
    let q = query.trim().to_lowercase();
    let mut hits: Vec<&'static KindInfo> = CATALOGUE.iter().filter(|k| k.matches(&q)).collect();
    // Prefix matches of the type name or label first ("seq" → sequence before anything else).
    hits.sort_by_key(|k| {
        let prefix = k.type_name.starts_with(&q) || k.label.to_lowercase().starts_with(&q);
        !prefix
    });
    hits
}

/// A menu of every node kind by group (for "Change type"): returns the type name picked.
/// The current kind is shown selected.
pub fn kind_menu_ui(ui: &mut egui::Ui, current: &str) -> Option<&'static str> {
    let mut picked = None;
    for g in Group::ALL {
        ui.menu_button(g.label(), |ui| {
            for k in CATALOGUE.iter().filter(|k| k.group == g) {
                let text = egui::RichText::new(format!("{} {}", k.icon, k.label)).color(k.color());
                if ui
                    .selectable_label(k.type_name == current, text)
                    .on_hover_text(k.help)
                    .clicked()
                {
                    picked = Some(k.type_name);
                    ui.close();
                }
            }
        });
    }
    picked
}

/// A number as a card shows it: `2`, `0.5`, `1e-5`.
pub fn short_number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && (x.abs() >= 1e9 || x.abs() < 1e-4) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn opt_inbox(inbox: &str, message: &Option<String>) -> String {
    match message {
        Some(m) => format!("{m} @ {inbox}"),
        None => inbox.to_string(),
    }
}

/// The key parameter a card shows under its title: the condition's expression, the wait's
/// seconds, the requested behavior, … `None` for kinds without one.
pub fn key_parameter(kind: &NodeKind) -> Option<String> {
    let secs = |s: f64| format!("{} s", short_number(s));
    Some(match kind {
        NodeKind::Sequence { reactive } | NodeKind::Selector { reactive } => {
            if *reactive {
                "reactive".into()
            } else {
                return None;
            }
        }
        NodeKind::Parallel {
            success_threshold,
            failure_threshold,
        } => match (success_threshold, failure_threshold) {
            (None, None) => return None,
            (s, f) => format!(
                "succeed {} / fail {}",
                s.map_or("all".into(), |n| n.to_string()),
                f.map_or("1".into(), |n| n.to_string())
            ),
        },
        NodeKind::RandomSelector { weights } => {
            if weights.is_empty() {
                "equal weights".into()
            } else {
                let w: Vec<String> = weights.iter().map(|w| short_number(*w)).collect();
                w.join(" : ")
            }
        }
        NodeKind::Inverter | NodeKind::ForceSuccess | NodeKind::ForceFailure => return None,
        NodeKind::Repeat { times } => match times {
            Some(n) => format!("{n} times"),
            None => "forever".into(),
        },
        NodeKind::Retry { times } => format!("{times} attempts"),
        NodeKind::Cooldown { seconds } | NodeKind::Timeout { seconds } => secs(*seconds),
        NodeKind::Guard { condition } => condition.clone(),
        NodeKind::Condition { expr } => expr.clone(),
        NodeKind::InArea { area } => area.clone(),
        NodeKind::TimeWindow { from_hour, to_hour } => format!(
            "{} h – {} h",
            short_number(*from_hour),
            short_number(*to_hour)
        ),
        NodeKind::HasMessage { inbox, message } => opt_inbox(inbox, message),
        NodeKind::Chance { probability } => format!("p = {}", short_number(*probability)),
        NodeKind::MoveTo { target, .. } => match target {
            MoveTarget::Point(p) => format!("({}, {})", short_number(p.x), short_number(p.y)),
            MoveTarget::Object(id) => format!("object {id}"),
            MoveTarget::Area(id) => format!("area {id}"),
            MoveTarget::Npc(id) => format!("NPC {id}"),
            MoveTarget::Var(v) => format!("var {v}"),
        },
        NodeKind::Wait { seconds } => secs(*seconds),
        NodeKind::Set { var, value } => format!("{var} = {value}"),
        NodeKind::SendMessage { to, message, .. } => format!("{message} → {to}"),
        NodeKind::Receive { inbox, message, .. }
        | NodeKind::Peek { inbox, message, .. }
        | NodeKind::WaitMessage { inbox, message, .. } => opt_inbox(inbox, message),
        NodeKind::Animate { animation, seconds } => format!("{animation}, {}", secs(*seconds)),
        NodeKind::Say { text, .. } => format!("“{text}”"),
        NodeKind::Log { text } => text.clone(),
        NodeKind::Subtree { tree } => tree.clone(),
        NodeKind::Request {
            prefer, area_kind, ..
        } => {
            let names: Vec<&str> = prefer.iter().map(|p| p.template.as_str()).collect();
            match (names.is_empty(), area_kind) {
                (true, None) => "any behavior".into(),
                (true, Some(k)) => format!("any in {k}"),
                (false, None) => names.join(", "),
                (false, Some(k)) => format!("{} in {k}", names.join(", ")),
            }
        }
        NodeKind::GoToChild { kind, .. } => kind.clone(),
        NodeKind::EnableTemplate { template, enabled } => {
            format!("{} {template}", if *enabled { "enable" } else { "disable" })
        }
        NodeKind::MessageHolders {
            template, message, ..
        } => match template {
            Some(t) => format!("{message} → holders of {t}"),
            None => format!("{message} → all holders"),
        },
        NodeKind::CreateArea { prototype, seconds } => match seconds {
            Some(s) => format!("{prototype}, {}", secs(*s)),
            None => prototype.clone(),
        },
        NodeKind::RemoveArea => return None,
        NodeKind::Converse { cast, .. } => cast.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_runtime_node_kind_exactly_once() {
        let names: Vec<&str> = CATALOGUE.iter().map(|k| k.type_name).collect();
        assert_eq!(names, NodeKind::TYPE_NAMES);
    }

    #[test]
    fn every_default_kind_has_its_own_type_name() {
        for k in CATALOGUE {
            assert_eq!(k.default_kind().type_name(), k.type_name, "{}", k.label);
        }
    }

    #[test]
    fn the_palette_inserts_the_documents_defaults() {
        for k in CATALOGUE {
            assert_eq!(
                Some(k.default_kind()),
                ops::default_kind(k.type_name),
                "{}",
                k.label
            );
        }
    }

    #[test]
    fn every_group_has_a_kind() {
        for g in Group::ALL {
            assert!(CATALOGUE.iter().any(|k| k.group == g), "{}", g.label());
        }
    }

    #[test]
    fn search_puts_prefix_matches_first() {
        let hits = search("seq");
        assert_eq!(hits.first().map(|k| k.type_name), Some("sequence"));
        let hits = search("wait");
        assert_eq!(hits.first().map(|k| k.type_name), Some("wait"));
        assert!(hits.iter().any(|k| k.type_name == "wait_message"));
        assert!(search("zzz").is_empty());
        assert_eq!(search("").len(), CATALOGUE.len());
    }

    #[test]
    fn key_parameters_show_what_the_node_does() {
        assert_eq!(
            key_parameter(&NodeKind::Wait { seconds: 2.5 }).as_deref(),
            Some("2.5 s")
        );
        assert_eq!(
            key_parameter(&NodeKind::Condition {
                expr: "hunger > 0.5".into()
            })
            .as_deref(),
            Some("hunger > 0.5")
        );
        assert_eq!(key_parameter(&NodeKind::Inverter), None);
    }
}
