//! `isolo-ai variants`: the presets and named readings, one rules set in full as TOML, or
//! in plain words.

use clap::Args;

use super::{emit, CliResult};
use isolo_rules::{Rules, PRESETS, READINGS};

#[derive(Args, Debug)]
pub(crate) struct VariantsArgs {
    /// Print the complete rules of a preset or rules file as TOML
    #[arg(long, value_name = "NAME|FILE", conflicts_with = "explain")]
    pub show: Option<String>,
    /// Tell the rules of a preset or rules file in plain words, a sentence each (the web
    /// page's How to play)
    #[arg(long, value_name = "NAME|FILE")]
    pub explain: Option<String>,
}

pub(crate) fn run(args: &VariantsArgs) -> CliResult {
    if let Some(spec) = &args.show {
        let rules = Rules::load(spec)?;
        return emit(&rules.to_toml());
    }
    if let Some(spec) = &args.explain {
        let rules = Rules::load(spec)?;
        let told: String = rules
            .how_to_play()
            .iter()
            .enumerate()
            .map(|(i, sentence)| format!("{}. {sentence}\n", i + 1))
            .collect();
        return emit(&format!("{}: {}\n\n{told}", rules.name(), rules.summary()));
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
