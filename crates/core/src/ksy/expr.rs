//! The expression language of Kaitai Struct 0.11 `.ksy` files (the
//! user guide's "Expression language" chapter), for an interpreter: a
//! lexer and a Pratt parser that turn an expression's text into an
//! [`Expr`], and an evaluator that computes its [`Val`] dynamically. What
//! only the interpreter knows (names, objects and streams, enums, type
//! sizes, casts to user types) it supplies through a [`Scope`].
//!
//! Precedence, lowest first (the user guide gives no table; this is the
//! Python-like order Kaitai's compiler parses, as the brief lists it):
//!
//! | level | operators                       | associativity   |
//! |-------|---------------------------------|-----------------|
//! | 1     | `c ? a : b`                     | right           |
//! | 2     | `or`                            | left            |
//! | 3     | `and`                           | left            |
//! | 4     | `not` (prefix)                  |                 |
//! | 5     | `== != < <= > >=`               | none (no chain) |
//! | 6     | `\|`                            | left            |
//! | 7     | `^`                             | left            |
//! | 8     | `&`                             | left            |
//! | 9     | `<< >>`                         | left            |
//! | 10    | `+ -`                           | left            |
//! | 11    | `* / %`                         | left            |
//! | 12    | `-` `~` (prefix)                |                 |
//! | 13    | `.name` `.name(…)` `[i]` `.as<T>` | postfix       |
//!
//! Integer semantics: integers are exact in `i128`; `+ - *` and unary `-`
//! fail on `i128` overflow rather than wrap. `/` is floor division (rounds
//! toward negative infinity) and `%` is the matching modulo, whose result
//! has the divisor's sign (the guide: "`-5 % 3` is `1`, not `-2`"); both
//! fail on a zero divisor, for floats too. Shifts work on 64 bits: the left
//! operand must lie in `i64::MIN..=u64::MAX`; a non-negative one shifts as
//! a `u64` and a negative one as an `i64`, bits shifted past bit 63 being
//! lost (`1 << 63` is 2^63, `1 << 64` is 0, `-1 << 1` is -2); `>>` is
//! arithmetic; a negative shift amount is an error. `.as<uN>`/`.as<sN>`/
//! `.as<bN>` wrap to their width. Nothing else wraps.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// How deeply an expression may nest (parentheses, operators, postfix
/// chains, array literals): deeper text is a parse error, so neither the
/// parser nor the evaluator can exhaust the stack. (Measured: the deepest
/// accepted text needs under 256 KiB of stack to parse and evaluate at the
/// crate's `opt-level = 2`, about 1.5 MiB unoptimised.)
pub const MAX_DEPTH: u32 = 256;

/// The step budget [`eval`] gives an evaluation.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// A value of the expression language.
#[derive(Clone, Debug)]
pub enum Val {
    /// Every integer type (u8..u64, s8..s64, bit fields); kept exact in i128.
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(Arc<str>),
    Bytes(Arc<[u8]>),
    Array(Arc<Vec<Val>>),
    /// A value of enum number `e` (an index the interpreter gives its enums), raw number `v`.
    Enum {
        e: u32,
        v: i128,
    },
    /// Something only the interpreter understands: a user-type object or a stream (`_io`).
    /// Opaque to this module; the evaluator hands it back to [`Scope::attr`].
    Handle(Handle),
    /// `null`-like: an absent field (an `if:` that was false). Any operation on it is an error,
    /// except `==`/`!=` which compare by identity (Nil == Nil).
    Nil,
}

/// An object or stream of the interpreter's, opaque here.
#[derive(Clone)]
pub struct Handle(pub Arc<dyn std::any::Any + Send + Sync>);

impl fmt::Debug for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<object>")
    }
}

/// A type named in `.as<…>`, `sizeof<…>`, `bitsizeof<…>`: `u4`, `str`, `bytes`, `my_type`,
/// `outer::inner`, and `[]` suffix for arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub path: Vec<String>,
    pub array: bool,
}

impl fmt::Display for TypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path.join("::"))?;
        if self.array {
            f.write_str("[]")?;
        }
        Ok(())
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `~x`
    BitNot,
    /// `not x`
    Not,
}

/// An infix operator (`?:` is [`Expr::Ternary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
        }
    }

    /// What a type error says the operator does: "cannot {verb} str and int".
    fn verb(self) -> Cow<'static, str> {
        match self {
            BinOp::Add => "add".into(),
            BinOp::Sub => "subtract".into(),
            BinOp::Mul => "multiply".into(),
            BinOp::Div => "divide".into(),
            BinOp::Mod => "take the modulo of".into(),
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                format!("compare (with '{}')", self.symbol()).into()
            }
            _ => format!("apply '{}' to", self.symbol()).into(),
        }
    }
}

/// A parsed expression. Parentheses leave no node; [`fmt::Display`] writes
/// the expression back fully parenthesised, as text that parses to the same
/// tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(Arc<str>),
    /// `[a, b, …]`
    Array(Vec<Expr>),
    /// A bare identifier, resolved by [`Scope::name`].
    Name(String),
    /// `path::name`, e.g. `animal::dog` (path `["animal"]`).
    EnumLit {
        path: Vec<String>,
        name: String,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `target.name`
    Attr(Box<Expr>, String),
    /// `target.name(args)`
    Call(Box<Expr>, String, Vec<Expr>),
    /// `target[index]`
    Index(Box<Expr>, Box<Expr>),
    /// `target.as<T>`
    Cast(Box<Expr>, TypeName),
    /// `sizeof<T>` (bits false) or `bitsizeof<T>` (bits true).
    SizeOf {
        ty: TypeName,
        bits: bool,
    },
}

/// A parse error: where (1-based character column) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub col: u32,
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExprError {}

/// What the interpreter supplies to an evaluation.
pub trait Scope {
    /// A bare identifier: a field, instance or parameter of the current object, or one of
    /// `_io`, `_parent`, `_root`, `_index`, `_`, `_on`, `_sizeof`, `_is_le` … (the interpreter decides).
    fn name(&mut self, name: &str) -> Result<Val, String>;
    /// `target.name` where `target` is a `Val::Handle` (an object's field/instance, or a stream's
    /// `pos`, `size`, `eof`), also `_parent`/`_root`/`_io`/`_sizeof` of an object.
    fn attr(&mut self, target: &Val, name: &str) -> Result<Val, String>;
    /// `path::name` enum literal, e.g. `["animal"]`,`"dog"` or `["outer","animal"]`,`"dog"`.
    fn enum_value(&mut self, path: &[String], name: &str) -> Result<Val, String>;
    /// `sizeof<T>` (bits=false, bytes) or `bitsizeof<T>` (bits=true).
    fn sizeof(&mut self, ty: &TypeName, bits: bool) -> Result<Val, String>;
    /// `v.as<T>` for a user type or other non-primitive T; the evaluator itself handles casts to
    /// integer types (u1..u8, s1..s8: wrap to that width), f4/f8, `str`, `bytes`, `bool` where the
    /// value already is of that kind.
    fn cast(&mut self, v: Val, ty: &TypeName) -> Result<Val, String>;
    /// The name of enum `e`'s value `v`, if it has one (used only by [`Val::display_with`]).
    fn enum_name(&self, _e: u32, _v: i128) -> Option<String> {
        None
    }
}

// ---------------------------------------------------------------------------
// Values

impl Val {
    /// The value of a condition: a `Bool`, else an error.
    pub fn truthy(&self) -> Result<bool, String> {
        match self {
            Val::Bool(b) => Ok(*b),
            v => Err(format!("expected bool, found {}", v.type_name())),
        }
    }

    /// An `Int`'s value, else an error.
    pub fn as_int(&self) -> Result<i128, String> {
        match self {
            Val::Int(i) => Ok(*i),
            v => Err(format!("expected int, found {}", v.type_name())),
        }
    }

    /// The kind of value, as error messages name it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Int(_) => "int",
            Val::Float(_) => "float",
            Val::Bool(_) => "bool",
            Val::Str(_) => "str",
            Val::Bytes(_) => "bytes",
            Val::Array(_) => "array",
            Val::Enum { .. } => "enum",
            Val::Handle(_) => "object",
            Val::Nil => "null",
        }
    }

    /// `self == other` as the language's `==` computes it (an error where `==` is one).
    pub fn eq_val(&self, other: &Val) -> Result<bool, String> {
        eq_vals(self, other)
    }

    /// The order of `self` and `other` as `<` computes it: `None` when unordered (NaN), an
    /// error for kinds that have no order.
    pub fn cmp_val(&self, other: &Val) -> Result<Option<Ordering>, String> {
        cmp_vals(self, other, "<")
    }

    /// Like `to_string`, but an enum value shows as its name when `scope` knows one.
    pub fn display_with(&self, scope: &dyn Scope) -> String {
        let mut s = String::new();
        write_val(&mut s, self, Some(scope));
        s
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_val(&mut s, self, None);
        f.write_str(&s)
    }
}

fn write_val(out: &mut String, v: &Val, scope: Option<&dyn Scope>) {
    match v {
        Val::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Val::Float(x) => out.push_str(&float_text(*x)),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Str(s) => quote_str(out, s),
        Val::Bytes(b) => {
            out.push('[');
            for (k, x) in b.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "0x{x:x}");
            }
            out.push(']');
        }
        Val::Array(a) => {
            out.push('[');
            for (k, x) in a.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write_val(out, x, scope);
            }
            out.push(']');
        }
        Val::Enum { e, v } => match scope.and_then(|s| s.enum_name(*e, *v)) {
            Some(name) => out.push_str(&name),
            None => {
                let _ = write!(out, "{v}");
            }
        },
        Val::Handle(_) => out.push_str("<object>"),
        Val::Nil => out.push_str("null"),
    }
}

/// Rust's `{}` text of a float, keeping a `.0` on whole numbers.
fn float_text(x: f64) -> String {
    let mut s = format!("{x}");
    if x.is_finite() && !s.contains(['.', 'e']) {
        s.push_str(".0");
    }
    s
}

/// A double-quoted string literal that the lexer reads back as `s`.
fn quote_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

// ---------------------------------------------------------------------------
// Lexer

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i128),
    Float(f64),
    Str(String),
    Ident(String),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
struct Spanned {
    tok: Tok,
    /// Index of the token's first character.
    start: usize,
    /// Index just past its last character.
    end: usize,
}

/// Punctuation, longest first.
const PUNCTS: &[&str] = &[
    "::", "<<", ">>", "<=", ">=", "==", "!=", "(", ")", "[", "]", ",", ".", "?", ":", "+", "-",
    "*", "/", "%", "<", ">", "&", "|", "^", "~",
];

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(_) | Tok::Float(_) => "number".into(),
        Tok::Str(_) => "string".into(),
        Tok::Ident(w) => format!("'{w}'"),
        Tok::Punct(p) => format!("'{p}'"),
        Tok::Eof => "end of expression".into(),
    }
}

// Precedence levels (see the module documentation).
const P_TERNARY: u8 = 1;
const P_OR: u8 = 2;
const P_AND: u8 = 3;
const P_NOT: u8 = 4;
const P_CMP: u8 = 5;
const P_BITOR: u8 = 6;
const P_BITXOR: u8 = 7;
const P_BITAND: u8 = 8;
const P_SHIFT: u8 = 9;
const P_ADD: u8 = 10;
const P_MUL: u8 = 11;
const P_UNARY: u8 = 12;

enum Infix {
    Ternary,
    Bin(BinOp),
}

