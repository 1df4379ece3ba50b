//! The Townsfolk expression language.
//!
//! One small, safe, pure expression language is used for every behavior-tree condition,
//! smart-area constraint, event precondition and conditional breakpoint. Source text is
//! parsed, name-resolved and type-checked once at load time ([`Expr::compile`]) into a
//! compact form, which is then evaluated many times without heap allocation
//! ([`Expr::eval`], [`Expr::eval_bool`]).
//!
//! Evaluation has two tiers:
//! * a *fast path* for the most common shapes (`flag`, `!flag`, `x > 0.5`, `n == 3`,
//!   `name == "bob"`), evaluated with a single environment read and no interpretation;
//! * a general stack bytecode with forward jumps for `&&`/`||` short-circuiting. The
//!   operand stack is a fixed-size array on the native stack whose required depth is
//!   computed at compile time (at most [`MAX_STACK`] slots).
//!
//! Evaluation never panics: integer arithmetic wraps, integer division or remainder by
//! zero yields 0, and float arithmetic follows IEEE 754.

use crate::value::{EntityId, Sym, Type, Value, Vec2};
use std::fmt;

/// Longest accepted source text, in characters.
pub const MAX_SOURCE_CHARS: usize = 4096;
/// Deepest accepted nesting of parentheses, unary operators and function calls.
pub const MAX_NESTING: usize = 64;
/// Most evaluation-stack slots an expression may need.
pub const MAX_STACK: usize = 32;

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Bare identifier `hunger`: the behavior tree's blackboard.
    Blackboard,
    /// `area.name`: a variable of the current smart area.
    Area,
    /// `flags.name` / `flag.name`: a world flag.
    Flag,
    /// `counters.name` / `counter.name`: a world counter.
    Counter,
}

/// Compile-time name resolution, implemented by the pack loader.
pub trait Resolver {
    /// Slot and type of a variable; None if it does not exist (-> "unknown variable" error).
    fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)>;
    /// Interns a string literal.
    fn intern(&mut self, s: &str) -> Sym;
    /// Resolves an entity id literal used as `entity("guard_2")`; None -> error "unknown entity".
    fn entity(&mut self, id: &str) -> Option<EntityId>;
}

/// Run-time environment, implemented by the world for one NPC (or area) context.
pub trait Env {
    fn var(&self, scope: Scope, slot: u32) -> Value;
    fn self_entity(&self) -> EntityId;
    /// Position of an entity (None if it has none / is EntityId::None).
    fn position(&self, e: EntityId) -> Option<Vec2>;
    /// In-game time of day in hours, [0, 24).
    fn hour(&self) -> f64;
    /// In-game day counter (starts at 0 or as the pack says).
    fn day(&self) -> i64;
    /// Whether the entity carries the tag (NPC tags, area kinds, object kinds).
    fn has_tag(&self, _e: EntityId, _tag: Sym) -> bool {
        false
    }
    /// In an area's handler tree: the NPC the event is about (`subject`).
    fn subject(&self) -> EntityId {
        EntityId::None
    }
    /// How many NPCs hold the named behavior of the area the tree acts for (`holders("x")`).
    fn holders(&self, _template: Sym) -> i64 {
        0
    }
    /// An entity's health points (`health`, `health(e)`): 0 for what has none.
    fn health(&self, _e: EntityId) -> f64 {
        0.0
    }
    /// Whether an entity is a living NPC: in the world and not dead (`alive(e)`).
    fn alive(&self, _e: EntityId) -> bool {
        false
    }
}

/// A compile error, located in the source text.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    /// Character (not byte) offset of the problem inside the source, 0-based.
    pub offset: usize,
    /// Length in characters of the offending span (≥1; at the end of the input the span
    /// may extend one character past the end of the source).
    pub len: usize,
    pub message: String,
}

impl ExprError {
    fn new(offset: usize, len: usize, message: impl Into<String>) -> Self {
        ExprError {
            offset,
            len: len.max(1),
            message: message.into(),
        }
    }
}

impl fmt::Display for ExprError {
    /// `column N: message`, with a 1-based column (`offset + 1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.offset + 1, self.message)
    }
}

impl std::error::Error for ExprError {}

// ---------------------------------------------------------------------------------------
// Compiled form
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

/// One bytecode instruction. Operand types are fixed at compile time; at run time the
/// instructions coerce defensively (see `Value::as_*`) so a misbehaving `Env` cannot panic.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    /// `has_tag("t")`: whether `self` carries the tag.
    HasTag(Sym),
    // Leaves: push one value.
    Const(Value),
    Var(Scope, u32),
    SelfEntity,
    /// `subject`: the NPC an area handler runs for.
    Subject,
    /// `holders("t")`: NPCs holding that behavior of the area.
    Holders(Sym),
    /// `subject_has("t")`: whether the handler's subject carries the tag.
    SubjectHas(Sym),
    Hour,
    Day,
    /// `health`: the health of `self`.
    HealthSelf,
    // Unary, in place.
    /// `health(e)`: an entity's health points.
    Health,
    /// `alive(e)`: whether an entity is a living NPC.
    Alive,
    Not,
    NegI,
    NegF,
    NegV,
    /// Converts the int `d` slots below the top (0 = top) to float.
    IToFAt(u8),
    // Binary: pop two, push one.
    ArI(ArOp),
    ArF(ArOp),
    AddV,
    SubV,
    /// vec2 * number
    MulVF,
    /// number * vec2
    MulFV,
    /// vec2 / number
    DivVF,
    CmpI(CmpOp),
    CmpF(CmpOp),
    /// Equality of two values of the same (non-numeric) type.
    Eq,
    Ne,
    /// If the top is false jump (keeping it), else pop it and continue.
    AndJump(u32),
    /// If the top is true jump (keeping it), else pop it and continue.
    OrJump(u32),
    // Functions.
    Distance,
    Pos,
    MakeVec2,
    AbsI,
    AbsF,
    MinI,
    MinF,
    MaxI,
    MaxF,
    ClampI,
    ClampF,
    Floor,
    Ceil,
    Sqrt,
}

impl Op {
    /// Net number of values removed by a non-leaf instruction (leaves push one).
    fn pops(self) -> usize {
        match self {
            Op::ArI(_)
            | Op::ArF(_)
            | Op::AddV
            | Op::SubV
            | Op::MulVF
            | Op::MulFV
            | Op::DivVF
            | Op::CmpI(_)
            | Op::CmpF(_)
            | Op::Eq
            | Op::Ne
            | Op::AndJump(_)
            | Op::OrJump(_)
            | Op::Distance
            | Op::MakeVec2
            | Op::MinI
            | Op::MinF
            | Op::MaxI
            | Op::MaxF => 1,
            Op::ClampI | Op::ClampF => 2,
            _ => 0,
        }
    }
}

/// Specialised evaluation of the most common expression shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fast {
    General,
    /// Every top-level `&&`-conjunct is itself a fast shape (see `Expr::conj_fast`).
    AllOf,
    Const(Value),
    Var(Scope, u32),
    NotVar(Scope, u32),
    CmpI {
        scope: Scope,
        slot: u32,
        op: CmpOp,
        k: i64,
    },
    CmpF {
        scope: Scope,
        slot: u32,
        op: CmpOp,
        k: f64,
    },
    VarEq {
        scope: Scope,
        slot: u32,
        k: Value,
        ne: bool,
    },
}

impl Fast {
    /// Evaluates a leaf shape; `General`/`AllOf` are handled by `Expr` and never reach here.
    #[inline(always)]
    fn eval(self, env: &dyn Env) -> Value {
        match self {
            Fast::Const(v) => v,
            Fast::Var(scope, slot) => env.var(scope, slot),
            Fast::NotVar(scope, slot) => Value::Bool(!env.var(scope, slot).as_bool()),
            Fast::CmpI { scope, slot, op, k } => {
                Value::Bool(compare(op, env.var(scope, slot).as_i64(), k))
            }
            Fast::CmpF { scope, slot, op, k } => {
                Value::Bool(compare(op, env.var(scope, slot).as_f64(), k))
            }
            Fast::VarEq { scope, slot, k, ne } => Value::Bool((env.var(scope, slot) == k) != ne),
            Fast::General | Fast::AllOf => Value::Bool(false),
        }
    }

    #[inline(always)]
    fn eval_bool(self, env: &dyn Env) -> bool {
        match self {
            Fast::Var(scope, slot) => env.var(scope, slot).as_bool(),
            Fast::NotVar(scope, slot) => !env.var(scope, slot).as_bool(),
            Fast::CmpI { scope, slot, op, k } => compare(op, env.var(scope, slot).as_i64(), k),
            Fast::CmpF { scope, slot, op, k } => compare(op, env.var(scope, slot).as_f64(), k),
            _ => self.eval(env).as_bool(),
        }
    }

    fn detect(code: &[Op]) -> Fast {
        match *code {
            [Op::Const(v)] => Fast::Const(v),
            [Op::Var(s, i)] => Fast::Var(s, i),
            [Op::Var(s, i), Op::Not] => Fast::NotVar(s, i),
            [Op::Var(scope, slot), Op::Const(Value::Int(k)), Op::CmpI(op)] => {
                Fast::CmpI { scope, slot, op, k }
            }
            [
                Op::Var(scope, slot),
                Op::Const(Value::Float(k)),
                Op::CmpF(op),
            ]
            | [
                Op::Var(scope, slot),
                Op::Const(Value::Float(k)),
                Op::IToFAt(1),
                Op::CmpF(op),
            ] => Fast::CmpF { scope, slot, op, k },
            [Op::Var(scope, slot), Op::Const(k), Op::Eq] => Fast::VarEq {
                scope,
                slot,
                k,
                ne: false,
            },
            [Op::Var(scope, slot), Op::Const(k), Op::Ne] => Fast::VarEq {
                scope,
                slot,
                k,
                ne: true,
            },
            _ => Fast::General,
        }
    }
}

/// One `&&`-conjunct: its source span (characters) and its self-contained code range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    start: usize,
    end: usize,
    code_start: usize,
    code_end: usize,
}

/// A compiled expression. Cheap to evaluate, `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Expr {
    fast: Fast,
    ty: Type,
    /// Fast forms of the top-level conjuncts when `fast == Fast::AllOf`, else empty.
    conj_fast: Box<[Fast]>,
    code: Box<[Op]>,
    /// Evaluation stack slots needed by `code` (≤ MAX_STACK).
    stack: usize,
    src: Box<str>,
    /// Character span of the whole expression (without surrounding whitespace).
    span: (usize, usize),
    /// Flattened top-level `&&` conjuncts (bool expressions only).
    parts: Box<[Part]>,
    refs: Vec<(Scope, String)>,
}

impl Expr {
    /// Parses, resolves and type-checks `src`.
    pub fn compile(src: &str, resolver: &mut dyn Resolver) -> Result<Expr, ExprError> {
        Self::build(src, None, resolver)
    }

