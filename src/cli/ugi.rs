//! `isolo-ai ugi`: the engine over standard input and output, speaking UGI.

use std::sync::{Arc, Mutex};

use clap::Args;

use super::CliResult;
use isolo_engine::ugi;

#[derive(Args, Debug)]
pub(crate) struct UgiArgs {}

pub(crate) fn run(_args: &UgiArgs) -> CliResult {
    let out: ugi::Output = Arc::new(Mutex::new(std::io::stdout()));
    ugi::run(std::io::stdin().lock(), out);
    Ok(())
}
