//! Typed values shared by blackboards, area variables, world flags/counters and expressions.

use serde::{Deserialize, Serialize};

/// An interned string (index into the program's string table). Strings inside the simulation
/// are symbols so that values stay `Copy` and evaluation never allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Sym(pub u32);

/// A world entity: an NPC, a static object or an area, by index into its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityId {
    /// No entity (the default of an entity variable).
    None,
    Npc(u32),
    Object(u32),
    Area(u32),
}

/// A 2D vector in world units.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).length()
    }
}

impl std::ops::Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl std::ops::Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl std::ops::Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

/// The static type of a variable or expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    Bool,
    Int,
    Float,
    Str,
    Vec2,
    Entity,
}

impl Type {
    pub fn name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Float => "float",
            Type::Str => "string",
            Type::Vec2 => "vec2",
            Type::Entity => "entity",
        }
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A runtime value. `Copy`, so reading and writing variables never allocates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Sym),
    Vec2(Vec2),
    Entity(EntityId),
}

impl Value {
    pub fn ty(self) -> Type {
        match self {
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::Int,
            Value::Float(_) => Type::Float,
            Value::Str(_) => Type::Str,
            Value::Vec2(_) => Type::Vec2,
            Value::Entity(_) => Type::Entity,
        }
    }
    /// The zero value of a type (false, 0, 0.0, empty string symbol 0, origin, no entity).
    pub fn default_of(t: Type) -> Value {
        match t {
            Type::Bool => Value::Bool(false),
            Type::Int => Value::Int(0),
            Type::Float => Value::Float(0.0),
            Type::Str => Value::Str(Sym(0)),
            Type::Vec2 => Value::Vec2(Vec2::ZERO),
            Type::Entity => Value::Entity(EntityId::None),
        }
    }
    pub fn as_bool(self) -> bool {
        matches!(self, Value::Bool(true))
    }
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            Value::Bool(b) => b as i64 as f64,
            _ => 0.0,
        }
    }
    pub fn as_i64(self) -> i64 {
        match self {
            Value::Int(i) => i,
            // `as` saturates and maps NaN to 0: never panics.
            Value::Float(f) => f as i64,
            Value::Bool(b) => b as i64,
            _ => 0,
        }
    }
}

/// A comparison, the one type for expressions (`==`, `!=`, `<`, `<=`, `>`, `>=`) and trigger
/// conditions (`cmp`: the same six, written `eq`…`ge` or as symbols, plus `even` / `odd`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Even,
    Odd,
}

impl Cmp {
    pub const NAMES: &'static [&'static str] = &["eq", "ne", "lt", "le", "gt", "ge", "even", "odd"];

    /// A trigger condition's `cmp` field: a name or a symbol.
    pub fn parse(s: &str) -> Option<Cmp> {
        Some(match s {
            "eq" | "==" => Cmp::Eq,
            "ne" | "!=" => Cmp::Ne,
            "lt" | "<" => Cmp::Lt,
            "le" | "<=" => Cmp::Le,
            "gt" | ">" => Cmp::Gt,
            "ge" | ">=" => Cmp::Ge,
            "even" => Cmp::Even,
            "odd" => Cmp::Odd,
            _ => return None,
        })
    }

    /// The six ordering comparisons; `even` / `odd` are false here (they need integers).
    #[inline]
    pub fn ordered<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Even | Cmp::Odd => false,
        }
    }

    /// Integers: the six comparisons, or the parity of `a` (`b` unused).
    pub fn int(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Even => a % 2 == 0,
            Cmp::Odd => a % 2 != 0,
            c => c.ordered(a, b),
        }
    }

    /// Floats: the six comparisons (IEEE 754: NaN compares unequal); parity is false.
    pub fn float(self, a: f64, b: f64) -> bool {
        self.ordered(a, b)
    }
}
