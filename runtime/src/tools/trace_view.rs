//! Reading a recorded trace (`townsfolk trace`): the JSON Lines that `townsfolk run --trace`
//! writes (one object per event with `tick` and `kind`, a final `end` line), filtered by
//! kind, NPC and tick range, and shown one readable line per event: tick, time of day, NPC,
//! what happened.

use serde_json::{Map, Value};

use crate::pack::Pack;

/// Every event kind a trace can hold (README: `run --trace`, smart areas, story events,
/// triggers, conversations), for checking `--kind` names. A test keeps it equal to the kinds
/// `trace.rs` writes (and `end`, the last line `townsfolk run` adds).
pub const KINDS: &[&str] = &[
    "status",
    "message",
    "received",
    "flag",
    "counter",
    "say",
    "animate",
    "log",
    "runaway",
    "enter",
    "exit",
    "show_text",
    "sound",
    "request",
    "adopt",
    "drop",
    "blocked",
    "handler",
    "area_created",
    "area_removed",
    "event_open",
    "event_launch",
    "event_end",
    "event_expired",
    "event_dead",
    "speak_start",
    "speak_end",
    "pre_trp",
    "trp",
    "feedback",
    "gaze",
    "gesture",
    "group_join",
    "group_leave",
    "group_split",
    "group_merge",
    "trigger",
    "trigger_loop",
    "door",
    "object_state",
    "spawn",
    "remove",
    "health",
    "died",
    "item",
    "level_complete",
    "end",
];

/// The fields of an event that name an NPC (the actor first).
const NPC_FIELDS: &[&str] = &["npc", "from", "to", "with", "addressee", "at", "by"];

/// A trace line that cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TraceLineError {
    #[error("not a JSON object: {0}")]
    NotJson(String),
    #[error("the event has no whole-number `tick`")]
    NoTick,
    #[error("the event has no `kind`")]
    NoKind,
}

/// One event of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub tick: u64,
    pub kind: String,
    pub fields: Map<String, Value>,
}

/// Reads one trace line; `None` for a blank line.
pub fn read_line(line: &str) -> Result<Option<Event>, TraceLineError> {
    let t = line.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let fields = match serde_json::from_str::<Value>(t) {
        Ok(Value::Object(o)) => o,
        Ok(_) => {
            return Err(TraceLineError::NotJson(
                "a JSON value that is not an object".into(),
            ));
        }
        Err(e) => return Err(TraceLineError::NotJson(e.to_string())),
    };
    let tick = fields
        .get("tick")
        .and_then(Value::as_u64)
        .ok_or(TraceLineError::NoTick)?;
    let kind = fields
        .get("kind")
        .and_then(Value::as_str)
        .ok_or(TraceLineError::NoKind)?
        .to_string();
    Ok(Some(Event { tick, kind, fields }))
}

/// The world clock of a pack, to show ticks as the time of day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Seconds per tick (`world.dt`, or `run --dt`).
    pub dt: f64,
    pub start_day: i64,
    pub start_hour: f64,
    pub time_scale: f64,
}

impl Clock {
    pub fn of(pack: &Pack) -> Clock {
        Clock {
            dt: pack.world.dt,
            start_day: pack.world.clock.start_day,
            start_hour: pack.world.clock.start_hour,
            time_scale: pack.world.clock.time_scale,
        }
    }

    /// Game seconds since the start day's midnight at a tick (the runtime's clock formula).
    fn seconds(&self, tick: u64) -> f64 {
        self.start_hour * 3600.0 + tick as f64 * self.dt * self.time_scale
    }

    /// The day and the whole seconds into it at a tick.
    pub fn at(&self, tick: u64) -> (i64, u32) {
        let secs = self.seconds(tick);
        let days = (secs / 86_400.0).floor();
        let into = (secs - days * 86_400.0).floor().clamp(0.0, 86_399.0) as u32;
        (self.start_day.saturating_add(days as i64), into)
    }

    /// `day 3 07:05:09`.
    pub fn show(&self, tick: u64) -> String {
        let (day, s) = self.at(tick);
        format!(
            "day {day} {:02}:{:02}:{:02}",
            s / 3600,
            (s / 60) % 60,
            s % 60
        )
    }

