//! Named checks (builtins) for CYS21 / YS22 statements that are not domination checks.
/// The CYS21 / YS22 builtins (none registered yet: their statements are covered by
/// validator entries).
pub fn builtins() -> Vec<crate::verify::Builtin> {
    vec![]
}
