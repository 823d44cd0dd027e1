//! Privacy bounds of the published results, as closed forms generic over the precision.
pub mod closed_form;
