//! Scripted world changes, one JSON object per line (the `townsfolk triggers` command and
//! tests). After each line the triggers react (a trigger pass, or the ticks of an
//! `advance`), and [`step_line`] returns `{"time", "fired", "flags", "counters"}`.
//!
//! Lines:
//! - `{"advance": SECONDS}`: run the world that long (whole ticks, rounded up).
//! - `{"event": "enter" | "exit", "npc": ID, "area": ID}`: the NPC enters/leaves an area.
//! - `{"event": "message", "to": ID, "message": M, "inbox"?: I, "from"?: ID}`.
//! - `{"event": "died", "npc": ID, "by"?: ID}`.
//! - `{"move": ID, "to": [x, y]}`: teleports an NPC (areas and radii follow).
//! - `{"set_flag": NAME, "value": BOOL}`, `{"set_counter": NAME, "value": INT}`.
//! - `{"give" | "take" | "equip" | "unequip": ID, "item": ITEM}`.
//! - `{"health": ID, "value": H}`, `{"damage": ID, "amount": A}`.
//! - `{"door": ID, "action": "open" | "close" | "lock" | "unlock"}`.
//! - `{"reset": TRIGGER_ID}`.
//!
//! NPC ids may name spawned copies (`rat#3`).

use std::collections::BTreeMap;

use serde_json::{Map, Value as J, json};

use crate::pack::DoorAction;
use crate::program::Program;
use crate::session::Session;
use crate::systems::effects::npcs::{door, reset};
use crate::systems::effects::{self, lifecycle, lifecycle::set_health};
use crate::tools::{LineError, LineTool};
use crate::trace::{Out, TraceEvent};
use crate::value::{EntityId, Sym, Vec2};
use crate::world::{Message, World};

/// Longest `advance` accepted, in seconds.
pub const MAX_ADVANCE: f64 = 1.0e6;

/// Applies one line and returns the state line. Errors name the problem (the caller adds
/// the line number).
pub fn step_line(s: &mut Session, line: &str) -> Result<J, LineError> {
    let obj = &crate::tools::parse_object(line, Script::NOT_JSON, Script::EXPECTED)?;
    step_obj(s, obj)
}

fn step_obj(s: &mut Session, obj: &Map<String, J>) -> Result<J, LineError> {
    s.set_tracing(true);
    s.clear_trace();
    apply_obj(s, obj)?;
    let out = state_line(s);
    s.clear_trace();
    Ok(out)
}

/// The `townsfolk triggers` line tool: a session whose triggers have seen the world as it
/// begins, and the triggers to explain after the last line.
pub struct Script {
    pub session: Session,
    pub explain: Vec<u32>,
}

impl Script {
    /// A script over `session`; its triggers see the world as it begins (a trigger pass).
    pub fn new(mut session: Session, explain: Vec<u32>) -> Script {
        session.run_triggers();
        Script { session, explain }
    }
}

impl LineTool for Script {
    const NOT_JSON: &'static str = "invalid JSON";
    const EXPECTED: &'static str = "each line is a JSON object such as {\"advance\": 1.5} or {\"event\": \"enter\", \"npc\": ID, \"area\": ID}";
    fn reply(&mut self, obj: &Map<String, J>) -> Result<J, LineError> {
        step_obj(&mut self.session, obj)
    }
    /// `{"explain": …}` for each trigger asked for.
    fn end(&mut self) -> Vec<J> {
        let (p, w) = (self.session.program(), self.session.world());
        self.explain
            .iter()
            .filter_map(|&t| crate::debug::explain::explain(p, w, t))
            .map(|x| json!({ "explain": x }))
            .collect()
    }
}

/// Applies one line: an `advance` runs its ticks; any other change is made and followed by a
/// trigger pass. What happens goes to the session's trace when it is tracing.
pub fn apply_line(s: &mut Session, line: &str) -> Result<(), LineError> {
    let obj = &crate::tools::parse_object(line, Script::NOT_JSON, Script::EXPECTED)?;
    apply_obj(s, obj)
}

