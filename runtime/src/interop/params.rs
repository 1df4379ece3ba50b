//! A Townsfolk node kind's parameters as XML attributes and back: strings as they are, every
//! other value as JSON text, keys in sorted order (so exports diff cleanly).

use serde_json::{Map, Value};

use crate::pack::NodeKind;

/// The parameters of `kind`, sorted by name.
pub fn encode(kind: &NodeKind) -> Vec<(String, String)> {
    let Ok(Value::Object(map)) = serde_json::to_value(kind) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = map
        .into_iter()
        .filter(|(k, _)| k != "type")
        .map(|(k, v)| match v {
            Value::String(s) => (k, s),
            other => (k, other.to_string()),
        })
        .collect();
    out.sort();
    out
}

/// The node kind `type_name` from attributes written by [`encode`]. An attribute that reads
/// as JSON is taken as that value unless the kind wants a string there (tried with the fewest
/// such re-readings first, so the result is the same every time).
pub fn decode(type_name: &str, ports: &[(String, String)]) -> Result<NodeKind, String> {
    let parsed: Vec<Option<Value>> = ports
        .iter()
        .map(|(_, v)| {
            serde_json::from_str::<Value>(v)
                .ok()
                .filter(|j| !j.is_string())
        })
        .collect();
    let ambiguous: Vec<usize> = (0..ports.len()).filter(|i| parsed[*i].is_some()).collect();
    let build = |as_text: &dyn Fn(usize) -> bool| -> Result<NodeKind, serde_json::Error> {
        let mut map = Map::new();
        map.insert("type".into(), Value::String(type_name.to_string()));
        for (i, (k, v)) in ports.iter().enumerate() {
            let value = match &parsed[i] {
                Some(j) if !as_text(i) => j.clone(),
                _ => Value::String(v.clone()),
            };
            map.insert(k.clone(), value);
        }
        serde_json::from_value(Value::Object(map))
    };
    let first = build(&|_| false);
    let first_err = match first {
        Ok(k) => return Ok(k),
        Err(e) => e,
    };
    if ambiguous.len() > 8 {
        return build(&|_| true).map_err(|_| crate::pack::user_words(&first_err.to_string()));
    }
    let mut masks: Vec<u32> = (1..(1u32 << ambiguous.len())).collect();
    masks.sort_by_key(|m| (m.count_ones(), *m));
    for m in masks {
        let text = |i: usize| {
            ambiguous
                .iter()
                .position(|a| *a == i)
                .is_some_and(|bit| m & (1 << bit) != 0)
        };
        if let Ok(k) = build(&text) {
            return Ok(k);
        }
    }
    Err(crate::pack::user_words(&first_err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::MoveTarget;

    #[test]
    fn every_parameter_shape_round_trips() {
        let kinds = [
            NodeKind::Say {
                text: "12".into(),
                seconds: 2.0,
            },
            NodeKind::MoveTo {
                target: MoveTarget::Area("pub".into()),
                tolerance: Some(0.5),
            },
            NodeKind::Log {
                text: "true".into(),
            },
            NodeKind::RandomSelector {
                weights: vec![1.0, 2.5],
            },
            NodeKind::RemoveArea,
        ];
        for k in kinds {
            let attrs = encode(&k);
            assert_eq!(decode(k.type_name(), &attrs).unwrap(), k, "{attrs:?}");
        }
    }

    #[test]
    fn a_wrong_parameter_is_an_error() {
        let attrs = vec![("seconds".to_string(), "soon".to_string())];
        assert!(decode("wait", &attrs).is_err());
    }
}
