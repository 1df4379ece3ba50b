//! The lexer: source text to tokens, with character offsets for errors.

use super::*;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tk {
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
pub(super) struct Tok {
    pub(super) kind: Tk,
    /// Character offset.
    pub(super) start: usize,
    /// Length in characters.
    pub(super) len: usize,
}

impl Tok {
    pub(super) fn end(&self) -> usize {
        self.start + self.len
    }
}

pub(super) fn text(chars: &[char], start: usize, end: usize) -> String {
    chars
        .iter()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect()
}

pub(super) fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

pub(super) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits the source into tokens; the result always ends with exactly one `Tk::Eof`.
pub(super) fn lex(chars: &[char]) -> Result<Vec<Tok>, ExprError> {
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

pub(super) fn lex_number(chars: &[char], i: &mut usize) -> Result<Tk, ExprError> {
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

pub(super) fn lex_string(chars: &[char], i: &mut usize) -> Result<Tk, ExprError> {
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