/// The verbs of a line, in the order they are looked for.
const VERBS: &[&str] = &[
    "advance",
    "event",
    "move",
    "set_flag",
    "set_counter",
    "give",
    "take",
    "equip",
    "unequip",
    "health",
    "damage",
    "door",
    "reset",
];

/// Refuses fields the line's verb does not take, naming them.
fn check_fields(obj: &Map<String, J>) -> Result<(), LineError> {
    let Some(verb) = VERBS.iter().find(|v| obj.contains_key(**v)) else {
        return Ok(());
    };
    let fields: &[&str] = match *verb {
        "advance" => &["advance"],
        "event" => match obj.get("event").and_then(J::as_str) {
            Some("enter" | "exit") => &["event", "npc", "area"],
            Some("message") => &["event", "to", "message", "inbox", "from"],
            Some("died") => &["event", "npc", "by"],
            _ => return Ok(()),
        },
        "move" => &["move", "to"],
        "set_flag" => &["set_flag", "value"],
        "set_counter" => &["set_counter", "value"],
        "give" => &["give", "item"],
        "take" => &["take", "item"],
        "equip" => &["equip", "item"],
        "unequip" => &["unequip", "item"],
        "health" => &["health", "value"],
        "damage" => &["damage", "amount"],
        "door" => &["door", "action"],
        _ => &["reset"],
    };
    crate::tools::only_fields(obj, fields)
}

fn apply_obj(s: &mut Session, obj: &Map<String, J>) -> Result<(), LineError> {
    check_fields(obj)?;
    if let Some(a) = obj.get("advance") {
        let secs = a
            .as_f64()
            .filter(|x| x.is_finite() && (0.0..=MAX_ADVANCE).contains(x))
            .ok_or_else(|| {
                LineError::field(
                    "advance",
                    format!("a number of seconds in [0, {MAX_ADVANCE}]"),
                )
            })?;
        let ticks = s.program().ticks(secs);
        for _ in 0..ticks {
            s.step();
        }
    } else {
        s.change(|p, w, out| apply(p, w, obj, out))?;
        s.run_triggers();
    }
    Ok(())
}

/// `{"time", "fired", "flags", "counters"}` for the session now, with the triggers fired
/// since its trace was last cleared.
pub fn state_line(s: &Session) -> J {
    let p = s.program();
    let w = s.world();
    let fired: Vec<&str> = s
        .trace()
        .iter()
        .filter_map(|e| match *e {
            TraceEvent::Trigger { trigger, .. } => Some(p.triggers.trigger_id(trigger)),
            _ => None,
        })
        .collect();
    let flags: BTreeMap<&str, bool> = p
        .flags
        .names
        .iter()
        .zip(&w.flags)
        .map(|(n, &v)| (n.as_str(), v))
        .collect();
    let counters: BTreeMap<&str, i64> = p
        .counters
        .names
        .iter()
        .zip(&w.counters)
        .map(|(n, &v)| (n.as_str(), v))
        .collect();
    json!({"time": w.tick as f64 * p.dt, "fired": fired, "flags": flags, "counters": counters})
}

/// Finds an NPC by id, or a spawned copy by `id#k`.
pub fn find_npc(p: &Program, w: &World, name: &str) -> Option<u32> {
    if let Some(i) = p.npc_index(name) {
        return Some(i);
    }
    let (base, k) = name.rsplit_once('#')?;
    let k: usize = k.parse().ok()?;
    let proto = p.npc_index(base)?;
    w.triggers
        .copies
        .get(proto as usize)?
        .get(k.checked_sub(1)?)
        .copied()
}

