//! BehaviorTree.CPP scripts (`code="…"`, preconditions) to Townsfolk expressions where the
//! two languages agree: names, numbers, strings (`'…'` becomes `"…"`), the operators
//! `! && || == != < <= > >= + - * / %` and parentheses. Assignments (`:=`, `=`, `+=`, `-=`, `*=`, `/=`) become
//! `set` nodes. Anything else (bitwise operators, `?:`, enums with `::`) is refused with a
//! reason, and the caller warns.

/// One expression in Townsfolk syntax.
pub fn expression(code: &str) -> Result<String, String> {
    let code = code.trim();
    if code.is_empty() {
        return Err("it is empty".into());
    }
    let mut out = String::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\'' | '"' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != c {
                    s.push(chars[i]);
                    i += 1;
                }
                if i >= chars.len() {
                    return Err("a string is not closed".into());
                }
                out.push_str(&serde_json::Value::String(s).to_string());
            }
            '&' | '|' if next == Some(c) => {
                out.push(c);
                out.push(c);
                i += 1;
            }
            '=' if next == Some('=') => {
                out.push_str("==");
                i += 1;
            }
            '!' | '<' | '>' if next == Some('=') => {
                out.push(c);
                out.push('=');
                i += 1;
            }
            '=' | ':' => return Err("it assigns; only `set` nodes assign".into()),
            '&' | '|' | '^' | '~' => return Err(format!("bitwise `{c}` has no equivalent")),
            '?' => return Err("`?:` has no equivalent".into()),
            c if c.is_alphanumeric() || c.is_whitespace() || "_.!<>+-*/%(),".contains(c) => {
                out.push(c)
            }
            c => return Err(format!("`{c}` has no equivalent")),
        }
        i += 1;
    }
    Ok(out)
}

/// A script of assignments, `;`-separated, as `(variable, expression)` pairs.
pub fn assignments(code: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for stmt in split_statements(code) {
        let stmt = stmt.trim();
        if stmt.is_empty() {
            continue;
        }
        let Some(eq) = stmt.find('=') else {
            return Err(format!("`{stmt}` is not an assignment"));
        };
        let (lhs, rhs) = (&stmt[..eq], &stmt[eq + 1..]);
        if rhs.starts_with('=') {
            return Err(format!("`{stmt}` is a comparison, not an assignment"));
        }
        let (var, op) = match lhs.trim_end().chars().last() {
            Some(o @ (':' | '+' | '-' | '*' | '/')) => {
                (&lhs.trim_end()[..lhs.trim_end().len() - 1], o)
            }
            _ => (lhs, ':'),
        };
        let var = var.trim();
        let ident = var
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && var
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        if !ident {
            return Err(format!("`{var}` is not a variable name"));
        }
        let value = expression(rhs)?;
        let value = if op == ':' {
            value
        } else {
            format!("{var} {op} ({value})")
        };
        out.push((var.to_string(), value));
    }
    Ok(out)
}

fn split_statements(code: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quote = None;
    for c in code.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, ';') => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_translate_or_refuse() {
        assert_eq!(expression("a == 'x' && !b").unwrap(), "a == \"x\" && !b");
        assert_eq!(expression("battery >= 0.5").unwrap(), "battery >= 0.5");
        assert!(expression("a := 1").is_err());
        assert!(expression("a & 1").is_err());
        assert!(expression("c ? 1 : 2").is_err());
        assert!(expression("'open").is_err());
    }

    #[test]
    fn assignments_split_and_expand() {
        assert_eq!(
            assignments("a := 1; b += 2; msg = 'hi;there'").unwrap(),
            vec![
                ("a".to_string(), "1".to_string()),
                ("b".to_string(), "b + (2)".to_string()),
                ("msg".to_string(), "\"hi;there\"".to_string()),
            ]
        );
        assert!(assignments("a == 1").is_err());
        assert!(assignments("3 := a").is_err());
    }
}
