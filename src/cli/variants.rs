//! `isolo-ai variants`: the presets and named readings, or one rules set in full as TOML.

use clap::Args;

use super::{emit, CliResult};
use isolo_rules::{Rules, PRESETS, READINGS};

#[derive(Args, Debug)]
pub struct VariantsArgs {
    /// Print the complete rules of a preset or rules file as TOML
    #[arg(long, value_name = "NAME|FILE")]
    pub show: Option<String>,
}

pub fn run(args: &VariantsArgs) -> CliResult {
    if let Some(spec) = &args.show {
        let rules = Rules::load(spec)?;
        return emit(&rules.to_toml());
    }
    let mut out = String::new();
    for name in PRESETS {
        let rules = Rules::preset(name).expect("presets load");
        out.push_str(&format!("{name:<12} {}\n", rules.summary()));
    }
    out.push_str("\nreadings (the Isolo presets with capture_ends_move = true, Ikibuguzo's first opening, Igisoro with the retreat):\n");
    for name in READINGS {
        let rules = Rules::preset(name).expect("readings load");
        out.push_str(&format!("{name:<25} {}\n", rules.summary()));
    }
    emit(&out)
}
