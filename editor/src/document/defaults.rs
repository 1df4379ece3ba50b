//! Node defaults: every behavior-tree node kind with its default parameters. The one table
//! the palette, type-to-insert and "Change type" read (no egui here).

use townsfolk_runtime::pack::{ChildChoice, MoveTarget, NodeKind, Point};

/// A node kind with its default parameters, by its JSON type name (`None` for a name the
/// runtime does not know). Parameters that name something (an area, a tree, an expression)
/// start empty, so the node shows them as unfilled until they are set; numbers start at a
/// neutral value inside their range.
pub fn default_kind(type_name: &str) -> Option<NodeKind> {
    let s = String::new;
    let inbox = || "default".to_string();
    let kind = match type_name {
        "sequence" => NodeKind::Sequence { reactive: false },
        "selector" => NodeKind::Selector { reactive: false },
        "parallel" => NodeKind::Parallel {
            success_threshold: None,
            failure_threshold: None,
        },
        "random_selector" => NodeKind::RandomSelector {
            weights: Vec::new(),
        },
        "inverter" => NodeKind::Inverter,
        "force_success" => NodeKind::ForceSuccess,
        "force_failure" => NodeKind::ForceFailure,
        "repeat" => NodeKind::Repeat { times: None },
        "retry" => NodeKind::Retry { times: 3 },
        "cooldown" => NodeKind::Cooldown { seconds: 1.0 },
        "timeout" => NodeKind::Timeout { seconds: 5.0 },
        "guard" => NodeKind::Guard { condition: s() },
        "condition" => NodeKind::Condition { expr: s() },
        "in_area" => NodeKind::InArea { area: s() },
        "time_window" => NodeKind::TimeWindow {
            from_hour: 8.0,
            to_hour: 18.0,
        },
        "has_message" => NodeKind::HasMessage {
            inbox: inbox(),
            message: None,
        },
        "chance" => NodeKind::Chance { probability: 0.5 },
        "move_to" => NodeKind::MoveTo {
            target: MoveTarget::Point(Point { x: 0.0, y: 0.0 }),
            tolerance: None,
        },
        "wait" => NodeKind::Wait { seconds: 1.0 },
        "set" => NodeKind::Set {
            var: s(),
            value: s(),
        },
        "send_message" => NodeKind::SendMessage {
            to: s(),
            inbox: inbox(),
            message: s(),
        },
        "receive" => NodeKind::Receive {
            inbox: inbox(),
            message: None,
            sender_var: None,
        },
        "animate" => NodeKind::Animate {
            animation: s(),
            seconds: 1.0,
        },
        "say" => NodeKind::Say {
            text: s(),
            seconds: 2.0,
        },
        "log" => NodeKind::Log { text: s() },
        "subtree" => NodeKind::Subtree { tree: s() },
        "request" => NodeKind::Request {
            prefer: Vec::new(),
            forbid: Vec::new(),
            area_kind: None,
        },
        "go_to_child" => NodeKind::GoToChild {
            kind: s(),
            choose: ChildChoice::Weight,
        },
        "peek" => NodeKind::Peek {
            inbox: inbox(),
            message: None,
            sender_var: None,
        },
        "wait_message" => NodeKind::WaitMessage {
            inbox: inbox(),
            message: None,
            sender_var: None,
        },
        "enable_template" => NodeKind::EnableTemplate {
            template: s(),
            enabled: true,
        },
        "message_holders" => NodeKind::MessageHolders {
            template: None,
            inbox: inbox(),
            message: s(),
        },
        "create_area" => NodeKind::CreateArea {
            prototype: s(),
            seconds: None,
        },
        "remove_area" => NodeKind::RemoveArea,
        "converse" => NodeKind::Converse {
            cast: s(),
            until: None,
            seconds: None,
        },
        _ => return None,
    };
    Some(kind)
}