fn infix_of(t: &Tok) -> Option<(u8, Infix)> {
    use BinOp::*;
    let (p, op) = match t {
        Tok::Punct("?") => return Some((P_TERNARY, Infix::Ternary)),
        Tok::Ident(w) if w == "or" => (P_OR, Or),
        Tok::Ident(w) if w == "and" => (P_AND, And),
        Tok::Punct("==") => (P_CMP, Eq),
        Tok::Punct("!=") => (P_CMP, Ne),
        Tok::Punct("<") => (P_CMP, Lt),
        Tok::Punct("<=") => (P_CMP, Le),
        Tok::Punct(">") => (P_CMP, Gt),
        Tok::Punct(">=") => (P_CMP, Ge),
        Tok::Punct("|") => (P_BITOR, BitOr),
        Tok::Punct("^") => (P_BITXOR, BitXor),
        Tok::Punct("&") => (P_BITAND, BitAnd),
        Tok::Punct("<<") => (P_SHIFT, Shl),
        Tok::Punct(">>") => (P_SHIFT, Shr),
        Tok::Punct("+") => (P_ADD, Add),
        Tok::Punct("-") => (P_ADD, Sub),
        Tok::Punct("*") => (P_MUL, Mul),
        Tok::Punct("/") => (P_MUL, Div),
        Tok::Punct("%") => (P_MUL, Mod),
        _ => return None,
    };
    Some((p, Infix::Bin(op)))
}

/// The parser, lexing on demand (a type name inside `<…>` is read straight
/// from the characters, so `x.as<u4>>2` needs no token splitting).
struct Parser {
    src: Vec<char>,
    pos: usize,
    peeked: Option<Spanned>,
    /// Recursion depth of `expr`.
    nest: u32,
}

/// Parses an expression's text; the whole text must be one expression.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let mut p = Parser {
        src: text.chars().collect(),
        pos: 0,
        peeked: None,
        nest: 0,
    };
    p.whole().map_err(|e| *e)
}

/// A parse error, boxed to keep the parser's stack frames small.
type PErr = Box<ExprError>;

/// A subtree and its depth. Boxed: the trees' nodes hold boxes anyway, and
/// a small result keeps each level of recursion's stack frame small.
type Parsed = Result<(Box<Expr>, u32), PErr>;

impl Parser {
    #[cold]
    #[inline(never)]
    fn err(&self, at: usize, msg: impl fmt::Display) -> PErr {
        let col = u32::try_from(at.saturating_add(1)).unwrap_or(u32::MAX);
        Box::new(ExprError {
            col,
            message: format!("{msg} at column {col}"),
        })
    }

    /// The whole text as one expression.
    fn whole(&mut self) -> Result<Expr, PErr> {
        let (e, _) = self.expr(0)?;
        let t = self.peek()?;
        if t.tok != Tok::Eof {
            let (start, what) = (t.start, describe(&t.tok));
            return Err(self.err(
                start,
                format_args!("unexpected {what} after the end of the expression"),
            ));
        }
        Ok(*e)
    }

    fn skip_ws(&mut self) {
        while self.src.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Result<&Spanned, PErr> {
        if self.peeked.is_none() {
            let t = self.lex()?;
            self.peeked = Some(t);
        }
        Ok(self.peeked.as_ref().expect("just filled"))
    }

    fn bump(&mut self) -> Result<Spanned, PErr> {
        let t = match self.peeked.take() {
            Some(t) => t,
            None => self.lex()?,
        };
        self.pos = t.end;
        Ok(t)
    }

    fn at_punct(&mut self, p: &str) -> Result<bool, PErr> {
        Ok(matches!(&self.peek()?.tok, Tok::Punct(q) if *q == p))
    }

    fn expect(&mut self, p: &str) -> Result<Spanned, PErr> {
        let t = self.bump()?;
        if matches!(&t.tok, Tok::Punct(q) if *q == p) {
            Ok(t)
        } else {
            Err(self.err(t.start, format_args!("expected '{p}'")))
        }
    }

    /// A node of tree depth `d`, refused when too deep.
    fn node(&self, e: Expr, d: u32, at: usize) -> Parsed {
        if d > MAX_DEPTH {
            Err(self.err(at, "expression nested too deeply"))
        } else {
            Ok((Box::new(e), d))
        }
    }

    // --- lexing ---

    #[inline(never)]
    fn lex(&self) -> Result<Spanned, PErr> {
        let s = &self.src;
        let mut i = self.pos;
        while i < s.len() && s[i].is_whitespace() {
            i += 1;
        }
        let start = i;
        let Some(&c) = s.get(i) else {
            return Ok(Spanned {
                tok: Tok::Eof,
                start,
                end: start,
            });
        };
        let tok = if c.is_ascii_digit() {
            return self.lex_number(start);
        } else if is_ident_start(c) {
            while i < s.len() && is_ident_char(s[i]) {
                i += 1;
            }
            Tok::Ident(s[start..i].iter().collect())
        } else if c == '\'' {
            let Some(len) = s[start + 1..].iter().position(|&x| x == '\'') else {
                return Err(self.err(start, "unterminated string"));
            };
            i = start + 1 + len + 1;
            Tok::Str(s[start + 1..i - 1].iter().collect())
        } else if c == '"' {
            return self.lex_dq(start);
        } else {
            let Some(p) = PUNCTS.iter().find(|p| {
                p.chars()
                    .enumerate()
                    .all(|(k, pc)| s.get(i + k) == Some(&pc))
            }) else {
                return Err(self.err(start, format_args!("unexpected character {c:?}")));
            };
            i += p.len();
            Tok::Punct(p)
        };
        Ok(Spanned { tok, start, end: i })
    }

    #[inline(never)]
    fn lex_number(&self, start: usize) -> Result<Spanned, PErr> {
        let s = &self.src;
        let mut i = start;
        let radix = match (s[i], s.get(i + 1)) {
            ('0', Some('x' | 'X')) => 16,
            ('0', Some('o' | 'O')) => 8,
            ('0', Some('b' | 'B')) => 2,
            _ => 10,
        };
        let tok = if radix != 10 {
            i += 2;
            let mut val: i128 = 0;
            let mut digits = 0;
            while let Some(&ch) = s.get(i) {
                if ch == '_' {
                    i += 1;
                    continue;
                }
                let Some(d) = ch.to_digit(radix) else { break };
                val = val
                    .checked_mul(i128::from(radix))
                    .and_then(|v| v.checked_add(i128::from(d)))
                    .ok_or_else(|| self.err(start, "integer literal out of range"))?;
                digits += 1;
                i += 1;
            }
            if digits == 0 {
                let prefix: String = s[start..start + 2].iter().collect();
                return Err(self.err(i, format_args!("expected digits after '{prefix}'")));
            }
            Tok::Int(val)
        } else {
            let mut text = String::new();
            let mut is_float = false;
            let digits = |i: &mut usize, text: &mut String| {
                while let Some(&ch) = s.get(*i) {
                    if ch.is_ascii_digit() {
                        text.push(ch);
                    } else if ch != '_' {
                        break;
                    }
                    *i += 1;
                }
            };
            digits(&mut i, &mut text);
            if s.get(i) == Some(&'.') && s.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                text.push('.');
                i += 1;
                digits(&mut i, &mut text);
            }
            if matches!(s.get(i), Some('e' | 'E')) {
                let mut j = i + 1;
                let sign = match s.get(j) {
                    Some(&c @ ('+' | '-')) => {
                        j += 1;
                        Some(c)
                    }
                    _ => None,
                };
                if s.get(j).is_some_and(|c| c.is_ascii_digit()) {
                    is_float = true;
                    text.push('e');
                    text.extend(sign);
                    i = j;
                    digits(&mut i, &mut text);
                }
            }
            if is_float {
                match text.parse::<f64>() {
                    Ok(x) => Tok::Float(x),
                    Err(_) => return Err(self.err(start, "invalid number literal")),
                }
            } else {
                match text.parse::<i128>() {
                    Ok(v) => Tok::Int(v),
                    Err(_) => return Err(self.err(start, "integer literal out of range")),
                }
            }
        };
        if s.get(i).is_some_and(|&c| is_ident_char(c)) {
            return Err(self.err(i, "invalid character in number literal"));
        }
        Ok(Spanned { tok, start, end: i })
    }

