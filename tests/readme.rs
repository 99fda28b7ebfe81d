//! Keeps the README honest: its IST example input, run through the binary, prints exactly the
//! output the README shows.

use crate::common::run;

/// The fenced code blocks of `text`, in order.
fn code_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some(String::new()),
            }
        } else if let Some(block) = current.as_mut() {
            block.push_str(line);
            block.push('\n');
        }
    }
    blocks
}

#[test]
fn the_readme_example_prints_what_the_readme_shows() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let blocks = code_blocks(&readme);
    let input = blocks
        .iter()
        .position(|b| b.starts_with("ROW "))
        .expect("README shows an IST input");
    let output = &blocks[input + 1];
    let out = run(&[], blocks[input].as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), *output);
    // The same example is the puzzle the set-up command solves.
    let example = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/ist-example.txt"
    ))
    .unwrap();
    assert_eq!(example, blocks[input]);
}
