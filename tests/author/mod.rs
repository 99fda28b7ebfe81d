//! The puzzle-author commands: generate, grade, hint and render. A folder module, so that
//! cargo does not build these files as test binaries of their own.

mod generate;
mod generate_default;
mod generate_from;
mod grade;
mod hint;
mod render;
