//! Arithmetic expressions of claims, parsed from text and evaluated as certified MPFR
//! enclosures (or as f64 estimates).
//!
//! Researchers state a bound as a formula, e.g. BSA24 Thm 4.2:
//! `mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)`. [`parse_claim`] reads such a
//! line into a [`Claim`]; [`Expr::eval`] evaluates its right-hand side in outward-rounded
//! interval arithmetic, so the exact value of the formula at the given parameters lies
//! in the returned [`Enclosure`].
//!
//! # Grammar
//! ```text
//! claim   := IDENT ('=' | '<=' | '≤') expr
//! expr    := term (('+' | '-') term)*
//! term    := unary (('*' | '/') unary)*
//! unary   := ('-' | '+') unary | power
//! power   := primary (('^' | '**') unary)?          right-associative
//! primary := NUMBER | IDENT | IDENT '(' expr (',' expr)* ')' | '(' expr ')'
//! NUMBER  := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]   (also '.5')
//! IDENT   := [A-Za-z_][A-Za-z0-9_]*  |  one of σ η μ τ ε δ π (sigma eta mu tau epsilon delta pi)
//! ```
//! `^` binds tighter than unary minus (`-x^2 = -(x^2)`) and is right-associative
//! (`a^b^c = a^(b^c)`). Functions: `sqrt exp ln log` (natural logarithm) `abs ceil floor`
//! (one argument), `min max` (two or more), `pow(x, y)` (= `x^y`). The identifiers `pi`
//! and `e` are the constants π and e unless the variables given to the evaluator define
//! them. `·`/`×` are accepted for `*` and `−` for `-`.
//!
//! Number literals keep their decimal text and are converted to an enclosure directly
//! (`0.1` becomes an interval around the decimal 1/10, never the f64 nearest to it).
//!
//! # Errors
//! Parsing: [`Error::Parse`] with the 1-based column of the offending character.
//! Evaluation: [`Error::Domain`] naming the subexpression (square root or logarithm of
//! an enclosure reaching below 0 / to 0, division by an enclosure containing 0, `x^y`
//! with a base reaching ≤ 0 and a non-integer `y`, `ceil`/`floor` of an enclosure
//! straddling an integer, overflow); [`Error::Parameter`] for an unknown variable.
//! Nothing returns NaN or panics.
//!
//! # Rounding
//! Every operation rounds its lower end toward −∞ and its upper end toward +∞ (through
//! [`Enclosure`] and [`shiftdp::precision::rounding`]); integer powers `x^n` are detected
//! exactly (the exponent enclosure is a single integer) and evaluated by one correctly
//! rounded MPFR power per end, so negative bases work. Variable enclosures narrower
//! than the requested precision are widened to it (exactly) before use.
//!
//! # Example
//! ```
//! use shiftdp_verify::expr::{parse_claim, Relation};
//! use shiftdp::precision::Enclosure;
//! use std::collections::BTreeMap;
//! let claim = parse_claim("mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)").unwrap();
//! assert_eq!(claim.lhs, "mu");
//! assert_eq!(claim.relation, Relation::Eq);
//! let vars: BTreeMap<String, Enclosure> = [("c", "0.5"), ("t", "1"), ("L", "1"), ("n", "1"), ("sigma", "1")]
//!     .into_iter()
//!     .map(|(k, v)| (k.to_string(), Enclosure::parse(128, v).unwrap()))
//!     .collect();
//! // t = 1: √((1−c)/(1+c)·(1+c)/(1−c)) = 1
//! let mu = claim.expr.eval(&vars, 128).unwrap();
//! assert!(mu.lower_f64() <= 1.0 && 1.0 <= mu.upper_f64());
//! assert!(mu.rel_width() < 1e-30);
//! ```
//!
//! # References
//! BSA24 (Bok, Su, Altschuler 2024), Thm 4.2 for the example formula;
//! docs/conventions.md §8 for the rounding conventions.
use rug::float::Round;
use rug::ops::Pow;
use rug::{Float, Integer};
use shiftdp::error::{Error, Result};
use shiftdp::precision::Enclosure;
use shiftdp::precision::rounding as r;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The relation of a claim: `lhs = expr` or `lhs <= expr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    /// `NAME = EXPR`: the claimed value is the formula.
    Eq,
    /// `NAME <= EXPR`: the quantity is at most the formula.
    Le,
}

/// A claim `NAME = EXPR` or `NAME <= EXPR`.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The quantity claimed, e.g. `mu` or `epsilon` (Greek aliases mapped to names).
    pub lhs: String,
    /// `=` or `<=`.
    pub relation: Relation,
    /// The right-hand side.
    pub expr: Expr,
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rel = match self.relation {
            Relation::Eq => "=",
            Relation::Le => "<=",
        };
        write!(f, "{} {} {}", self.lhs, rel, self.expr)
    }
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// `a ^ b` (also `pow(a, b)`).
    Pow,
}

impl BinOp {
    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => " + ",
            BinOp::Sub => " - ",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Pow => "^",
        }
    }
    fn prec(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
            BinOp::Pow => 4,
        }
    }
}

/// A function of the expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Func {
    /// `sqrt(x)`, `x ≥ 0`.
    Sqrt,
    /// `exp(x)`.
    Exp,
    /// `ln(x)` or `log(x)` (natural), `x > 0`.
    Ln,
    /// `abs(x)`.
    Abs,
    /// `ceil(x)`.
    Ceil,
    /// `floor(x)`.
    Floor,
    /// `min(x, y, …)`.
    Min,
    /// `max(x, y, …)`.
    Max,
}

impl Func {
    fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Ln => "ln",
            Func::Abs => "abs",
            Func::Ceil => "ceil",
            Func::Floor => "floor",
            Func::Min => "min",
            Func::Max => "max",
        }
    }
}

/// A parsed arithmetic expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A decimal literal, kept as written (e.g. `"1e-5"`).
    Num(String),
    /// A variable, or the constants `pi` / `e` when no variable of that name is given.
    Var(String),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// A function call.
    Call(Func, Vec<Expr>),
}

impl Expr {
    fn prec(&self) -> u8 {
        match self {
            Expr::Num(_) | Expr::Var(_) | Expr::Call(..) => 5,
            Expr::Neg(_) => 3,
            Expr::Bin(op, ..) => op.prec(),
        }
    }
}

impl fmt::Display for Expr {
    /// Prints the expression with the parentheses needed to parse it back to the same tree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wrap = |f: &mut fmt::Formatter<'_>, e: &Expr, paren: bool| {
            if paren {
                write!(f, "({e})")
            } else {
                write!(f, "{e}")
            }
        };
        match self {
            Expr::Num(s) | Expr::Var(s) => write!(f, "{s}"),
            Expr::Neg(a) => {
                write!(f, "-")?;
                wrap(f, a, a.prec() < 3)
            }
            Expr::Bin(op, a, b) => {
                let p = op.prec();
                if *op == BinOp::Pow {
                    wrap(f, a, a.prec() <= p)?;
                    write!(f, "^")?;
                    wrap(f, b, b.prec() < 3)
                } else {
                    wrap(f, a, a.prec() < p)?;
                    write!(f, "{}", op.symbol())?;
                    wrap(f, b, b.prec() <= p)
                }
            }
            Expr::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ")")
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Lexer

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(String),
    Ident(String),
    Op(char), // + - * / ^
    LParen,
    RParen,
    Comma,
    Eq,
    Le,
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Num(s) => format!("number `{s}`"),
            Tok::Ident(s) => format!("identifier `{s}`"),
            Tok::Op(c) => format!("`{c}`"),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Eq => "`=`".into(),
            Tok::Le => "`<=`".into(),
            Tok::End => "end of input".into(),
        }
    }
}

/// Greek letters accepted as identifiers, with their ASCII names.
const GREEK: [(char, &str); 7] = [
    ('σ', "sigma"),
    ('η', "eta"),
    ('μ', "mu"),
    ('τ', "tau"),
    ('ε', "epsilon"),
    ('δ', "delta"),
    ('π', "pi"),
];

fn parse_error(input: &str, col: usize, msg: impl fmt::Display) -> Error {
    Error::Parse {
        input: input.to_string(),
        reason: format!("column {col}: {msg}"),
    }
}

/// Splits `input` into tokens with their 1-based character columns.
fn lex(input: &str) -> Result<Vec<(Tok, usize)>> {
    let chars: Vec<char> = input.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if i < chars.len() && chars[i] == '.' {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let mut j = i + 1;
                if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            if i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                return Err(parse_error(
                    input,
                    i + 1,
                    format!(
                        "unexpected `{}` after a number (write `*` for products)",
                        chars[i]
                    ),
                ));
            }
            out.push((Tok::Num(chars[start..i].iter().collect()), col));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), col));
            continue;
        }
        if let Some(&(_, name)) = GREEK.iter().find(|(g, _)| *g == c) {
            out.push((Tok::Ident(name.to_string()), col));
            i += 1;
            continue;
        }
        let tok = match c {
            '+' => Tok::Op('+'),
            '-' | '−' => Tok::Op('-'),
            '*' if chars.get(i + 1) == Some(&'*') => {
                i += 1;
                Tok::Op('^')
            }
            '*' | '·' | '×' => Tok::Op('*'),
            '/' => Tok::Op('/'),
            '^' => Tok::Op('^'),
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            ',' => Tok::Comma,
            '=' => Tok::Eq,
            '≤' => Tok::Le,
            '<' if chars.get(i + 1) == Some(&'=') => {
                i += 1;
                Tok::Le
            }
            _ => {
                return Err(parse_error(
                    input,
                    col,
                    format!("unexpected character `{c}`"),
                ));
            }
        };
        out.push((tok, col));
        i += 1;
    }
    if out.len() > MAX_TOKENS {
        let col = out[MAX_TOKENS].1;
        return Err(parse_error(
            input,
            col,
            format!("expression longer than {MAX_TOKENS} tokens"),
        ));
    }
    out.push((Tok::End, chars.len() + 1));
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Parser (recursive descent)

/// Deepest nesting of parentheses, unary signs and exponents accepted (the parser is
/// recursive: this bounds its stack use).
const MAX_DEPTH: usize = 200;

/// Longest expression accepted, in tokens (bounds the depth of left-nested sums and
/// products, hence the recursion of evaluation and printing).
const MAX_TOKENS: usize = 1000;

struct Parser<'a> {
    input: &'a str,
    toks: Vec<(Tok, usize)>,
    pos: usize,
    depth: usize,
}

impl<'a> Parser<'a> {
    /// A parser at the first token of `input`.
    fn new(input: &'a str) -> Result<Parser<'a>> {
        Ok(Parser {
            input,
            toks: lex(input)?,
            pos: 0,
            depth: 0,
        })
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }
    fn col(&self) -> usize {
        self.toks[self.pos].1
    }
    fn next(&mut self) -> Tok {
        let t = self.toks[self.pos].0.clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn err(&self, msg: impl fmt::Display) -> Error {
        parse_error(self.input, self.col(), msg)
    }
    fn expect(&mut self, t: Tok, what: &str) -> Result<()> {
        if *self.peek() == t {
            self.next();
            Ok(())
        } else {
            Err(self.err(format!("expected {what}, found {}", self.peek().describe())))
        }
    }

    fn expr(&mut self) -> Result<Expr> {
        self.left_assoc(&[('+', BinOp::Add), ('-', BinOp::Sub)], Self::term)
    }

    fn term(&mut self) -> Result<Expr> {
        self.left_assoc(&[('*', BinOp::Mul), ('/', BinOp::Div)], Self::unary)
    }

    /// A left-associative chain `operand (op operand)*` over the operators `ops`
    /// (`(token, operator)` pairs).
    fn left_assoc(
        &mut self,
        ops: &[(char, BinOp)],
        operand: fn(&mut Self) -> Result<Expr>,
    ) -> Result<Expr> {
        let mut a = operand(self)?;
        loop {
            let op = match self.peek() {
                Tok::Op(c) => match ops.iter().find(|(o, _)| o == c) {
                    Some(&(_, op)) => op,
                    None => return Ok(a),
                },
                _ => return Ok(a),
            };
            self.next();
            let b = operand(self)?;
            a = Expr::Bin(op, Box::new(a), Box::new(b));
        }
    }

    fn unary(&mut self) -> Result<Expr> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(format!("expression nested deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        let e = self.unary_inner();
        self.depth -= 1;
        e
    }

    fn unary_inner(&mut self) -> Result<Expr> {
        match self.peek() {
            Tok::Op('-') => {
                self.next();
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Tok::Op('+') => {
                self.next();
                self.unary()
            }
            _ => self.power(),
        }
    }

    fn power(&mut self) -> Result<Expr> {
        let base = self.primary()?;
        if *self.peek() == Tok::Op('^') {
            self.next();
            let exp = self.unary()?;
            return Ok(Expr::Bin(BinOp::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<Expr> {
        let col = self.col();
        match self.next() {
            Tok::Num(s) => Ok(Expr::Num(s)),
            Tok::LParen => {
                let e = self.expr()?;
                self.expect(Tok::RParen, "`)`")?;
                Ok(e)
            }
            Tok::Ident(name) => {
                if *self.peek() != Tok::LParen {
                    return Ok(Expr::Var(name));
                }
                self.next();
                let mut args = vec![self.expr()?];
                while *self.peek() == Tok::Comma {
                    self.next();
                    args.push(self.expr()?);
                }
                self.expect(Tok::RParen, "`,` or `)`")?;
                let bad_arity = |want: &str| {
                    parse_error(
                        self.input,
                        col,
                        format!("`{name}` takes {want}, got {}", args.len()),
                    )
                };
                let unary = |f: Func| {
                    if args.len() == 1 {
                        Ok(Expr::Call(f, args.clone()))
                    } else {
                        Err(bad_arity("one argument"))
                    }
                };
                match name.as_str() {
                    "sqrt" => unary(Func::Sqrt),
                    "exp" => unary(Func::Exp),
                    "ln" | "log" => unary(Func::Ln),
                    "abs" => unary(Func::Abs),
                    "ceil" => unary(Func::Ceil),
                    "floor" => unary(Func::Floor),
                    "min" | "max" => {
                        if args.len() < 2 {
                            return Err(bad_arity("at least two arguments"));
                        }
                        let f = if name == "min" { Func::Min } else { Func::Max };
                        Ok(Expr::Call(f, args))
                    }
                    "pow" => {
                        if args.len() != 2 {
                            return Err(bad_arity("two arguments"));
                        }
                        let b = args.pop();
                        let a = args.pop();
                        match (a, b) {
                            (Some(a), Some(b)) => {
                                Ok(Expr::Bin(BinOp::Pow, Box::new(a), Box::new(b)))
                            }
                            _ => Err(parse_error(self.input, col, "`pow` takes two arguments")),
                        }
                    }
                    _ => Err(parse_error(
                        self.input,
                        col,
                        format!(
                            "unknown function `{name}` (known: sqrt exp ln log abs ceil floor min max pow)"
                        ),
                    )),
                }
            }
            t => Err(parse_error(
                self.input,
                col,
                format!(
                    "expected a number, variable, function or `(`, found {}",
                    t.describe()
                ),
            )),
        }
    }

    fn end(&self) -> Result<()> {
        if *self.peek() == Tok::End {
            Ok(())
        } else {
            Err(self.err(format!(
                "expected an operator or end of input, found {}",
                self.peek().describe()
            )))
        }
    }
}

/// Parses an arithmetic expression (see the module documentation for the grammar).
///
/// # Errors
/// [`Error::Parse`] whose reason starts with the 1-based column of the problem.
///
/// # Example
/// ```
/// use shiftdp_verify::expr::parse_expr;
/// let e = parse_expr("-x^2 + 2*x").unwrap();
/// assert_eq!(e.to_string(), "-x^2 + 2*x");
/// let err = parse_expr("x + * y").unwrap_err().to_string();
/// assert!(err.contains("column 5"), "{err}");
/// ```
pub fn parse_expr(s: &str) -> Result<Expr> {
    let mut p = Parser::new(s)?;
    let e = p.expr()?;
    p.end()?;
    Ok(e)
}

/// Parses a claim `NAME = EXPR` or `NAME <= EXPR` (`≤` also accepted).
///
/// # Errors
/// [`Error::Parse`] (with the column) when the left side is not a single identifier,
/// the relation is missing, or the expression does not parse.
///
/// # Example
/// ```
/// use shiftdp_verify::expr::{parse_claim, Relation};
/// let c = parse_claim("ε ≤ mu^2/2 + mu*sqrt(2*ln(1/delta))").unwrap();
/// assert_eq!(c.lhs, "epsilon");
/// assert_eq!(c.relation, Relation::Le);
/// assert!(c.expr.variables().contains("delta"));
/// ```
pub fn parse_claim(s: &str) -> Result<Claim> {
    let mut p = Parser::new(s)?;
    let lhs = match p.next() {
        Tok::Ident(n) => n,
        t => {
            return Err(parse_error(
                s,
                1.max(p.toks[0].1),
                format!(
                    "a claim starts with the name of the quantity (e.g. `mu = …`), found {}",
                    t.describe()
                ),
            ));
        }
    };
    let relation = match p.peek() {
        Tok::Eq => Relation::Eq,
        Tok::Le => Relation::Le,
        t => return Err(p.err(format!("expected `=` or `<=`, found {}", t.describe()))),
    };
    p.next();
    let expr = p.expr()?;
    p.end()?;
    Ok(Claim {
        lhs,
        relation,
        expr,
    })
}

// ---------------------------------------------------------------------------------------
// Evaluation

fn domain(what: impl fmt::Display, reason: impl Into<String>) -> Error {
    Error::Domain {
        what: format!("`{what}`"),
        reason: reason.into(),
    }
}

fn show(e: &Enclosure) -> String {
    format!(
        "[{}, {}]",
        r::to_decimal_down(e.lo(), 12),
        r::to_decimal_up(e.hi(), 12)
    )
}

/// `base^n` for an integer `n ≥ 0`: one correctly rounded MPFR power per end.
fn pow_int(base: &Enclosure, n: &Integer) -> Enclosure {
    let p = base.prec();
    if *n == 0 {
        return Enclosure::from_u64(p, 1);
    }
    let down = |x: &Float| Float::with_val_round(p, x.pow(n), Round::Down).0;
    let up = |x: &Float| Float::with_val_round(p, x.pow(n), Round::Up).0;
    let (lo, hi) = (base.lo(), base.hi());
    let pair = if n.is_odd() || !lo.is_sign_negative() || lo.is_zero() {
        // increasing on the enclosure (odd power, or a non-negative base)
        (down(lo), up(hi))
    } else if hi.is_sign_negative() && !hi.is_zero() {
        // even power of a negative base: decreasing
        (down(hi), up(lo))
    } else {
        // even power of an enclosure straddling 0
        let m = Float::with_val(p, -lo).max(hi);
        (Float::with_val(p, 0), up(&m))
    };
    // the pair is ordered by monotonicity of each case
    Enclosure::new(pair.0, pair.1).unwrap_or_else(|| Enclosure::everything(p))
}

/// `|x|`.
fn abs(x: &Enclosure) -> Enclosure {
    let p = x.prec();
    if !x.lo().is_sign_negative() || x.lo().is_zero() {
        x.clone()
    } else if x.hi().is_sign_negative() || x.hi().is_zero() {
        x.neg()
    } else {
        let m = Float::with_val(p, -x.lo()).max(x.hi());
        Enclosure::new(Float::with_val(p, 0), m).unwrap_or_else(|| Enclosure::everything(p))
    }
}

/// True when `[lo, hi]` contains 0.
fn contains_zero(x: &Enclosure) -> bool {
    x.lo().cmp0() != Some(Ordering::Greater) && x.hi().cmp0() != Some(Ordering::Less)
}

/// The exact integer of a point enclosure `[n, n]`, if it is one.
fn point_integer(x: &Enclosure) -> Option<Integer> {
    (x.lo() == x.hi() && x.lo().is_integer())
        .then(|| x.lo().to_integer())
        .flatten()
}

fn checked(e: Enclosure, node: &Expr) -> Result<Enclosure> {
    if e.is_finite() {
        Ok(e)
    } else {
        Err(domain(
            node,
            "the value overflows the MPFR exponent range (or is undefined)",
        ))
    }
}

impl Expr {
    /// The free variables of the expression, in sorted order (`pi` and `e` excluded:
    /// they are the constants unless the caller defines them).
    ///
    /// # Example
    /// ```
    /// use shiftdp_verify::expr::parse_expr;
    /// let e = parse_expr("sqrt(t)*L/(n*sigma) + pi*e").unwrap();
    /// let v: Vec<String> = e.variables().into_iter().collect();
    /// assert_eq!(v, ["L", "n", "sigma", "t"]);
    /// ```
    pub fn variables(&self) -> BTreeSet<String> {
        fn walk(e: &Expr, out: &mut BTreeSet<String>) {
            match e {
                Expr::Num(_) => {}
                Expr::Var(v) => {
                    if v != "pi" && v != "e" {
                        out.insert(v.clone());
                    }
                }
                Expr::Neg(a) => walk(a, out),
                Expr::Bin(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                Expr::Call(_, args) => args.iter().for_each(|a| walk(a, out)),
            }
        }
        let mut out = BTreeSet::new();
        walk(self, &mut out);
        out
    }

    /// Evaluates the expression as a certified enclosure at `bits` bits of precision.
    ///
    /// # Formula
    /// The expression itself, each operation in outward-rounded interval arithmetic.
    ///
    /// # Errors
    /// [`Error::Precision`] for `bits` out of range; [`Error::Parameter`] for a variable
    /// missing from `vars` or given as a non-finite enclosure; [`Error::Domain`] naming
    /// the subexpression for a square root/logarithm of an enclosure reaching below 0/to 0,
    /// a division by an enclosure containing 0, `x^y` with a base reaching ≤ 0 and an
    /// exponent that is not a single integer, `ceil`/`floor` of an enclosure straddling
    /// an integer, a negative integer power of an enclosure containing 0, or overflow.
    ///
    /// # Rounding
    /// Outward: the exact value of the formula at every point of the variable
    /// enclosures lies in the result.
    ///
    /// # Example
    /// ```
    /// use shiftdp_verify::expr::parse_expr;
    /// use shiftdp::precision::Enclosure;
    /// use std::collections::BTreeMap;
    /// let vars = BTreeMap::from([("x".to_string(), Enclosure::from_u64(64, 2))]);
    /// let y = parse_expr("(-x)^3 + sqrt(x)^2").unwrap().eval(&vars, 256).unwrap();
    /// // −8 + 2 = −6, enclosed tightly
    /// assert!(y.lower_f64() <= -6.0 && -6.0 <= y.upper_f64() && y.rel_width() < 1e-70);
    /// assert!(parse_expr("ln(x - 2)").unwrap().eval(&vars, 64).is_err());
    /// ```
    pub fn eval(&self, vars: &BTreeMap<String, Enclosure>, bits: u32) -> Result<Enclosure> {
        Enclosure::check_bits(bits)?;
        self.eval_at(vars, bits)
    }

    fn eval_at(&self, vars: &BTreeMap<String, Enclosure>, bits: u32) -> Result<Enclosure> {
        let v = match self {
            Expr::Num(s) => Enclosure::parse(bits, s)?,
            Expr::Var(name) => match vars.get(name) {
                // widening to `bits` is exact; operations then run at ≥ `bits` bits
                Some(x) if x.is_finite() && x.prec() < bits => x.with_prec(bits),
                Some(x) if x.is_finite() => x.clone(),
                Some(x) => {
                    return Err(Error::param(name, show(x), "must be a finite enclosure"));
                }
                None if name == "pi" => Enclosure::pi(bits),
                None if name == "e" => Enclosure::from_u64(bits, 1).exp(),
                None => {
                    return Err(Error::param(
                        name,
                        "(missing)",
                        "unknown variable in the expression: give its value",
                    ));
                }
            },
            Expr::Neg(a) => a.eval_at(vars, bits)?.neg(),
            Expr::Bin(op, a, b) => {
                let x = a.eval_at(vars, bits)?;
                let y = b.eval_at(vars, bits)?;
                match op {
                    BinOp::Add => x.add(&y),
                    BinOp::Sub => x.sub(&y),
                    BinOp::Mul => x.mul(&y),
                    BinOp::Div => {
                        if contains_zero(&y) {
                            return Err(domain(
                                self,
                                format!("the divisor `{b}` encloses {} which contains 0", show(&y)),
                            ));
                        }
                        x.div(&y)
                    }
                    BinOp::Pow => match point_integer(&y) {
                        Some(n) if n >= 0 => pow_int(&x, &n),
                        Some(n) => {
                            if contains_zero(&x) {
                                return Err(domain(
                                    self,
                                    format!(
                                        "negative power of `{a}`, which encloses {} containing 0",
                                        show(&x)
                                    ),
                                ));
                            }
                            Enclosure::from_u64(x.prec(), 1).div(&pow_int(&x, &(-n)))
                        }
                        None => {
                            if !x.is_positive() {
                                return Err(domain(
                                    self,
                                    format!(
                                        "the base `{a}` encloses {} reaching ≤ 0 and the exponent `{b}` \
                                         ({}) is not a single integer",
                                        show(&x),
                                        show(&y)
                                    ),
                                ));
                            }
                            x.powf(&y)
                        }
                    },
                }
            }
            Expr::Call(f, args) => {
                let xs = args
                    .iter()
                    .map(|a| a.eval_at(vars, bits))
                    .collect::<Result<Vec<_>>>()?;
                let x = &xs[0];
                match f {
                    Func::Sqrt => {
                        if x.lo().is_sign_negative() && !x.lo().is_zero() {
                            return Err(domain(
                                self,
                                format!("the argument encloses {}, reaching below 0", show(x)),
                            ));
                        }
                        x.sqrt()
                    }
                    Func::Ln => {
                        if !x.is_positive() {
                            return Err(domain(
                                self,
                                format!("the argument encloses {}, reaching 0 or below", show(x)),
                            ));
                        }
                        x.ln()
                    }
                    Func::Exp => x.exp(),
                    Func::Abs => abs(x),
                    Func::Ceil | Func::Floor => {
                        let y = if *f == Func::Ceil {
                            x.ceil()
                        } else {
                            x.floor()
                        };
                        if y.lo() != y.hi() {
                            return Err(domain(
                                self,
                                format!(
                                    "the argument encloses {}, which straddles an integer: the value \
                                     cannot be decided (give the argument exactly)",
                                    show(x)
                                ),
                            ));
                        }
                        y
                    }
                    Func::Min => xs[1..].iter().fold(x.clone(), |m, y| m.min(y)),
                    Func::Max => xs[1..].iter().fold(x.clone(), |m, y| m.max(y)),
                }
            }
        };
        checked(v, self)
    }

    /// Evaluates the expression in f64 (an estimate, for searching; not a bound).
    ///
    /// Same language and domain rules as [`Expr::eval`], on floats: `x^y` is `powi` for
    /// an integer `y` (negative bases allowed) and `powf` otherwise.
    ///
    /// # Errors
    /// [`Error::Parameter`] for a missing or non-finite variable; [`Error::Domain`] for
    /// a square root of a negative number, a logarithm of a number ≤ 0, division by 0,
    /// a non-integer power of a base ≤ 0, or a non-finite result.
    ///
    /// # Example
    /// ```
    /// use shiftdp_verify::expr::parse_expr;
    /// use std::collections::BTreeMap;
    /// let vars = BTreeMap::from([("x".to_string(), 3.0)]);
    /// let y = parse_expr("-x^2 + pow(x, 0.5)^2").unwrap().eval_f64(&vars).unwrap();
    /// assert!((y - (-6.0)).abs() < 1e-12);
    /// assert!(parse_expr("1/(x - 3)").unwrap().eval_f64(&vars).is_err());
    /// ```
    pub fn eval_f64(&self, vars: &BTreeMap<String, f64>) -> Result<f64> {
        let v = match self {
            Expr::Num(s) => s.parse::<f64>().map_err(|_| Error::Parse {
                input: s.clone(),
                reason: "not a decimal number".into(),
            })?,
            Expr::Var(name) => match vars.get(name) {
                Some(x) if x.is_finite() => *x,
                Some(x) => return Err(Error::param(name, x, "must be finite")),
                None if name == "pi" => std::f64::consts::PI,
                None if name == "e" => std::f64::consts::E,
                None => {
                    return Err(Error::param(
                        name,
                        "(missing)",
                        "unknown variable in the expression: give its value",
                    ));
                }
            },
            Expr::Neg(a) => -a.eval_f64(vars)?,
            Expr::Bin(op, a, b) => {
                let x = a.eval_f64(vars)?;
                let y = b.eval_f64(vars)?;
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => {
                        if y == 0.0 {
                            return Err(domain(self, format!("the divisor `{b}` is 0")));
                        }
                        x / y
                    }
                    BinOp::Pow => {
                        let integer = y.fract() == 0.0;
                        if integer && y < 0.0 && x == 0.0 {
                            return Err(domain(self, format!("negative power of `{a}` = 0")));
                        }
                        if !integer && x <= 0.0 {
                            return Err(domain(
                                self,
                                format!(
                                    "the base `{a}` = {x} is ≤ 0 and the exponent {y} is not an integer"
                                ),
                            ));
                        }
                        if integer && y.abs() <= f64::from(i32::MAX) {
                            x.powi(y as i32)
                        } else {
                            x.powf(y)
                        }
                    }
                }
            }
            Expr::Call(f, args) => {
                let xs = args
                    .iter()
                    .map(|a| a.eval_f64(vars))
                    .collect::<Result<Vec<_>>>()?;
                let x = xs[0];
                match f {
                    Func::Sqrt => {
                        if x < 0.0 {
                            return Err(domain(self, format!("the argument {x} is below 0")));
                        }
                        x.sqrt()
                    }
                    Func::Ln => {
                        if x <= 0.0 {
                            return Err(domain(self, format!("the argument {x} is ≤ 0")));
                        }
                        x.ln()
                    }
                    Func::Exp => x.exp(),
                    Func::Abs => x.abs(),
                    Func::Ceil => x.ceil(),
                    Func::Floor => x.floor(),
                    Func::Min => xs[1..].iter().fold(x, |m, &y| m.min(y)),
                    Func::Max => xs[1..].iter().fold(x, |m, &y| m.max(y)),
                }
            }
        };
        if v.is_finite() {
            Ok(v)
        } else {
            Err(domain(self, "the f64 value overflows"))
        }
    }
}
