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

/// The default legend table of section 7 (four key/thing pairs a row) is
/// exactly the legend the front end applies, in its order.
#[test]
fn the_default_legend_table_is_the_code_table() {
    let doc = include_str!("../docs/language.md");
    let at = doc
        .find("**The default legend**")
        .expect("the table's heading");
    let cells: Vec<String> = doc[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .flat_map(|l| {
            l.trim()
                .trim_matches('|')
                .replace("\\|", "\u{0}")
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "|"))
                .collect::<Vec<_>>()
        })
        .collect();
    let got: Vec<(String, String)> = cells
        .chunks(2)
        .map(|p| (p[0].trim_matches('`').to_string(), p[1].clone()))
        .collect();
    let want: Vec<(String, String)> = miau::lower::DEFAULT_LEGEND
        .iter()
        .map(|(k, n, c)| {
            let thing = match c {
                Some(c) => format!("{n}, channel {c}"),
                None => n.to_string(),
            };
            (k.to_string(), thing)
        })
        .collect();
    assert_eq!(got, want);
}
