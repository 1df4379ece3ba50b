//! The fast path of reading gives exactly what the careful reader gives, whenever it accepts
//! a text: on every sample, every file of the corpus and seeded mutations of the samples.

use serde_json::Value;

use super::{fast, load};

fn samples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["../samples", "tests/corpus"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("the folder exists")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            out.push((p.display().to_string(), text));
        }
    }
    out
}

/// `(accepted by the fast path, its result equals the careful reader's)`.
fn compare(text: &str) -> (bool, bool) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let careful = load::careful(text);
    match fast::read(text) {
        None => (false, true),
        Some(pack) => {
            let fast = load::Loaded {
                pack: Some(pack),
                diagnostics: Vec::new(),
                lossy: false,
                unknown_fields: Vec::new(),
            };
            let same = format!("{fast:?}") == format!("{careful:?}");
            if !same {
                eprintln!("careful: {:?}", careful.diagnostics);
                if let (Some(a), Some(b)) = (&fast.pack, &careful.pack) {
                    for (x, y) in format!("{a:#?}").lines().zip(format!("{b:#?}").lines()) {
                        if x != y {
                            eprintln!("fast: {x}\ncareful: {y}");
                            break;
                        }
                    }
                }
            }
            (true, same)
        }
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Every value of `v` by position in a walk, so one can be picked at random.
fn count(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count).sum(),
        Value::Object(m) => m.values().map(count).sum(),
        _ => 0,
    }
}

fn nth_mut(v: &mut Value, n: &mut usize) -> Option<*mut Value> {
    if *n == 0 {
        return Some(v as *mut Value);
    }
    *n -= 1;
    match v {
        Value::Array(a) => a.iter_mut().find_map(|c| nth_mut(c, n)),
        Value::Object(m) => m.values_mut().find_map(|c| nth_mut(c, n)),
        _ => None,
    }
}

/// One seeded change of the pack: a value replaced by another of some other type, a key
/// removed, renamed or added, a node type changed, an array item duplicated.
fn mutate(v: &mut Value, rng: &mut Rng) {
    let mut n = rng.below(count(v));
    let Some(ptr) = nth_mut(v, &mut n) else {
        return;
    };
    // SAFETY: `ptr` points into `v`, which is borrowed mutably for this whole function and
    // not otherwise touched until the pointer's last use below.
    let target = unsafe { &mut *ptr };
    let replacements = [
        Value::Null,
        Value::Bool(true),
        Value::from(0),
        Value::from(1.5),
        Value::from(-3),
        Value::from("x"),
        Value::Array(vec![]),
        Value::Object(Default::default()),
    ];
    match (rng.below(6), target) {
        (0, Value::Object(m)) if !m.is_empty() => {
            let k = m
                .keys()
                .nth(rng.below(m.len()))
                .cloned()
                .unwrap_or_default();
            m.shift_remove(&k);
        }
        (1, Value::Object(m)) if !m.is_empty() => {
            let k = m
                .keys()
                .nth(rng.below(m.len()))
                .cloned()
                .unwrap_or_default();
            if let Some(val) = m.shift_remove(&k) {
                m.insert(format!("{k}s"), val);
            }
        }
        (2, Value::Object(m)) => {
            m.insert("bogus".into(), Value::from(1));
        }
        (3, Value::Object(m)) if m.contains_key("type") => {
            let types = crate::pack::NodeKind::TYPE_NAMES;
            m.insert("type".into(), Value::from(types[rng.below(types.len())]));
        }
        (4, Value::Array(a)) if !a.is_empty() => {
            let i = rng.below(a.len());
            let dup = a[i].clone();
            a.insert(i, dup);
        }
        (_, t) => *t = replacements[rng.below(replacements.len())].clone(),
    }
}

#[test]
fn fast_path_equals_careful_reader_on_samples_and_corpus() {
    let mut accepted = 0;
    for (name, text) in samples() {
        let (ok, same) = compare(&text);
        assert!(
            same,
            "{name}: the fast path differs from the careful reader"
        );
        accepted += usize::from(ok);
    }
    // Every clean sample goes the fast way (otherwise it would not be fast).
    assert!(accepted >= 5, "only {accepted} files read the fast way");
}

#[test]
fn fast_path_equals_careful_reader_on_mutations() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let files: Vec<(String, Value)> = samples()
        .into_iter()
        .filter(|(n, _)| n.contains("samples"))
        .filter_map(|(n, t)| serde_json::from_str(&t).ok().map(|v| (n, v)))
        .collect();
    assert!(!files.is_empty());
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..400 {
        let (name, base) = &files[i % files.len()];
        let mut v = base.clone();
        for _ in 0..=rng.below(2) {
            mutate(&mut v, &mut rng);
        }
        let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
        // Now and then a duplicate key, which a JSON value cannot hold.
        if i % 25 == 0
            && let Some(at) = text.find("\"id\":")
        {
            text.insert_str(at, "\"id\": \"twice\", ");
        }
        let (ok, same) = compare(&text);
        assert!(same, "{name}, mutation {i}: the fast path differs:\n{text}");
        if ok {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    // Both ways are exercised.
    assert!(
        accepted > 20 && refused > 20,
        "{accepted} accepted, {refused} refused"
    );
}