    /// Compile and require a given result type (ints are accepted where float is expected;
    /// they are converted, so the expression's type is then float).
    pub fn compile_typed(
        src: &str,
        want: Type,
        resolver: &mut dyn Resolver,
    ) -> Result<Expr, ExprError> {
        Self::build(src, Some(want), resolver)
    }

    fn build(
        src: &str,
        want: Option<Type>,
        resolver: &mut dyn Resolver,
    ) -> Result<Expr, ExprError> {
        let chars: Vec<char> = src.chars().collect();
        if chars.len() > MAX_SOURCE_CHARS {
            return Err(ExprError::new(
                MAX_SOURCE_CHARS,
                chars.len() - MAX_SOURCE_CHARS,
                format!(
                    "expression is too long ({} characters; the limit is {MAX_SOURCE_CHARS})",
                    chars.len()
                ),
            ));
        }
        let toks = lex(&chars)?;
        if toks.len() <= 1 {
            return Err(ExprError::new(
                0,
                chars.len(),
                "empty expression: write a condition such as `hunger > 0.5` or `true`",
            ));
        }
        let mut p = Parser {
            chars: &chars,
            toks,
            pos: 0,
            resolver,
            code: Vec::new(),
            depth: 0,
            max_depth: 0,
            nesting: 0,
            refs: Vec::new(),
        };
        let top = p.parse_bin(0)?;
        let t = p.peek().clone();
        match t.kind {
            Tk::Eof => {}
            Tk::RParen => {
                return Err(p.err_tok(&t, "unmatched `)`: there is no `(` for it to close"));
            }
            Tk::Ident(ref w) if w == "and" || w == "or" => {
                let op = if w == "and" { "&&" } else { "||" };
                return Err(p.err_tok(&t, format!("`{w}` is not an operator; use `{op}`")));
            }
            _ => {
                return Err(p.err_tok(
                    &t,
                    format!(
                        "unexpected {} after a complete expression; expected an operator \
                         (such as `&&`, `||`, `==`, `>` or `+`) or the end of the expression",
                        p.describe(&t)
                    ),
                ));
            }
        }
        let mut ty = top.ty;
        if let Some(want) = want
            && want != ty
        {
            if want == Type::Float && ty == Type::Int {
                p.promote(&top, 0);
                ty = Type::Float;
            } else {
                return Err(ExprError::new(
                    top.start,
                    top.end - top.start,
                    format!("expected a {want} expression here, but this expression is {ty}"),
                ));
            }
        }
        let span = (top.start, top.end);
        let parts: Vec<Part> = if ty == Type::Bool {
            top.parts()
        } else {
            Vec::new()
        };
        let code = p.code.into_boxed_slice();
        let mut fast = Fast::detect(&code);
        let mut conj_fast = Vec::new();
        if fast == Fast::General && parts.len() > 1 {
            conj_fast = parts
                .iter()
                .map(|p| Fast::detect(code.get(p.code_start..p.code_end).unwrap_or_default()))
                .collect();
            if conj_fast.iter().all(|f| *f != Fast::General) {
                fast = Fast::AllOf;
            } else {
                conj_fast.clear();
            }
        }
        Ok(Expr {
            fast,
            conj_fast: conj_fast.into_boxed_slice(),
            ty,
            stack: p.max_depth,
            code,
            src: src.into(),
            span,
            parts: parts.into_boxed_slice(),
            refs: p.refs,
        })
    }

    pub fn source(&self) -> &str {
        &self.src
    }

    pub fn ty(&self) -> Type {
        self.ty
    }

    /// Whether evaluation uses a specialised fast path instead of the bytecode interpreter.
    pub fn is_fast(&self) -> bool {
        self.fast != Fast::General
    }

    /// Evaluates the expression. Never allocates, never panics.
    #[inline]
    pub fn eval(&self, env: &dyn Env) -> Value {
        match self.fast {
            Fast::General => self.run(0, self.code.len(), env),
            Fast::AllOf => Value::Bool(self.all_of(env)),
            f => f.eval(env),
        }
    }

    /// Evaluates a boolean expression (false for non-bool expressions). Never allocates.
    #[inline(always)]
    pub fn eval_bool(&self, env: &dyn Env) -> bool {
        match self.fast {
            Fast::General | Fast::AllOf => self.eval_bool_slow(env),
            f => f.eval_bool(env),
        }
    }

    /// The bytecode and `&&`-chain paths, kept out of line so the fast forms inline small.
    #[inline(never)]
    fn eval_bool_slow(&self, env: &dyn Env) -> bool {
        match self.fast {
            Fast::AllOf => self.all_of(env),
            _ => self.run(0, self.code.len(), env).as_bool(),
        }
    }

    /// Short-circuit conjunction of the fast conjuncts, in source order.
    #[inline]
    fn all_of(&self, env: &dyn Env) -> bool {
        self.conj_fast.iter().all(|f| f.eval_bool(env))
    }

    /// For "why did this fail" explanations: if the expression is false, the smallest
    /// top-level `&&`-conjunct (as its source text) that evaluated false, descending into
    /// nested (parenthesised) `&&`; None if the expression is true or not boolean.
    pub fn failing_part(&self, env: &dyn Env) -> Option<String> {
        if self.ty != Type::Bool || self.eval_bool(env) {
            return None;
        }
        for p in self.parts.iter() {
            if !self.run(p.code_start, p.code_end, env).as_bool() {
                return Some(self.text(p.start, p.end));
            }
        }
        // Only reachable if the environment changed between the two evaluations.
        Some(self.text(self.span.0, self.span.1))
    }

    /// Names referenced, as (scope, name), in order of first appearance, no duplicates.
    pub fn references(&self) -> &[(Scope, String)] {
        &self.refs
    }

    fn text(&self, start: usize, end: usize) -> String {
        self.src
            .chars()
            .skip(start)
            .take(end.saturating_sub(start))
            .collect()
    }

    /// Runs `code[start..end]` with the smallest stack array that fits.
    fn run(&self, start: usize, end: usize, env: &dyn Env) -> Value {
        let code = self.code.get(start..end).unwrap_or_default();
        if self.stack <= 4 {
            run::<4>(code, start, env)
        } else if self.stack <= 8 {
            run::<8>(code, start, env)
        } else if self.stack <= 16 {
            run::<16>(code, start, env)
        } else {
            run::<MAX_STACK>(code, start, env)
        }
    }

    #[cfg(test)]
    fn eval_general(&self, env: &dyn Env) -> Value {
        self.run(0, self.code.len(), env)
    }
}

// ---------------------------------------------------------------------------------------
// Interpreter
// ---------------------------------------------------------------------------------------

struct Stack<const N: usize> {
    v: [Value; N],
    sp: usize,
}

impl<const N: usize> Stack<N> {
    #[inline]
    fn push(&mut self, x: Value) {
        if let Some(s) = self.v.get_mut(self.sp) {
            *s = x;
            self.sp += 1;
        }
    }
    #[inline]
    fn pop(&mut self) -> Value {
        self.sp = self.sp.saturating_sub(1);
        self.v.get(self.sp).copied().unwrap_or(Value::Bool(false))
    }
    #[inline]
    fn top(&self) -> Value {
        self.sp
            .checked_sub(1)
            .and_then(|i| self.v.get(i))
            .copied()
            .unwrap_or(Value::Bool(false))
    }
    #[inline]
    fn map_top(&mut self, f: impl FnOnce(Value) -> Value) {
        let x = self.pop();
        self.push(f(x));
    }
    #[inline]
    fn int_to_float_at(&mut self, d: usize) {
        if let Some(i) = self.sp.checked_sub(1 + d)
            && let Some(s) = self.v.get_mut(i)
        {
            *s = Value::Float(s.as_f64());
        }
    }
}

#[inline]
fn compare<T: PartialOrd>(op: CmpOp, a: T, b: T) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

fn arith_i(op: ArOp, a: i64, b: i64) -> i64 {
    match op {
        ArOp::Add => a.wrapping_add(b),
        ArOp::Sub => a.wrapping_sub(b),
        ArOp::Mul => a.wrapping_mul(b),
        ArOp::Div if b == 0 => 0,
        ArOp::Div => a.wrapping_div(b),
        ArOp::Mod if b == 0 => 0,
        ArOp::Mod => a.wrapping_rem(b),
    }
}

fn arith_f(op: ArOp, a: f64, b: f64) -> f64 {
    match op {
        ArOp::Add => a + b,
        ArOp::Sub => a - b,
        ArOp::Mul => a * b,
        ArOp::Div => a / b,
        ArOp::Mod => a % b,
    }
}

fn vec_of(v: Value) -> Vec2 {
    match v {
        Value::Vec2(p) => p,
        _ => Vec2::ZERO,
    }
}

fn entity_of(v: Value) -> EntityId {
    match v {
        Value::Entity(e) => e,
        _ => EntityId::None,
    }
}

fn point_of(env: &dyn Env, v: Value) -> Option<Vec2> {
    match v {
        Value::Vec2(p) => Some(p),
        Value::Entity(EntityId::None) => None,
        Value::Entity(e) => env.position(e),
        _ => None,
    }
}

