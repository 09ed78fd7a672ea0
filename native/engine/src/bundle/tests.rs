//! Bundles from the spec's policy examples: each scenario directory is a
//! bundle (kind, policies, modules) that checks without a diagnostic.

use super::{NamedFile, Project};
use std::path::Path;

#[test]
fn every_policy_example_bundle_checks_cleanly() {
    let files = crate::testing::spec_example_files();
    let mut bundles: Vec<(String, Vec<NamedFile>)> = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.to_string_lossy().contains("/policies/"))
    {
        let scenario = scenario_of(file);
        let path = file
            .strip_prefix(
                file.ancestors()
                    .find(|a| a.ends_with(&scenario))
                    .unwrap_or(Path::new("")),
            )
            .unwrap_or(file)
            .to_string_lossy()
            .into_owned();
        let named = NamedFile {
            path,
            source: crate::testing::read(file).into(),
            trusted: false,
        };
        match bundles.iter_mut().find(|(s, _)| *s == scenario) {
            Some((_, list)) => list.push(named),
            None => bundles.push((scenario, vec![named])),
        }
    }
    if files.is_empty() {
        return;
    }
    assert_eq!(
        bundles.len(),
        5,
        "scenarios: {:?}",
        bundles.iter().map(|b| &b.0).collect::<Vec<_>>()
    );
    for (scenario, files) in bundles {
        let project = Project::load(files);
        assert!(
            project.diagnostics.is_empty(),
            "{scenario}: {:#?}",
            project.diagnostics
        );
        assert!(
            project.docs.iter().all(|d| d.exports.is_some()),
            "{scenario}: unchecked documents"
        );
    }
}

/// The scenario directory a file of `examples/policies` belongs to.
fn scenario_of(file: &Path) -> String {
    let parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let at = parts.iter().rposition(|p| p == "policies").unwrap_or(0);
    parts.get(at + 1).cloned().unwrap_or_default()
}
