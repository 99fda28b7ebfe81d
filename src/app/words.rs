//! How the command line words a count in its summaries: `1 board`, `2 boards`.

/// `n` and the word for that many, the plural made with an `s`: `1 board`, `2 boards`.
pub fn counted(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
