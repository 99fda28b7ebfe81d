//! What the benches share: reading a folder of puzzles.

use bimaru_sat::Puzzle;
use bimaru_sat::format::{self, Format};
use std::path::{Path, PathBuf};

/// The puzzle files in `dir` whose names end with `suffix`, sorted, with their stems; none
/// when `dir` is missing.
pub fn puzzles(dir: &Path, suffix: &str, format: Format) -> Vec<(String, Puzzle)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("skipping: {} is missing", dir.display());
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).expect("readable puzzle");
            let document = format::parse_document(&text, format, &bimaru_sat::Limits::default())
                .expect("valid puzzle");
            let stem = file.file_stem().unwrap_or_default().to_string_lossy();
            (stem.into_owned(), document.boards[0].puzzle.clone())
        })
        .collect()
}
