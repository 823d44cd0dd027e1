//! Property and known-value tests of the claim expression language
//! (`shiftdp_verify::expr`): certified enclosures contain exact rational values and
//! f64 evaluations, nest as precision grows, and reproduce BSA24 Thm 4.2.
use proptest::prelude::*;
use rug::{Float, Rational};
use shiftdp::Error;
use shiftdp::bounds::bsa24::mu_thm_4_2_unchecked;
use shiftdp::precision::Enclosure;
use shiftdp_verify::expr::{Expr, Relation, parse_claim, parse_expr};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------
// Random expression trees, printed fully parenthesized (independent of `Expr`'s Display)

#[derive(Debug, Clone)]
enum T {
    /// Decimal literal text.
    Lit(String),
    /// Variable x0, x1, x2.
    Var(usize),
    Neg(Box<T>),
    Bin(char, Box<T>, Box<T>),
    PowI(Box<T>, i32),
    Call(&'static str, Vec<T>),
}

impl T {
    fn text(&self) -> String {
        match self {
            T::Lit(s) => s.clone(),
            T::Var(i) => format!("x{i}"),
            T::Neg(a) => format!("(-{})", a.text()),
            T::Bin(op, a, b) => format!("({} {op} {})", a.text(), b.text()),
            T::PowI(a, n) => format!("({})^({n})", a.text()),
            T::Call(f, args) => {
                let a: Vec<String> = args.iter().map(T::text).collect();
                format!("{f}({})", a.join(", "))
            }
        }
    }

    /// The exact rational value (None: division by 0 or 0 to a negative power).
    fn exact(&self, vars: &[Rational]) -> Option<Rational> {
        Some(match self {
            T::Lit(s) => decimal(s),
            T::Var(i) => vars[*i].clone(),
            T::Neg(a) => -a.exact(vars)?,
            T::Bin(op, a, b) => {
                let (x, y) = (a.exact(vars)?, b.exact(vars)?);
                match op {
                    '+' => x + y,
                    '-' => x - y,
                    '*' => x * y,
                    '/' => {
                        if y == 0 {
                            return None;
                        }
                        x / y
                    }
                    _ => unreachable!("rational trees use + - * / only"),
                }
            }
            T::PowI(a, n) => {
                let x = a.exact(vars)?;
                if *n < 0 && x == 0 {
                    return None;
                }
                let mut acc = Rational::from(1);
                for _ in 0..n.unsigned_abs() {
                    acc *= &x;
                }
                if *n < 0 { acc.recip() } else { acc }
            }
            T::Call(f, args) => {
                let xs: Vec<Rational> =
                    args.iter().map(|a| a.exact(vars)).collect::<Option<_>>()?;
                match *f {
                    "abs" => xs[0].clone().abs(),
                    "min" => xs.into_iter().min()?,
                    "max" => xs.into_iter().max()?,
                    _ => unreachable!("rational trees use abs/min/max only"),
                }
            }
        })
    }
}

/// Exact rational of a decimal literal `d.ddd` or `de-k`.
fn decimal(s: &str) -> Rational {
    let (mant, exp) = match s.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap()),
        None => (s, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: rug::Integer = format!("{int}{frac}").parse().unwrap();
    let scale = exp - frac.len() as i32;
    let ten = Rational::from(10);
    let mut q = Rational::from(digits);
    for _ in 0..scale.unsigned_abs() {
        if scale > 0 {
            q *= &ten;
        } else {
            q /= &ten;
        }
    }
    q
}

fn lit() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..20).prop_map(|n| n.to_string()),
        (0u32..100, 0u32..1000).prop_map(|(a, b)| format!("{a}.{b:03}")),
        (1u32..99, 1u32..12).prop_map(|(a, k)| format!("{a}e-{k}")),
    ]
}

/// `a ∘ b` for ∘ among + - * / (a branch of both tree strategies).
fn arithmetic(inner: BoxedStrategy<T>) -> impl Strategy<Value = T> {
    (
        prop::sample::select(vec!['+', '-', '*', '/']),
        inner.clone(),
        inner,
    )
        .prop_map(|(op, a, b)| T::Bin(op, Box::new(a), Box::new(b)))
}

