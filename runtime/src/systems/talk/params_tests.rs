//! Cast parameters as a pack states them (errors with their paths, lines and columns), the
//! sweeps of `townsfolk talk`, and the layer's small numeric helpers.

use super::tests::{as_refs, m, pack, ring};
use crate::tools::talk as metrics;

#[test]
fn invalid_parameters_are_errors_with_paths() {
    let chars = ring(2, |_| [0.5; 5]);
    let mut p = pack(&as_refs(&chars), true);
    p.casts[0].members[1].confidence = Some(f64::NAN);
    p.casts[0].members[0].talkativeness = Some(1.5);
    p.casts[0].default.verbosity = -0.1;
    p.casts[0].members.push(m("nobody", [0.5; 5]));
    let d = crate::program::check(&p);
    let find = |path: &str| {
        d.iter()
            .find(|d| d.path == path && d.is_error())
            .unwrap_or_else(|| panic!("no error at {path}: {d:#?}"))
            .message
            .clone()
    };
    assert!(find("casts[0].members[1].confidence").contains("NaN"));
    assert!(find("casts[0].members[0].talkativeness").contains("between 0 and 1, found 1.5"));
    assert!(find("casts[0].default.verbosity").contains("-0.1"));
    assert!(find("casts[0].members[2].npc").contains("unknown NPC `nobody`"));
}

#[test]
fn out_of_range_parameters_in_a_file_point_at_line_and_column() {
    let text = r#"{"format": "townsfolk-pack", "version": 1, "name": "x",
"world": {"npcs": [{"id": "a", "pos": [0, 0], "tree": "t"}]},
"trees": [{"id": "t", "root": {"id": "r", "type": "converse", "cast": "plazza"}}],
"casts": [{"id": "plaza",
  "members": [{"npc": "a", "verbosity": 2}]}]}"#;
    let l = crate::program::load_str(text);
    let d = l
        .diagnostics
        .iter()
        .find(|d| d.path == "casts[0].members[0].verbosity")
        .expect("range error");
    assert!(d.is_error());
    assert_eq!((d.line, d.column), (Some(5), Some(41)));
    let d = l
        .diagnostics
        .iter()
        .find(|d| d.path == "trees[0].root.cast")
        .expect("cast reference error");
    assert!(d.message.contains("did you mean `plaza`"), "{}", d.message);
}

#[test]
fn sweeps_parse_and_apply() {
    let s = metrics::Sweep::parse("talkativeness=0.1:0.9:0.2").expect("parses");
    assert_eq!(s.values, [0.1, 0.3, 0.5, 0.7, 0.9]);
    assert_eq!(s.npc, None);
    let one = metrics::Sweep::parse("n1.verbosity=0:1:0.5").expect("parses");
    assert_eq!(one.npc.as_deref(), Some("n1"));
    for bad in [
        "talk=0:1:0.1",
        "talkativeness=0:2:0.5",
        "talkativeness=0:1:0",
        "talkativeness=0:1",
        "talkativeness=0:1:1e-9",
        "talkativeness",
    ] {
        assert!(metrics::Sweep::parse(bad).is_err(), "{bad}");
    }
    let chars = ring(3, |_| [0.5; 5]);
    let mut p = pack(&as_refs(&chars), true);
    one.apply(&mut p, 1.0).expect("applies");
    assert_eq!(p.casts[0].members[1].verbosity, Some(1.0));
    assert_eq!(p.casts[0].members[0].verbosity, Some(0.5));
    s.apply(&mut p, 0.3).expect("applies");
    assert!(
        p.casts[0]
            .members
            .iter()
            .all(|m| m.talkativeness == Some(0.3))
    );
    assert_eq!(p.casts[0].default.talkativeness, 0.3);
    assert!(
        metrics::Sweep::parse("ghost.verbosity=0:1:0.5")
            .expect("parses")
            .apply(&mut p, 0.5)
            .is_err()
    );
}

#[test]
fn floor_i64_matches_floor_cast() {
    let xs = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        2.999_999,
        -2.000_001,
        1e15 + 0.5,
        -1e15 - 0.5,
        9.3e18,
        -9.3e18,
        1e300,
        -1e300,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
    ];
    for x in xs {
        assert_eq!(super::floor_i64(x), x.floor() as i64, "{x}");
    }
}

#[test]
fn counting_sorts_order_triples_like_sort_unstable() {
    // (old label, root, member) as `observe_groups` pushes them: by member.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut r = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let n = 500usize;
    let olds = [
        0u32,
        1,
        255,
        256,
        65_535,
        70_000,
        1 << 24,
        u32::MAX - 1,
        super::NONE,
    ];
    let mut v: Vec<(u32, u32, u32)> = (0..n as u32)
        .step_by(2)
        .map(|m| {
            let old = olds[r(olds.len() as u64) as usize];
            (old, r(n as u64) as u32, m)
        })
        .collect();
    let mut want = v.clone();
    want.sort_unstable();
    let (mut tmp, mut hist) = (Vec::new(), Vec::new());
    super::counting_sort(&mut v, &mut tmp, &mut hist, n, |t| t.1 as usize);
    for shift in [0, 8, 16, 24] {
        super::counting_sort(&mut v, &mut tmp, &mut hist, 256, |t| {
            (t.0 >> shift) as usize & 0xFF
        });
    }
    assert_eq!(v, want);
}
