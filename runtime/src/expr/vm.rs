//! The interpreter: fast paths and the stack bytecode, evaluated without allocation.

use super::*;

pub(super) struct Stack<const N: usize> {
    pub(super) v: [Value; N],
    pub(super) sp: usize,
}

impl<const N: usize> Stack<N> {
    #[inline]
    pub(super) fn push(&mut self, x: Value) {
        if let Some(s) = self.v.get_mut(self.sp) {
            *s = x;
            self.sp += 1;
        }
    }
    #[inline]
    pub(super) fn pop(&mut self) -> Value {
        self.sp = self.sp.saturating_sub(1);
        self.v.get(self.sp).copied().unwrap_or(Value::Bool(false))
    }
    #[inline]
    pub(super) fn top(&self) -> Value {
        self.sp
            .checked_sub(1)
            .and_then(|i| self.v.get(i))
            .copied()
            .unwrap_or(Value::Bool(false))
    }
    #[inline]
    pub(super) fn map_top(&mut self, f: impl FnOnce(Value) -> Value) {
        let x = self.pop();
        self.push(f(x));
    }
    #[inline]
    pub(super) fn int_to_float_at(&mut self, d: usize) {
        if let Some(i) = self.sp.checked_sub(1 + d)
            && let Some(s) = self.v.get_mut(i)
        {
            *s = Value::Float(s.as_f64());
        }
    }
}

#[inline]
pub(super) fn compare<T: PartialOrd>(op: CmpOp, a: T, b: T) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

pub(super) fn arith_i(op: ArOp, a: i64, b: i64) -> i64 {
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

pub(super) fn arith_f(op: ArOp, a: f64, b: f64) -> f64 {
    match op {
        ArOp::Add => a + b,
        ArOp::Sub => a - b,
        ArOp::Mul => a * b,
        ArOp::Div => a / b,
        ArOp::Mod => a % b,
    }
}

pub(super) fn vec_of(v: Value) -> Vec2 {
    match v {
        Value::Vec2(p) => p,
        _ => Vec2::ZERO,
    }
}

pub(super) fn entity_of(v: Value) -> EntityId {
    match v {
        Value::Entity(e) => e,
        _ => EntityId::None,
    }
}

pub(super) fn point_of(env: &dyn Env, v: Value) -> Option<Vec2> {
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
pub(super) fn run<const N: usize>(code: &[Op], base: usize, env: &dyn Env) -> Value {
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