    #[inline(never)]
    fn lex_dq(&self, start: usize) -> Result<Spanned, PErr> {
        let s = &self.src;
        let mut i = start + 1;
        let mut out = String::new();
        loop {
            let Some(&ch) = s.get(i) else {
                return Err(self.err(start, "unterminated string"));
            };
            i += 1;
            match ch {
                '"' => break,
                '\\' => {
                    let at = i - 1;
                    let Some(&e) = s.get(i) else {
                        return Err(self.err(start, "unterminated string"));
                    };
                    i += 1;
                    let c = match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        'a' => '\x07',
                        'b' => '\x08',
                        'e' => '\x1b',
                        'f' => '\x0c',
                        'v' => '\x0b',
                        '\\' | '"' | '\'' => e,
                        '0'..='7' => {
                            let mut v = e.to_digit(8).unwrap_or(0);
                            let mut n = 1;
                            while n < 3 {
                                match s.get(i).and_then(|c| c.to_digit(8)) {
                                    Some(d) => {
                                        v = v * 8 + d;
                                        i += 1;
                                        n += 1;
                                    }
                                    None => break,
                                }
                            }
                            char::from_u32(v).unwrap_or('\u{fffd}')
                        }
                        'u' => {
                            let mut v = 0;
                            for k in 0..4 {
                                match s.get(i + k).and_then(|c| c.to_digit(16)) {
                                    Some(d) => v = v * 16 + d,
                                    None => {
                                        return Err(
                                            self.err(at, "expected 4 hex digits after '\\u'")
                                        )
                                    }
                                }
                            }
                            i += 4;
                            match char::from_u32(v) {
                                Some(c) => c,
                                None => return Err(self.err(at, "invalid unicode escape")),
                            }
                        }
                        e => {
                            return Err(self.err(at, format_args!("unknown escape '\\{e}'")));
                        }
                    };
                    out.push(c);
                }
                c => out.push(c),
            }
        }
        Ok(Spanned {
            tok: Tok::Str(out),
            start,
            end: i,
        })
    }

    // --- parsing ---

    fn expr(&mut self, min: u8) -> Parsed {
        if self.nest >= MAX_DEPTH {
            let at = self.peek().map(|t| t.start).unwrap_or(self.pos);
            return Err(self.err(at, "expression nested too deeply"));
        }
        self.nest += 1;
        let r = self.expr_in(min);
        self.nest -= 1;
        r
    }

    fn expr_in(&mut self, min: u8) -> Parsed {
        let (lhs, d) = self.prefix()?;
        self.infix(lhs, d, min)
    }

    /// An operand: prefix operators, then a primary with its postfixes.
    #[inline(never)]
    fn prefix(&mut self) -> Parsed {
        let t = self.bump()?;
        match t.tok {
            Tok::Ident(ref w) if w == "not" => {
                let (e, d) = self.expr(P_NOT)?;
                self.node(Expr::Unary(UnOp::Not, e), d + 1, t.start)
            }
            Tok::Punct(p @ ("-" | "~")) => {
                let op = if p == "-" { UnOp::Neg } else { UnOp::BitNot };
                let (e, d) = self.expr(P_UNARY)?;
                self.node(Expr::Unary(op, e), d + 1, t.start)
            }
            // Parentheses and array literals are handled here rather than in
            // `primary`, whose frame then never lies on a recursion's path.
            Tok::Punct("(") => {
                let (e, d) = self.expr(0)?;
                self.expect(")")?;
                self.postfix(e, d)
            }
            Tok::Punct("[") => {
                let (e, d) = self.array(t.start)?;
                self.postfix(e, d)
            }
            _ => {
                let (e, d) = self.primary(t)?;
                self.postfix(e, d)
            }
        }
    }

    /// The infix operators binding at least as tightly as `min` after `lhs`.
    #[inline(never)]
    fn infix(&mut self, mut lhs: Box<Expr>, mut d: u32, min: u8) -> Parsed {
        let mut after_cmp = false;
        loop {
            let t = self.peek()?;
            let Some((prec, op)) = infix_of(&t.tok) else {
                break;
            };
            if prec < min {
                break;
            }
            let at = t.start;
            self.bump()?;
            match op {
                Infix::Ternary => {
                    let (a, da) = self.expr(P_TERNARY)?;
                    self.expect(":")?;
                    let (b, db) = self.expr(P_TERNARY)?;
                    let e = Expr::Ternary(lhs, a, b);
                    (lhs, d) = self.node(e, d.max(da).max(db) + 1, at)?;
                    after_cmp = false;
                }
                Infix::Bin(op) => {
                    let is_cmp = prec == P_CMP;
                    if is_cmp && after_cmp {
                        return Err(self.err(at, "comparisons cannot be chained"));
                    }
                    let (r, dr) = self.expr(prec + 1)?;
                    let e = Expr::Binary(op, lhs, r);
                    (lhs, d) = self.node(e, d.max(dr) + 1, at)?;
                    after_cmp = is_cmp;
                }
            }
        }
        Ok((lhs, d))
    }

    #[inline(never)]
    fn primary(&mut self, t: Spanned) -> Parsed {
        let e = match t.tok {
            Tok::Int(i) => Expr::Int(i),
            Tok::Float(x) => Expr::Float(x),
            Tok::Str(s) => Expr::Str(s.into()),
            Tok::Ident(w) => return self.word(w, t.start),
            Tok::Eof => return Err(self.err(t.start, "unexpected end of expression")),
            Tok::Punct(p) => return Err(self.err(t.start, format_args!("unexpected '{p}'"))),
        };
        Ok((Box::new(e), 1))
    }

    /// An identifier in operand position: a keyword literal, `sizeof<T>`,
    /// an enum literal or a name.
    #[inline(never)]
    fn word(&mut self, w: String, start: usize) -> Parsed {
        let e = match w.as_str() {
            "true" => Expr::Bool(true),
            "false" => Expr::Bool(false),
            "and" | "or" | "not" => {
                return Err(self.err(start, format_args!("unexpected '{w}'")));
            }
            "sizeof" | "bitsizeof" if self.at_punct("<")? => {
                self.bump()?;
                let ty = self.type_name()?;
                Expr::SizeOf {
                    ty,
                    bits: w == "bitsizeof",
                }
            }
            _ if self.at_punct("::")? => {
                let mut segs = vec![w];
                while self.at_punct("::")? {
                    self.bump()?;
                    let t = self.bump()?;
                    match t.tok {
                        Tok::Ident(n) => segs.push(n),
                        _ => return Err(self.err(t.start, "expected a name after '::'")),
                    }
                }
                let name = segs.pop().unwrap_or_default();
                Expr::EnumLit { path: segs, name }
            }
            _ => Expr::Name(w),
        };
        Ok((Box::new(e), 1))
    }

    #[inline(never)]
    fn array(&mut self, start: usize) -> Parsed {
        let mut items = Vec::new();
        let mut d = 0;
        if !self.at_punct("]")? {
            loop {
                let (e, de) = self.expr(0)?;
                d = d.max(de);
                items.push(*e);
                let t = self.bump()?;
                match t.tok {
                    Tok::Punct(",") if self.at_punct("]")? => {
                        self.bump()?;
                        break;
                    }
                    Tok::Punct(",") => {}
                    Tok::Punct("]") => break,
                    _ => return Err(self.err(t.start, "expected ',' or ']'")),
                }
            }
        } else {
            self.bump()?;
        }
        self.node(Expr::Array(items), d + 1, start)
    }

    #[inline(never)]
    fn postfix(&mut self, mut e: Box<Expr>, mut d: u32) -> Parsed {
        loop {
            let t = self.peek()?;
            let at = t.start;
            match t.tok {
                Tok::Punct(".") => {
                    self.bump()?;
                    (e, d) = self.dot_suffix(e, d, at)?;
                }
                Tok::Punct("[") => {
                    self.bump()?;
                    let (i, di) = self.subscript()?;
                    (e, d) = self.node(Expr::Index(e, i), d.max(di) + 1, at)?;
                }
                _ => break,
            }
        }
        Ok((e, d))
    }

    /// What follows a `.` (at `at`) after `e`: `.as<T>`, `.name(args)` or `.name`.
    #[inline(never)]
    fn dot_suffix(&mut self, e: Box<Expr>, d: u32, at: usize) -> Parsed {
        let nt = self.bump()?;
        let Tok::Ident(name) = nt.tok else {
            return Err(self.err(nt.start, "expected a name after '.'"));
        };
        if name == "as" && self.at_punct("<")? {
            self.bump()?;
            let ty = self.type_name()?;
            self.node(Expr::Cast(e, ty), d + 1, at)
        } else if self.at_punct("(")? {
            self.bump()?;
            let (args, da) = self.call_args()?;
            self.node(Expr::Call(e, name, args), d.max(da) + 1, at)
        } else {
            self.node(Expr::Attr(e, name), d + 1, at)
        }
    }

    /// A call's arguments after its `(`, through the `)`; their greatest depth.
    #[inline(never)]
    fn call_args(&mut self) -> Result<(Vec<Expr>, u32), PErr> {
        let mut args = Vec::new();
        let mut d = 0;
        if self.at_punct(")")? {
            self.bump()?;
            return Ok((args, d));
        }
        loop {
            let (a, da) = self.expr(0)?;
            d = d.max(da);
            args.push(*a);
            let t = self.bump()?;
            match t.tok {
                Tok::Punct(",") => {}
                Tok::Punct(")") => return Ok((args, d)),
                _ => return Err(self.err(t.start, "expected ',' or ')'")),
            }
        }
    }

    /// An index after its `[`, through the `]`.
    #[inline(never)]
    fn subscript(&mut self) -> Parsed {
        let r = self.expr(0)?;
        self.expect("]")?;
        Ok(r)
    }

    /// The type name after a `<` just consumed (nothing peeked), through its `>`.
    #[inline(never)]
    fn type_name(&mut self) -> Result<TypeName, PErr> {
        let mut path = vec![self.raw_ident()?];
        loop {
            self.skip_ws();
            if self.src.get(self.pos) == Some(&':') && self.src.get(self.pos + 1) == Some(&':') {
                self.pos += 2;
                path.push(self.raw_ident()?);
            } else {
                break;
            }
        }
        let mut array = false;
        if self.src.get(self.pos) == Some(&'[') {
            self.pos += 1;
            self.skip_ws();
            if self.src.get(self.pos) != Some(&']') {
                return Err(self.err(self.pos, "expected ']'"));
            }
            self.pos += 1;
            array = true;
            self.skip_ws();
        }
        if self.src.get(self.pos) != Some(&'>') {
            return Err(self.err(self.pos, "expected '>'"));
        }
        self.pos += 1;
        Ok(TypeName { path, array })
    }

    fn raw_ident(&mut self) -> Result<String, PErr> {
        self.skip_ws();
        let start = self.pos;
        if !self.src.get(start).is_some_and(|&c| is_ident_start(c)) {
            return Err(self.err(start, "expected a type name"));
        }
        while self.src.get(self.pos).is_some_and(|&c| is_ident_char(c)) {
            self.pos += 1;
        }
        Ok(self.src[start..self.pos].iter().collect())
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int(i) => write!(f, "{i}"),
            Expr::Float(x) if x.is_infinite() => f.write_str("1e999"),
            Expr::Float(x) => write!(f, "{x:?}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Str(s) => {
                let mut out = String::new();
                quote_str(&mut out, s);
                f.write_str(&out)
            }
            Expr::Array(items) => {
                f.write_str("[")?;
                for (k, x) in items.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("]")
            }
            // Parenthesised where a following `<` would read as a type argument.
            Expr::Name(n) if n == "sizeof" || n == "bitsizeof" => write!(f, "({n})"),
            Expr::Name(n) => f.write_str(n),
            Expr::EnumLit { path, name } => {
                for p in path {
                    write!(f, "{p}::")?;
                }
                f.write_str(name)
            }
            Expr::Unary(UnOp::Neg, x) => write!(f, "(-{x})"),
            Expr::Unary(UnOp::BitNot, x) => write!(f, "(~{x})"),
            Expr::Unary(UnOp::Not, x) => write!(f, "(not {x})"),
            Expr::Binary(op, l, r) => write!(f, "({l} {} {r})", op.symbol()),
            Expr::Ternary(c, a, b) => write!(f, "({c} ? {a} : {b})"),
            Expr::Attr(t, n) if n == "as" => write!(f, "({t}.as)"),
            Expr::Attr(t, n) => write!(f, "{t}.{n}"),
            Expr::Call(t, n, args) => {
                write!(f, "{t}.{n}(")?;
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Expr::Index(t, i) => write!(f, "{t}[{i}]"),
            Expr::Cast(t, ty) => write!(f, "{t}.as<{ty}>"),
            Expr::SizeOf { ty, bits } => {
                write!(f, "{}sizeof<{ty}>", if *bits { "bit" } else { "" })
            }
        }
    }
}

