//! What Nordlys draws from the domain's facts, apart from the domain: the price, volume and
//! holdings charts as SVG (colours by theme, axes written as the language writes numbers), QR
//! codes of what the user receives to, and the plain PDF the tax card's attachment is. The
//! window, the CLI and the documents use it; the domain never does.

pub mod chart;
pub mod pdf;
pub mod qr;
