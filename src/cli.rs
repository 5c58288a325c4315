//! The `miauc` command line.

use std::process::ExitCode;

/// Run `miauc` with the process arguments.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