/// Names this expression reads as bare identifiers (for the interpreter's dependency checks),
/// each once, in the order they first appear.
pub fn names(e: &Expr) -> Vec<String> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Name(n) => {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
            Expr::Int(_)
            | Expr::Float(_)
            | Expr::Bool(_)
            | Expr::Str(_)
            | Expr::EnumLit { .. }
            | Expr::SizeOf { .. } => {}
            Expr::Array(items) => items.iter().for_each(|x| walk(x, out)),
            Expr::Unary(_, x) | Expr::Attr(x, _) | Expr::Cast(x, _) => walk(x, out),
            Expr::Binary(_, a, b) | Expr::Index(a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Expr::Ternary(c, a, b) => {
                walk(c, out);
                walk(a, out);
                walk(b, out);
            }
            Expr::Call(t, _, args) => {
                walk(t, out);
                args.iter().for_each(|x| walk(x, out));
            }
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

// ---------------------------------------------------------------------------
// Evaluation

/// Evaluates `e` with a budget of [`DEFAULT_BUDGET`] steps.
pub fn eval(e: &Expr, scope: &mut dyn Scope) -> Result<Val, String> {
    let mut budget = DEFAULT_BUDGET;
    eval_with_budget(e, scope, &mut budget)
}

/// Evaluates with a budget of steps (nodes visited); exceeding it is an error (hostile
/// expressions). What is left of the budget stays in `budget`.
pub fn eval_with_budget(e: &Expr, scope: &mut dyn Scope, budget: &mut u64) -> Result<Val, String> {
    ev(e, scope, budget)
}

// The evaluator recurses once per tree level (at most `MAX_DEPTH`). Each
// kind of node has its own small function, so that a level's stack frame
// holds only what that kind needs (`ev` itself stays tiny), in unoptimised
// builds too.

fn ev(e: &Expr, s: &mut dyn Scope, budget: &mut u64) -> Result<Val, String> {
    if *budget == 0 {
        return Err("expression too costly: evaluation step budget exhausted".into());
    }
    *budget -= 1;
    match e {
        Expr::Int(i) => Ok(Val::Int(*i)),
        Expr::Float(x) => Ok(Val::Float(*x)),
        Expr::Bool(b) => Ok(Val::Bool(*b)),
        Expr::Str(t) => Ok(Val::Str(t.clone())),
        Expr::Name(n) => s.name(n),
        Expr::EnumLit { path, name } => s.enum_value(path, name),
        Expr::SizeOf { ty, bits } => s.sizeof(ty, *bits),
        Expr::Array(items) => ev_list(items, s, budget).map(|v| Val::Array(Arc::new(v))),
        Expr::Unary(op, x) => ev_unary(*op, x, s, budget),
        Expr::Binary(op, l, r) => ev_binary(*op, l, r, s, budget),
        Expr::Ternary(c, a, b) => ev_ternary(c, a, b, s, budget),
        Expr::Attr(t, name) => ev_member(t, name, None, s, budget),
        Expr::Call(t, name, args) => ev_member(t, name, Some(args), s, budget),
        Expr::Index(t, i) => ev_index(t, i, s, budget),
        Expr::Cast(t, ty) => ev_cast(t, ty, s, budget),
    }
}

#[inline(never)]
fn ev_list(items: &[Expr], s: &mut dyn Scope, budget: &mut u64) -> Result<Vec<Val>, String> {
    let mut v = Vec::with_capacity(items.len());
    for x in items {
        v.push(ev(x, s, budget)?);
    }
    Ok(v)
}

#[inline(never)]
fn ev_unary(op: UnOp, x: &Expr, s: &mut dyn Scope, budget: &mut u64) -> Result<Val, String> {
    let v = ev(x, s, budget)?;
    unary(op, v)
}

#[inline(never)]
fn ev_binary(
    op: BinOp,
    l: &Expr,
    r: &Expr,
    s: &mut dyn Scope,
    budget: &mut u64,
) -> Result<Val, String> {
    let a = ev(l, s, budget)?;
    if let BinOp::And | BinOp::Or = op {
        let a = logic_operand(&a, op.symbol())?;
        // `and` stops at false, `or` at true.
        if a == (op == BinOp::Or) {
            return Ok(Val::Bool(a));
        }
        let b = ev(r, s, budget)?;
        return logic_operand(&b, op.symbol()).map(Val::Bool);
    }
    let b = ev(r, s, budget)?;
    binary(op, &a, &b)
}

#[inline(never)]
fn ev_ternary(
    c: &Expr,
    a: &Expr,
    b: &Expr,
    s: &mut dyn Scope,
    budget: &mut u64,
) -> Result<Val, String> {
    match ev(c, s, budget)? {
        Val::Bool(true) => ev(a, s, budget),
        Val::Bool(false) => ev(b, s, budget),
        v => Err(condition_error(&v)),
    }
}

#[cold]
#[inline(never)]
fn condition_error(v: &Val) -> String {
    format!(
        "the condition of '?:' must be bool, found {}",
        v.type_name()
    )
}

#[inline(never)]
fn ev_member(
    t: &Expr,
    name: &str,
    args: Option<&[Expr]>,
    s: &mut dyn Scope,
    budget: &mut u64,
) -> Result<Val, String> {
    let v = ev(t, s, budget)?;
    let args = match args {
        None => None,
        Some(_) if matches!(v, Val::Handle(_)) => return Err(handle_call_error(name)),
        Some(args) => Some(ev_list(args, s, budget)?),
    };
    member(v, name, args, s)
}

#[cold]
#[inline(never)]
fn handle_call_error(name: &str) -> String {
    format!("method call '{name}(…)' on an object or stream is not supported")
}

#[inline(never)]
fn ev_index(t: &Expr, i: &Expr, s: &mut dyn Scope, budget: &mut u64) -> Result<Val, String> {
    let v = ev(t, s, budget)?;
    let i = ev(i, s, budget)?;
    index(&v, &i)
}

#[inline(never)]
fn ev_cast(t: &Expr, ty: &TypeName, s: &mut dyn Scope, budget: &mut u64) -> Result<Val, String> {
    let v = ev(t, s, budget)?;
    cast(v, ty, s)
}

fn logic_operand(v: &Val, word: &str) -> Result<bool, String> {
    match v {
        Val::Bool(b) => Ok(*b),
        v => Err(format!(
            "'{word}' needs bool operands, found {}",
            v.type_name()
        )),
    }
}

#[inline(never)]
fn unary(op: UnOp, v: Val) -> Result<Val, String> {
    match (op, &v) {
        (UnOp::Neg, Val::Int(i)) => i
            .checked_neg()
            .map(Val::Int)
            .ok_or_else(|| "integer overflow in '-'".to_string()),
        (UnOp::Neg, Val::Float(x)) => Ok(Val::Float(-x)),
        (UnOp::BitNot, Val::Int(i)) => Ok(Val::Int(!i)),
        (UnOp::Not, Val::Bool(b)) => Ok(Val::Bool(!b)),
        (UnOp::Neg, _) => Err(format!("cannot negate {}", v.type_name())),
        (UnOp::BitNot, _) => Err(format!("cannot apply '~' to {}", v.type_name())),
        (UnOp::Not, _) => Err(format!("cannot apply 'not' to {}", v.type_name())),
    }
}

fn type_err(op: BinOp, a: &Val, b: &Val) -> String {
    format!(
        "cannot {} {} and {}",
        op.verb(),
        a.type_name(),
        b.type_name()
    )
}

fn overflow(op: BinOp) -> String {
    format!("integer overflow in '{}'", op.symbol())
}

/// Both operands as floats when they are numbers and at least one is a float.
fn floats(a: &Val, b: &Val) -> Option<(f64, f64)> {
    match (a, b) {
        (Val::Float(x), Val::Float(y)) => Some((*x, *y)),
        (Val::Int(x), Val::Float(y)) => Some((*x as f64, *y)),
        (Val::Float(x), Val::Int(y)) => Some((*x, *y as f64)),
        _ => None,
    }
}

/// A byte array's bytes, or an array of integers 0..=255 as bytes (array
/// literals double as byte-array literals).
fn byte_slice(v: &Val) -> Option<Cow<'_, [u8]>> {
    match v {
        Val::Bytes(b) => Some(Cow::Borrowed(b)),
        Val::Array(a) => a
            .iter()
            .map(|x| match x {
                Val::Int(i) => u8::try_from(*i).ok(),
                _ => None,
            })
            .collect::<Option<Vec<u8>>>()
            .map(Cow::Owned),
        _ => None,
    }
}

/// Applies an infix operator to two values (`and`/`or` here without short-circuiting).
#[inline(never)]
pub fn binary(op: BinOp, a: &Val, b: &Val) -> Result<Val, String> {
    use Val::{Bool, Int};
    match op {
        BinOp::Eq => Ok(Bool(eq_vals(a, b)?)),
        BinOp::Ne => Ok(Bool(!eq_vals(a, b)?)),
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let o = cmp_vals(a, b, op.symbol())?;
            Ok(Bool(o.is_some_and(|o| match op {
                BinOp::Lt => o.is_lt(),
                BinOp::Le => o.is_le(),
                BinOp::Gt => o.is_gt(),
                _ => o.is_ge(),
            })))
        }
        BinOp::And | BinOp::Or => match (a, b) {
            (Bool(x), Bool(y)) => Ok(Bool(if op == BinOp::And { *x && *y } else { *x || *y })),
            _ => Err(type_err(op, a, b)),
        },
        BinOp::Add => add(a, b),
        BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => arith(op, a, b),
        BinOp::Shl | BinOp::Shr => shift(op, a, b),
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => match (a, b) {
            (Int(x), Int(y)) => Ok(Int(match op {
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                _ => x ^ y,
            })),
            _ => Err(type_err(op, a, b)),
        },
    }
}

fn add(a: &Val, b: &Val) -> Result<Val, String> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x
            .checked_add(*y)
            .map(Val::Int)
            .ok_or_else(|| overflow(BinOp::Add)),
        (Val::Str(x), Val::Str(y)) => {
            let mut s = String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Ok(Val::Str(s.into()))
        }
        (Val::Array(x), Val::Array(y)) => Ok(Val::Array(Arc::new(
            x.iter().chain(y.iter()).cloned().collect(),
        ))),
        (Val::Bytes(_), Val::Bytes(_) | Val::Array(_)) | (Val::Array(_), Val::Bytes(_)) => {
            match (byte_slice(a), byte_slice(b)) {
                (Some(x), Some(y)) => Ok(Val::Bytes([&*x, &*y].concat().into())),
                _ => Err(type_err(BinOp::Add, a, b)),
            }
        }
        _ => match floats(a, b) {
            Some((x, y)) => Ok(Val::Float(x + y)),
            None => Err(type_err(BinOp::Add, a, b)),
        },
    }
}

fn arith(op: BinOp, a: &Val, b: &Val) -> Result<Val, String> {
    if let (Val::Int(x), Val::Int(y)) = (a, b) {
        let (x, y) = (*x, *y);
        let r = match op {
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            _ if y == 0 => return Err("division by zero".into()),
            BinOp::Div => floor_div(x, y),
            _ => Some(floor_mod(x, y)),
        };
        return r.map(Val::Int).ok_or_else(|| overflow(op));
    }
    let Some((x, y)) = floats(a, b) else {
        return Err(type_err(op, a, b));
    };
    Ok(Val::Float(match op {
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        _ if y == 0.0 => return Err("division by zero".into()),
        BinOp::Div => x / y,
        _ => {
            let r = x % y;
            if r != 0.0 && (r < 0.0) != (y < 0.0) {
                r + y
            } else {
                r
            }
        }
    }))
}

/// `x / y` rounded toward negative infinity (`y != 0`); `None` on overflow.
fn floor_div(x: i128, y: i128) -> Option<i128> {
    let q = x.checked_div(y)?;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        Some(q - 1)
    } else {
        Some(q)
    }
}

/// `x` modulo `y` (`y != 0`), with the sign of `y`: `x - y * floor(x / y)`.
fn floor_mod(x: i128, y: i128) -> i128 {
    if y == -1 {
        return 0;
    }
    let r = x % y;
    if r != 0 && ((r < 0) != (y < 0)) {
        r + y
    } else {
        r
    }
}

fn shift(op: BinOp, a: &Val, b: &Val) -> Result<Val, String> {
    let (Val::Int(x), Val::Int(n)) = (a, b) else {
        return Err(type_err(op, a, b));
    };
    let (x, n) = (*x, *n);
    if n < 0 {
        return Err(format!("negative shift amount {n}"));
    }
    if x < i128::from(i64::MIN) || x > i128::from(u64::MAX) {
        return Err(format!("cannot shift {x}: it is outside the 64-bit range"));
    }
    let r = if n >= 64 {
        match op {
            BinOp::Shl => 0,
            _ if x < 0 => -1,
            _ => 0,
        }
    } else {
        let n = n as u32;
        match op {
            BinOp::Shl if x >= 0 => i128::from((x as u64) << n),
            BinOp::Shl => i128::from((x as i64) << n),
            _ => x >> n,
        }
    };
    Ok(Val::Int(r))
}

const TWO_127: f64 = (1u128 << 127) as f64;

/// The exact order of an integer and a float.
fn cmp_int_float(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= TWO_127 {
        return Some(Ordering::Less);
    }
    if f < -TWO_127 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    match i.cmp(&(t as i128)) {
        Ordering::Equal => f.partial_cmp(&t).map(Ordering::reverse),
        o => Some(o),
    }
}

fn num_cmp(a: &Val, b: &Val) -> Option<Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Float(x), Val::Float(y)) => x.partial_cmp(y),
        (Val::Int(x), Val::Float(y)) => cmp_int_float(*x, *y),
        (Val::Float(x), Val::Int(y)) => cmp_int_float(*y, *x).map(Ordering::reverse),
        _ => None,
    }
}

fn eq_vals(a: &Val, b: &Val) -> Result<bool, String> {
    use Val::*;
    Ok(match (a, b) {
        (Nil, Nil) => true,
        (Nil, _) | (_, Nil) => false,
        (Int(_) | Float(_), Int(_) | Float(_)) => num_cmp(a, b) == Some(Ordering::Equal),
        (Bool(x), Bool(y)) => x == y,
        (Str(x), Str(y)) => x == y,
        (Bytes(x), Bytes(y)) => x == y,
        (Array(x), Array(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if !eq_vals(p, q)? {
                    return Ok(false);
                }
            }
            true
        }
        (Bytes(x), Array(y)) | (Array(y), Bytes(x)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if !eq_vals(&Int(i128::from(*p)), q)? {
                    return Ok(false);
                }
            }
            true
        }
        (Enum { e: e1, v: v1 }, Enum { e: e2, v: v2 }) => {
            if e1 != e2 {
                return Err("cannot compare values of two different enums".into());
            }
            v1 == v2
        }
        (Handle(x), Handle(y)) => std::ptr::addr_eq(Arc::as_ptr(&x.0), Arc::as_ptr(&y.0)),
        _ => return Err(type_err(BinOp::Eq, a, b)),
    })
}

