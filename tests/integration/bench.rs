//! `arbor bench`'s node count is a signature of what the search does: any change to the
//! search, the move ordering, the evaluation, the solvers or the tables changes it. A
//! change that is meant must update this number in the same commit, with its reason.

const SIGNATURE: u64 = 12_552_305;

#[test]
fn bench_signature_is_unchanged() {
    let mut out = Vec::new();
    let lines = arbor::cli::bench::run(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let nodes: u64 = lines.iter().map(|line| line.nodes).sum();
    assert_eq!(lines.len(), 9, "{text}");
    assert!(text.ends_with(&format!("signature: {nodes}\n")), "{text}");
    assert_eq!(nodes, SIGNATURE, "the search changed:\n{text}");
}