    /// The first tick at or after a time of day (`ceil`) or the last at or before it.
    fn tick_of(&self, day: i64, secs_of_day: f64, first_after: bool) -> Result<u64, String> {
        let per_tick = self.dt * self.time_scale;
        if !(per_tick.is_finite() && per_tick > 0.0) {
            return Err("the pack's clock does not advance (dt × time_scale is not > 0)".into());
        }
        let since =
            (day - self.start_day) as f64 * 86_400.0 + secs_of_day - self.start_hour * 3600.0;
        let t = since / per_tick;
        let t = if first_after { t.ceil() } else { t.floor() };
        Ok(t.max(0.0) as u64)
    }
}

/// Reads a `--from`/`--to` time: a tick (`630`), or with a clock a time of day
/// (`07:30`, `07:30:15`) on the clock's start day or on a given day (`2/07:30`).
/// `first_after`: round up to the first tick at or after it (`--from`), else down.
pub fn parse_time(s: &str, clock: Option<&Clock>, first_after: bool) -> Result<u64, String> {
    let s = s.trim();
    if let Ok(t) = s.parse::<u64>() {
        return Ok(t);
    }
    let bad =
        || format!("`{s}` is not a tick (`630`) or a time of day (`07:30`, `07:30:15`, `2/07:30`)");
    if !s.contains(':') {
        return Err(bad());
    }
    let Some(clock) = clock else {
        return Err(format!(
            "`{s}` is a time of day: give the pack with --pack PACK to turn it into ticks"
        ));
    };
    let (day, hms) = match s.split_once('/') {
        Some((d, rest)) => (d.trim().parse::<i64>().map_err(|_| bad())?, rest),
        None => (clock.start_day, s),
    };
    let parts: Vec<&str> = hms.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(bad());
    }
    let mut nums = Vec::new();
    for p in &parts {
        nums.push(p.trim().parse::<u32>().map_err(|_| bad())?);
    }
    let (h, m, sec) = (nums[0], nums[1], nums.get(2).copied().unwrap_or(0));
    if h > 23 || m > 59 || sec > 59 {
        return Err(format!("`{s}`: hours go to 23, minutes and seconds to 59"));
    }
    clock.tick_of(day, f64::from(h * 3600 + m * 60 + sec), first_after)
}

/// Which events to keep. Empty lists keep everything.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    pub kinds: Vec<String>,
    /// NPC ids: an event is kept when any of its NPC fields names one of them (a spawned
    /// copy `rat#3` counts as `rat`).
    pub npcs: Vec<String>,
    pub from: Option<u64>,
    pub to: Option<u64>,
}

impl Filter {
    pub fn keeps(&self, ev: &Event) -> bool {
        if self.from.is_some_and(|f| ev.tick < f) || self.to.is_some_and(|t| ev.tick > t) {
            return false;
        }
        if !self.kinds.is_empty() && !self.kinds.contains(&ev.kind) {
            return false;
        }
        self.npcs.is_empty()
            || npcs(ev)
                .iter()
                .any(|n| self.npcs.iter().any(|w| names(w, n)))
    }
}

/// Whether the NPC id `wanted` names `name` (itself, or a spawned copy `wanted#k`).
fn names(wanted: &str, name: &str) -> bool {
    name == wanted
        || name
            .strip_prefix(wanted)
            .is_some_and(|rest| rest.starts_with('#'))
}

/// The NPC names an event mentions, the actor first.
pub fn npcs(ev: &Event) -> Vec<&str> {
    NPC_FIELDS
        .iter()
        .filter_map(|k| ev.fields.get(*k).and_then(Value::as_str))
        .filter(|n| !n.is_empty())
        .collect()
}

fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "-".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// What happened, as a short sentence (the NPC of the event is in its own column).
pub fn describe(ev: &Event) -> String {
    let f = |k: &str| text(ev.fields.get(k));
    let has = |k: &str| ev.fields.get(k).is_some_and(|v| !v.is_null());
    match ev.kind.as_str() {
        "status" => format!("{}/{}: {} -> {}", f("tree"), f("node"), f("from"), f("to")),
        "message" => format!(
            "sends `{}` to {} (inbox {})",
            f("message"),
            f("to"),
            f("inbox")
        ),
        "flag" => format!("flag {} = {}", f("name"), f("value")),
        "counter" => format!("counter {} = {}", f("name"), f("value")),
        "say" => format!("says \"{}\"", f("text")),
        "animate" => format!("plays animation {}", f("animation")),
        "log" => format!("log: {}", f("text")),
        "runaway" => format!(
            "runaway tree cut off: {}/{} (visit budget spent)",
            f("tree"),
            f("node")
        ),
        "enter" => format!("enters {}", f("area")),
        "exit" => format!("leaves {}", f("area")),
        "show_text" => format!("shows \"{}\"", f("text")),
        "sound" => format!("plays sound {}", f("cue")),
        "request" => {
            let mut s = format!("asks {} for a behavior: {}", f("asked"), f("result"));
            if let Some(c) = ev.fields.get("chosen").filter(|c| !c.is_null()) {
                s.push_str(&format!(
                    ", {} from {}",
                    text(c.get("template")),
                    text(c.get("area"))
                ));
            }
            let refused: Vec<String> = ev
                .fields
                .get("refused")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .map(|r| {
                            format!(
                                "{} in {} ({})",
                                text(r.get("template")),
                                text(r.get("area")),
                                text(r.get("reason"))
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            if !refused.is_empty() {
                s.push_str(&format!("; refused: {}", refused.join(", ")));
            }
            s
        }
        "adopt" => format!("adopts {} from {}", f("template"), f("area")),
        "drop" => format!("drops {} of {} ({})", f("template"), f("area"), f("reason")),
        "blocked" => format!("cannot walk on ({})", f("reason")),
        "handler" => format!("{} handler of {} {}s", f("handler"), f("area"), f("phase")),
        "area_created" => format!("area {} created", f("area")),
        "area_removed" => format!("area {} removed", f("area")),
        "event_open" => format!("story event {} opens (story day {})", f("event"), f("day")),
        "event_launch" => format!(
            "story event {} launched (story day {})",
            f("event"),
            f("day")
        ),
        "event_end" => format!(
            "story event {} ends: {} (story day {})",
            f("event"),
            f("outcome"),
            f("day")
        ),
        "event_expired" => format!("story event {} expired unlaunched", f("event")),
        "event_dead" => format!("story event {} can never open now", f("event")),
        "speak_start" => {
            let mut s = if has("addressee") {
                format!("starts speaking to {}", f("addressee"))
            } else {
                "starts speaking".to_string()
            };
            if ev.fields.get("interrupt") == Some(&Value::Bool(true)) {
                s.push_str(" (interrupting)");
            }
            if ev.fields.get("continued") == Some(&Value::Bool(true)) {
                s.push_str(" (continuing)");
            }
            s
        }
        "speak_end" => "stops speaking".to_string(),
        "feedback" => format!(
            "gives {} feedback to {}",
            if ev.fields.get("positive") == Some(&Value::Bool(false)) {
                "negative"
            } else {
                "positive"
            },
            f("to")
        ),
        "group_join" => format!("joins the group of {}", f("with")),
        "group_leave" => "leaves its group".to_string(),
        "trigger" => {
            let responses: Vec<String> = ev
                .fields
                .get("responses")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|r| text(Some(r))).collect())
                .unwrap_or_default();
            format!(
                "trigger {} fires: {}",
                f("trigger"),
                if responses.is_empty() {
                    "no responses".to_string()
                } else {
                    responses.join(", ")
                }
            )
        }
        "door" => format!("door {}: {}", f("object"), f("action")),
        "object_state" => format!("object {} is now {}", f("object"), f("state")),
        "spawn" => "is spawned".to_string(),
        "remove" => "is removed".to_string(),
        "health" => format!("health {}", f("health")),
        "died" if has("by") => format!("dies, killed by {}", f("by")),
        "died" => "dies".to_string(),
        "item" => format!("item {}", f("item")),
        "level_complete" => "level complete".to_string(),
        "end" => format!("end of the trace, world hash {}", f("hash")),
        // Anything else: the kind and its fields as `key=value`.
        _ => {
            let mut s = ev.kind.clone();
            for (k, v) in &ev.fields {
                if !matches!(k.as_str(), "tick" | "kind" | "npc") {
                    s.push_str(&format!(" {k}={}", text(Some(v))));
                }
            }
            s
        }
    }
}

/// One readable line: tick, time of day (with a clock), the acting NPC (`-`: none), what
/// happened.
pub fn text_line(ev: &Event, clock: Option<&Clock>) -> String {
    let who = match ev.kind.as_str() {
        "message" => ev.fields.get("from").and_then(Value::as_str),
        _ => ev.fields.get("npc").and_then(Value::as_str),
    }
    .filter(|n| !n.is_empty())
    .unwrap_or("-");
    let what = describe(ev);
    match clock {
        Some(c) => format!("{:>8}  {}  {who:<14} {what}", ev.tick, c.show(ev.tick)),
        None => format!("{:>8}  {who:<14} {what}", ev.tick),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_the_ones_the_trace_writes() {
        // Every `"kind": "…"` literal of the trace writer, and `run`'s closing `end` line.
        let mut written: Vec<&str> = include_str!("../trace.rs")
            .split("\"kind\": \"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .chain(["end"])
            .collect();
        written.sort_unstable();
        written.dedup();
        let mut kinds = KINDS.to_vec();
        kinds.sort_unstable();
        assert_eq!(kinds, written);
    }

    fn ev(line: &str) -> Event {
        read_line(line).unwrap().unwrap()
    }

    #[test]
    fn the_clock_follows_the_runtime_formula() {
        let c = Clock {
            dt: 0.1,
            start_day: 1,
            start_hour: 23.5,
            time_scale: 60.0,
        };
        // 6 game seconds per tick: 300 ticks = 30 minutes, past midnight.
        assert_eq!(c.show(0), "day 1 23:30:00");
        assert_eq!(c.show(300), "day 2 00:00:00");
        assert_eq!(c.show(301), "day 2 00:00:06");
        assert_eq!(parse_time("2/00:00:06", Some(&c), true), Ok(301));
        assert_eq!(parse_time("23:45", Some(&c), true), Ok(150));
        assert_eq!(parse_time("2/00:00:07", Some(&c), true), Ok(302));
        assert_eq!(parse_time("2/00:00:07", Some(&c), false), Ok(301));
        assert_eq!(parse_time("42", None, true), Ok(42));
        assert!(
            parse_time("07:30", None, true)
                .unwrap_err()
                .contains("--pack")
        );
        assert!(parse_time("25:00", Some(&c), true).is_err());
        assert!(parse_time("soon", Some(&c), true).is_err());
    }

    #[test]
    fn filters_by_kind_npc_and_ticks() {
        let a = ev(r#"{"tick":5,"kind":"say","npc":"ada","text":"hi"}"#);
        let m =
            ev(r#"{"tick":9,"kind":"message","from":"bo","to":"ada","inbox":"i","message":"m"}"#);
        let r = ev(r#"{"tick":9,"kind":"enter","npc":"rat#2","area":"A"}"#);
        let only = |f: Filter| -> Vec<u64> {
            [&a, &m, &r]
                .iter()
                .filter(|e| f.keeps(e))
                .map(|e| e.tick * 10 + e.kind.len() as u64)
                .collect()
        };
        let npc = |n: &str| Filter {
            npcs: vec![n.into()],
            ..Filter::default()
        };
        assert_eq!(only(npc("ada")).len(), 2); // her say, and the message to her
        assert_eq!(only(npc("bo")).len(), 1);
        assert_eq!(only(npc("rat")).len(), 1); // a spawned copy
        assert_eq!(only(npc("ra")).len(), 0);
        let kinds = Filter {
            kinds: vec!["say".into(), "enter".into()],
            ..Filter::default()
        };
        assert_eq!(only(kinds).len(), 2);
        let range = Filter {
            from: Some(6),
            to: Some(9),
            ..Filter::default()
        };
        assert_eq!(only(range).len(), 2);
    }

    #[test]
    fn lines_read_and_show_readably() {
        assert_eq!(read_line("  "), Ok(None));
        assert!(matches!(read_line("{"), Err(TraceLineError::NotJson(_))));
        assert_eq!(read_line(r#"{"kind":"x"}"#), Err(TraceLineError::NoTick));
        assert_eq!(read_line(r#"{"tick":1}"#), Err(TraceLineError::NoKind));
        let s = ev(
            r#"{"tick":12,"kind":"status","npc":"ada","tree":"t","node":"walk","from":"idle","to":"running"}"#,
        );
        assert_eq!(
            text_line(&s, None),
            "      12  ada            t/walk: idle -> running"
        );
        let m = ev(
            r#"{"tick":3,"kind":"message","from":"bo","to":"ada","inbox":"orders","message":"go"}"#,
        );
        assert!(text_line(&m, None).contains("bo             sends `go` to ada (inbox orders)"));
        let odd = ev(r#"{"tick":3,"kind":"brand_new","npc":"x","level":2}"#);
        assert_eq!(describe(&odd), "brand_new level=2");
    }
}