fn cmp_vals(a: &Val, b: &Val, sym: &str) -> Result<Option<Ordering>, String> {
    let fail = || {
        format!(
            "cannot compare (with '{sym}') {} and {}",
            a.type_name(),
            b.type_name()
        )
    };
    match (a, b) {
        (Val::Int(_) | Val::Float(_), Val::Int(_) | Val::Float(_)) => Ok(num_cmp(a, b)),
        (Val::Str(x), Val::Str(y)) => Ok(Some(x.as_bytes().cmp(y.as_bytes()))),
        (Val::Bytes(_), Val::Bytes(_) | Val::Array(_)) | (Val::Array(_), Val::Bytes(_)) => {
            match (byte_slice(a), byte_slice(b)) {
                (Some(x), Some(y)) => Ok(Some(x.cmp(&y))),
                _ => Err(fail()),
            }
        }
        _ => Err(fail()),
    }
}

#[inline(never)]
fn index(v: &Val, i: &Val) -> Result<Val, String> {
    let Val::Int(k) = *i else {
        return Err(format!("an index must be int, found {}", i.type_name()));
    };
    let out_of_range = |len: usize| format!("index {k} out of range (length {len})");
    match v {
        Val::Array(a) => usize::try_from(k)
            .ok()
            .and_then(|k| a.get(k))
            .cloned()
            .ok_or_else(|| out_of_range(a.len())),
        Val::Bytes(b) => usize::try_from(k)
            .ok()
            .and_then(|k| b.get(k))
            .map(|x| Val::Int(i128::from(*x)))
            .ok_or_else(|| out_of_range(b.len())),
        _ => Err(format!("cannot index {}", v.type_name())),
    }
}

fn float_to_int(x: f64) -> Result<Val, String> {
    let t = x.trunc();
    if !t.is_finite() || t.abs() >= TWO_127 {
        return Err(format!("cannot convert {} to an integer", float_text(x)));
    }
    Ok(Val::Int(t as i128))
}

/// `.name` (`args` None) or `.name(args)` on a value.
#[inline(never)]
fn member(v: Val, name: &str, args: Option<Vec<Val>>, s: &mut dyn Scope) -> Result<Val, String> {
    let call = args.is_some();
    let args = args.unwrap_or_default();
    let want = |n: usize| -> Result<(), String> {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "'{name}' takes {n} argument{}, given {}",
                if n == 1 { "" } else { "s" },
                args.len()
            ))
        }
    };
    let none = || {
        Err(format!(
            "{} has no method or attribute '{name}'",
            v.type_name()
        ))
    };
    match &v {
        Val::Handle(_) if call => Err(handle_call_error(name)),
        Val::Handle(_) => s.attr(&v, name),
        Val::Nil => Err(format!("cannot read '.{name}' of null (an absent field)")),
        Val::Int(i) => match name {
            "to_s" => want(0).map(|_| Val::Str(i.to_string().into())),
            "to_i" => want(0).map(|_| v.clone()),
            _ => none(),
        },
        Val::Float(x) => match name {
            "to_i" => want(0).and_then(|_| float_to_int(*x)),
            _ => none(),
        },
        Val::Bool(b) => match name {
            "to_i" => want(0).map(|_| Val::Int(i128::from(*b))),
            _ => none(),
        },
        Val::Enum { v: n, .. } => match name {
            "to_i" => want(0).map(|_| Val::Int(*n)),
            _ => none(),
        },
        Val::Str(t) => match name {
            "length" => want(0).map(|_| Val::Int(t.chars().count() as i128)),
            "reverse" => want(0).map(|_| Val::Str(t.chars().rev().collect::<String>().into())),
            "to_s" => want(0).map(|_| v.clone()),
            "substring" => {
                want(2)?;
                substring(t, args[0].as_int()?, args[1].as_int()?)
            }
            "to_i" => {
                let radix = match args.len() {
                    0 => 10,
                    1 => args[0].as_int()?,
                    _ => return want(1).map(|_| Val::Nil),
                };
                parse_int(t, radix)
            }
            _ => none(),
        },
        Val::Bytes(_) | Val::Array(_) => {
            let len = match &v {
                Val::Bytes(b) => b.len(),
                Val::Array(a) => a.len(),
                _ => 0,
            };
            let item = |k: usize| match &v {
                Val::Bytes(b) => Val::Int(i128::from(b[k])),
                Val::Array(a) => a[k].clone(),
                _ => Val::Nil,
            };
            match name {
                "length" | "size" => want(0).map(|_| Val::Int(len as i128)),
                "first" | "last" | "min" | "max" => {
                    want(0)?;
                    if len == 0 {
                        return Err(format!("'{name}' of an empty {}", v.type_name()));
                    }
                    match name {
                        "first" => Ok(item(0)),
                        "last" => Ok(item(len - 1)),
                        _ => {
                            let want_less = name == "min";
                            let mut best = item(0);
                            for k in 1..len {
                                let x = item(k);
                                let o = cmp_vals(&x, &best, name)?;
                                let better = if want_less {
                                    o == Some(Ordering::Less)
                                } else {
                                    o == Some(Ordering::Greater)
                                };
                                if better {
                                    best = x;
                                }
                            }
                            Ok(best)
                        }
                    }
                }
                "to_s" => {
                    want(1)?;
                    let Val::Str(enc) = &args[0] else {
                        return Err(format!(
                            "'to_s' needs an encoding name (str), found {}",
                            args[0].type_name()
                        ));
                    };
                    let Some(bytes) = byte_slice(&v) else {
                        return Err("'to_s(encoding)' needs a byte array".into());
                    };
                    super::encoding::decode(&bytes, enc).map(|t| Val::Str(t.into()))
                }
                _ => none(),
            }
        }
    }
}

fn substring(t: &str, from: i128, to: i128) -> Result<Val, String> {
    let chars: Vec<char> = t.chars().collect();
    let len = chars.len();
    match (usize::try_from(from), usize::try_from(to)) {
        (Ok(a), Ok(b)) if a <= b && b <= len => {
            Ok(Val::Str(chars[a..b].iter().collect::<String>().into()))
        }
        _ => Err(format!(
            "substring({from}, {to}) out of range for a string of {len} characters"
        )),
    }
}

/// `str.to_i(radix)`: an optional sign, then digits of `radix` (2..=36).
fn parse_int(t: &str, radix: i128) -> Result<Val, String> {
    let radix = match u32::try_from(radix) {
        Ok(r @ 2..=36) => r,
        _ => return Err(format!("invalid radix {radix} (must be 2..36)")),
    };
    let bad = || format!("cannot convert {t:?} to an integer (radix {radix})");
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let mut v: i128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or_else(bad)?;
        v = v
            .checked_mul(i128::from(radix))
            .and_then(|v| {
                if neg {
                    v.checked_sub(i128::from(d))
                } else {
                    v.checked_add(i128::from(d))
                }
            })
            .ok_or_else(bad)?;
    }
    Ok(Val::Int(v))
}

enum Prim {
    /// An integer type (`u4`, `s2be`, `b12`).
    Int,
    F4,
    F8,
    Str,
    Bytes,
    Bool,
}

/// The primitive type a cast names, if it names one.
fn prim_type(name: &str) -> Option<Prim> {
    match name {
        "str" => return Some(Prim::Str),
        "bytes" => return Some(Prim::Bytes),
        "bool" => return Some(Prim::Bool),
        _ => {}
    }
    let base = name
        .strip_suffix("le")
        .or_else(|| name.strip_suffix("be"))
        .unwrap_or(name);
    let mut chars = base.chars();
    let kind = chars.next()?;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    match (kind, n) {
        ('u' | 's', 1 | 2 | 4 | 8) | ('b', 1..=64) => Some(Prim::Int),
        ('f', 4) => Some(Prim::F4),
        ('f', 8) => Some(Prim::F8),
        _ => None,
    }
}

