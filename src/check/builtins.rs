//! Named checks (builtins) for CYS21 / YS22 statements that are not domination checks.
pub fn builtins() -> Vec<crate::verify::Builtin> {
    vec![]
}