/// Interprets `code`, whose first instruction sits at absolute index `base` (jump targets
/// are absolute). Uses a fixed stack of `N` slots; overflow is impossible for compiled code
/// (depth checked at compile time) and is handled without panicking anyway.
fn run<const N: usize>(code: &[Op], base: usize, env: &dyn Env) -> Value {
    let mut st = Stack::<N> {
        v: [Value::Bool(false); N],
        sp: 0,
    };
    let mut pc = 0usize;
    while let Some(&op) = code.get(pc) {
        pc += 1;
        match op {
            Op::Const(v) => st.push(v),
            Op::Var(scope, slot) => st.push(env.var(scope, slot)),
            Op::SelfEntity => st.push(Value::Entity(env.self_entity())),
            Op::Subject => st.push(Value::Entity(env.subject())),
            Op::Holders(t) => st.push(Value::Int(env.holders(t))),
            Op::SubjectHas(t) => st.push(Value::Bool(env.has_tag(env.subject(), t))),
            Op::Hour => st.push(Value::Float(env.hour())),
            Op::Day => st.push(Value::Int(env.day())),
            Op::HasTag(t) => st.push(Value::Bool(env.has_tag(env.self_entity(), t))),
            Op::Not => st.map_top(|v| Value::Bool(!v.as_bool())),
            Op::NegI => st.map_top(|v| Value::Int(v.as_i64().wrapping_neg())),
            Op::NegF => st.map_top(|v| Value::Float(-v.as_f64())),
            Op::NegV => st.map_top(|v| Value::Vec2(Vec2::ZERO - vec_of(v))),
            Op::IToFAt(d) => st.int_to_float_at(d as usize),
            Op::ArI(a) => {
                let y = st.pop().as_i64();
                let x = st.pop().as_i64();
                st.push(Value::Int(arith_i(a, x, y)));
            }
            Op::ArF(a) => {
                let y = st.pop().as_f64();
                let x = st.pop().as_f64();
                st.push(Value::Float(arith_f(a, x, y)));
            }
            Op::AddV | Op::SubV => {
                let y = vec_of(st.pop());
                let x = vec_of(st.pop());
                st.push(Value::Vec2(if op == Op::AddV { x + y } else { x - y }));
            }
            Op::MulVF | Op::DivVF => {
                let k = st.pop().as_f64();
                let v = vec_of(st.pop());
                st.push(Value::Vec2(if op == Op::MulVF {
                    v * k
                } else {
                    Vec2::new(v.x / k, v.y / k)
                }));
            }
            Op::MulFV => {
                let v = vec_of(st.pop());
                let k = st.pop().as_f64();
                st.push(Value::Vec2(v * k));
            }
            Op::CmpI(c) => {
                let y = st.pop().as_i64();
                let x = st.pop().as_i64();
                st.push(Value::Bool(compare(c, x, y)));
            }
            Op::CmpF(c) => {
                let y = st.pop().as_f64();
                let x = st.pop().as_f64();
                st.push(Value::Bool(compare(c, x, y)));
            }
            Op::Eq | Op::Ne => {
                let y = st.pop();
                let x = st.pop();
                st.push(Value::Bool((x == y) == (op == Op::Eq)));
            }
            Op::AndJump(t) => {
                if st.top().as_bool() {
                    st.pop();
                } else {
                    pc = (t as usize).saturating_sub(base);
                }
            }
            Op::OrJump(t) => {
                if st.top().as_bool() {
                    pc = (t as usize).saturating_sub(base);
                } else {
                    st.pop();
                }
            }
            Op::Distance => {
                let b = st.pop();
                let a = st.pop();
                let d = match (point_of(env, a), point_of(env, b)) {
                    (Some(p), Some(q)) => p.distance(q),
                    _ => f64::INFINITY,
                };
                st.push(Value::Float(d));
            }
            Op::HealthSelf => st.push(Value::Float(env.health(env.self_entity()))),
            Op::Health => st.map_top(|v| Value::Float(env.health(entity_of(v)))),
            Op::Alive => st.map_top(|v| Value::Bool(env.alive(entity_of(v)))),
            Op::Pos => st.map_top(|v| {
                Value::Vec2(point_of(env, Value::Entity(entity_of(v))).unwrap_or(Vec2::ZERO))
            }),
            Op::MakeVec2 => {
                let y = st.pop().as_f64();
                let x = st.pop().as_f64();
                st.push(Value::Vec2(Vec2::new(x, y)));
            }
            Op::AbsI => st.map_top(|v| Value::Int(v.as_i64().wrapping_abs())),
            Op::AbsF => st.map_top(|v| Value::Float(v.as_f64().abs())),
            Op::MinI | Op::MaxI => {
                let y = st.pop().as_i64();
                let x = st.pop().as_i64();
                st.push(Value::Int(if op == Op::MinI { x.min(y) } else { x.max(y) }));
            }
            Op::MinF | Op::MaxF => {
                let y = st.pop().as_f64();
                let x = st.pop().as_f64();
                st.push(Value::Float(if op == Op::MinF {
                    x.min(y)
                } else {
                    x.max(y)
                }));
            }
            Op::ClampI => {
                let hi = st.pop().as_i64();
                let lo = st.pop().as_i64();
                let x = st.pop().as_i64();
                // Not `Ord::clamp`, which panics when lo > hi.
                st.push(Value::Int(x.max(lo).min(hi)));
            }
            Op::ClampF => {
                let hi = st.pop().as_f64();
                let lo = st.pop().as_f64();
                let x = st.pop().as_f64();
                // Not `f64::clamp`, which panics when lo > hi or either is NaN.
                st.push(Value::Float(x.max(lo).min(hi)));
            }
            Op::Floor => st.map_top(|v| Value::Float(v.as_f64().floor())),
            Op::Ceil => st.map_top(|v| Value::Float(v.as_f64().ceil())),
            Op::Sqrt => st.map_top(|v| Value::Float(v.as_f64().sqrt())),
        }
    }
    st.pop()
}

// ---------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Tk {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    AndAnd,
    OrOr,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    Bang,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    LParen,
    RParen,
    Comma,
    Dot,
    Eof,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Tk,
    /// Character offset.
    start: usize,
    /// Length in characters.
    len: usize,
}

impl Tok {
    fn end(&self) -> usize {
        self.start + self.len
    }
}

fn text(chars: &[char], start: usize, end: usize) -> String {
    chars
        .iter()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect()
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits the source into tokens; the result always ends with exactly one `Tk::Eof`.
fn lex(chars: &[char]) -> Result<Vec<Tok>, ExprError> {
    let mut toks = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if is_ident_start(c) {
            while chars.get(i).is_some_and(|&c| is_ident_char(c)) {
                i += 1;
            }
            Tk::Ident(text(chars, start, i))
        } else if c.is_ascii_digit() {
            lex_number(chars, &mut i)?
        } else if c == '"' {
            lex_string(chars, &mut i)?
        } else {
            let (kind, n) = match (c, chars.get(i + 1).copied()) {
                ('&', Some('&')) => (Tk::AndAnd, 2),
                ('|', Some('|')) => (Tk::OrOr, 2),
                ('=', Some('=')) => (Tk::EqEq, 2),
                ('!', Some('=')) => (Tk::NotEq, 2),
                ('<', Some('=')) => (Tk::Le, 2),
                ('>', Some('=')) => (Tk::Ge, 2),
                ('<', _) => (Tk::Lt, 1),
                ('>', _) => (Tk::Gt, 1),
                ('!', _) => (Tk::Bang, 1),
                ('+', _) => (Tk::Plus, 1),
                ('-', _) => (Tk::Minus, 1),
                ('*', _) => (Tk::Star, 1),
                ('/', _) => (Tk::Slash, 1),
                ('%', _) => (Tk::Percent, 1),
                ('(', _) => (Tk::LParen, 1),
                (')', _) => (Tk::RParen, 1),
                (',', _) => (Tk::Comma, 1),
                ('.', _) => (Tk::Dot, 1),
                ('&', _) => {
                    return Err(ExprError::new(
                        i,
                        1,
                        "`&` is not an operator; use `&&` for \"and\"",
                    ));
                }
                ('|', _) => {
                    return Err(ExprError::new(
                        i,
                        1,
                        "`|` is not an operator; use `||` for \"or\"",
                    ));
                }
                ('=', _) => {
                    return Err(ExprError::new(
                        i,
                        1,
                        "`=` would assign, which expressions cannot do; use `==` to compare",
                    ));
                }
                ('\'', _) => {
                    return Err(ExprError::new(
                        i,
                        1,
                        "unexpected `'`: strings use double quotes, e.g. \"text\"",
                    ));
                }
                _ => {
                    return Err(ExprError::new(i, 1, format!("unexpected character `{c}`")));
                }
            };
            i += n;
            kind
        };
        toks.push(Tok {
            kind,
            start,
            len: i - start,
        });
    }
    toks.push(Tok {
        kind: Tk::Eof,
        start: chars.len(),
        len: 1,
    });
    Ok(toks)
}

fn lex_number(chars: &[char], i: &mut usize) -> Result<Tk, ExprError> {
    let start = *i;
    let digit = |k: usize| chars.get(k).is_some_and(|c| c.is_ascii_digit());
    while digit(*i) {
        *i += 1;
    }
    let mut is_float = false;
    if chars.get(*i) == Some(&'.') && digit(*i + 1) {
        is_float = true;
        *i += 1;
        while digit(*i) {
            *i += 1;
        }
    }
    if matches!(chars.get(*i), Some('e' | 'E')) {
        let mut k = *i + 1;
        if matches!(chars.get(k), Some('+' | '-')) {
            k += 1;
        }
        if !digit(k) {
            return Err(ExprError::new(
                start,
                k - start,
                format!(
                    "number `{}` has an exponent without digits (write e.g. `1e3`)",
                    text(chars, start, k)
                ),
            ));
        }
        is_float = true;
        *i = k;
        while digit(*i) {
            *i += 1;
        }
    }
    if let Some(&c) = chars.get(*i)
        && is_ident_char(c)
    {
        return Err(ExprError::new(
            *i,
            1,
            format!(
                "unexpected `{c}` right after the number `{}`; put an operator between them",
                text(chars, start, *i)
            ),
        ));
    }
    let s = text(chars, start, *i);
    if is_float {
        s.parse::<f64>()
            .map(Tk::Float)
            .map_err(|_| ExprError::new(start, *i - start, format!("invalid number `{s}`")))
    } else {
        s.parse::<i64>().map(Tk::Int).map_err(|_| {
            ExprError::new(
                start,
                *i - start,
                format!(
                    "integer `{s}` is too large (the largest is {}); write it as a float, e.g. `{s}.0`",
                    i64::MAX
                ),
            )
        })
    }
}

