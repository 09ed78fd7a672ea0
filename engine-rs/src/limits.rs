//! How a module is compiled ([`ModuleConfig`]) and what bounds each instance ([`Limits`]).

use std::time::Duration;

use crate::error::{Error, Result};

/// How the module is compiled. Part of a precompiled artifact: loading needs the same config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ModuleConfig {
    /// Meters fuel, so [`crate::EvalOptions::fuel`] can bound a call. Default false.
    pub fuel: bool,
}

/// The bounds of one instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long past an evaluation's timeout the call may run before it is killed.
    pub grace: Duration,
    /// Hard deadline of ops without a timeout and of an evaluation without one; None for none.
    pub op_deadline: Option<Duration>,
    /// Most linear memory the instance may grow to, in bytes; the module needs about 8 MiB to start.
    pub max_memory: u64,
}

/// wasm32 linear memory can't be larger.
pub(crate) const MAX_MEMORY: u64 = 4 << 30;

impl Default for Limits {
    fn default() -> Self {
        Self {
            grace: Duration::from_millis(500),
            op_deadline: Some(Duration::from_secs(60)),
            max_memory: MAX_MEMORY,
        }
    }
}

impl Limits {
    pub(crate) fn validate(&self) -> Result<()> {
        if self.op_deadline == Some(Duration::ZERO) {
            return Err(Error::engine(
                "Limits::op_deadline must be positive, got 0 ms",
                "give a positive deadline, or None for no deadline",
            ));
        }
        if self.max_memory == 0 || self.max_memory > MAX_MEMORY {
            return Err(Error::engine(
                format!("Limits::max_memory must be between 1 byte and 4 GiB, got {} bytes", self.max_memory),
                "the module needs about 8 MiB to start; 4 GiB is the most a 32-bit module can address",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_documented_ones() {
        let limits = Limits::default();
        assert_eq!(limits.grace, Duration::from_millis(500));
        assert_eq!(limits.op_deadline, Some(Duration::from_secs(60)));
        assert_eq!(limits.max_memory, 4 << 30);
        assert!(!ModuleConfig::default().fuel);
    }

    #[test]
    fn a_zero_deadline_or_memory_out_of_range_is_refused() {
        let zero = Limits {
            op_deadline: Some(Duration::ZERO),
            ..Limits::default()
        };
        assert_eq!(
            zero.validate().unwrap_err().to_string(),
            "Limits::op_deadline must be positive, got 0 ms"
        );
        for bytes in [0, (4 << 30) + 1] {
            let memory = Limits {
                max_memory: bytes,
                ..Limits::default()
            };
            assert_eq!(
                memory.validate().unwrap_err().to_string(),
                format!("Limits::max_memory must be between 1 byte and 4 GiB, got {bytes} bytes")
            );
        }
        assert!(Limits {
            op_deadline: None,
            max_memory: 1,
            ..Limits::default()
        }
        .validate()
        .is_ok());
    }
}
