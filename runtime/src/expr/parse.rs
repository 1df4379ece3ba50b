//! Parser, type checker and code generator in a single pass.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Func {
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
}

pub(super) const FUNCS: &[(&str, Func, &str)] = &[
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
];

impl Func {
    pub(super) fn arity(self) -> usize {
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
            | Func::SubjectHas => 1,
            Func::Distance | Func::Vec2 | Func::Min | Func::Max => 2,
            Func::Clamp => 3,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Logic {
    And,
    Or,
}

/// A non-logical binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arith {
    Cmp(CmpOp),
    Ar(ArOp),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bin {
    Logic(Logic),
    Arith(Arith),
}

/// Binary operator of a token, with its precedence (higher binds tighter).
pub(super) fn binop(t: &Tk) -> Option<(Bin, u8)> {
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

pub(super) fn is_num(t: Type) -> bool {
    matches!(t, Type::Int | Type::Float)
}

/// A compiled sub-expression: its type, where its code lies, and its source span.
pub(super) struct Operand {
    pub(super) ty: Type,
    pub(super) code_start: usize,
    pub(super) code_end: usize,
    pub(super) start: usize,
    pub(super) end: usize,
    /// Flattened `&&`-conjuncts if this operand is an `&&` expression, else empty.
    pub(super) conj: Vec<Part>,
}

impl Operand {
    pub(super) fn span_len(&self) -> usize {
        self.end - self.start
    }
    pub(super) fn parts(self) -> Vec<Part> {
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

pub(super) struct Parser<'s, 'r> {
    pub(super) chars: &'s [char],
    /// Invariant: non-empty, last token is `Tk::Eof`, `pos < toks.len()`.
    pub(super) toks: Vec<Tok>,
    pub(super) pos: usize,
    pub(super) resolver: &'r mut dyn Resolver,
    pub(super) code: Vec<Op>,
    /// Evaluation stack depth at the current point of the generated code.
    pub(super) depth: usize,
    pub(super) max_depth: usize,
    pub(super) nesting: usize,
    pub(super) refs: Vec<(Scope, String)>,
}

impl Parser<'_, '_> {
    pub(super) fn peek(&self) -> &Tok {
        // Invariant (see field doc): `pos` is always a valid index.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    pub(super) fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    pub(super) fn tok_text(&self, t: &Tok) -> String {
        text(self.chars, t.start, t.end())
    }

    pub(super) fn describe(&self, t: &Tok) -> String {
        match t.kind {
            Tk::Eof => "the end of the expression".to_string(),
            _ => format!("`{}`", self.tok_text(t)),
        }
    }

    /// " after `X`" for the token before the current one, if any.
    pub(super) fn after_prev(&self) -> String {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => format!(" after `{}`", self.tok_text(t)),
            None => String::new(),
        }
    }

    pub(super) fn err_tok(&self, t: &Tok, msg: impl Into<String>) -> ExprError {
        ExprError::new(t.start, t.len, msg)
    }

    pub(super) fn err_op(o: &Operand, msg: impl Into<String>) -> ExprError {
        ExprError::new(o.start, o.span_len(), msg)
    }

    pub(super) fn enter(&mut self, t: &Tok) -> Result<(), ExprError> {
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

    pub(super) fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    /// Emits a leaf instruction (pushes one value).
    pub(super) fn leaf(
        &mut self,
        op: Op,
        ty: Type,
        start: usize,
        end: usize,
    ) -> Result<Operand, ExprError> {
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
    pub(super) fn emit(&mut self, op: Op) {
        self.depth = self.depth.saturating_sub(op.pops());
        self.code.push(op);
    }

    /// Builds the operand covering `first..` code and `start..end` source.
    pub(super) fn result(&self, ty: Type, code_start: usize, start: usize, end: usize) -> Operand {
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
    pub(super) fn lone_const(&mut self, o: &Operand) -> Option<&mut Value> {
        if o.code_end != o.code_start + 1 {
            return None;
        }
        match self.code.get_mut(o.code_start) {
            Some(Op::Const(v)) => Some(v),
            _ => None,
        }
    }

    /// Converts the int operand `o`, which lies `depth` slots below the stack top, to float.
    pub(super) fn promote(&mut self, o: &Operand, depth: u8) {
        if o.ty != Type::Int {
            return;
        }
        if let Some(v) = self.lone_const(o) {
            *v = Value::Float(v.as_f64());
        } else {
            self.emit(Op::IToFAt(depth));
        }
    }

    pub(super) fn parse_bin(&mut self, min_prec: u8) -> Result<Operand, ExprError> {
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

    pub(super) fn logical(
        &mut self,
        l: Logic,
        prec: u8,
        lhs: Operand,
    ) -> Result<Operand, ExprError> {
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

    pub(super) fn binary(
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

    pub(super) fn parse_unary(&mut self) -> Result<Operand, ExprError> {
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

    pub(super) fn parse_primary(&mut self) -> Result<Operand, ExprError> {
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

    pub(super) fn ident(&mut self, t: &Tok, name: &str) -> Result<Operand, ExprError> {
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
            _ => self.var(Scope::Blackboard, name, t.start, t.end()),
        }
    }

    pub(super) fn var(
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

    pub(super) fn call(
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
                Func::Pos => check(i, a, |t| t == Type::Entity, "an entity")?,
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