#[inline(never)]
fn cast(v: Val, ty: &TypeName, s: &mut dyn Scope) -> Result<Val, String> {
    let prim = match ty.path.as_slice() {
        [name] if !ty.array => prim_type(name),
        _ => None,
    };
    let Some(p) = prim else {
        return s.cast(v, ty);
    };
    match (p, &v) {
        // A cast tells which type to expect; it converts no value (an
        // integer cast to `u1` keeps its value, as Kaitai's parsers do).
        (Prim::Int, Val::Int(_)) => Ok(v),
        (Prim::F4 | Prim::F8, Val::Int(i)) => Ok(Val::Float(*i as f64)),
        (Prim::F4 | Prim::F8, Val::Float(_))
        | (Prim::Str, Val::Str(_))
        | (Prim::Bytes, Val::Bytes(_))
        | (Prim::Bool, Val::Bool(_)) => Ok(v),
        (Prim::Bytes, Val::Array(_)) => match byte_slice(&v) {
            Some(b) => Ok(Val::Bytes(b.into_owned().into())),
            None => Err(format!("cannot cast {} to {ty}", v.type_name())),
        },
        _ => Err(format!("cannot cast {} to {ty}", v.type_name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct TestIo {
        pos: i128,
        size: i128,
    }

    struct TestObj {
        fields: HashMap<&'static str, Val>,
    }

    struct TestScope {
        vars: HashMap<&'static str, Val>,
        casts: Vec<String>,
    }

    fn handle<T: std::any::Any + Send + Sync>(x: T) -> Val {
        Val::Handle(Handle(Arc::new(x)))
    }

    impl TestScope {
        fn new() -> TestScope {
            let mut vars = HashMap::new();
            vars.insert("a", Val::Int(5));
            vars.insert("b", Val::Int(-3));
            vars.insert("c", Val::Bool(true));
            vars.insert("d", Val::Bool(false));
            vars.insert("f", Val::Float(2.5));
            vars.insert("s", Val::Str("hello".into()));
            vars.insert("magic", Val::Bytes(Arc::from(&[0x89u8, 0x50][..])));
            vars.insert(
                "arr",
                Val::Array(Arc::new(vec![Val::Int(3), Val::Int(1), Val::Int(2)])),
            );
            vars.insert("pet", Val::Enum { e: 0, v: 4 });
            vars.insert("absent", Val::Nil);
            vars.insert("_io", handle(TestIo { pos: 7, size: 100 }));
            let mut fields = HashMap::new();
            fields.insert("len", Val::Int(12));
            fields.insert("_io", handle(TestIo { pos: 2, size: 12 }));
            vars.insert("hdr", handle(TestObj { fields }));
            TestScope {
                vars,
                casts: Vec::new(),
            }
        }
    }

    impl Scope for TestScope {
        fn name(&mut self, name: &str) -> Result<Val, String> {
            self.vars
                .get(name)
                .cloned()
                .ok_or_else(|| format!("unknown name '{name}'"))
        }
        fn attr(&mut self, target: &Val, name: &str) -> Result<Val, String> {
            let Val::Handle(h) = target else {
                return Err("not a handle".into());
            };
            if let Some(io) = h.0.downcast_ref::<TestIo>() {
                return match name {
                    "pos" => Ok(Val::Int(io.pos)),
                    "size" => Ok(Val::Int(io.size)),
                    "eof" => Ok(Val::Bool(io.pos >= io.size)),
                    _ => Err(format!("a stream has no '{name}'")),
                };
            }
            if let Some(o) = h.0.downcast_ref::<TestObj>() {
                return o
                    .fields
                    .get(name)
                    .cloned()
                    .ok_or_else(|| format!("no field '{name}'"));
            }
            Err("unknown handle".into())
        }
        fn enum_value(&mut self, path: &[String], name: &str) -> Result<Val, String> {
            match (path.join("::").as_str(), name) {
                ("animal", "dog") => Ok(Val::Enum { e: 0, v: 4 }),
                ("animal", "cat") => Ok(Val::Enum { e: 0, v: 7 }),
                ("outer::animal", "cat") => Ok(Val::Enum { e: 1, v: 7 }),
                _ => Err(format!("unknown enum value {}::{name}", path.join("::"))),
            }
        }
        fn sizeof(&mut self, ty: &TypeName, bits: bool) -> Result<Val, String> {
            let n = match ty.path.join("::").as_str() {
                "u4" => 4,
                "hdr" => 12,
                _ => return Err(format!("no size for {ty}")),
            };
            Ok(Val::Int(if bits { n * 8 } else { n }))
        }
        fn cast(&mut self, v: Val, ty: &TypeName) -> Result<Val, String> {
            self.casts.push(ty.to_string());
            match (&v, ty.path.join("::").as_str()) {
                (Val::Handle(_), "my_type") => Ok(v),
                _ => Err(format!("cannot cast {} to {ty}", v.type_name())),
            }
        }
        fn enum_name(&self, e: u32, v: i128) -> Option<String> {
            (e == 0 && v == 4).then(|| "dog".to_string())
        }
    }

    fn run(src: &str) -> Result<Val, String> {
        let e = parse(src).map_err(|e| format!("parse error: {e}"))?;
        eval(&e, &mut TestScope::new())
    }

    fn int(src: &str) -> i128 {
        match run(src) {
            Ok(Val::Int(i)) => i,
            other => panic!("{src}: expected an int, got {other:?}"),
        }
    }

    fn yes(src: &str) -> bool {
        match run(src) {
            Ok(Val::Bool(b)) => b,
            other => panic!("{src}: expected a bool, got {other:?}"),
        }
    }

    fn text(src: &str) -> String {
        match run(src) {
            Ok(Val::Str(s)) => s.to_string(),
            other => panic!("{src}: expected a str, got {other:?}"),
        }
    }

    fn float(src: &str) -> f64 {
        match run(src) {
            Ok(Val::Float(x)) => x,
            other => panic!("{src}: expected a float, got {other:?}"),
        }
    }

    fn fails(src: &str) -> String {
        match run(src) {
            Err(m) => m,
            Ok(v) => panic!("{src}: expected an error, got {v:?}"),
        }
    }

    fn show(src: &str) -> String {
        parse(src)
            .unwrap_or_else(|e| panic!("{src}: {e}"))
            .to_string()
    }

    fn perr(src: &str) -> ExprError {
        match parse(src) {
            Err(e) => e,
            Ok(x) => panic!("{src}: expected a parse error, got {x:?}"),
        }
    }

    #[test]
    fn precedence() {
        assert_eq!(show("1 + 2 * 3"), "(1 + (2 * 3))");
        assert_eq!(show("not a == b"), "(not (a == b))");
        assert_eq!(show("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
        assert_eq!(show("a ? b ? c : d : e"), "(a ? (b ? c : d) : e)");
        assert_eq!(show("-2 * 3"), "((-2) * 3)");
        assert_eq!(show("1 << 2 + 1"), "(1 << (2 + 1))");
        assert_eq!(show("1 - 2 - 3"), "((1 - 2) - 3)");
        assert_eq!(show("8 / 2 % 3 * 4"), "(((8 / 2) % 3) * 4)");
        assert_eq!(show("a | b ^ c & d"), "(a | (b ^ (c & d)))");
        assert_eq!(show("a & b << 1"), "(a & (b << 1))");
        assert_eq!(show("a == b | c"), "(a == (b | c))");
        assert_eq!(show("a or b and c"), "(a or (b and c))");
        assert_eq!(show("not a and b"), "((not a) and b)");
        assert_eq!(
            show("a < b and c >= d or e"),
            "(((a < b) and (c >= d)) or e)"
        );
        assert_eq!(show("x ? 1 : 2 + 3"), "(x ? 1 : (2 + 3))");
        assert_eq!(show("c or d ? 1 : 2"), "((c or d) ? 1 : 2)");
        assert_eq!(show("-a.b[1].c(2, 3)"), "(-a.b[1].c(2, 3))");
        assert_eq!(show("~x.as<u4> + 1"), "((~x.as<u4>) + 1)");
        assert_eq!(show("(1 + 2) * 3"), "((1 + 2) * 3)");
        assert_eq!(show("x.as<u4>>2"), "(x.as<u4> > 2)");
        assert_eq!(show("x.as<u4>>>2"), "(x.as<u4> >> 2)");
        assert_eq!(show("sizeof<outer::inner[]>"), "sizeof<outer::inner[]>");
        assert_eq!(show("bitsizeof< u4 >"), "bitsizeof<u4>");
        assert_eq!(int("1 + 2 * 3"), 7);
        assert_eq!(int("-2 * 3"), -6);
        assert_eq!(int("1 << 2 + 1"), 8);
        assert_eq!(int("(1 + 2) * 3"), 9);
        assert_eq!(int("c ? 1 : d ? 2 : 3"), 1);
        assert_eq!(int("d ? 1 : d ? 2 : 3"), 3);
        assert!(yes("not a == b"));
        assert!(yes("1 | 2 == 3"));
        assert_eq!(int("6 & 3 ^ 1 | 8"), 8 | (1 ^ (6 & 3)));
        assert_eq!(
            perr("a < b < c").message,
            "comparisons cannot be chained at column 7"
        );
        assert_eq!(perr("a == b != c").col, 8);
        assert!(yes("(1 < 2) == true"));
    }

    #[test]
    fn literals() {
        assert_eq!(int("0x1f"), 31);
        assert_eq!(int("0XcAfE"), 0xcafe);
        assert_eq!(int("0o17"), 15);
        assert_eq!(int("0b101"), 5);
        assert_eq!(int("1_000"), 1000);
        assert_eq!(int("0xdead_beef"), 0xdead_beef);
        assert_eq!(int("0b1101_0111"), 0b1101_0111);
        assert_eq!(int("18446744073709551615"), u64::MAX as i128);
        assert_eq!(float("1.5"), 1.5);
        assert_eq!(float("1e3"), 1000.0);
        assert_eq!(float("1.5e-3"), 1.5e-3);
        assert_eq!(float("123.456e+2"), 12345.6);
        assert_eq!(float("4.1607804e+72"), 4.1607804e72);
        assert_eq!(
            text(r#""a\n\t\r\\\"\'\0\a\b\e\f\v""#),
            "a\n\t\r\\\"'\0\x07\x08\x1b\x0c\x0b"
        );
        assert_eq!(text(r#""\u0041\u00e9\101\7""#), "Aé\u{41}\x07");
        assert_eq!(text(r#""1\02""#), "1\x02");
        assert_eq!(text(r#"'a\n"b'"#), "a\\n\"b");
        assert_eq!(text("''"), "");
        assert!(yes("true"));
        assert!(!yes("false"));
        assert!(matches!(run("[]"), Ok(Val::Array(a)) if a.is_empty()));
        assert_eq!(run("[1, 2, 3,]").unwrap().to_string(), "[1, 2, 3]");
        assert_eq!(run("['a', \"b\"]").unwrap().to_string(), "[\"a\", \"b\"]");
        assert_eq!(int("1.to_s.length"), 1);
        assert_eq!(int("1.5.to_i"), 1);
        // Bad literals.
        assert_eq!(perr("0x").col, 3);
        assert_eq!(perr("0b2").col, 3);
        assert_eq!(perr("12ab").col, 3);
        assert_eq!(perr("1e").col, 2);
        assert_eq!(perr("1 + 99999999999999999999999999999999999999999").col, 5);
        assert_eq!(perr(r#"1 + "\q""#).col, 6);
        assert_eq!(perr(r#""\u12g4""#).col, 2);
        assert_eq!(perr(r#""\ud800""#).col, 2);
        assert_eq!(perr("'abc").message, "unterminated string at column 1");
        assert_eq!(perr("x + \"abc").col, 5);
    }

    #[test]
    fn arithmetic_and_floor_semantics() {
        assert_eq!(int("7 / 2"), 3);
        assert_eq!(float("7 / 2.0"), 3.5);
        assert_eq!(int("-7 / 2"), -4);
        assert!(yes("-7 / 2 == -4"));
        assert_eq!(int("7 / -2"), -4);
        assert_eq!(int("-7 / -2"), 3);
        assert_eq!(int("-8 / 2"), -4);
        assert_eq!(int("-7 % 3"), 2);
        assert!(yes("-7 % 3 == 2"));
        assert_eq!(int("-5 % 3"), 1); // the user guide's example
        assert_eq!(int("7 % 3"), 1);
        assert_eq!(int("7 % -3"), -2);
        assert_eq!(int("-6 % 3"), 0);
        assert_eq!(float("-7.5 % 2"), 0.5);
        assert_eq!(float("7.5 % -2"), -0.5);
        assert_eq!(fails("1 / 0"), "division by zero");
        assert_eq!(fails("1 % 0"), "division by zero");
        assert_eq!(fails("1.0 / 0"), "division by zero");
        assert_eq!(float("1 + 0.5"), 1.5);
        assert_eq!(float("f * 2"), 5.0);
        assert_eq!(int("a - b * 2"), 11);
        assert_eq!(int("-a"), -5);
        assert_eq!(int("~0"), -1);
        assert_eq!(int("~5 & 0xff"), 250);
        assert_eq!(int("0xf0 | 0x0f"), 255);
        assert_eq!(int("0xff ^ 0x0f"), 0xf0);
        assert_eq!(
            int("18446744073709551615 + 1"),
            18446744073709551616,
            "no wrapping outside casts and shifts"
        );
        assert!(fails("170141183460469231731687303715884105727 + 1").contains("overflow"));
        assert!(fails("-170141183460469231731687303715884105727 - 2").contains("overflow"));
        // Shifts: 64-bit.
        assert_eq!(int("1 << 63"), 1 << 63);
        assert_eq!(int("1 << 64"), 0);
        assert_eq!(int("0xffffffffffffffff << 4"), 0xffff_ffff_ffff_fff0);
        assert_eq!(int("-1 << 1"), -2);
        assert_eq!(int("-1 << 63"), i64::MIN as i128);
        assert_eq!(int("-8 >> 1"), -4);
        assert_eq!(int("256 >> 4"), 16);
        assert_eq!(int("-8 >> 100"), -1);
        assert_eq!(int("8 >> 100"), 0);
        assert!(fails("1 << -1").contains("negative shift"));
        assert!(fails("18446744073709551616 << 1").contains("64-bit"));
        assert_eq!(fails("1.0 << 1"), "cannot apply '<<' to float and int");
        // Comparisons.
        assert!(yes("1 == 1.0"));
        assert!(yes("2 > 1.5"));
        assert!(yes("9007199254740993 > 9007199254740992.0"));
        assert!(yes("-1 < -0.5"));
        assert!(yes("'abc' < 'abd'"));
        assert!(yes("'b' > 'abc'"));
        assert!(yes("\"é\" > 'z'"));
        assert!(yes("c != d"));
        assert!(yes("[1, 2] == [1, 2]"));
        assert!(!yes("[1, 2] == [1, 2, 3]"));
        assert!(yes("[1, 2] != [1, 3]"));
        assert_eq!(fails("c < d"), "cannot compare (with '<') bool and bool");
        assert_eq!(fails("1 == 'a'"), "cannot compare (with '==') int and str");
        assert_eq!(fails("c == 1"), "cannot compare (with '==') bool and int");
        // Strings and arrays concatenate.
        assert_eq!(text("s + ' ' + 'world'"), "hello world");
        assert_eq!(run("[1] + [2, 3]").unwrap().to_string(), "[1, 2, 3]");
        assert_eq!(
            run("magic + [0x4e]").unwrap().to_string(),
            "[0x89, 0x50, 0x4e]"
        );
        assert_eq!(
            run("magic + magic").unwrap().to_string(),
            "[0x89, 0x50, 0x89, 0x50]"
        );
        assert_eq!(fails("s + 1"), "cannot add str and int");
        assert_eq!(fails("1 - 's'"), "cannot subtract int and str");
        assert_eq!(fails("c * 2"), "cannot multiply bool and int");
        assert_eq!(fails("-s"), "cannot negate str");
        assert_eq!(fails("not 1"), "cannot apply 'not' to int");
        assert_eq!(fails("~1.5"), "cannot apply '~' to float");
    }

    #[test]
    fn logic_and_ternary() {
        assert!(yes("c and not d"));
        assert!(yes("d or c"));
        assert!(!yes("d and c"));
        // Short-circuit: the right side is never evaluated.
        assert!(!yes("d and 1 / 0 == 1"));
        assert!(yes("c or nonexistent"));
        assert_eq!(fails("1 and c"), "'and' needs bool operands, found int");
        assert_eq!(fails("c and 1"), "'and' needs bool operands, found int");
        assert_eq!(fails("d or 's'"), "'or' needs bool operands, found str");
        assert_eq!(int("a > 3 ? 10 : 20"), 10);
        assert_eq!(
            text("\"It has a header: \" + (c ? \"Yes\" : \"No\")"),
            "It has a header: Yes"
        );
        assert_eq!(
            fails("1 ? 2 : 3"),
            "the condition of '?:' must be bool, found int"
        );
        assert!(yes("not not c"));
    }

    #[test]
    fn string_methods() {
        assert_eq!(int("s.length"), 5);
        assert_eq!(int("'héllo'.length"), 5);
        assert_eq!(text("s.reverse"), "olleh");
        assert_eq!(text("'héllo'.reverse"), "olléh");
        assert_eq!(text("s.substring(1, 3)"), "el");
        assert_eq!(text("'héllo'.substring(1, 2)"), "é");
        assert_eq!(text("s.substring(5, 5)"), "");
        assert!(fails("s.substring(2, 6)").contains("out of range"));
        assert!(fails("s.substring(3, 2)").contains("out of range"));
        assert!(fails("s.substring(-1, 2)").contains("out of range"));
        assert_eq!(
            fails("s.substring(1)"),
            "'substring' takes 2 arguments, given 1"
        );
        assert_eq!(int("'123'.to_i"), 123);
        assert_eq!(int("'-42'.to_i"), -42);
        assert_eq!(int("'ff'.to_i(16)"), 255);
        assert_eq!(int("'FF'.to_i(16)"), 255);
        assert_eq!(int("'755'.to_i(8)"), 0o755);
        assert_eq!(int("'1101'.to_i(2)"), 13);
        assert!(fails("'12x'.to_i").contains("cannot convert"));
        assert!(fails("''.to_i").contains("cannot convert"));
        assert!(fails("'-'.to_i").contains("cannot convert"));
        assert!(fails("'1'.to_i(1)").contains("invalid radix"));
        assert!(
            fails("'99999999999999999999999999999999999999999'.to_i").contains("cannot convert")
        );
        assert_eq!(text("s.to_s"), "hello");
        assert_eq!(text("42.to_s"), "42");
        assert_eq!(text("(-42).to_s"), "-42");
        assert_eq!(text("a.to_s + 'x'"), "5x");
        assert_eq!(int("a.to_i"), 5);
        assert_eq!(int("(-2.7).to_i"), -2);
        assert_eq!(int("2.7.to_i"), 2);
        assert_eq!(int("c.to_i + d.to_i"), 1);
        assert_eq!(fails("s.foo"), "str has no method or attribute 'foo'");
        assert_eq!(fails("s.length(1)"), "'length' takes 0 arguments, given 1");
        assert_eq!(fails("1.5.to_s"), "float has no method or attribute 'to_s'");
    }

    #[test]
    fn bytes_and_arrays() {
        assert!(yes("magic == [0x89, 0x50]"));
        assert!(yes("[0x89, 0x50] == magic"));
        assert!(!yes("magic == [0x89]"));
        assert!(!yes("magic == [0x89, 0x51]"));
        assert!(yes("magic != [0x89, 0x51]"));
        assert!(!yes("magic == [0x89, 0x50 + 256]"));
        assert!(yes("magic > [0x89]"));
        assert!(yes("magic < [0x8a]"));
        assert_eq!(int("magic[1]"), 0x50);
        assert_eq!(int("magic.length"), 2);
        assert_eq!(int("magic.size"), 2);
        assert_eq!(int("magic.first"), 0x89);
        assert_eq!(int("magic.last"), 0x50);
        assert_eq!(int("magic.min"), 0x50);
        assert_eq!(int("magic.max"), 0x89);
        assert!(fails("magic[2]").contains("out of range"));
        assert!(fails("magic[-1]").contains("out of range"));
        assert_eq!(fails("magic['a']"), "an index must be int, found str");
        assert_eq!(int("arr[0] + arr[2]"), 5);
        assert_eq!(int("arr.size"), 3);
        assert_eq!(int("arr.length"), 3);
        assert_eq!(int("arr.first"), 3);
        assert_eq!(int("arr.last"), 2);
        assert_eq!(int("arr.min"), 1);
        assert_eq!(int("arr.max"), 3);
        assert_eq!(float("[1.5, -2.0, 0.5].min"), -2.0);
        assert_eq!(text("['b', 'abc', 'c'].max"), "c");
        assert!(fails("[].first").contains("empty"));
        assert!(fails("[c, d].max").contains("cannot compare"));
        assert!(fails("arr[3]").contains("out of range"));
        assert_eq!(fails("a[0]"), "cannot index int");
        // Decoding.
        assert_eq!(text("[0x48, 0x69].to_s('ASCII')"), "Hi");
        assert_eq!(text("[0x48, 0xe9].to_s('ascii')"), "H\u{fffd}");
        assert_eq!(text("[0xc3, 0xa9].to_s('UTF-8')"), "é");
        assert_eq!(text("[0xc3, 0xa9].to_s('utf_8')"), "é");
        assert_eq!(text("[0xc3].to_s('UTF8')"), "\u{fffd}");
        assert_eq!(text("[0xe9].to_s('ISO-8859-1')"), "é");
        assert_eq!(text("[0xe9].to_s('latin1')"), "é");
        assert_eq!(text("[0x41, 0, 0x42, 0].to_s('UTF-16LE')"), "AB");
        assert_eq!(
            text("[0, 0x41, 0xd8, 0x3d, 0xde, 0x00].to_s('UTF-16BE')"),
            "A😀"
        );
        assert_eq!(text("[0x41, 0, 0x42].to_s('UTF-16LE')"), "A\u{fffd}");
        assert_eq!(text("[0x00, 0xd8].to_s('utf-16le')"), "\u{fffd}");
        assert_eq!(text("[0x41, 0, 0, 0].to_s('UTF-32LE')"), "A");
        assert_eq!(text("[0, 1, 0xf6, 0x00].to_s('UTF-32BE')"), "😀");
        assert_eq!(text("[0, 0x11, 0, 0].to_s('UTF-32BE')"), "\u{fffd}");
        assert!(fails("magic.to_s('SJIS')").contains("unknown encoding"));
        assert!(fails("[1, 300].to_s('ASCII')").contains("byte array"));
        assert!(fails("magic.to_s(1)").contains("encoding name"));
        assert_eq!(run("magic").unwrap().to_string(), "[0x89, 0x50]");
    }

    #[test]
    fn enums_handles_and_names() {
        assert!(yes("pet == animal::dog"));
        assert!(yes("pet != animal::cat"));
        assert_eq!(int("animal::dog.to_i"), 4);
        assert_eq!(int("outer::animal::cat.to_i"), 7);
        assert!(fails("pet == outer::animal::cat").contains("different enums"));
        assert!(fails("pet == 4").contains("cannot compare"));
        assert!(fails("animal::cow").contains("unknown enum value"));
        assert!(matches!(run("animal :: cat"), Ok(Val::Enum { e: 0, v: 7 })));
        assert_eq!(
            parse("a::b::c").unwrap(),
            Expr::EnumLit {
                path: vec!["a".into(), "b".into()],
                name: "c".into()
            }
        );
        assert_eq!(perr("a::").col, 4);
        assert_eq!(perr("a::1").col, 4);
        // Streams and objects.
        assert_eq!(int("_io.pos"), 7);
        assert_eq!(int("_io.pos + 1"), 8);
        assert_eq!(int("_io.size - _io.pos"), 93);
        assert!(!yes("_io.eof"));
        assert_eq!(int("hdr.len * 2"), 24);
        assert_eq!(int("hdr._io.pos"), 2);
        assert!(yes("hdr._io.size == hdr.len"));
        assert!(yes("_io == _io"));
        assert!(!yes("_io == hdr._io"));
        assert!(fails("_io.read_u1()").contains("not supported"));
        assert!(fails("hdr.nope").contains("no field"));
        assert_eq!(int("sizeof<u4>"), 4);
        assert_eq!(int("bitsizeof<hdr>"), 96);
        assert!(fails("sizeof<foo::bar>").contains("no size"));
        assert!(fails("nonexistent + 1").contains("unknown name"));
        // Nil: absent fields.
        assert!(yes("absent == absent"));
        assert!(!yes("absent == 1"));
        assert!(yes("s != absent"));
        assert_eq!(fails("absent + 1"), "cannot add null and int");
        assert!(fails("absent.len").contains("null"));
        assert_eq!(run("absent").unwrap().to_string(), "null");
        // The names an expression reads.
        let e = parse("a + b.c + a * _io.pos + animal::dog.to_i + f.g(x)[i].as<u4> + sizeof<t>")
            .unwrap();
        assert_eq!(names(&e), ["a", "b", "_io", "f", "x", "i"]);
        let e = parse("_index < _parent._root.n ? _ : [_on]").unwrap();
        assert_eq!(names(&e), ["_index", "_parent", "_", "_on"]);
    }

    #[test]
    fn casts() {
        // A cast converts no value: Kaitai's parsers keep it as it is.
        assert_eq!(int("300.as<u1>"), 300);
        assert_eq!(int("(-1).as<u8>"), -1);
        assert_eq!(int("0x123456789.as<u4le>"), 0x123456789);
        assert_eq!(int("4095.as<b4>"), 4095);
        assert_eq!(float("5.as<f8>"), 5.0);
        assert_eq!(float("16777217.as<f4>"), 16777217.0);
        assert_eq!(float("0.1.as<f4>"), 0.1);
        assert_eq!(text("'a'.as<str>"), "a");
        assert!(yes("c.as<bool>"));
        assert!(matches!(run("magic.as<bytes>"), Ok(Val::Bytes(_))));
        assert!(matches!(run("[1, 2].as<bytes>"), Ok(Val::Bytes(b)) if *b == [1, 2]));
        assert_eq!(fails("1.as<str>"), "cannot cast int to str");
        assert_eq!(fails("1.5.as<u4>"), "cannot cast float to u4");
        assert_eq!(fails("1.as<bool>"), "cannot cast int to bool");
        // Everything else is the interpreter's.
        let mut s = TestScope::new();
        let e = parse("hdr.as<my_type>.len + hdr.as<a::b[]>.len").unwrap();
        assert!(eval(&e, &mut s)
            .unwrap_err()
            .contains("cannot cast object to a::b[]"));
        assert_eq!(s.casts, ["my_type", "a::b[]"]);
        let e = parse("1.as<u3>").unwrap();
        assert!(eval(&e, &mut s).is_err());
        assert_eq!(s.casts.last().map(String::as_str), Some("u3"));
        let e = parse("1.as<u4[]>").unwrap();
        assert!(eval(&e, &mut s).is_err());
        assert_eq!(s.casts.last().map(String::as_str), Some("u4[]"));
        assert_eq!(perr("x.as<>").col, 6);
        assert_eq!(perr("x.as<u4").col, 8);
        assert_eq!(perr("x.as<u4[>").col, 9);
    }

    #[test]
    fn display() {
        assert_eq!(Val::Int(-5).to_string(), "-5");
        assert_eq!(Val::Float(1.0).to_string(), "1.0");
        assert_eq!(Val::Float(1.5).to_string(), "1.5");
        assert_eq!(Val::Float(-0.0).to_string(), "-0.0");
        assert_eq!(Val::Float(1e21).to_string(), "1000000000000000000000.0");
        assert_eq!(Val::Float(f64::INFINITY).to_string(), "inf");
        assert_eq!(Val::Float(f64::NAN).to_string(), "NaN");
        assert_eq!(Val::Bool(true).to_string(), "true");
        assert_eq!(Val::Str("a\"b\n".into()).to_string(), r#""a\"b\n""#);
        assert_eq!(
            Val::Bytes(Arc::from(&[1u8, 0xff][..])).to_string(),
            "[0x1, 0xff]"
        );
        assert_eq!(
            Val::Array(Arc::new(vec![Val::Int(1), Val::Str("x".into())])).to_string(),
            r#"[1, "x"]"#
        );
        assert_eq!(Val::Enum { e: 0, v: 4 }.to_string(), "4");
        assert_eq!(
            Val::Enum { e: 0, v: 4 }.display_with(&TestScope::new()),
            "dog"
        );
        assert_eq!(
            Val::Enum { e: 0, v: 5 }.display_with(&TestScope::new()),
            "5"
        );
        assert_eq!(handle(1u8).to_string(), "<object>");
        assert_eq!(format!("{:?}", handle(1u8)), "Handle(<object>)");
        assert_eq!(Val::Nil.to_string(), "null");
        assert_eq!(Val::Nil.type_name(), "null");
        assert_eq!(Val::Bool(true).truthy(), Ok(true));
        assert_eq!(Val::Int(1).truthy(), Err("expected bool, found int".into()));
        assert_eq!(Val::Int(1).as_int(), Ok(1));
        assert_eq!(
            Val::Str("1".into()).as_int(),
            Err("expected int, found str".into())
        );
        assert_eq!(Val::Int(1).eq_val(&Val::Float(1.0)), Ok(true));
        assert_eq!(Val::Int(1).cmp_val(&Val::Int(2)), Ok(Some(Ordering::Less)));
    }

    #[test]
    fn parse_errors_have_columns() {
        let e = perr("(1 + 2");
        assert_eq!(e.col, 7);
        assert_eq!(e.message, "expected ')' at column 7");
        assert_eq!(e.to_string(), e.message);
        assert_eq!(perr("1 + * 2").message, "unexpected '*' at column 5");
        assert_eq!(
            perr("1 2").message,
            "unexpected number after the end of the expression at column 3"
        );
        assert_eq!(perr("a b").col, 3);
        assert_eq!(perr("a.").message, "expected a name after '.' at column 3");
        assert_eq!(perr("").message, "unexpected end of expression at column 1");
        assert_eq!(perr("1 +").col, 4);
        assert_eq!(perr("[1, 2").message, "expected ',' or ']' at column 6");
        assert_eq!(perr("f.g(1 2)").col, 7);
        assert_eq!(perr("a ? b").message, "expected ':' at column 6");
        assert_eq!(
            perr("a = b").message,
            "unexpected character '=' at column 3"
        );
        assert_eq!(perr("a ! b").col, 3);
        assert_eq!(perr("a and").col, 6);
        assert_eq!(perr("and").col, 1);
        assert_eq!(perr("x[1").col, 4);
        assert_eq!(perr(")").col, 1);
        // Columns count characters, not bytes.
        assert_eq!(perr("'é' + ").col, 7);
        assert_eq!(perr("'é' é").col, 5);
    }

    #[test]
    fn budget() {
        let e = parse("1 + 2 + 3 + 4").unwrap();
        let mut s = TestScope::new();
        let mut b = 3;
        let err = eval_with_budget(&e, &mut s, &mut b).unwrap_err();
        assert!(err.contains("budget"), "{err}");
        let mut b = 100;
        assert!(matches!(
            eval_with_budget(&e, &mut s, &mut b),
            Ok(Val::Int(10))
        ));
        assert_eq!(b, 100 - 7, "7 nodes visited");
        let mut b = 7;
        assert!(eval_with_budget(&e, &mut s, &mut b).is_ok());
        assert_eq!(b, 0);
        // A wide expression runs out too.
        let wide = format!("[{}]", vec!["a + 1"; 2000].join(", "));
        let e = parse(&wide).unwrap();
        let mut b = 1000;
        assert!(eval_with_budget(&e, &mut s, &mut b).is_err());
        assert!(eval(&e, &mut s).is_ok());
    }

    #[test]
    fn depth_bombs_are_errors() {
        let n = 100_000;
        let bombs = [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1", "(".repeat(n)),
            format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            format!("{}1", "-".repeat(n)),
            format!("{}1", "~".repeat(n)),
            format!("{}c", "not ".repeat(n)),
            format!("a{}", ".b".repeat(n)),
            format!("a{}", "[0]".repeat(n)),
            format!("a{}", ".as<u1>".repeat(n)),
            format!("1{}", " + 1".repeat(n)),
            format!("1{}", " ? 1 : 1".repeat(n)),
            format!("c{}", " and c".repeat(n)),
            "[".repeat(n),
            format!("x{}", ".f(x".repeat(n)),
        ];
        for b in &bombs {
            let e = perr(b);
            assert!(e.message.contains("nested too deeply"), "{}: {e}", &b[..20]);
        }
        // The deepest expressions accepted evaluate without exhausting the stack.
        let deep: [fn(usize) -> String; 6] = [
            |n| format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            |n| format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            |n| format!("{}1", "-".repeat(n)),
            |n| format!("{}1{}", "s.substring(0, ".repeat(n), ")".repeat(n)),
            |n| format!("{}0{}", "arr[".repeat(n), "]".repeat(n)),
            |n| format!("{}c{}", "(c and ".repeat(n), ")".repeat(n)),
        ];
        for make in deep {
            let n = (1..400).rev().find(|&n| parse(&make(n)).is_ok()).unwrap();
            assert!(n >= 100, "{}", make(1));
            let _ = run(&make(n));
        }
        // Moderate depth is fine.
        let ok = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(int(&ok), 1);
        assert_eq!(int(&format!("1{}", " + 1".repeat(200))), 201);
        assert_eq!(int(&format!("{}1", "- ".repeat(200))), 1);
    }

    /// xorshift64*: a tiny deterministic PRNG.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn depth(e: &Expr) -> usize {
        1 + match e {
            Expr::Array(x) => x.iter().map(depth).max().unwrap_or(0),
            Expr::Unary(_, x) | Expr::Attr(x, _) | Expr::Cast(x, _) => depth(x),
            Expr::Binary(_, a, b) | Expr::Index(a, b) => depth(a).max(depth(b)),
            Expr::Ternary(c, a, b) => depth(c).max(depth(a)).max(depth(b)),
            Expr::Call(t, _, x) => x.iter().map(depth).max().unwrap_or(0).max(depth(t)),
            _ => 0,
        }
    }

    #[test]
    fn generated_inputs_never_panic() {
        const TOKENS: &[&str] = &[
            "0",
            "1",
            "2",
            "-1",
            "255",
            "300",
            "0x10",
            "0b101",
            "0o7",
            "1_000",
            "1.5",
            "2e3",
            "0.0",
            "9223372036854775807",
            "18446744073709551615",
            "170141183460469231731687303715884105727",
            "1e308",
            "'ab'",
            "'é'",
            "\"c\\n\"",
            "\"\\u0041\"",
            "\"\\377\"",
            "true",
            "false",
            "a",
            "b",
            "c",
            "d",
            "f",
            "s",
            "magic",
            "arr",
            "pet",
            "absent",
            "hdr",
            "_io",
            "x",
            "animal::dog",
            "outer::animal::cat",
            "nope::x",
            "(",
            ")",
            "[",
            "]",
            ",",
            ".",
            "?",
            ":",
            "+",
            "-",
            "*",
            "/",
            "%",
            "<<",
            ">>",
            "<",
            "<=",
            ">",
            ">=",
            "==",
            "!=",
            "&",
            "|",
            "^",
            "~",
            "not",
            "and",
            "or",
            ".length",
            ".size",
            ".first",
            ".last",
            ".min",
            ".max",
            ".to_s",
            ".to_i",
            ".reverse",
            ".substring(0, 1)",
            ".substring(",
            ".to_s('UTF-16LE')",
            ".to_s(\"ASCII\")",
            ".to_i(16)",
            ".to_i(",
            ".pos",
            ".len",
            ".eof",
            ".as<u1>",
            ".as<s2>",
            ".as<f4>",
            ".as<str>",
            ".as<bytes>",
            ".as<my_type>",
            ".as<",
            "sizeof<u4>",
            "bitsizeof<hdr>",
            "sizeof",
            "[0]",
            "[1]",
            "[-1]",
            "'",
            "\"",
            "\\",
            "::",
            "_",
            "!",
            "=",
            "é",
            "\t",
            "as",
            ".as",
            "<u4>",
        ];
        const OPERANDS: &[&str] = &[
            "0",
            "1",
            "2",
            "7",
            "-3",
            "255",
            "300",
            "0x10",
            "1.5",
            "-0.5",
            "2e3",
            "'ab'",
            "'é'",
            "\"\\u0041\"",
            "true",
            "false",
            "a",
            "b",
            "c",
            "d",
            "f",
            "s",
            "magic",
            "arr",
            "pet",
            "absent",
            "hdr",
            "_io",
            "animal::dog",
            "animal::cat",
            "outer::animal::cat",
            "[]",
            "[1, 2]",
            "[0x89, 0x50]",
            "['a', 'b']",
            "[1.5, 2]",
            "sizeof<u4>",
            "bitsizeof<hdr>",
            "9223372036854775807",
            "18446744073709551615",
        ];
        const INFIX: &[&str] = &[
            " + ", " - ", " * ", " / ", " % ", " << ", " >> ", " < ", " <= ", " > ", " >= ",
            " == ", " != ", " & ", " | ", " ^ ", " and ", " or ", " ? ", " : ",
        ];
        const POSTFIX: &[&str] = &[
            ".length",
            ".size",
            ".first",
            ".last",
            ".min",
            ".max",
            ".to_s",
            ".to_i",
            ".reverse",
            ".substring(0, 1)",
            ".to_s('UTF-16LE')",
            ".to_s(\"ASCII\")",
            ".to_i(16)",
            ".pos",
            ".len",
            ".eof",
            "._io",
            ".as<u1>",
            ".as<s2>",
            ".as<f4>",
            ".as<str>",
            ".as<bytes>",
            ".as<my_type>",
            "[0]",
            "[1]",
            "[-1]",
        ];
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let (mut parsed, mut evaluated) = (0, 0);
        for round in 0..100_000 {
            let n = 1 + rng.below(16);
            let mut src = String::new();
            if round % 2 == 0 {
                for _ in 0..n {
                    src.push_str(TOKENS[rng.below(TOKENS.len())]);
                    if rng.below(3) != 0 {
                        src.push(' ');
                    }
                }
            } else {
                // Mostly well-formed: operands (with prefixes and postfixes) between
                // infix operators, sometimes parenthesised.
                let mut open = 0;
                for k in 0..n {
                    if k > 0 {
                        src.push_str(INFIX[rng.below(INFIX.len())]);
                    }
                    while rng.below(4) == 0 {
                        src.push_str(["(", "-", "not ", "~"][rng.below(4)]);
                        open += usize::from(src.ends_with('('));
                    }
                    src.push_str(OPERANDS[rng.below(OPERANDS.len())]);
                    while rng.below(3) == 0 {
                        src.push_str(POSTFIX[rng.below(POSTFIX.len())]);
                    }
                    if open > 0 && rng.below(3) == 0 {
                        src.push(')');
                        open -= 1;
                    }
                }
                src.push_str(&")".repeat(open));
            }
            if round % 10 == 0 {
                // Raw character noise as well.
                let chars: Vec<char> = src.chars().collect();
                let k = rng.below(chars.len());
                src = chars[..k].iter().chain(&chars[k + 1..]).collect();
            }
            let Ok(e) = parse(&src) else { continue };
            parsed += 1;
            let mut scope = TestScope::new();
            let mut b = 10_000;
            evaluated += usize::from(eval_with_budget(&e, &mut scope, &mut b).is_ok());
            let _ = names(&e);
            // Writing the tree back gives text that parses to the same tree.
            if depth(&e) < 60 {
                let again =
                    parse(&e.to_string()).unwrap_or_else(|err| panic!("{src:?} -> {}: {err}", e));
                assert_eq!(again, e, "{src:?} -> {e}");
            }
        }
        assert!(parsed > 15_000, "only {parsed} inputs parsed");
        assert!(evaluated > 2_000, "only {evaluated} inputs evaluated");
    }
}
