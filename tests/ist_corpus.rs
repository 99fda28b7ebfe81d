//! IST corpus conformance.
