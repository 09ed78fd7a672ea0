//! Lints (tooling §3.4): findings about documents that type-check, each
//! with a default level that a request's `lints` may change.
//!
//! * here: the lints, their levels and the `lints` configuration.
//! * `run.rs`: the findings over a checked project.

mod run;
#[cfg(test)]
mod tests;

pub use run::findings;

use std::collections::BTreeMap;

/// How a lint's findings are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported as warnings.
    Warn,
    /// Reported as errors.
    Error,
}

/// Every lint in the order messages list them, with its default level.
pub const LINTS: [(&str, Level); 8] = [
    ("unused-import", Level::Warn),
    ("shadowed-kind-name", Level::Warn),
    ("unused-let", Level::Warn),
    ("gated-assert", Level::Warn),
    ("gated-deny", Level::Warn),
    ("duplicate-invocation", Level::Warn),
    ("qualified-imports", Level::Off),
    ("path-matches-name", Level::Off),
];

/// The level of every lint for one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Levels(BTreeMap<&'static str, Level>);

/// A `lints` configuration that names an unknown lint or level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

impl Default for Levels {
    fn default() -> Self {
        Levels(LINTS.iter().copied().collect())
    }
}

impl Levels {
    /// The defaults changed by `config` (lint name → `off`, `warn` or
    /// `error`), checked in the order of its keys, sorted.
    pub fn configured<'c>(
        config: impl IntoIterator<Item = (&'c str, &'c str)>,
    ) -> Result<Levels, ConfigError> {
        let mut levels = Levels::default();
        let mut entries: Vec<(&str, &str)> = config.into_iter().collect();
        entries.sort_unstable();
        for (name, level) in entries {
            let Some(&(known, _)) = LINTS.iter().find(|(n, _)| *n == name) else {
                return Err(unknown_lint(name));
            };
            let level = match level {
                "off" => Level::Off,
                "warn" => Level::Warn,
                "error" => Level::Error,
                _ => {
                    return Err(ConfigError {
                        message: format!(
                            "lints: {name}: unknown level {}",
                            crate::diag::go_quote(level)
                        ),
                        help: "set a lint to off, warn or error".to_owned(),
                    });
                }
            };
            levels.0.insert(known, level);
        }
        Ok(levels)
    }

    /// The level of lint `name` (`Off` for a name that isn't a lint).
    pub fn of(&self, name: &str) -> Level {
        self.0.get(name).copied().unwrap_or(Level::Off)
    }
}

fn unknown_lint(name: &str) -> ConfigError {
    let names: Vec<&str> = LINTS.iter().map(|(n, _)| *n).collect();
    let list = format!("the lints are {}", names.join(", "));
    let help = match crate::diag::did_you_mean(name, names) {
        Some(near) => crate::diag::merge_help([near, list]),
        None => list,
    };
    ConfigError {
        message: format!("lints: unknown lint {}", crate::diag::go_quote(name)),
        help,
    }
}
