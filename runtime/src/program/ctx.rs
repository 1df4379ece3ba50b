//! The one compile context: the program being built, its diagnostics and the pack, with the
//! services every kind's compile file uses — interning, variable slots, numbers and points
//! checked against their ranges, seconds → ticks (one rounding rule, [`ticks_for`]),
//! diagnostics with JSON paths (built only when a diagnostic needs one, [`At`]) and where a
//! response is written ([`Here`]).

use std::collections::HashMap;

use super::{MAX_COORD, Program, areas, responses, short};
use crate::expr::{Expr, Resolver, Scope};
use crate::pack::diag::key;
use crate::pack::{Diagnostic, Pack, Point};
use crate::value::{EntityId, Sym, Type, Value, Vec2};

/// Longest duration accepted anywhere in a pack, in seconds.
pub const MAX_SECONDS: f64 = 1.0e7;

/// The one seconds → ticks rule of the runtime: the fewest whole ticks that last at least
/// `seconds` (a wait, a timeout, a reload never ends early), where a quotient within one part
/// in 10⁹ of a whole number counts as that number (so 1.1 s at dt 0.1 is 11 ticks, not the 12
/// that `ceil(1.1 / 0.1)` = `ceil(11.000000000000002)` gives). 0.5 s at dt 0.1 is 5 ticks;
/// 0.25 s is 3. Negative or non-finite input gives 0 (the compiler reports it first).
pub fn ticks_for(seconds: f64, dt: f64) -> u64 {
    let q = seconds / dt;
    if !(q.is_finite() && q > 0.0) {
        return 0;
    }
    let whole = q.round();
    if (q - whole).abs() <= 1e-9 * whole.max(1.0) {
        whole as u64
    } else {
        q.ceil() as u64
    }
}

/// Where a diagnostic points: a JSON path, written out only when a diagnostic is made.
#[derive(Clone, Debug)]
pub(crate) enum At<'a> {
    Path(&'a str),
    Owned(String),
    /// `base.key`
    Key(&'a str, &'a str),
}

impl At<'_> {
    pub(crate) fn path(self) -> String {
        match self {
            At::Path(p) => p.to_string(),
            At::Owned(p) => p,
            At::Key(p, k) => key(p, k),
        }
    }
}

impl<'a> From<&'a str> for At<'a> {
    fn from(p: &'a str) -> At<'a> {
        At::Path(p)
    }
}
impl<'a> From<&'a String> for At<'a> {
    fn from(p: &'a String) -> At<'a> {
        At::Path(p)
    }
}
impl From<String> for At<'_> {
    fn from(p: String) -> Self {
        At::Owned(p)
    }
}

/// Where a response is written: what `self` means there (a trigger's owner) and which
/// trigger system ids are looked up in first. Story events' responses have the default.
#[derive(Clone, Debug)]
pub(crate) struct Here {
    pub(crate) owner: EntityId,
    /// The trigger system's id and the instance suffix of its ids (`sys/id{suffix}`); empty
    /// outside trigger systems.
    pub(crate) system: Option<(String, String)>,
}

impl Default for Here {
    fn default() -> Here {
        Here {
            owner: EntityId::None,
            system: None,
        }
    }
}

/// The compile context (see the module documentation).
pub(crate) struct Ctx<'a> {
    pub(crate) p: Program,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) pack: &'a Pack,
    /// Where the responses being compiled are written.
    pub(crate) here: Here,
    /// Every trigger's full id → index, while trigger systems compile.
    pub(crate) trigger_ids: HashMap<String, u32>,
}

impl Resolver for Ctx<'_> {
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let slots = match scope {
            Scope::Blackboard => &mut self.p.blackboard,
            Scope::Area => &mut self.p.area_vars,
            Scope::Flag => {
                let i = self.p.flags.add(name, Type::Bool, Value::Bool(false));
                return Some((i, Type::Bool));
            }
            Scope::Counter => {
                let i = self.p.counters.add(name, Type::Int, Value::Int(0));
                return Some((i, Type::Int));
            }
        };
        let i = slots.get(name)?;
        Some((i, slots.types[i as usize]))
    }
    fn intern(&mut self, s: &str) -> Sym {
        Ctx::intern(self, s)
    }
    fn entity(&mut self, id: &str) -> Option<EntityId> {
        self.p.entity(id)
    }
}

