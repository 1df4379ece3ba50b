//! Compiling packs: diagnostics that the per-kind compile files add.

use super::load_str;
use crate::pack::Severity;
use crate::session::Session;

/// A pack whose tree `t` is a parallel over `children` `wait` nodes (one disabled) with the
/// given threshold fields.
fn parallel_pack(thresholds: &str, children: usize) -> String {
    let mut kids: Vec<String> = (0..children)
        .map(|k| format!(r#"{{"id": "w{k}", "type": "wait", "seconds": 0.1}}"#))
        .collect();
    kids.push(r#"{"id": "off", "type": "wait", "seconds": 0.1, "disabled": true}"#.into());
    format!(
        r#"{{"format": "townsfolk-pack", "version": 1, "name": "p",
        "world": {{"npcs": [{{"id": "n", "pos": [0, 0], "tree": "t"}}]}},
        "trees": [{{"id": "t", "root": {{"id": "par", "type": "parallel"{thresholds},
          "children": [{}]}}}}]}}"#,
        kids.join(", ")
    )
}

fn warnings_at(text: &str, path: &str) -> Vec<String> {
    let l = load_str(text);
    assert!(l.pack.is_some(), "{:#?}", l.diagnostics);
    l.diagnostics
        .iter()
        .filter(|d| d.path == path)
        .inspect(|d| assert_eq!(d.severity, Severity::Warning, "{d:?}"))
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn parallel_thresholds_above_the_enabled_children_are_warned_about() {
    // Two enabled children (the third is disabled): 3 is more than it can reach.
    let text = parallel_pack(r#", "success_threshold": 3, "failure_threshold": 5"#, 2);
    assert_eq!(
        warnings_at(&text, "trees[0].root.success_threshold"),
        [
            "`success_threshold` is 3 but this parallel has 2 enabled children: it succeeds when all 2 succeed"
        ]
    );
    assert_eq!(
        warnings_at(&text, "trees[0].root.failure_threshold"),
        ["`failure_threshold` is 5 but this parallel has 2 enabled children: it is never reached"]
    );
    // The run is what the warning says: success once both children succeeded.
    let pack = load_str(&text).pack.expect("pack");
    let mut s = Session::from_pack(&pack, 0).expect("only warnings");
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.step();
        seen.push(s.world().npcs[0].last_status);
    }
    assert!(seen.contains(&crate::bt::Status::Success), "{seen:?}");
    assert!(!seen.contains(&crate::bt::Status::Failure), "{seen:?}");
}

#[test]
fn parallel_thresholds_within_the_children_are_quiet() {
    let text = parallel_pack(r#", "success_threshold": 2, "failure_threshold": 2"#, 2);
    assert!(warnings_at(&text, "trees[0].root.success_threshold").is_empty());
    assert!(warnings_at(&text, "trees[0].root.failure_threshold").is_empty());
    let one = parallel_pack(r#", "success_threshold": 2"#, 1);
    assert_eq!(
        warnings_at(&one, "trees[0].root.success_threshold"),
        [
            "`success_threshold` is 2 but this parallel has 1 enabled child: it succeeds when all 1 succeed"
        ]
    );
}
