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

use crate::value::{Cmp, EntityId, Sym, Type, Value, Vec2};
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

/// A name written in an expression's tokens, for the pack's name checks
/// (`program::names`), which read names as written without compiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mention<'a> {
    /// `flags.NAME` or `flag.NAME`.
    Flag(&'a str),
    /// `counters.NAME` or `counter.NAME`.
    Counter(&'a str),
    /// `func("arg", …)`: a call whose first argument is a string literal; `at` is the
    /// character offset of the argument's first character (just after its quote).
    Call {
        func: &'a str,
        arg: &'a str,
        at: usize,
    },
}

/// Calls `f` with the [`Mention`]s of `src` in source order, from the lexer's tokens (text
/// that does not lex gives those of the part before its first lexing error). `calls` and
/// `scoped` choose what is wanted; text that cannot hold any wanted mention is not lexed.
pub(crate) fn mentions(src: &str, calls: bool, scoped: bool, f: &mut dyn FnMut(Mention<'_>)) {
    let may_call = calls && src.contains('(') && src.contains('"');
    let may_scope = scoped && (src.contains("flag") || src.contains("counter"));
    if !(may_call || may_scope) {
        return;
    }
    let chars: Vec<char> = src.chars().collect();
    let mut end = chars.len();
    let toks = loop {
        match lex(&chars[..end]) {
            Ok(t) => break t,
            Err(e) if e.offset < end => end = e.offset,
            Err(_) => return,
        }
    };
    let mut i = 0;
    while i < toks.len() {
        let next = |k: usize| toks.get(i + k).map(|t| &t.kind);
        if let Tk::Ident(w) = &toks[i].kind {
            if may_call && let (Some(Tk::LParen), Some(Tk::Str(arg))) = (next(1), next(2)) {
                let at = toks[i + 2].start + 1;
                f(Mention::Call { func: w, arg, at });
            }
            if let (Some(Tk::Dot), Some(Tk::Ident(name))) = (next(1), next(2)) {
                let m = match w.as_str() {
                    "flags" | "flag" => Some(Mention::Flag(name)),
                    "counters" | "counter" => Some(Mention::Counter(name)),
                    _ => None,
                };
                if let Some(m) = m.filter(|_| may_scope) {
                    f(m);
                }
                if m.is_some() || w == "area" {
                    // The name after a scope is no name of its own.
                    i += 3;
                    continue;
                }
            }
        }
        i += 1;
    }
}

mod lex;
mod parse;
#[cfg(test)]
mod tests;
mod vm;

use lex::*;
use parse::*;
#[allow(unused_imports)]
use vm::*;

// ---------------------------------------------------------------------------------------
// Compiled form
// ---------------------------------------------------------------------------------------

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
    CmpI(Cmp),
    CmpF(Cmp),
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
    /// One variable tested on its own or against a number ([`TestKind`]).
    Test {
        scope: Scope,
        slot: u32,
        kind: TestKind,
    },
    VarEq {
        scope: Scope,
        slot: u32,
        k: Value,
        ne: bool,
    },
}

/// What a one-variable test does with the variable's value: `hungry`, `!hungry`, `food > 0`,
/// `hour >= 22.0`. One variant per comparison (not a comparison beside a number), so that
/// evaluating a test is one dispatch on one tag: a run of conditions in the tree engine
/// pays one jump per condition, not one for the shape and one for the operator.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TestKind {
    Var,
    NotVar,
    EqI(i64),
    NeI(i64),
    LtI(i64),
    LeI(i64),
    GtI(i64),
    GeI(i64),
    EqF(f64),
    NeF(f64),
    LtF(f64),
    LeF(f64),
    GtF(f64),
    GeF(f64),
    /// `even` / `odd` against a constant: false (as [`Cmp::ordered`] has it).
    Never,
}

impl TestKind {
    /// `v op k` on the value as an integer ([`Value::as_i64`]), as `compare` computes it.
    fn int(op: Cmp, k: i64) -> TestKind {
        match op {
            Cmp::Eq => TestKind::EqI(k),
            Cmp::Ne => TestKind::NeI(k),
            Cmp::Lt => TestKind::LtI(k),
            Cmp::Le => TestKind::LeI(k),
            Cmp::Gt => TestKind::GtI(k),
            Cmp::Ge => TestKind::GeI(k),
            Cmp::Even | Cmp::Odd => TestKind::Never,
        }
    }

    /// `v op k` on the value as a float ([`Value::as_f64`]), as `compare` computes it.
    fn float(op: Cmp, k: f64) -> TestKind {
        match op {
            Cmp::Eq => TestKind::EqF(k),
            Cmp::Ne => TestKind::NeF(k),
            Cmp::Lt => TestKind::LtF(k),
            Cmp::Le => TestKind::LeF(k),
            Cmp::Gt => TestKind::GtF(k),
            Cmp::Ge => TestKind::GeF(k),
            Cmp::Even | Cmp::Odd => TestKind::Never,
        }
    }