fn finite_in(x: f64, lo: f64, hi: f64) -> bool {
    x.is_finite() && x >= lo && x <= hi
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(pack: &'a Pack, p: Program) -> Ctx<'a> {
        Ctx {
            p,
            diags: Vec::new(),
            pack,
            here: Here::default(),
            trigger_ids: HashMap::new(),
        }
    }

    // ---- diagnostics ----

    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
    pub(crate) fn err(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(path, msg));
    }
    pub(crate) fn warn(&mut self, path: impl Into<String>, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(path, msg));
    }
    pub(crate) fn error(&mut self, path: String, msg: String) {
        self.err(path, msg);
    }
    pub(crate) fn warning(&mut self, path: String, msg: String) {
        self.warn(path, msg);
    }
    /// An error inside a string value, `chars` characters after its opening quote.
    pub(crate) fn error_in_string(&mut self, path: String, chars: usize, msg: String) {
        self.diags.push(Diagnostic::error(path, msg).inside(chars));
    }
    pub(crate) fn diag_count(&self) -> usize {
        self.diags.len()
    }
    pub(crate) fn truncate_diags(&mut self, n: usize) {
        self.diags.truncate(n);
    }

    // ---- numbers, points, durations ----

    /// `x` if it is finite and in `[lo, hi]`; otherwise an error at `at` and the nearest
    /// value in range (`lo` for a non-finite one).
    pub(crate) fn number<'p>(
        &mut self,
        at: impl Into<At<'p>>,
        x: f64,
        lo: f64,
        hi: f64,
        what: &str,
    ) -> f64 {
        if finite_in(x, lo, hi) {
            x
        } else {
            self.err(
                at.into().path(),
                format!(
                    "{what} must be between {} and {}, found {}",
                    short(lo),
                    short(hi),
                    short(x)
                ),
            );
            if x.is_finite() { x.clamp(lo, hi) } else { lo }
        }
    }
    /// A point with both coordinates within ±[`MAX_COORD`].
    pub(crate) fn point<'p>(&mut self, at: impl Into<At<'p>>, p: Point) -> Vec2 {
        let at = at.into();
        let x = self.number(at.clone(), p.x, -MAX_COORD, MAX_COORD, "a coordinate");
        let y = self.number(at, p.y, -MAX_COORD, MAX_COORD, "a coordinate");
        Vec2::new(x, y)
    }
    /// A duration in seconds (0 to [`MAX_SECONDS`]) as ticks, by [`ticks_for`].
    pub(crate) fn ticks<'p>(&mut self, at: impl Into<At<'p>>, seconds: f64) -> u64 {
        let s = self.number(at, seconds, 0.0, MAX_SECONDS, "a duration in seconds");
        ticks_for(s, self.p.dt)
    }

    // ---- the program's tables ----

    /// The string's symbol, interned on first use.
    pub(crate) fn intern(&mut self, s: &str) -> Sym {
        if let Some(&i) = self.p.string_index.get(s) {
            return i;
        }
        let i = Sym(self.p.strings.len() as u32);
        self.p.strings.push(s.to_string());
        self.p.string_index.insert(s.to_string(), i);
        i
    }
    /// An entity (NPC, object, area) by id.
    pub(crate) fn entity(&self, id: &str) -> Option<EntityId> {
        self.p.entity(id)
    }
    pub(crate) fn flag_slot(&mut self, name: &str) -> u32 {
        self.p.flags.add(name, Type::Bool, Value::Bool(false))
    }
    pub(crate) fn counter_slot(&mut self, name: &str) -> u32 {
        self.p.counters.add(name, Type::Int, Value::Int(0))
    }
    /// A declared variable's slot and type (flags and counters are not created here).
    pub(crate) fn slot(&self, scope: Scope, name: &str) -> Option<(u32, Type)> {
        let s = match scope {
            Scope::Blackboard => &self.p.blackboard,
            Scope::Area => &self.p.area_vars,
            Scope::Flag => &self.p.flags,
            Scope::Counter => &self.p.counters,
        };
        s.get(name).map(|i| (i, s.types[i as usize]))
    }
    pub(crate) fn add_expr(&mut self, e: Expr) -> u32 {
        self.p.exprs.push(e);
        self.p.exprs.len() as u32 - 1
    }
    pub(crate) fn add_request(&mut self, r: areas::CRequest) -> u32 {
        self.p.requests.push(r);
        self.p.requests.len() as u32 - 1
    }
    pub(crate) fn tree_index(&self, id: &str) -> Option<u32> {
        self.p.tree_index(id)
    }
    pub(crate) fn npc(&self, id: &str) -> Option<u32> {
        self.p.npc_index(id)
    }
    pub(crate) fn lookup(&self, id: &str) -> Option<EntityId> {
        self.p.entity(id)
    }
    /// A dynamic area prototype by id.
    pub(crate) fn dynamic_area(&self, id: &str) -> Result<u32, responses::DynamicAreaError> {
        match self.p.entity(id) {
            Some(EntityId::Area(a)) if self.pack.areas.iter().any(|x| x.id == id && x.dynamic) => {
                Ok(a)
            }
            Some(EntityId::Area(_)) => Err(responses::DynamicAreaError::NotDynamic(id.into())),
            _ => Err(responses::DynamicAreaError::Unknown(id.into())),
        }
    }
    /// Library index of a story event.
    pub(crate) fn event(&self, id: &str) -> Option<u32> {
        self.p.events.event(id)
    }

    // ---- where a response is written ----

    /// What `self` means where the response is written (a trigger's owner); None: nothing.
    pub(crate) fn owner(&self) -> EntityId {
        self.here.owner
    }
    /// A trigger by id, as seen from where the response is written: `sys/id` as written, a
    /// bare id in the writing system (and instance) first.
    pub(crate) fn trigger(&self, id: &str) -> Option<u32> {
        let (sys, suffix) = self.here.system.as_ref()?;
        if id.contains('/') {
            return self.trigger_ids.get(id).copied();
        }
        self.trigger_ids
            .get(&format!("{sys}/{id}{suffix}"))
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::ticks_for;

    #[test]
    fn seconds_become_the_fewest_ticks_that_last_as_long() {
        // Multiples of dt, including those whose quotient is not exact in floating point.
        assert_eq!(ticks_for(0.5, 0.1), 5);
        assert_eq!(ticks_for(1.1, 0.1), 11);
        assert_eq!(ticks_for(0.3, 0.1), 3);
        assert_eq!(ticks_for(0.7, 0.1), 7);
        assert_eq!(ticks_for(2.0, 0.05), 40);
        // Non-multiples round up: never shorter than asked.
        assert_eq!(ticks_for(0.25, 0.1), 3);
        assert_eq!(ticks_for(0.21, 0.1), 3);
        assert_eq!(ticks_for(0.01, 0.1), 1);
        assert_eq!(ticks_for(1.0e7, 0.001), 10_000_000_000);
        // Nothing to wait.
        assert_eq!(ticks_for(0.0, 0.1), 0);
        assert_eq!(ticks_for(-1.0, 0.1), 0);
        assert_eq!(ticks_for(f64::NAN, 0.1), 0);
    }
}