fn lex_string(chars: &[char], i: &mut usize) -> Result<Tk, ExprError> {
    let start = *i;
    let unterminated = || {
        ExprError::new(
            start,
            chars.len() - start,
            "unterminated string: missing the closing `\"`",
        )
    };
    *i += 1;
    let mut s = String::new();
    loop {
        match chars.get(*i) {
            None => return Err(unterminated()),
            Some('"') => {
                *i += 1;
                return Ok(Tk::Str(s));
            }
            Some('\\') => match chars.get(*i + 1) {
                Some(&c @ ('"' | '\\')) => {
                    s.push(c);
                    *i += 2;
                }
                Some(c) => {
                    return Err(ExprError::new(
                        *i,
                        2,
                        format!(
                            "unknown escape `\\{c}` in string; only `\\\"` and `\\\\` are allowed"
                        ),
                    ));
                }
                None => return Err(unterminated()),
            },
            Some(&c) => {
                s.push(c);
                *i += 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parser + type checker + code generator (single pass)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Func {
    Distance,
    Pos,
    Vec2,
    Hour,
    Day,
    Abs,
    Min,
    Max,
    Clamp,
    Floor,
    Ceil,
    Sqrt,
    Entity,
    HasTag,
    Holders,
    SubjectHas,
    Health,
    Alive,
}

const FUNCS: &[(&str, Func, &str)] = &[
    ("distance", Func::Distance, "distance(a, b)"),
    ("pos", Func::Pos, "pos(entity)"),
    ("vec2", Func::Vec2, "vec2(x, y)"),
    ("hour", Func::Hour, "hour()"),
    ("day", Func::Day, "day()"),
    ("abs", Func::Abs, "abs(x)"),
    ("min", Func::Min, "min(a, b)"),
    ("max", Func::Max, "max(a, b)"),
    ("clamp", Func::Clamp, "clamp(x, lo, hi)"),
    ("floor", Func::Floor, "floor(x)"),
    ("ceil", Func::Ceil, "ceil(x)"),
    ("sqrt", Func::Sqrt, "sqrt(x)"),
    ("entity", Func::Entity, "entity(\"id\")"),
    ("has_tag", Func::HasTag, "has_tag(\"tag\")"),
    ("holders", Func::Holders, "holders(\"behavior\")"),
    ("subject_has", Func::SubjectHas, "subject_has(\"tag\")"),
    ("health", Func::Health, "health(entity)"),
    ("alive", Func::Alive, "alive(entity)"),
];

impl Func {
    fn arity(self) -> usize {
        match self {
            Func::Hour | Func::Day => 0,
            Func::Pos
            | Func::Abs
            | Func::Floor
            | Func::Ceil
            | Func::Sqrt
            | Func::Entity
            | Func::HasTag
            | Func::Holders
            | Func::SubjectHas
            | Func::Health
            | Func::Alive => 1,
            Func::Distance | Func::Vec2 | Func::Min | Func::Max => 2,
            Func::Clamp => 3,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Logic {
    And,
    Or,
}

/// A non-logical binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arith {
    Cmp(CmpOp),
    Ar(ArOp),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bin {
    Logic(Logic),
    Arith(Arith),
}

/// Binary operator of a token, with its precedence (higher binds tighter).
fn binop(t: &Tk) -> Option<(Bin, u8)> {
    Some(match t {
        Tk::OrOr => (Bin::Logic(Logic::Or), 1),
        Tk::AndAnd => (Bin::Logic(Logic::And), 2),
        Tk::EqEq => (Bin::Arith(Arith::Cmp(CmpOp::Eq)), 3),
        Tk::NotEq => (Bin::Arith(Arith::Cmp(CmpOp::Ne)), 3),
        Tk::Lt => (Bin::Arith(Arith::Cmp(CmpOp::Lt)), 4),
        Tk::Le => (Bin::Arith(Arith::Cmp(CmpOp::Le)), 4),
        Tk::Gt => (Bin::Arith(Arith::Cmp(CmpOp::Gt)), 4),
        Tk::Ge => (Bin::Arith(Arith::Cmp(CmpOp::Ge)), 4),
        Tk::Plus => (Bin::Arith(Arith::Ar(ArOp::Add)), 5),
        Tk::Minus => (Bin::Arith(Arith::Ar(ArOp::Sub)), 5),
        Tk::Star => (Bin::Arith(Arith::Ar(ArOp::Mul)), 6),
        Tk::Slash => (Bin::Arith(Arith::Ar(ArOp::Div)), 6),
        Tk::Percent => (Bin::Arith(Arith::Ar(ArOp::Mod)), 6),
        _ => return None,
    })
}

fn is_num(t: Type) -> bool {
    matches!(t, Type::Int | Type::Float)
}

/// A compiled sub-expression: its type, where its code lies, and its source span.
struct Operand {
    ty: Type,
    code_start: usize,
    code_end: usize,
    start: usize,
    end: usize,
    /// Flattened `&&`-conjuncts if this operand is an `&&` expression, else empty.
    conj: Vec<Part>,
}

impl Operand {
    fn span_len(&self) -> usize {
        self.end - self.start
    }
    fn parts(self) -> Vec<Part> {
        if self.conj.is_empty() {
            vec![Part {
                start: self.start,
                end: self.end,
                code_start: self.code_start,
                code_end: self.code_end,
            }]
        } else {
            self.conj
        }
    }
}

struct Parser<'s, 'r> {
    chars: &'s [char],
    /// Invariant: non-empty, last token is `Tk::Eof`, `pos < toks.len()`.
    toks: Vec<Tok>,
    pos: usize,
    resolver: &'r mut dyn Resolver,
    code: Vec<Op>,
    /// Evaluation stack depth at the current point of the generated code.
    depth: usize,
    max_depth: usize,
    nesting: usize,
    refs: Vec<(Scope, String)>,
}

impl Parser<'_, '_> {
    fn peek(&self) -> &Tok {
        // Invariant (see field doc): `pos` is always a valid index.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn tok_text(&self, t: &Tok) -> String {
        text(self.chars, t.start, t.end())
    }

    fn describe(&self, t: &Tok) -> String {
        match t.kind {
            Tk::Eof => "the end of the expression".to_string(),
            _ => format!("`{}`", self.tok_text(t)),
        }
    }

    /// " after `X`" for the token before the current one, if any.
    fn after_prev(&self) -> String {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => format!(" after `{}`", self.tok_text(t)),
            None => String::new(),
        }
    }

    fn err_tok(&self, t: &Tok, msg: impl Into<String>) -> ExprError {
        ExprError::new(t.start, t.len, msg)
    }

    fn err_op(o: &Operand, msg: impl Into<String>) -> ExprError {
        ExprError::new(o.start, o.span_len(), msg)
    }

    fn enter(&mut self, t: &Tok) -> Result<(), ExprError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.err_tok(
                t,
                format!(
                    "expression is nested too deeply (more than {MAX_NESTING} levels of \
                     parentheses, `!`/`-` or function calls)"
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    /// Emits a leaf instruction (pushes one value).
    fn leaf(&mut self, op: Op, ty: Type, start: usize, end: usize) -> Result<Operand, ExprError> {
        self.depth += 1;
        if self.depth > MAX_STACK {
            return Err(ExprError::new(
                start,
                end - start,
                format!(
                    "expression is too complex: evaluating it needs more than {MAX_STACK} \
                     intermediate values; split it up or reduce the nesting"
                ),
            ));
        }
        self.max_depth = self.max_depth.max(self.depth);
        let code_start = self.code.len();
        self.code.push(op);
        Ok(Operand {
            ty,
            code_start,
            code_end: code_start + 1,
            start,
            end,
            conj: Vec::new(),
        })
    }

    /// Emits a non-leaf instruction.
    fn emit(&mut self, op: Op) {
        self.depth = self.depth.saturating_sub(op.pops());
        self.code.push(op);
    }

    /// Builds the operand covering `first..` code and `start..end` source.
    fn result(&self, ty: Type, code_start: usize, start: usize, end: usize) -> Operand {
        Operand {
            ty,
            code_start,
            code_end: self.code.len(),
            start,
            end,
            conj: Vec::new(),
        }
    }

    /// If `o` is a single constant instruction, gives mutable access to its value.
    fn lone_const(&mut self, o: &Operand) -> Option<&mut Value> {
        if o.code_end != o.code_start + 1 {
            return None;
        }
        match self.code.get_mut(o.code_start) {
            Some(Op::Const(v)) => Some(v),
            _ => None,
        }
    }

    /// Converts the int operand `o`, which lies `depth` slots below the stack top, to float.
    fn promote(&mut self, o: &Operand, depth: u8) {
        if o.ty != Type::Int {
            return;
        }
        if let Some(v) = self.lone_const(o) {
            *v = Value::Float(v.as_f64());
        } else {
            self.emit(Op::IToFAt(depth));
        }
    }

    fn parse_bin(&mut self, min_prec: u8) -> Result<Operand, ExprError> {
        let mut lhs = self.parse_unary()?;
        loop {
            let op_tok = self.peek().clone();
            let Some((bin, prec)) = binop(&op_tok.kind) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.bump();
            lhs = match bin {
                Bin::Logic(l) => self.logical(l, prec, lhs)?,
                Bin::Arith(a) => {
                    let rhs = self.parse_bin(prec + 1)?;
                    self.binary(a, &op_tok, lhs, rhs)?
                }
            };
        }
        Ok(lhs)
    }

    fn logical(&mut self, l: Logic, prec: u8, lhs: Operand) -> Result<Operand, ExprError> {
        let sym = if l == Logic::And { "&&" } else { "||" };
        if lhs.ty != Type::Bool {
            return Err(Self::err_op(
                &lhs,
                format!("`{sym}` needs bool operands, found {} on the left", lhs.ty),
            ));
        }
        let jump_at = self.code.len();
        self.emit(if l == Logic::And {
            Op::AndJump(0)
        } else {
            Op::OrJump(0)
        });
        let rhs = self.parse_bin(prec + 1)?;
        if rhs.ty != Type::Bool {
            return Err(Self::err_op(
                &rhs,
                format!("`{sym}` needs bool operands, found {} on the right", rhs.ty),
            ));
        }
        // Code length is bounded by the 4096-character source limit, so it fits in u32.
        let target = self.code.len() as u32;
        if let Some(op) = self.code.get_mut(jump_at) {
            *op = if l == Logic::And {
                Op::AndJump(target)
            } else {
                Op::OrJump(target)
            };
        }
        let mut out = self.result(Type::Bool, lhs.code_start, lhs.start, rhs.end);
        if l == Logic::And {
            let mut lparts = Operand {
                code_end: jump_at,
                ..lhs
            }
            .parts();
            lparts.extend(rhs.parts());
            out.conj = lparts;
        }
        Ok(out)
    }

    fn binary(
        &mut self,
        bin: Arith,
        op_tok: &Tok,
        lhs: Operand,
        rhs: Operand,
    ) -> Result<Operand, ExprError> {
        let sym = self.tok_text(op_tok);
        let (l, r) = (lhs.ty, rhs.ty);
        let both_int = l == Type::Int && r == Type::Int;
        let (op, ty) = match bin {
            Arith::Cmp(c @ (CmpOp::Eq | CmpOp::Ne)) => {
                if is_num(l) && is_num(r) {
                    if both_int {
                        (Op::CmpI(c), Type::Bool)
                    } else {
                        self.promote(&lhs, 1);
                        self.promote(&rhs, 0);
                        (Op::CmpF(c), Type::Bool)
                    }
                } else if l == r {
                    (if c == CmpOp::Eq { Op::Eq } else { Op::Ne }, Type::Bool)
                } else {
                    return Err(self.err_tok(
                        op_tok,
                        format!("`{sym}` cannot compare {l} with {r}; both sides must have the same type"),
                    ));
                }
            }
            Arith::Cmp(c) => {
                for (o, side) in [(&lhs, "left"), (&rhs, "right")] {
                    if !is_num(o.ty) {
                        return Err(Self::err_op(
                            o,
                            format!(
                                "`{sym}` compares numbers only, found {} on the {side}",
                                o.ty
                            ),
                        ));
                    }
                }
                if both_int {
                    (Op::CmpI(c), Type::Bool)
                } else {
                    self.promote(&lhs, 1);
                    self.promote(&rhs, 0);
                    (Op::CmpF(c), Type::Bool)
                }
            }
            Arith::Ar(a) => {
                let allowed = |t: Type| is_num(t) || (t == Type::Vec2 && a != ArOp::Mod);
                for (o, side) in [(&lhs, "left"), (&rhs, "right")] {
                    if !allowed(o.ty) {
                        let what = if a == ArOp::Mod {
                            "numbers"
                        } else {
                            "numbers or vec2 values"
                        };
                        return Err(Self::err_op(
                            o,
                            format!("`{sym}` needs {what}, found {} on the {side}", o.ty),
                        ));
                    }
                }
                match (a, is_num(l), is_num(r)) {
                    (_, true, true) if both_int => (Op::ArI(a), Type::Int),
                    (_, true, true) => {
                        self.promote(&lhs, 1);
                        self.promote(&rhs, 0);
                        (Op::ArF(a), Type::Float)
                    }
                    (ArOp::Add, false, false) => (Op::AddV, Type::Vec2),
                    (ArOp::Sub, false, false) => (Op::SubV, Type::Vec2),
                    (ArOp::Mul, false, true) => {
                        self.promote(&rhs, 0);
                        (Op::MulVF, Type::Vec2)
                    }
                    (ArOp::Mul, true, false) => {
                        self.promote(&lhs, 1);
                        (Op::MulFV, Type::Vec2)
                    }
                    (ArOp::Div, false, true) => {
                        self.promote(&rhs, 0);
                        (Op::DivVF, Type::Vec2)
                    }
                    _ => {
                        let hint = match a {
                            ArOp::Add | ArOp::Sub => "both sides must be numbers or both vec2",
                            ArOp::Mul => "a vec2 can only be multiplied by a number",
                            _ => "a vec2 can only be divided by a number",
                        };
                        return Err(self.err_tok(
                            op_tok,
                            format!("`{sym}` cannot combine {l} and {r}: {hint}"),
                        ));
                    }
                }
            }
        };
        self.emit(op);
        Ok(self.result(ty, lhs.code_start, lhs.start, rhs.end))
    }

    fn parse_unary(&mut self) -> Result<Operand, ExprError> {
        let t = self.peek().clone();
        if !matches!(t.kind, Tk::Bang | Tk::Minus) {
            return self.parse_primary();
        }
        self.bump();
        self.enter(&t)?;
        let inner = self.parse_unary()?;
        self.leave();
        let (start, end) = (t.start, inner.end);
        if t.kind == Tk::Bang {
            if inner.ty != Type::Bool {
                return Err(Self::err_op(
                    &inner,
                    format!("`!` needs a bool, found {}", inner.ty),
                ));
            }
            self.emit(Op::Not);
            return Ok(self.result(Type::Bool, inner.code_start, start, end));
        }
        if let Some(v) = self.lone_const(&inner) {
            match *v {
                Value::Int(k) => *v = Value::Int(k.wrapping_neg()),
                Value::Float(k) => *v = Value::Float(-k),
                _ => {}
            }
            if is_num(inner.ty) {
                return Ok(self.result(inner.ty, inner.code_start, start, end));
            }
        }
        let op = match inner.ty {
            Type::Int => Op::NegI,
            Type::Float => Op::NegF,
            Type::Vec2 => Op::NegV,
            other => {
                return Err(Self::err_op(
                    &inner,
                    format!("`-` needs a number or vec2, found {other}"),
                ));
            }
        };
        self.emit(op);
        Ok(self.result(inner.ty, inner.code_start, start, end))
    }

    fn parse_primary(&mut self) -> Result<Operand, ExprError> {
        let after = self.after_prev();
        let t = self.bump();
        let (start, end) = (t.start, t.end());
        match &t.kind {
            Tk::Int(k) => self.leaf(Op::Const(Value::Int(*k)), Type::Int, start, end),
            Tk::Float(f) => self.leaf(Op::Const(Value::Float(*f)), Type::Float, start, end),
            Tk::Str(s) => {
                let sym = self.resolver.intern(s);
                self.leaf(Op::Const(Value::Str(sym)), Type::Str, start, end)
            }
            Tk::LParen => {
                self.enter(&t)?;
                let mut inner = self.parse_bin(0)?;
                let close = self.peek().clone();
                if close.kind != Tk::RParen {
                    return Err(self.err_tok(
                        &close,
                        format!(
                            "expected `)` to close the `(` at column {}, found {}",
                            start + 1,
                            self.describe(&close)
                        ),
                    ));
                }
                self.bump();
                self.leave();
                inner.start = start;
                inner.end = close.end();
                Ok(inner)
            }
            Tk::Ident(name) => self.ident(&t, name),
            Tk::Eof => Err(self.err_tok(
                &t,
                format!("expected a value{after}, found the end of the expression"),
            )),
            _ => Err(self.err_tok(
                &t,
                format!(
                    "expected a value (a number, variable, function call or `(`){after}, \
                     found {}",
                    self.describe(&t)
                ),
            )),
        }
    }

    fn ident(&mut self, t: &Tok, name: &str) -> Result<Operand, ExprError> {
        let next = self.peek().clone();
        if next.kind == Tk::Dot {
            let scope = match name {
                "area" => Scope::Area,
                "flags" | "flag" => Scope::Flag,
                "counters" | "counter" => Scope::Counter,
                _ => {
                    return Err(ExprError::new(
                        t.start,
                        next.end() - t.start,
                        format!(
                            "unknown scope `{name}.`; use `area.`, `flags.` or `counters.` \
                             (plain names are blackboard variables)"
                        ),
                    ));
                }
            };
            self.bump();
            let nt = self.bump();
            let Tk::Ident(var) = &nt.kind else {
                return Err(self.err_tok(
                    &nt,
                    format!(
                        "expected a variable name after `{name}.`, found {}",
                        self.describe(&nt)
                    ),
                ));
            };
            return self.var(scope, var, t.start, nt.end());
        }
        if next.kind == Tk::LParen {
            return match FUNCS.iter().find(|(n, _, _)| *n == name) {
                Some(&(_, f, sig)) => self.call(t, name, f, sig),
                None => {
                    let names: Vec<&str> = FUNCS.iter().map(|(n, _, _)| *n).collect();
                    Err(self.err_tok(
                        t,
                        format!(
                            "unknown function `{name}`; available functions: {}",
                            names.join(", ")
                        ),
                    ))
                }
            };
        }
        match name {
            "true" => self.leaf(Op::Const(Value::Bool(true)), Type::Bool, t.start, t.end()),
            "false" => self.leaf(Op::Const(Value::Bool(false)), Type::Bool, t.start, t.end()),
            "self" => self.leaf(Op::SelfEntity, Type::Entity, t.start, t.end()),
            "subject" => self.leaf(Op::Subject, Type::Entity, t.start, t.end()),
            // `self`'s health, unless the blackboard declares a variable of that name.
            "health" if self.resolver.var(Scope::Blackboard, "health").is_none() => {
                self.leaf(Op::HealthSelf, Type::Float, t.start, t.end())
            }
            _ => self.var(Scope::Blackboard, name, t.start, t.end()),
        }
    }

    fn var(
        &mut self,
        scope: Scope,
        name: &str,
        start: usize,
        end: usize,
    ) -> Result<Operand, ExprError> {
        let Some((slot, ty)) = self.resolver.var(scope, name) else {
            let msg = match scope {
                Scope::Blackboard => {
                    let hint = match name {
                        "and" => "; use `&&` for \"and\"",
                        "or" => "; use `||` for \"or\"",
                        "not" => "; use `!` for \"not\"",
                        _ => "",
                    };
                    format!(
                        "unknown variable `{name}` (not declared in the tree's blackboard){hint}"
                    )
                }
                Scope::Area => {
                    format!("unknown area variable `area.{name}` (not declared by the area)")
                }
                Scope::Flag => {
                    format!("unknown flag `flags.{name}` (not declared in the pack's world flags)")
                }
                Scope::Counter => format!(
                    "unknown counter `counters.{name}` (not declared in the pack's world counters)"
                ),
            };
            return Err(ExprError::new(start, end - start, msg));
        };
        if !self.refs.iter().any(|(s, n)| *s == scope && n == name) {
            self.refs.push((scope, name.to_string()));
        }
        self.leaf(Op::Var(scope, slot), ty, start, end)
    }

    fn call(
        &mut self,
        name_tok: &Tok,
        name: &str,
        f: Func,
        sig: &str,
    ) -> Result<Operand, ExprError> {
        self.enter(name_tok)?;
        let open = self.bump(); // `(`, checked by the caller
        let start = name_tok.start;
        if matches!(
            f,
            Func::Entity | Func::HasTag | Func::Holders | Func::SubjectHas
        ) {
            let arg = self.bump();
            let Tk::Str(id) = &arg.kind else {
                return Err(self.err_tok(
                    &arg,
                    format!(
                        "`{name}` needs a string literal, e.g. {sig}, found {}",
                        self.describe(&arg)
                    ),
                ));
            };
            let close = self.bump();
            if close.kind != Tk::RParen {
                return Err(self.err_tok(
                    &close,
                    format!(
                        "expected `)` after the entity id, found {}",
                        self.describe(&close)
                    ),
                ));
            }
            self.leave();
            if f == Func::HasTag {
                let tag = self.resolver.intern(id);
                return self.leaf(Op::HasTag(tag), Type::Bool, start, close.end());
            }
            if f == Func::SubjectHas {
                let tag = self.resolver.intern(id);
                return self.leaf(Op::SubjectHas(tag), Type::Bool, start, close.end());
            }
            if f == Func::Holders {
                let name = self.resolver.intern(id);
                return self.leaf(Op::Holders(name), Type::Int, start, close.end());
            }
            return match self.resolver.entity(id) {
                Some(e) => self.leaf(
                    Op::Const(Value::Entity(e)),
                    Type::Entity,
                    start,
                    close.end(),
                ),
                None => Err(self.err_tok(&arg, format!("unknown entity `{id}`"))),
            };
        }
        let mut args: Vec<Operand> = Vec::new();
        if self.peek().kind != Tk::RParen {
            loop {
                args.push(self.parse_bin(0)?);
                let t = self.peek().clone();
                match t.kind {
                    Tk::Comma => {
                        self.bump();
                    }
                    Tk::RParen => break,
                    _ => {
                        return Err(self.err_tok(
                            &t,
                            format!(
                                "expected `,` or `)` in the call to `{name}` (opened at column {}), \
                                 found {}",
                                open.start + 1,
                                self.describe(&t)
                            ),
                        ));
                    }
                }
            }
        }
        let close = self.bump(); // `)`
        self.leave();
        let end = close.end();
        if args.len() != f.arity() {
            let n = f.arity();
            return Err(ExprError::new(
                start,
                end - start,
                format!(
                    "`{name}` takes {n} argument{} ({sig}), found {}",
                    if n == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let check = |i: usize, o: &Operand, ok: fn(Type) -> bool, want: &str| {
            if ok(o.ty) {
                Ok(())
            } else {
                Err(Self::err_op(
                    o,
                    format!(
                        "argument {} of `{name}` must be {want}, found {}",
                        i + 1,
                        o.ty
                    ),
                ))
            }
        };
        for (i, a) in args.iter().enumerate() {
            match f {
                Func::Distance => check(
                    i,
                    a,
                    |t| matches!(t, Type::Vec2 | Type::Entity),
                    "a vec2 or an entity",
                )?,
                Func::Pos | Func::Health | Func::Alive => {
                    check(i, a, |t| t == Type::Entity, "an entity")?
                }
                _ => check(i, a, is_num, "a number")?,
            }
        }
        let n = args.len();
        let all_int = args.iter().all(|a| a.ty == Type::Int);
        let promote_all = |p: &mut Self| {
            for (i, a) in args.iter().enumerate() {
                // At most 3 arguments, so the depth fits in u8.
                p.promote(a, (n - 1 - i) as u8);
            }
        };
        let (op, ty) = match f {
            Func::Distance => (Some(Op::Distance), Type::Float),
            Func::Pos => (Some(Op::Pos), Type::Vec2),
            Func::Health => (Some(Op::Health), Type::Float),
            Func::Alive => (Some(Op::Alive), Type::Bool),
            Func::Vec2 => {
                promote_all(self);
                (Some(Op::MakeVec2), Type::Vec2)
            }
            Func::Hour => return self.leaf(Op::Hour, Type::Float, start, end),
            Func::Day => return self.leaf(Op::Day, Type::Int, start, end),
            Func::Abs | Func::Min | Func::Max | Func::Clamp if all_int => (
                Some(match f {
                    Func::Abs => Op::AbsI,
                    Func::Min => Op::MinI,
                    Func::Max => Op::MaxI,
                    _ => Op::ClampI,
                }),
                Type::Int,
            ),
            Func::Abs | Func::Min | Func::Max | Func::Clamp => {
                promote_all(self);
                (
                    Some(match f {
                        Func::Abs => Op::AbsF,
                        Func::Min => Op::MinF,
                        Func::Max => Op::MaxF,
                        _ => Op::ClampF,
                    }),
                    Type::Float,
                )
            }
            Func::Floor | Func::Ceil | Func::Sqrt => {
                promote_all(self);
                (
                    Some(match f {
                        Func::Floor => Op::Floor,
                        Func::Ceil => Op::Ceil,
                        _ => Op::Sqrt,
                    }),
                    Type::Float,
                )
            }
            // Handled above.
            Func::Entity | Func::HasTag | Func::Holders | Func::SubjectHas => (None, Type::Entity),
        };
        if let Some(op) = op {
            self.emit(op);
        }
        let code_start = args.first().map_or(self.code.len(), |a| a.code_start);
        Ok(self.result(ty, code_start, start, end))
    }
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    const VARS: &[(Scope, &str, Type)] = &[
        (Scope::Blackboard, "a", Type::Bool),        // 0
        (Scope::Blackboard, "b", Type::Bool),        // 1
        (Scope::Blackboard, "c", Type::Bool),        // 2
        (Scope::Blackboard, "d", Type::Int),         // 3
        (Scope::Blackboard, "x", Type::Float),       // 4
        (Scope::Blackboard, "n", Type::Int),         // 5
        (Scope::Blackboard, "name", Type::Str),      // 6
        (Scope::Blackboard, "target", Type::Entity), // 7
        (Scope::Blackboard, "spot", Type::Vec2),     // 8
        (Scope::Area, "open", Type::Bool),           // 9
        (Scope::Area, "crowd", Type::Int),           // 10
        (Scope::Flag, "raining", Type::Bool),        // 11
        (Scope::Counter, "bread", Type::Int),        // 12
        (Scope::Blackboard, "y", Type::Float),       // 13
        (Scope::Blackboard, "other", Type::Vec2),    // 14
    ];

    #[derive(Default)]
    struct TR {
        strings: Vec<String>,
    }

    impl Resolver for TR {
        fn var(&mut self, scope: Scope, name: &str) -> Option<(u32, Type)> {
            VARS.iter()
                .position(|(s, n, _)| *s == scope && *n == name)
                .map(|i| (i as u32, VARS[i].2))
        }
        fn intern(&mut self, s: &str) -> Sym {
            if let Some(i) = self.strings.iter().position(|x| x == s) {
                return Sym(i as u32);
            }
            self.strings.push(s.to_string());
            Sym(self.strings.len() as u32 - 1)
        }
        fn entity(&mut self, id: &str) -> Option<EntityId> {
            match id {
                "guard_2" => Some(EntityId::Npc(2)),
                "well" => Some(EntityId::Object(0)),
                _ => None,
            }
        }
    }

    struct TE {
        vals: Vec<Value>,
        reads: Vec<Cell<u32>>,
        me: EntityId,
        positions: Vec<(EntityId, Vec2)>,
    }

    impl TE {
        fn new() -> TE {
            let mut vals: Vec<Value> = VARS.iter().map(|v| Value::default_of(v.2)).collect();
            vals[0] = Value::Bool(true);
            vals[3] = Value::Int(3);
            vals[4] = Value::Float(0.7);
            vals[5] = Value::Int(-4);
            vals[7] = Value::Entity(EntityId::Npc(2));
            vals[8] = Value::Vec2(Vec2::new(3.0, 4.0));
            vals[14] = Value::Vec2(Vec2::new(1.0, 1.0));
            TE {
                reads: VARS.iter().map(|_| Cell::new(0)).collect(),
                vals,
                me: EntityId::Npc(1),
                positions: vec![
                    (EntityId::Npc(1), Vec2::new(0.0, 0.0)),
                    (EntityId::Npc(2), Vec2::new(6.0, 8.0)),
                ],
            }
        }
        fn set(&mut self, name: &str, v: Value) {
            let i = VARS.iter().position(|(_, n, _)| *n == name).unwrap();
            self.vals[i] = v;
        }
        fn reads(&self, name: &str) -> u32 {
            let i = VARS.iter().position(|(_, n, _)| *n == name).unwrap();
            self.reads[i].get()
        }
    }

    impl Env for TE {
        fn var(&self, _scope: Scope, slot: u32) -> Value {
            let c = &self.reads[slot as usize];
            c.set(c.get() + 1);
            self.vals[slot as usize]
        }
        fn self_entity(&self) -> EntityId {
            self.me
        }
        fn position(&self, e: EntityId) -> Option<Vec2> {
            self.positions.iter().find(|p| p.0 == e).map(|p| p.1)
        }
        fn hour(&self) -> f64 {
            13.5
        }
        fn day(&self) -> i64 {
            7
        }
    }

    fn c(src: &str) -> Expr {
        Expr::compile(src, &mut TR::default())
            .unwrap_or_else(|e| panic!("`{src}` failed to compile: {e}"))
    }

    fn ev(src: &str) -> Value {
        let e = c(src);
        let env = TE::new();
        let v = e.eval(&env);
        // Compare via Debug so that NaN equals NaN.
        let g = e.eval_general(&env);
        assert_eq!(
            format!("{v:?}"),
            format!("{g:?}"),
            "fast/general mismatch: `{src}`"
        );
        assert_eq!(v.ty(), e.ty(), "static/dynamic type mismatch for `{src}`");
        v
    }

    fn err(src: &str) -> ExprError {
        match Expr::compile(src, &mut TR::default()) {
            Ok(_) => panic!("`{src}` compiled but should not"),
            Err(e) => e,
        }
    }

    fn err_has(src: &str, needle: &str) -> ExprError {
        let e = err(src);
        assert!(
            e.message.contains(needle),
            "`{src}`: message {:?} lacks {needle:?}",
            e.message
        );
        e
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(ev("1 + 2 * 3"), Value::Int(7));
        assert_eq!(ev("(1 + 2) * 3"), Value::Int(9));
        assert_eq!(ev("10 - 4 - 3"), Value::Int(3));
        assert_eq!(ev("100 / 10 / 5"), Value::Int(2));
        assert_eq!(ev("2 * 7 % 4"), Value::Int(2));
        assert_eq!(ev("-2 * 3"), Value::Int(-6));
        assert_eq!(ev("- d * 2"), Value::Int(-6));
        assert_eq!(ev("true || false && false"), Value::Bool(true));
        assert_eq!(ev("(true || false) && false"), Value::Bool(false));
        assert_eq!(ev("1 < 2 == true"), Value::Bool(true));
        assert_eq!(ev("1 + 1 == 2 && 3 > 2"), Value::Bool(true));
        assert_eq!(ev("!a || b"), Value::Bool(false));
        assert_eq!(ev("!!a"), Value::Bool(true));
        assert_eq!(ev("false == false == true"), Value::Bool(true));
        assert_eq!(ev("  ( ( d ) )  "), Value::Int(3));
    }

    #[test]
    fn short_circuit() {
        let e = c("a && b");
        let mut env = TE::new();
        env.set("a", Value::Bool(false));
        assert!(!e.eval_bool(&env));
        assert_eq!(env.reads("b"), 0);
        env.set("a", Value::Bool(true));
        assert!(!e.eval_bool(&env));
        assert_eq!(env.reads("b"), 1);

        let e = c("a || b");
        let env = TE::new(); // a = true
        assert!(e.eval_bool(&env));
        assert_eq!(env.reads("b"), 0);

        let e = c("a || b && c || n > 0");
        let env = TE::new();
        assert!(e.eval_bool(&env));
        assert_eq!(env.reads("b") + env.reads("c") + env.reads("n"), 0);

        let e = c("!a && (b || c) && d > 2");
        let env = TE::new();
        assert!(!e.eval_bool(&env));
        assert_eq!(env.reads("b") + env.reads("c") + env.reads("d"), 0);
    }

    #[test]
    fn int_float_promotion() {
        assert_eq!(ev("1 + 0.5"), Value::Float(1.5));
        assert_eq!(ev("0.5 + 1"), Value::Float(1.5));
        assert_eq!(ev("7 / 2"), Value::Int(3));
        assert_eq!(ev("7 / 2.0"), Value::Float(3.5));
        assert_eq!(ev("d * x"), Value::Float(3.0 * 0.7));
        assert_eq!(ev("d == 3.0"), Value::Bool(true));
        assert_eq!(ev("3.0 == d"), Value::Bool(true));
        assert_eq!(ev("x > 0"), Value::Bool(true));
        assert_eq!(ev("d > 2.5"), Value::Bool(true));
        assert_eq!(ev("-7 % 3"), Value::Int(-1));
        assert_eq!(ev("7.5 % 2"), Value::Float(1.5));
        assert_eq!(ev("1e3"), Value::Float(1000.0));
        assert_eq!(ev("2.5e-1"), Value::Float(0.25));
        assert_eq!(c("d + 1").ty(), Type::Int);
        assert_eq!(c("d + x").ty(), Type::Float);
        assert_eq!(c("d > x").ty(), Type::Bool);
        assert_eq!(ev("1 != 1.5"), Value::Bool(true));
    }

    #[test]
    fn division_by_zero_and_overflow_never_panic() {
        assert_eq!(ev("1 / 0"), Value::Int(0));
        assert_eq!(ev("d / (d - 3)"), Value::Int(0));
        assert_eq!(ev("1 % 0"), Value::Int(0));
        assert_eq!(ev("1.0 / 0"), Value::Float(f64::INFINITY));
        assert!(ev("0.0 / 0").as_f64().is_nan());
        assert!(ev("1 % 0.0").as_f64().is_nan());
        assert_eq!(ev("9223372036854775807 + 1"), Value::Int(i64::MIN));
        assert_eq!(ev("(-9223372036854775807 - 1) / -1"), Value::Int(i64::MIN));
        assert_eq!(ev("(-9223372036854775807 - 1) % -1"), Value::Int(0));
        assert_eq!(ev("-(-9223372036854775807 - 1)"), Value::Int(i64::MIN));
        assert_eq!(ev("abs(-9223372036854775807 - 1)"), Value::Int(i64::MIN));
        assert_eq!(ev("9223372036854775807 * 2"), Value::Int(-2));
        assert!(ev("sqrt(-1)").as_f64().is_nan());
        assert_eq!(ev("clamp(5, 10, 0)"), Value::Int(0));
        assert_eq!(ev("clamp(0.5, 1, 0)"), Value::Float(0.0));
        assert!(matches!(ev("clamp(0.0 / 0, 0, 1)"), Value::Float(_)));
    }

    #[test]
    fn functions() {
        assert_eq!(ev("distance(spot, other)"), Value::Float(13f64.sqrt()));
        assert_eq!(ev("distance(self, target)"), Value::Float(10.0));
        assert_eq!(ev("distance(self, spot)"), Value::Float(5.0));
        assert_eq!(ev("distance(spot, self)"), Value::Float(5.0));
        assert_eq!(
            ev("distance(self, entity(\"well\"))"),
            Value::Float(f64::INFINITY)
        );
        assert_eq!(
            ev("distance(entity(\"well\"), entity(\"well\"))"),
            Value::Float(f64::INFINITY)
        );
        assert_eq!(ev("pos(target)"), Value::Vec2(Vec2::new(6.0, 8.0)));
        assert_eq!(ev("pos(entity(\"well\"))"), Value::Vec2(Vec2::ZERO));
        assert_eq!(ev("vec2(1, 2.5)"), Value::Vec2(Vec2::new(1.0, 2.5)));
        assert_eq!(ev("vec2(d, -d)"), Value::Vec2(Vec2::new(3.0, -3.0)));
        assert_eq!(ev("hour()"), Value::Float(13.5));
        assert_eq!(ev("day()"), Value::Int(7));
        assert_eq!(ev("day() + 1"), Value::Int(8));
        assert_eq!(ev("abs(-3)"), Value::Int(3));
        assert_eq!(ev("abs(n)"), Value::Int(4));
        assert_eq!(ev("abs(-2.5)"), Value::Float(2.5));
        assert_eq!(ev("min(1, 2)"), Value::Int(1));
        assert_eq!(ev("min(d, 2.5)"), Value::Float(2.5));
        assert_eq!(ev("max(1, 2)"), Value::Int(2));
        assert_eq!(ev("max(1, x)"), Value::Float(1.0));
        assert_eq!(ev("clamp(5, 0, 3)"), Value::Int(3));
        assert_eq!(ev("clamp(-5, 0, 3)"), Value::Int(0));
        assert_eq!(ev("clamp(x, 0, 0.5)"), Value::Float(0.5));
        assert_eq!(ev("clamp(d, 0.5, 10)"), Value::Float(3.0));
        assert_eq!(ev("clamp(d + 1, 0, n + 10)"), Value::Int(4));
        assert_eq!(ev("floor(2.7)"), Value::Float(2.0));
        assert_eq!(ev("floor(d)"), Value::Float(3.0));
        assert_eq!(ev("ceil(2.1)"), Value::Float(3.0));
        assert_eq!(ev("ceil(2)"), Value::Float(2.0));
        assert_eq!(ev("sqrt(16)"), Value::Float(4.0));
        assert_eq!(ev("sqrt(x * 0)"), Value::Float(0.0));
        assert_eq!(ev("entity(\"guard_2\") == target"), Value::Bool(true));
        assert_eq!(ev("entity(\"well\")"), Value::Entity(EntityId::Object(0)));
        assert_eq!(ev("self != target"), Value::Bool(true));
        assert_eq!(ev("self"), Value::Entity(EntityId::Npc(1)));
        // vec2 arithmetic
        assert_eq!(ev("spot + other"), Value::Vec2(Vec2::new(4.0, 5.0)));
        assert_eq!(ev("spot - other"), Value::Vec2(Vec2::new(2.0, 3.0)));
        assert_eq!(ev("spot * 2"), Value::Vec2(Vec2::new(6.0, 8.0)));
        assert_eq!(ev("0.5 * spot"), Value::Vec2(Vec2::new(1.5, 2.0)));
        assert_eq!(ev("d * spot"), Value::Vec2(Vec2::new(9.0, 12.0)));
        assert_eq!(ev("spot / 2"), Value::Vec2(Vec2::new(1.5, 2.0)));
        assert_eq!(ev("-spot"), Value::Vec2(Vec2::new(-3.0, -4.0)));
        assert_eq!(ev("spot == vec2(3, 4)"), Value::Bool(true));
        assert_eq!(
            ev("distance(pos(self) + vec2(3, 4), spot) < 0.001"),
            Value::Bool(true)
        );
        // strings
        let mut r = TR::default();
        let e = Expr::compile("name == \"bob\" || name != \"a\\\"b\\\\\"", &mut r).unwrap();
        assert_eq!(r.strings, vec!["bob".to_string(), "a\"b\\".to_string()]);
        let mut env = TE::new();
        env.set("name", Value::Str(Sym(0)));
        assert!(e.eval_bool(&env));
        env.set("name", Value::Str(Sym(1)));
        assert!(!e.eval_bool(&env));
        // scoped variables
        assert_eq!(
            ev("area.open || flags.raining || flag.raining"),
            Value::Bool(false)
        );
        assert_eq!(
            ev("area.crowd + counters.bread + counter.bread"),
            Value::Int(0)
        );
    }

    #[test]
    fn type_errors() {
        let e = err_has(
            "a && 1.5",
            "`&&` needs bool operands, found float on the right",
        );
        assert_eq!((e.offset, e.len), (5, 3));
        let e = err_has(
            "1.5 || a",
            "`||` needs bool operands, found float on the left",
        );
        assert_eq!((e.offset, e.len), (0, 3));
        err_has("!3", "`!` needs a bool, found int");
        err_has("-a", "`-` needs a number or vec2, found bool");
        err_has("-name", "found string");
        let e = err_has(
            "name < 3",
            "`<` compares numbers only, found string on the left",
        );
        assert_eq!((e.offset, e.len), (0, 4));
        err_has("3 >= spot", "found vec2 on the right");
        let e = err_has("a == 1", "`==` cannot compare bool with int");
        assert_eq!((e.offset, e.len), (2, 2));
        err_has("target != spot", "`!=` cannot compare entity with vec2");
        err_has("spot + 1", "`+` cannot combine vec2 and int");
        err_has("spot * spot", "a vec2 can only be multiplied by a number");
        err_has("1 / spot", "a vec2 can only be divided by a number");
        err_has("spot % 2", "`%` needs numbers, found vec2 on the left");
        err_has(
            "name + name",
            "`+` needs numbers or vec2 values, found string on the left",
        );
        err_has("1 - true", "found bool on the right");
        err_has("target * 2", "found entity on the left");
        let e = err_has(
            "distance(1, spot)",
            "argument 1 of `distance` must be a vec2 or an entity, found int",
        );
        assert_eq!((e.offset, e.len), (9, 1));
        err_has(
            "pos(spot)",
            "argument 1 of `pos` must be an entity, found vec2",
        );
        err_has(
            "vec2(a, 1)",
            "argument 1 of `vec2` must be a number, found bool",
        );
        err_has("abs(name)", "must be a number, found string");
        err_has("min(spot, 1)", "must be a number, found vec2");
        err_has("max(1, a)", "argument 2 of `max`");
        err_has("clamp(1, 2, self)", "argument 3 of `clamp`");
        err_has("floor(a)", "`floor`");
        err_has("ceil(a)", "`ceil`");
        err_has("sqrt(a)", "`sqrt`");
        let e = err_has(
            "1 + clamp(1, 2)",
            "`clamp` takes 3 arguments (clamp(x, lo, hi)), found 2",
        );
        assert_eq!((e.offset, e.len), (4, 11));
        err_has("hour(1)", "`hour` takes 0 arguments");
        err_has("day(1, 2)", "`day` takes 0 arguments");
        err_has("abs()", "`abs` takes 1 argument (abs(x)), found 0");
        err_has("distance(self)", "takes 2 arguments");
        err_has("entity(name)", "`entity` needs a string literal");
        err_has("entity(\"a\", 1)", "expected `)` after the entity id");
        let e = err_has("target == entity(\"nobody\")", "unknown entity `nobody`");
        assert_eq!((e.offset, e.len), (17, 8));
        let e = err_has("a && frob(1)", "unknown function `frob`");
        assert_eq!((e.offset, e.len), (5, 4));

        let mut r = TR::default();
        let e = Expr::compile_typed("x", Type::Bool, &mut r).unwrap_err();
        assert!(
            e.message.contains("expected a bool expression"),
            "{}",
            e.message
        );
        assert_eq!((e.offset, e.len), (0, 1));
        let e = Expr::compile_typed(" d + 1 ", Type::Str, &mut r).unwrap_err();
        assert_eq!((e.offset, e.len), (1, 5));
        assert!(Expr::compile_typed("x", Type::Int, &mut r).is_err());
        let e = Expr::compile_typed("d + 1", Type::Float, &mut r).unwrap();
        assert_eq!(e.ty(), Type::Float);
        assert_eq!(e.eval(&TE::new()), Value::Float(4.0));
        let e = Expr::compile_typed("2", Type::Float, &mut r).unwrap();
        assert_eq!(e.eval(&TE::new()), Value::Float(2.0));
        assert!(e.is_fast());
        let e = Expr::compile_typed("a && b", Type::Bool, &mut r).unwrap();
        assert_eq!(e.ty(), Type::Bool);
    }

    #[test]
    fn error_offsets_and_syntax_errors() {
        let e = err_has(
            "a && hungr > 1",
            "unknown variable `hungr` (not declared in the tree's blackboard)",
        );
        assert_eq!((e.offset, e.len), (5, 5));
        assert_eq!(e.to_string(), format!("column 6: {}", e.message));
        let e = err_has("a || area.nope", "unknown area variable `area.nope`");
        assert_eq!((e.offset, e.len), (5, 9));
        err_has("flags.nope", "unknown flag `flags.nope`");
        err_has("counter.nope", "unknown counter `counters.nope`");
        err_has("a and b", "`and` is not an operator; use `&&`");
        err_has("and", "use `&&`");
        let e = err_has("bb.x", "unknown scope `bb.`");
        assert_eq!((e.offset, e.len), (0, 3));
        err_has(
            "area.",
            "expected a variable name after `area.`, found the end",
        );
        err_has("area.3", "expected a variable name after `area.`");
        // Character, not byte, offsets.
        let e = err_has("\"é€\" == name && zz", "unknown variable `zz`");
        assert_eq!((e.offset, e.len), (16, 2));

        let e = err_has("name == \"abc", "unterminated string");
        assert_eq!((e.offset, e.len), (8, 4));
        err_has("\"abc\\", "unterminated string");
        let e = err_has("\"a\\qb\"", "unknown escape `\\q`");
        assert_eq!((e.offset, e.len), (2, 2));

        let e = err_has(
            "(a && b",
            "expected `)` to close the `(` at column 1, found the end",
        );
        assert_eq!(e.offset, 7);
        let e = err_has(
            "a && (b || (c)",
            "expected `)` to close the `(` at column 6",
        );
        assert_eq!(e.offset, 14);
        let e = err_has("a)", "unmatched `)`");
        assert_eq!(e.offset, 1);
        let e = err_has(
            "a &&",
            "expected a value after `&&`, found the end of the expression",
        );
        assert_eq!(e.offset, 4);
        let e = err_has(
            "a && || b",
            "expected a value (a number, variable, function call or `(`) after `&&`, found `||`",
        );
        assert_eq!((e.offset, e.len), (5, 2));
        err_has("a b", "unexpected `b` after a complete expression");
        err_has("()", "found `)`");
        err_has("min(1 2)", "expected `,` or `)` in the call to `min`");
        err_has("min(1,)", "after `,`, found `)`");
        err_has("min(1", "expected `,` or `)`");
        let e = err_has("a & b", "use `&&`");
        assert_eq!(e.offset, 2);
        err_has("a | b", "use `||`");
        err_has("d = 1", "use `==`");
        err_has("name == 'x'", "double quotes");
        err_has("d # 1", "unexpected character `#`");
        err_has("1e", "exponent without digits");
        err_has("1e+", "exponent without digits");
        err_has("3x", "right after the number `3`");
        err_has("1.", "unexpected `.`");
        err_has("99999999999999999999", "too large");
        err_has("", "empty expression");
        err_has("   ", "empty expression");
        err_has(".5", "found `.`");
        err_has("true(1)", "unknown function `true`");
    }

    #[test]
    fn limits_never_crash() {
        let deep = "(".repeat(100_000);
        let e = err_has(&deep, "too long");
        assert_eq!(e.offset, MAX_SOURCE_CHARS);
        let deep = format!("{}1{}", "(".repeat(2000), ")".repeat(2000));
        let e = err_has(&deep, "nested too deeply");
        assert_eq!(e.offset, MAX_NESTING);
        err_has(&format!("{}a", "!".repeat(4000)), "nested too deeply");
        err_has(&format!("{}d", "-".repeat(4000)), "nested too deeply");
        err_has(
            &format!("{}1{}", "abs(".repeat(500), ")".repeat(500)),
            "nested too deeply",
        );
        err_has(&"(".repeat(4096), "nested too deeply");
        // Within the nesting limit is fine.
        let ok = format!("{}d{}", "(".repeat(60), ")".repeat(60));
        assert_eq!(ev(&ok), Value::Int(3));
        assert_eq!(ev(&format!("{}a", "!".repeat(60))), Value::Bool(true));
        // Stack limit: right-nested sums need one slot per level.
        let sum = |k: usize| format!("{}1{}", "1 + (".repeat(k), ")".repeat(k));
        assert_eq!(ev(&sum(31)), Value::Int(32));
        let e = err_has(&sum(32), "too complex");
        assert_eq!(e.offset, 32 * 5);
        // Long flat chains are fine (no recursion per operator).
        let chain = ["d"; 1000].join(" + ");
        assert_eq!(ev(&chain), Value::Int(3000));
        let chain = ["a"; 800].join(" && ");
        assert_eq!(ev(&chain), Value::Bool(true));
    }

    #[test]
    fn fast_path_matches_general_path() {
        let fast_pairs = [
            ("x > 0.5", "(x) > (0.5 + 0.0)"),
            ("x <= 0.7", "(x) <= (0.7 + 0.0)"),
            ("d == 3", "(d) == (3 + 0)"),
            ("d != 3", "(d) != (3 + 0)"),
            ("n < -1", "(n) < (0 - 1)"),
            ("d >= 2.5", "(d + 0) >= 2.5"),
            ("x > 0", "x > (0 + 0)"),
            ("a", "a || false"),
            ("!a", "!(a && true)"),
            (
                "target == entity(\"guard_2\")",
                "target == entity(\"guard_2\") || false",
            ),
            ("name != \"s\"", "!(name == \"s\")"),
            ("flags.raining", "flags.raining || false"),
            ("a && x > 0.5 && d == 3", "a && (x > 0.5 + 0.0) && d == 3"),
            (
                "!a && (flags.raining && n < 0)",
                "!a && (flags.raining && n < 0 + 0)",
            ),
        ];
        let floats = [-1.0, 0.0, 0.5, 0.7, 2.5, f64::NAN, f64::INFINITY, -0.0];
        let ints = [-4, -1, 0, 2, 3, i64::MAX];
        for (fast_src, slow_src) in fast_pairs {
            let fast = c(fast_src);
            let slow = c(slow_src);
            assert!(fast.is_fast(), "`{fast_src}` should use the fast path");
            assert!(!slow.is_fast(), "`{slow_src}` should use the general path");
            for (i, &f) in floats.iter().enumerate() {
                let mut env = TE::new();
                env.set("x", Value::Float(f));
                env.set("d", Value::Int(ints[i % ints.len()]));
                env.set("n", Value::Int(ints[(i + 2) % ints.len()]));
                env.set("a", Value::Bool(i % 2 == 0));
                env.set("raining", Value::Bool(i % 3 == 0));
                if i % 2 == 1 {
                    env.set("target", Value::Entity(EntityId::None));
                    env.set("spot", Value::Vec2(Vec2::new(f, 4.0)));
                }
                let want = slow.eval(&env);
                assert_eq!(
                    fast.eval(&env),
                    want,
                    "`{fast_src}` vs `{slow_src}` at x={f}"
                );
                assert_eq!(fast.eval_bool(&env), want.as_bool());
                assert_eq!(fast.eval_general(&env), want);
            }
        }
        assert!(c("true").is_fast());
        assert_eq!(c("true").eval(&TE::new()), Value::Bool(true));
        assert!(c("d").is_fast());
        assert!(c("x").is_fast());
    }

    #[test]
    fn failing_part_explains() {
        let e = c("a && (b || c) && d > 2");
        let mut env = TE::new();
        // a = true, b = c = false, d = 3
        assert_eq!(e.failing_part(&env).as_deref(), Some("(b || c)"));
        env.set("a", Value::Bool(false));
        assert_eq!(e.failing_part(&env).as_deref(), Some("a"));
        env.set("a", Value::Bool(true));
        env.set("c", Value::Bool(true));
        assert_eq!(e.failing_part(&env), None);
        env.set("d", Value::Int(1));
        assert_eq!(e.failing_part(&env).as_deref(), Some("d > 2"));

        let e = c(" a && (b && (c || false)) ");
        let mut env = TE::new();
        env.set("b", Value::Bool(true));
        assert_eq!(e.failing_part(&env).as_deref(), Some("(c || false)"));
        env.set("b", Value::Bool(false));
        assert_eq!(e.failing_part(&env).as_deref(), Some("b"));

        let e = c("  b || c ");
        assert_eq!(e.failing_part(&TE::new()).as_deref(), Some("b || c"));
        let e = c("!(a && d > 2)");
        assert_eq!(e.failing_part(&TE::new()).as_deref(), Some("!(a && d > 2)"));
        assert_eq!(c("d + 1").failing_part(&TE::new()), None);
        assert_eq!(c("a").failing_part(&TE::new()), None);
        assert_eq!(
            c("\"é\" != \"é\" && a").failing_part(&TE::new()).as_deref(),
            Some("\"é\" != \"é\"")
        );
    }

    #[test]
    fn references_in_order_without_duplicates() {
        let e = c("a && area.open || flags.raining && a && counters.bread > d || flag.raining");
        assert_eq!(
            e.references(),
            &[
                (Scope::Blackboard, "a".to_string()),
                (Scope::Area, "open".to_string()),
                (Scope::Flag, "raining".to_string()),
                (Scope::Counter, "bread".to_string()),
                (Scope::Blackboard, "d".to_string()),
            ]
        );
        assert!(c("1 + 2").references().is_empty());
        assert_eq!(
            e.source(),
            "a && area.open || flags.raining && a && counters.bread > d || flag.raining"
        );
    }

    #[test]
    fn expr_is_send_sync_and_clone() {
        fn assert_send_sync<T: Send + Sync + Clone>() {}
        assert_send_sync::<Expr>();
        assert_send_sync::<ExprError>();
    }

    #[test]
    fn misbehaving_env_does_not_panic() {
        // An Env returning wrong types must not make evaluation panic.
        let mut env = TE::new();
        for v in env.vals.iter_mut() {
            *v = Value::Str(Sym(9));
        }
        for src in [
            "a && b || !c",
            "d + x * n / 2 % 3 > 1",
            "distance(spot, target) < 1",
            "pos(target) + spot * 2",
            "clamp(d, x, n) == min(d, max(x, 1))",
            "spot == other",
        ] {
            let e = c(src);
            let _ = e.eval(&env);
            let _ = e.eval_bool(&env);
            let _ = e.failing_part(&env);
        }
    }

    #[test]
    fn pseudo_random_inputs_never_panic() {
        let atoms = [
            "a",
            "b",
            "d",
            "x",
            "n",
            "name",
            "spot",
            "target",
            "self",
            "1",
            "0",
            "2.5",
            "\"s\"",
            "(",
            ")",
            "!",
            "-",
            "+",
            "*",
            "/",
            "%",
            "&&",
            "||",
            "==",
            "!=",
            "<",
            ">=",
            ",",
            "abs(",
            "min(",
            "clamp(",
            "distance(",
            "pos(",
            "vec2(",
            "hour()",
            "entity(\"well\")",
            "area.open",
            "flags.",
            "\"",
            ".",
            "1e",
            "é",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let env = TE::new();
        let mut compiled = 0;
        for _ in 0..20_000 {
            let mut s = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 9) as usize + 1;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(atoms[(seed % atoms.len() as u64) as usize]);
                s.push(' ');
            }
            match Expr::compile(&s, &mut TR::default()) {
                Ok(e) => {
                    compiled += 1;
                    let v = e.eval(&env);
                    assert_eq!(v.ty(), e.ty(), "`{s}`");
                    let g = e.eval_general(&env);
                    assert_eq!(format!("{v:?}"), format!("{g:?}"), "`{s}`");
                    let _ = e.failing_part(&env);
                }
                Err(err) => {
                    let n = s.chars().count();
                    assert!(err.offset <= n && !err.message.is_empty(), "`{s}`: {err:?}");
                }
            }
        }
        assert!(compiled > 100, "only {compiled} compiled");
    }
}
