//! Pictures for people: the board as SVG (`show --svg`, the web page) and plots
//! (`compare --plot`).

#[cfg(feature = "plots")]
pub(crate) mod plot;
pub(crate) mod svg;