    /// The test on `v` (read only as far as the test needs it).
    #[inline(always)]
    fn eval(self, v: &Value) -> bool {
        match self {
            TestKind::Var => matches!(v, Value::Bool(true)),
            TestKind::NotVar => !matches!(v, Value::Bool(true)),
            TestKind::EqI(k) => v.as_i64() == k,
            TestKind::NeI(k) => v.as_i64() != k,
            TestKind::LtI(k) => v.as_i64() < k,
            TestKind::LeI(k) => v.as_i64() <= k,
            TestKind::GtI(k) => v.as_i64() > k,
            TestKind::GeI(k) => v.as_i64() >= k,
            TestKind::EqF(k) => float(v) == k,
            TestKind::NeF(k) => float(v) != k,
            TestKind::LtF(k) => float(v) < k,
            TestKind::LeF(k) => float(v) <= k,
            TestKind::GtF(k) => float(v) > k,
            TestKind::GeF(k) => float(v) >= k,
            TestKind::Never => false,
        }
    }
}

/// [`Value::as_f64`], with the float a float variable holds read first (one test, not a
/// dispatch over every kind of value).
#[inline(always)]
fn float(v: &Value) -> f64 {
    match *v {
        Value::Float(f) => f,
        other => not_float(other),
    }
}

/// [`Value::as_f64`] of a value that is not a float, out of line (and cold), so that a float
/// test compiles to one tag test before the float is read: inlined, the compiler merges both
/// matches into one chain of tag tests in declaration order, the float's last.
#[cold]
#[inline(never)]
fn not_float(v: Value) -> f64 {
    v.as_f64()
}

/// A bool expression that tests one variable of the blackboard ([`Expr::board_test`]): what
/// the tree engine evaluates straight from the running NPC's blackboard, with the same result
/// as [`Expr::eval_bool`] when the value is the one [`Env::var`] gives for the slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardTest {
    slot: u32,
    kind: TestKind,
}

impl BoardTest {
    /// The blackboard slot the test reads.
    #[inline(always)]
    pub fn slot(self) -> usize {
        self.slot as usize
    }

    /// The test on the slot's value.
    #[inline(always)]
    pub fn eval(self, v: &Value) -> bool {
        self.kind.eval(v)
    }
}

impl Fast {
    /// Evaluates a leaf shape; `General`/`AllOf` are handled by `Expr` and never reach here.
    #[inline(always)]
    fn eval(self, env: &dyn Env) -> Value {
        match self {
            Fast::Const(v) => v,
            Fast::Test {
                scope,
                slot,
                kind: TestKind::Var,
            } => env.var(scope, slot),
            Fast::Test { scope, slot, kind } => Value::Bool(kind.eval(&env.var(scope, slot))),
            Fast::VarEq { scope, slot, k, ne } => Value::Bool((env.var(scope, slot) == k) != ne),
            Fast::General | Fast::AllOf => Value::Bool(false),
        }
    }

    #[inline(always)]
    fn eval_bool(self, env: &dyn Env) -> bool {
        match self {
            Fast::Test { scope, slot, kind } => kind.eval(&env.var(scope, slot)),
            _ => self.eval(env).as_bool(),
        }
    }

    fn detect(code: &[Op]) -> Fast {
        let test = |scope, slot, kind| Fast::Test { scope, slot, kind };
        match *code {
            [Op::Const(v)] => Fast::Const(v),
            [Op::Var(s, i)] => test(s, i, TestKind::Var),
            [Op::Var(s, i), Op::Not] => test(s, i, TestKind::NotVar),
            [Op::Var(s, i), Op::Const(Value::Int(k)), Op::CmpI(op)] => {
                test(s, i, TestKind::int(op, k))
            }
            [Op::Var(s, i), Op::Const(Value::Float(k)), Op::CmpF(op)]
            | [
                Op::Var(s, i),
                Op::Const(Value::Float(k)),
                Op::IToFAt(1),
                Op::CmpF(op),
            ] => test(s, i, TestKind::float(op, k)),
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

    /// The one-variable blackboard test this bool expression is, if it is one (`hungry`,
    /// `!hungry`, `food > 0`, `hour >= 22.0`).
    pub fn board_test(&self) -> Option<BoardTest> {
        match self.fast {
            Fast::Test {
                scope: Scope::Blackboard,
                slot,
                kind,
            } if self.ty == Type::Bool => Some(BoardTest { slot, kind }),
            _ => None,
        }
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