/// `min(a, b)` and `max(a, b)` (a branch of both tree strategies).
fn min_max(inner: BoxedStrategy<T>) -> impl Strategy<Value = T> {
    (
        prop::sample::select(vec!["min", "max"]),
        inner.clone(),
        inner,
    )
        .prop_map(|(f, a, b)| T::Call(f, vec![a, b]))
}

/// Trees over + - * / ^int abs min max (exact rational values).
fn rational_tree() -> impl Strategy<Value = T> {
    let leaf = prop_oneof![lit().prop_map(T::Lit), (0usize..3).prop_map(T::Var)];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| T::Neg(Box::new(a))),
            arithmetic(inner.clone()),
            (inner.clone(), -3i32..5).prop_map(|(a, n)| T::PowI(Box::new(a), n)),
            inner.clone().prop_map(|a| T::Call("abs", vec![a])),
            min_max(inner),
        ]
    })
}

/// Trees over + - * / sqrt ln abs min max and exp of a leaf (no underflow/overflow in
/// f64 at these depths and leaf ranges).
fn float_tree() -> impl Strategy<Value = T> {
    let leaf = prop_oneof![lit().prop_map(T::Lit), (0usize..3).prop_map(T::Var)];
    let exp_leaf = leaf.clone().prop_map(|a| T::Call("exp", vec![a]));
    prop_oneof![3 => leaf, 1 => exp_leaf].prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| T::Neg(Box::new(a))),
            arithmetic(inner.clone()),
            (
                prop::sample::select(vec!["sqrt", "ln", "abs"]),
                inner.clone()
            )
                .prop_map(|(f, a)| T::Call(f, vec![a])),
            min_max(inner),
        ]
    })
}

fn var_decimals() -> impl Strategy<Value = [String; 3]> {
    let v = (-50i32..50, 0u32..10_000).prop_map(|(a, b)| {
        let sign = if a < 0 { "-" } else { "" };
        format!("{sign}{}.{b:04}", a.unsigned_abs())
    });
    [v.clone(), v.clone(), v]
}

fn enc_vars(vals: &[String; 3], bits: u32) -> BTreeMap<String, Enclosure> {
    vals.iter()
        .enumerate()
        .map(|(i, v)| (format!("x{i}"), Enclosure::parse(bits, v).unwrap()))
        .collect()
}

fn contains(e: &Enclosure, q: &Rational) -> bool {
    *e.lo() <= *q && *e.hi() >= *q
}

