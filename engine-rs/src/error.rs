//! The crate's one error type: what failed, and whether the instance can still be used.
//!
//! A failed evaluation is not an error: it is an [`crate::EvalResult`] whose `error` is set.

use std::fmt;
use std::time::Duration;

use crate::records::Diagnostic;

/// What a call of the crate can fail with.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An op answered `ok: false`, a kind broke a rule, or a request could not be encoded.
    /// The instance still works.
    Engine(EngineError),
    /// The module trapped or exited, or a call came after it did. The instance is stopped.
    Stopped(StoppedError),
    /// A call was killed at its hard deadline (the duration). The instance is stopped.
    Timeout(Duration),
    /// A call used up its fuel. The instance is stopped.
    OutOfFuel,
    /// A [`crate::Pool`] holds no policy of this name.
    NoPolicy(String),
    /// Every instance of a [`crate::Pool`] stayed busy for this long.
    Busy(Duration),
}

/// An op's failure, with the module's message, help and the diagnostics that stopped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    /// What failed.
    pub message: String,
    /// How to fix it; empty when nothing is known.
    pub help: String,
    /// Problems in the documents that stopped the op.
    pub diagnostics: Vec<Diagnostic>,
}

/// Why an instance stopped; its message quotes the first and last lines of the module's stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoppedError {
    /// What happened.
    pub message: String,
    /// What to do.
    pub help: String,
}

impl EngineError {
    /// An error of the crate's own (no diagnostics).
    pub fn new(message: impl Into<String>, help: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            help: help.into(),
            diagnostics: Vec::new(),
        }
    }
}

impl Error {
    pub(crate) fn engine(message: impl Into<String>, help: impl Into<String>) -> Self {
        Error::Engine(EngineError::new(message, help))
    }

    /// True for [`Error::Stopped`], [`Error::Timeout`] and [`Error::OutOfFuel`]: the instance that
    /// returned it can't be used again.
    pub fn is_stopped(&self) -> bool {
        matches!(
            self,
            Error::Stopped(_) | Error::Timeout(_) | Error::OutOfFuel
        )
    }

    /// The diagnostics of an [`Error::Engine`]; empty for the other variants.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Engine(e) => &e.diagnostics,
            _ => &[],
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            Error::Engine(e) => e.help.clone(),
            Error::Stopped(e) => e.help.clone(),
            Error::Timeout(_) => {
                "raise the deadline, or look for a policy loop over a large input or a host \
                                  function that blocks; build a new instance to go on"
                    .into()
            }
            Error::OutOfFuel => "raise the call's fuel limit; build a new instance to go on".into(),
            Error::NoPolicy(_) => {
                "install it with Pool::install or Pool::compile before evaluating it".into()
            }
            Error::Busy(_) => "the pool is saturated: raise its size or shed load".into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Engine(e) => e.fmt(f),
            Error::Stopped(e) => e.fmt(f),
            Error::Timeout(d) => write!(
                f,
                "the call ran past its hard deadline of {} ms and was killed; the instance is stopped",
                d.as_millis()
            ),
            Error::OutOfFuel => f.write_str("the call ran out of fuel and was stopped; the instance is stopped"),
            Error::NoPolicy(name) => write!(f, "the pool has no policy named {name}"),
            Error::Busy(d) => write!(f, "every instance of the pool stayed busy for {d:?}"),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        for d in &self.diagnostics {
            write!(f, "\n  {}", d.render())?;
        }
        Ok(())
    }
}

impl fmt::Display for StoppedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
impl std::error::Error for EngineError {}
impl std::error::Error for StoppedError {}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Self {
        Error::Engine(e)
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic() -> Diagnostic {
        Diagnostic {
            severity: "error".into(),
            lint: None,
            file: Some("a.sigil".into()),
            document: None,
            message: "unknown field `x`".into(),
            help: Some("did you mean `y`?".into()),
            line: 3,
            column: 7,
        }
    }

    #[test]
    fn only_the_three_stopping_variants_are_stopped() {
        assert!(Error::Stopped(StoppedError {
            message: "m".into(),
            help: "h".into()
        })
        .is_stopped());
        assert!(Error::Timeout(Duration::from_millis(5)).is_stopped());
        assert!(Error::OutOfFuel.is_stopped());
        assert!(!Error::engine("m", "h").is_stopped());
        assert!(!Error::NoPolicy("p".into()).is_stopped());
        assert!(!Error::Busy(Duration::from_millis(1)).is_stopped());
    }

    #[test]
    fn an_engine_error_lists_its_diagnostics_after_the_message() {
        let error = Error::Engine(EngineError {
            message: "the policy does not compile".into(),
            help: String::new(),
            diagnostics: vec![diagnostic()],
        });
        assert_eq!(
            error.to_string(),
            "the policy does not compile\n  a.sigil:3:7: error: unknown field `x` (help: did you mean `y`?)"
        );
        assert_eq!(error.diagnostics(), &[diagnostic()]);
        assert!(Error::OutOfFuel.diagnostics().is_empty());
    }

    #[test]
    fn every_variant_says_what_failed_and_what_to_do() {
        let cases = [
            (Error::Timeout(Duration::from_millis(1500)), "the call ran past its hard deadline of 1500 ms and was killed; the instance is stopped"),
            (Error::OutOfFuel, "the call ran out of fuel and was stopped; the instance is stopped"),
            (Error::NoPolicy("refunds".into()), "the pool has no policy named refunds"),
            (Error::Busy(Duration::from_millis(20)), "every instance of the pool stayed busy for 20ms"),
            (Error::Stopped(StoppedError { message: "the Sigil module stopped".into(), help: "h".into() }), "the Sigil module stopped"),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
            assert!(!error.help().is_empty(), "{error:?} has no help");
        }
    }
}
