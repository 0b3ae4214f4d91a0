//! `longstraw`: who owns a key, what moves on a change, and how placements compare.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(longstraw_cli::app::main_with_args(std::env::args_os()))
}