fn is_domain(e: &Error) -> bool {
    matches!(e, Error::Domain { .. })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The exact rational value of a random +−×÷/integer-power tree lies in its
    /// enclosure at every precision; an undefined value (÷0) is always an error.
    #[test]
    fn enclosure_contains_exact_rational_value(
        t in rational_tree(),
        vals in var_decimals(),
        bits in prop_oneof![Just(53u32), Just(128), Just(256)],
    ) {
        let e = parse_expr(&t.text()).unwrap();
        let exact_vars: Vec<Rational> = vals.iter().map(|v| decimal(v)).collect();
        let got = e.eval(&enc_vars(&vals, bits), bits);
        match t.exact(&exact_vars) {
            Some(q) => match got {
                Ok(enc) => prop_assert!(contains(&enc, &q), "{} = {q} not in {enc:?}", t.text()),
                // a divisor enclosure may touch 0 though the exact divisor is not 0
                Err(err) => prop_assert!(is_domain(&err), "{}: {err}", t.text()),
            },
            None => prop_assert!(got.is_err(), "{} undefined but evaluated to {:?}", t.text(), got),
        }
    }

    /// The f64 evaluation (correctly/faithfully rounded operations) lies in the 53-bit
    /// enclosure of the same expression, and the 256-bit enclosure agrees with it to
    /// the f64 rounding error when the expression is well conditioned.
    #[test]
    fn f64_evaluation_lies_in_enclosure(t in float_tree(), vals in var_decimals()) {
        let e = parse_expr(&t.text()).unwrap();
        let fvars: BTreeMap<String, f64> = vals
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("x{i}"), v.parse::<f64>().unwrap()))
            .collect();
        let Ok(v) = e.eval_f64(&fvars) else { return Ok(()) };
        match e.eval(&enc_vars(&vals, 53), 53) {
            Ok(enc53) => {
                prop_assert!(enc53.lower_f64() <= v && v <= enc53.upper_f64(),
                    "{}: f64 {v} not in {enc53:?}", t.text());
                // well conditioned: the 53-bit enclosure is narrow, so the f64 value is
                // close to the 256-bit enclosure too
                if enc53.rel_width() < 1e-8 {
                    let enc256 = e.eval(&enc_vars(&vals, 256), 256).unwrap();
                    let tol = 1e-7 * v.abs().max(1e-300);
                    prop_assert!(enc256.lower_f64() - tol <= v && v <= enc256.upper_f64() + tol,
                        "{}: f64 {v} far from {enc256:?}", t.text());
                }
            }
            Err(err) => prop_assert!(is_domain(&err), "{}: {err}", t.text()),
        }
    }

    /// Outward rounding at more bits gives a sub-interval: I₂₅₆ ⊆ I₁₂₈ ⊆ I₆₄.
    #[test]
    fn enclosures_nest_as_bits_grow(t in float_tree(), vals in var_decimals()) {
        let e = parse_expr(&t.text()).unwrap();
        let at = |b: u32| e.eval(&enc_vars(&vals, b), b);
        if let (Ok(a), Ok(b), Ok(c)) = (at(64), at(128), at(256)) {
            prop_assert!(a.lo() <= b.lo() && b.lo() <= c.lo(), "{}", t.text());
            prop_assert!(c.hi() <= b.hi() && b.hi() <= a.hi(), "{}", t.text());
        }
    }

    /// Printing an expression and parsing it back gives the same tree.
    #[test]
    fn display_round_trips(t in rational_tree()) {
        let e = parse_expr(&t.text()).unwrap();
        let again = parse_expr(&e.to_string()).unwrap();
        prop_assert_eq!(&again, &e, "{} printed as {}", t.text(), e);
    }

    /// The claim formula of BSA24 Thm 4.2 evaluates to the library's `mu_thm_4_2_unchecked`
    /// (enclosures overlap and are tight; the f64 values agree).
    #[test]
    fn thm_4_2_formula_matches_library(
        c in 0.01f64..0.99,
        t in 1u64..3000,
        l in 0.1f64..10.0,
        n in 1u64..1_000_000,
        sigma in 0.1f64..10.0,
    ) {
        let claim = parse_claim("mu = sqrt((1-c^t)/(1+c^t)*(1+c)/(1-c))*L/(n*sigma)").unwrap();
        let bits = 256;
        let vars: BTreeMap<String, Enclosure> = [
            ("c", Enclosure::from_f64(bits, c)),
            ("t", Enclosure::from_u64(bits, t)),
            ("L", Enclosure::from_f64(bits, l)),
            ("n", Enclosure::from_u64(bits, n)),
            ("sigma", Enclosure::from_f64(bits, sigma)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let got = claim.expr.eval(&vars, bits).unwrap();
        let unit = vars["L"].div(&vars["n"].mul(&vars["sigma"]));
        let want = mu_thm_4_2_unchecked(&vars["c"], t, &unit);
        prop_assert!(got.lo() <= want.hi() && want.lo() <= got.hi(), "{got:?} vs {want:?}");
        prop_assert!(got.rel_width() < 1e-60 && want.rel_width() < 1e-60);
        let fvars: BTreeMap<String, f64> =
            [("c", c), ("t", t as f64), ("L", l), ("n", n as f64), ("sigma", sigma)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
        let f = claim.expr.eval_f64(&fvars).unwrap();
        let g = mu_thm_4_2_unchecked(&c, t, &(l / (n as f64 * sigma)));
        prop_assert!((f - g).abs() <= 1e-12 * g, "{f} vs {g}");
    }
}

fn eval(s: &str, vars: &[(&str, &str)], bits: u32) -> shiftdp::Result<Enclosure> {
    let vars = vars
        .iter()
        .map(|(k, v)| (k.to_string(), Enclosure::parse(bits, v).unwrap()))
        .collect();
    parse_expr(s).unwrap().eval(&vars, bits)
}

fn hi_prec(x: Float) -> Float {
    Float::with_val(2000, x)
}

#[test]
fn known_constants_are_enclosed() {
    let two = eval("sqrt(2)^2", &[], 256).unwrap();
    assert!(contains(&two, &Rational::from(2)) && two.rel_width() < 1e-70);
    let three = eval("exp(ln(3))", &[], 256).unwrap();
    assert!(contains(&three, &Rational::from(3)) && three.rel_width() < 1e-70);
    // π and e against 2000-bit MPFR constants
    let pi = eval("pi", &[], 200).unwrap();
    let pi_ref = hi_prec(Float::with_val(2000, rug::float::Constant::Pi));
    assert!(*pi.lo() <= pi_ref && pi_ref <= *pi.hi());
    let e = eval("e", &[], 200).unwrap();
    let e_ref = Float::with_val(2000, 1).exp();
    assert!(*e.lo() <= e_ref && e_ref <= *e.hi());
    // a variable named e shadows the constant
    let shadow = eval("e + 1", &[("e", "2")], 64).unwrap();
    assert!(contains(&shadow, &Rational::from(3)) && shadow.rel_width() < 1e-15);
    assert!(!contains(
        &eval("e + 1", &[], 64).unwrap(),
        &Rational::from(3)
    ));
}

#[test]
fn decimal_literals_are_exact_not_f64() {
    let x = eval("0.1*3", &[], 256).unwrap();
    assert!(contains(&x, &Rational::from((3, 10))));
    // the f64 route (0.1 rounded to binary first) gives a different number, outside
    let via_f64 = Rational::from_f64(0.1).unwrap() * 3u32;
    assert!(!contains(&x, &via_f64), "{x:?}");
    let tiny = eval("1e-400 * 1e400", &[], 128).unwrap();
    assert!(contains(&tiny, &Rational::from(1)) && tiny.rel_width() < 1e-35);
}

#[test]
fn integer_powers_of_negative_bases() {
    let cube = eval("(-2)^3", &[], 64).unwrap();
    assert!(contains(&cube, &Rational::from(-8)) && cube.lo() == cube.hi());
    let inv = eval("x^-1", &[("x", "-2")], 64).unwrap();
    assert!(contains(&inv, &Rational::from((-1, 2))) && inv.lo() == inv.hi());
    let big = eval("x^n", &[("x", "-1"), ("n", "1000001")], 64).unwrap();
    assert!(contains(&big, &Rational::from(-1)) && big.lo() == big.hi());
    // even power of an enclosure straddling 0: [0, 4]
    let lo = Float::with_val(64, -1);
    let hi = Float::with_val(64, 2);
    let vars = BTreeMap::from([("x".to_string(), Enclosure::new(lo, hi).unwrap())]);
    let sq = parse_expr("x^2").unwrap().eval(&vars, 64).unwrap();
    assert!(sq.lo().is_zero() && *sq.hi() == 4);
    // -x^2 is -(x^2)
    let neg = eval("-x^2", &[("x", "3")], 64).unwrap();
    assert!(contains(&neg, &Rational::from(-9)));
    // right associativity: 2^3^2 = 2^9
    let r = eval("2^3^2", &[], 64).unwrap();
    assert!(contains(&r, &Rational::from(512)));
}

fn domain_message(s: &str, vars: &[(&str, &str)]) -> String {
    match eval(s, vars, 128) {
        Err(e @ Error::Domain { .. }) => e.to_string(),
        other => panic!("{s}: expected a domain error, got {other:?}"),
    }
}

#[test]
fn domain_errors_name_the_subexpression() {
    assert!(domain_message("1 + sqrt(-1)", &[]).contains("sqrt(-1)"));
    assert!(domain_message("ln(x - 1)", &[("x", "1")]).contains("ln(x - 1)"));
    let m = domain_message("2/(x - x)", &[("x", "0.1")]);
    assert!(m.contains("x - x") && m.contains("contains 0"), "{m}");
    assert!(domain_message("(-2)^0.5", &[]).contains("-2"));
    assert!(domain_message("0^-1", &[]).contains("0^-1"));
    // 0.1·10 is enclosed in an interval straddling 1: ceil cannot be decided
    assert!(domain_message("ceil(0.1*10)", &[]).contains("straddles"));
    assert!(domain_message("exp(1e10)", &[]).contains("overflow"));
    // decidable cases
    assert!(contains(
        &eval("floor(2.5)", &[], 64).unwrap(),
        &Rational::from(2)
    ));
    assert!(contains(
        &eval("ceil(n/2)", &[("n", "7")], 64).unwrap(),
        &Rational::from(4)
    ));
}

#[test]
fn unknown_variable_and_bad_precision() {
    match eval("a + b", &[("a", "1")], 64) {
        Err(Error::Parameter { name, .. }) => assert_eq!(name, "b"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(eval("1", &[], 8), Err(Error::Precision { .. })));
    let e = parse_expr("sqrt(-x)").unwrap();
    assert!(
        e.eval_f64(&BTreeMap::from([("x".to_string(), 1.0)]))
            .is_err()
    );
    assert!(e.eval_f64(&BTreeMap::new()).is_err());
    assert!(
        parse_expr("exp(1000)")
            .unwrap()
            .eval_f64(&BTreeMap::new())
            .is_err()
    );
}

#[test]
fn width_shrinks_as_bits_grow() {
    let s = "sqrt(2)*pi/3 + exp(0.1) - ln(7)^3";
    let widths: Vec<f64> = [64u32, 128, 256, 512]
        .iter()
        .map(|&b| eval(s, &[], b).unwrap().rel_width())
        .collect();
    for w in widths.windows(2) {
        assert!(w[1] < w[0] * 1e-15, "{widths:?}");
    }
    assert!(widths[3] < 1e-140);
}

fn parse_column(s: &str) -> String {
    match parse_expr(s) {
        Err(Error::Parse { reason, .. }) => reason,
        other => panic!("{s}: expected a parse error, got {other:?}"),
    }
}

#[test]
fn parse_errors_carry_positions() {
    assert!(parse_column("x + * y").starts_with("column 5"));
    assert!(parse_column("sqrt(2").starts_with("column 7"));
    assert!(parse_column("foo(x)").starts_with("column 1"));
    assert!(parse_column("foo(x)").contains("unknown function `foo`"));
    assert!(parse_column("2x").starts_with("column 2"));
    assert!(parse_column("x $ y").starts_with("column 3"));
    assert!(parse_column("(a + b) c").starts_with("column 9"));
    assert!(parse_column("min(1)").contains("at least two"));
    assert!(parse_column("").starts_with("column 1"));
    // deep nesting is refused, not a stack overflow
    let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
    assert!(parse_column(&deep).contains("nested deeper"));
    assert!(parse_column(&"-".repeat(300)).contains("nested deeper"));
    assert!(parse_column(&vec!["1"; 100_000].join("+")).contains("longer than"));
    let ok = format!("{}x{}", "(".repeat(50), ")".repeat(50));
    assert_eq!(parse_expr(&ok).unwrap(), Expr::Var("x".into()));
    match parse_claim("mu x") {
        Err(Error::Parse { reason, .. }) => assert!(reason.starts_with("column 4"), "{reason}"),
        other => panic!("{other:?}"),
    }
    match parse_claim("2 = x") {
        Err(Error::Parse { reason, .. }) => assert!(reason.starts_with("column 1"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn claims_and_aliases() {
    let c = parse_claim("μ = sqrt(t)*L/(n*σ)").unwrap();
    assert_eq!(c.lhs, "mu");
    assert_eq!(c.relation, Relation::Eq);
    let v: Vec<String> = c.expr.variables().into_iter().collect();
    assert_eq!(v, ["L", "n", "sigma", "t"]);
    let le = parse_claim("epsilon <= mu^2/2 + mu*sqrt(2*log(1/delta))").unwrap();
    assert_eq!(le.relation, Relation::Le);
    assert_eq!(
        le.expr,
        parse_expr("mu^2/2 + mu*sqrt(2*ln(1/delta))").unwrap()
    );
    assert_eq!(parse_claim("ε ≤ 1").unwrap().relation, Relation::Le);
    // pow(x, y) is x^y, ** is ^, · is *
    assert_eq!(parse_expr("pow(a, b)").unwrap(), parse_expr("a^b").unwrap());
    assert_eq!(parse_expr("a**b·c").unwrap(), parse_expr("a^b*c").unwrap());
    let e: Expr = parse_expr("1e-5 + .5").unwrap();
    assert_eq!(e.to_string(), "1e-5 + .5");
}

#[test]
fn low_precision_variables_are_widened_to_bits() {
    // x = 2 given at 64 bits, evaluated at 256 bits: √x·√x is enclosed to ~2^-250
    let vars = BTreeMap::from([("x".to_string(), Enclosure::from_u64(64, 2))]);
    let y = parse_expr("sqrt(x)*sqrt(x)")
        .unwrap()
        .eval(&vars, 256)
        .unwrap();
    assert!(contains(&y, &Rational::from(2)));
    assert!(y.rel_width() < 1e-70, "{y:?}");
}
