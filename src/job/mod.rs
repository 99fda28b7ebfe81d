//! Jobs: what a command asks for, as plain values, and the code that runs them. The binary
//! resolves its flags once into one of these values and writes what comes back; nothing here
//! knows a flag, a terminal or an exit code.

pub mod author;
