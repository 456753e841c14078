//! Exact endgame scores on the FFO suite in ../shared (skipped with a message when absent).

use std::path::PathBuf;

use arbor::cli::solve::solve_file;

fn suite(name: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/othello")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            eprintln!(
                "skipped: {} is absent (reference data lives beside the checkout)",
                path.display()
            );
            None
        }
    }
}

#[test]
fn ffo_1_to_19_scores_are_exact() {
    let Some(text) = suite("fforum-1-19.obf") else {
        return;
    };
    let mut out = Vec::new();
    let report = solve_file(&text, 20, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(report.positions, 19, "{out}");
    assert_eq!(report.mismatches, 0, "{out}");
}

#[test]
fn ffo_20_to_36_scores_are_exact() {
    let Some(text) = suite("fforum-20-39.obf") else {
        return;
    };
    // #37 to #39 take the longest; the benchmark script covers them.
    let text: String = text
        .lines()
        .take(17)
        .map(|line| format!("{line}\n"))
        .collect();
    let mut out = Vec::new();
    let report = solve_file(&text, 20, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(report.positions, 17, "{out}");
    assert_eq!(report.mismatches, 0, "{out}");
}