fn text<'a>(obj: &'a Map<String, J>, k: &'static str) -> Result<&'a str, LineError> {
    match obj.get(k) {
        None => Err(LineError::missing(k, "a string")),
        Some(v) => v.as_str().ok_or_else(|| LineError::field(k, "a string")),
    }
}

fn npc(p: &Program, w: &World, obj: &Map<String, J>, k: &'static str) -> Result<u32, LineError> {
    let id = text(obj, k)?;
    find_npc(p, w, id).ok_or_else(|| LineError::unknown("NPC", id))
}

fn sym(p: &Program, s: &str, what: &str) -> Result<Sym, LineError> {
    p.find_sym(s)
        .ok_or_else(|| format!("{what} `{s}` is not mentioned anywhere in the pack").into())
}

/// Applies one scripted change. Everything it reports goes through the world's one event
/// stream (`effects::lifecycle::happened`): the trace, the debugger and the trigger index
/// hear scripted areas entered and left, messages and deaths as they hear real ones.
fn apply(p: &Program, w: &mut World, obj: &Map<String, J>, out: &mut Out) -> Result<(), LineError> {
    if let Some(ev) = obj.get("event") {
        let ev = ev
            .as_str()
            .ok_or_else(|| LineError::field("event", "a string: enter, exit, message or died"))?;
        match ev {
            "enter" | "exit" => {
                let i = npc(p, w, obj, "npc")?;
                let id = text(obj, "area")?;
                let Some(EntityId::Area(area)) = p.entity(id) else {
                    return Err(LineError::unknown("area", id));
                };
                let tick = w.tick;
                let n = &mut w.npcs[i as usize];
                let at = n.areas.binary_search(&area);
                let ev = match (ev, at) {
                    ("enter", Err(k)) => {
                        n.areas.insert(k, area);
                        TraceEvent::Enter { tick, npc: i, area }
                    }
                    ("exit", Ok(k)) => {
                        n.areas.remove(k);
                        TraceEvent::Exit { tick, npc: i, area }
                    }
                    _ => return Ok(()),
                };
                w.sync_in_areas(i);
                lifecycle::happened(p, w, Some(i), ev, out);
            }
            "message" => {
                let to = npc(p, w, obj, "to")?;
                let message = sym(p, text(obj, "message")?, "message")?;
                let inbox = match obj.get("inbox") {
                    Some(_) => sym(p, text(obj, "inbox")?, "inbox")?,
                    None => p.find_sym("default").unwrap_or_default(),
                };
                let from = match obj.get("from") {
                    Some(_) => EntityId::Npc(npc(p, w, obj, "from")?),
                    None => EntityId::None,
                };
                let m = Message {
                    from,
                    message,
                    sent: w.tick,
                };
                effects::deliver(p, w, EntityId::Npc(to), inbox, m, out);
            }
            "died" => {
                let i = npc(p, w, obj, "npc")?;
                let by = match obj.get("by") {
                    Some(_) => EntityId::Npc(npc(p, w, obj, "by")?),
                    None => EntityId::None,
                };
                set_health(p, w, i, 0.0, by, out);
            }
            other => {
                return Err(LineError::from(format!(
                    "unknown event `{other}` (enter, exit, message, died)"
                )));
            }
        }
        return Ok(());
    }
    if let Some(id) = obj.get("move") {
        let id = id
            .as_str()
            .ok_or_else(|| LineError::field("move", "the id of an NPC"))?;
        let i = find_npc(p, w, id).ok_or_else(|| LineError::unknown("NPC", id))?;
        let to = obj
            .get("to")
            .and_then(J::as_array)
            .filter(|a| a.len() == 2)
            .and_then(|a| Some(Vec2::new(a[0].as_f64()?, a[1].as_f64()?)))
            .ok_or_else(|| LineError::field("to", "[x, y]"))?;
        lifecycle::teleport(p, w, i, to, out);
        return Ok(());
    }
    if let Some(name) = obj.get("set_flag") {
        let name = name
            .as_str()
            .ok_or_else(|| LineError::field("set_flag", "a flag name"))?;
        let slot = p
            .flags
            .get(name)
            .ok_or_else(|| format!("unknown flag `{name}` (nothing in the pack uses it)"))?;
        let v = obj
            .get("value")
            .map_or(Some(true), J::as_bool)
            .ok_or_else(|| LineError::field("value", "true or false"))?;
        w.flags[slot as usize] = v;
        return Ok(());
    }
    if let Some(name) = obj.get("set_counter") {
        let name = name
            .as_str()
            .ok_or_else(|| LineError::field("set_counter", "a counter name"))?;
        let slot = p
            .counters
            .get(name)
            .ok_or_else(|| format!("unknown counter `{name}` (nothing in the pack uses it)"))?;
        let v = obj
            .get("value")
            .and_then(J::as_i64)
            .ok_or_else(|| LineError::field("value", "an integer"))?;
        w.counters[slot as usize] = v;
        return Ok(());
    }
    for verb in ["give", "take", "equip", "unequip"] {
        if obj.contains_key(verb) {
            let i = npc(p, w, obj, verb)?;
            let item = sym(p, text(obj, "item")?, "item")?;
            let n = &mut w.npcs[i as usize];
            let (list, add) = match verb {
                "give" => (&mut n.items, true),
                "take" => (&mut n.items, false),
                "equip" => (&mut n.equipped, true),
                _ => (&mut n.equipped, false),
            };
            match (list.binary_search(&item), add) {
                (Err(k), true) => list.insert(k, item),
                (Ok(k), false) => {
                    list.remove(k);
                }
                _ => {}
            }
            // Equipping puts the item in the inventory; taking it unequips it.
            if verb == "equip"
                && let Err(k) = n.items.binary_search(&item)
            {
                n.items.insert(k, item);
            }
            if verb == "take"
                && let Ok(k) = n.equipped.binary_search(&item)
            {
                n.equipped.remove(k);
            }
            return Ok(());
        }
    }
    if obj.contains_key("health") {
        let i = npc(p, w, obj, "health")?;
        let v = obj
            .get("value")
            .and_then(J::as_f64)
            .ok_or_else(|| LineError::field("value", "a number"))?;
        set_health(p, w, i, v, EntityId::None, out);
        return Ok(());
    }
    if obj.contains_key("damage") {
        let i = npc(p, w, obj, "damage")?;
        let a = obj
            .get("amount")
            .and_then(J::as_f64)
            .ok_or_else(|| LineError::field("amount", "a number"))?;
        let h = w.npcs[i as usize].health - a;
        set_health(p, w, i, h, EntityId::None, out);
        return Ok(());
    }
    if let Some(id) = obj.get("door") {
        let id = id
            .as_str()
            .ok_or_else(|| LineError::field("door", "the id of an object"))?;
        let Some(EntityId::Object(o)) = p.entity(id) else {
            return Err(LineError::unknown("object", id));
        };
        let action = match text(obj, "action")? {
            "open" => DoorAction::Open,
            "close" => DoorAction::Close,
            "lock" => DoorAction::Lock,
            "unlock" => DoorAction::Unlock,
            a => {
                return Err(LineError::from(format!(
                    "unknown door action `{a}` (open, close, lock, unlock)"
                )));
            }
        };
        door(p, w, o, action, out);
        return Ok(());
    }
    if let Some(id) = obj.get("reset") {
        let id = id
            .as_str()
            .ok_or_else(|| LineError::field("reset", "the id of a trigger"))?;
        let t = p
            .triggers
            .find(id)
            .ok_or_else(|| LineError::unknown("trigger", id))?;
        reset(p, w, t);
        return Ok(());
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    Err(format!(
        "nothing to do with {{{}}}: expected advance, event, move, set_flag, set_counter, give, take, equip, unequip, health, damage, door or reset",
        keys.join(", ")
    )
    .into())
}
