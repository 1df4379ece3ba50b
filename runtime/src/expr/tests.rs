//! Expression language tests: parsing, typing, evaluation, limits.

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

#[test]
fn a_board_test_gives_what_evaluating_the_expression_gives() {
    let tests = [
        "a", "!a", "d > 2", "d >= 3", "d < 3", "d <= -4", "x > 0.5", "x <= 0.7", "x < 0.7",
        "d > 2.5", "n >= 0.0", "x != 0.7", "x == 0.7", "x > 0.7", "x >= 2.9", "d == 3", "d != 3",
    ];
    let values = [
        Value::Bool(true),
        Value::Bool(false),
        Value::Int(3),
        Value::Int(-4),
        Value::Float(0.7),
        Value::Float(2.9),
        Value::Float(f64::NAN),
    ];
    for src in tests {
        let e = c(src);
        let t = e
            .board_test()
            .unwrap_or_else(|| panic!("`{src}` should be a blackboard test"));
        for v in values {
            let mut env = TE::new();
            env.vals[t.slot()] = v;
            assert_eq!(
                t.eval(&v),
                e.eval_bool(&env),
                "`{src}` with {v:?}: the test and the evaluation differ"
            );
            assert_eq!(
                t.eval(&v),
                e.eval_general(&env).as_bool(),
                "`{src}` with {v:?}"
            );
        }
    }
    // Reads of other scopes, several variables or other shapes are not blackboard tests.
    for src in [
        "area.open",
        "flags.raining",
        "a && b",
        "d + 1 > 2",
        "true",
        "name == \"x\"",
    ] {
        assert_eq!(c(src).board_test(), None, "`{src}`");
    }
}
