//! Every ```miau example in docs/language.md is a complete pack that builds
//! without a single stage 1 diagnostic, and is stable under the formatter.

use miau::lower::lower;
use miau::syntax::parse;

fn examples() -> Vec<String> {
    let doc = include_str!("../docs/language.md");
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in doc.lines() {
        match &mut cur {
            None if line.trim_start() == "```miau" => cur = Some(String::new()),
            Some(_) if line.trim_start() == "```" => out.extend(cur.take()),
            Some(buf) => {
                buf.push_str(line);
                buf.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn every_example_builds_cleanly() {
    let all = examples();
    assert!(all.len() >= 6, "found {} examples", all.len());
    for ex in &all {
        let (file, diags) = parse(ex);
        assert!(diags.is_empty(), "{ex}\n{diags:#?}");
        let (pack, more) = lower(&file);
        assert!(more.is_empty(), "{ex}\n{more:#?}");
        assert!(!pack.id.is_empty());
        let once = miau::fmt::format(ex).expect("formats");
        assert_eq!(miau::fmt::format(&once).unwrap(), once);
    }
}
