//! A run's header: everything that defines it, and its fingerprint.

use super::*;

/// An engine as the header names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineEntry {
    /// The engine's label.
    pub label: String,
    /// Its spec without the label.
    pub spec: String,
}

/// The openings of a run: where they came from and the positions themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningsEntry {
    /// The `--openings` file, or `start`.
    pub source: String,
    /// The positions, in RULES.md notation.
    pub positions: Vec<String>,
}

/// Everything that defines a run, as the first line of its records file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The format version (`FORMAT_VERSION`).
    pub isolo_ai_records: u32,
    /// `match` or `tournament`.
    pub kind: String,
    /// The rules' name.
    pub variant: String,
    /// The complete rules as a rules file (not a path: a file can change or be absent).
    pub rules: String,
    /// The engines, indexed by `pairings`.
    pub engines: Vec<EngineEntry>,
    /// Engine indices of each pairing; the first is South in its even games.
    pub pairings: Vec<[usize; 2]>,
    /// Games of each pairing.
    pub games_per_pairing: u64,
    /// The opening positions.
    pub openings: OpeningsEntry,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// The master seed.
    pub seed: u64,
    /// The match's `--tc` (engines' own `tc=` are in their specs); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// How far past its clock a reply may come, in milliseconds; absent when no engine
    /// is on a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_margin_ms: Option<u64>,
    /// A digest of all the fields above (FNV-1a, 64 bits, hex): the run's fingerprint,
    /// the same in each of its shards.
    pub fingerprint: String,
    /// The share of the run's games this file holds (`K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl Header {
    /// The header of a run; its fingerprint is computed here.
    pub fn new(
        kind: &str,
        variant: &Variant,
        engines: &[EngineSpec],
        schedule: &Schedule,
        openings_source: &str,
        max_plies: usize,
    ) -> Header {
        let mut header = Header {
            isolo_ai_records: FORMAT_VERSION,
            kind: kind.to_string(),
            variant: variant.name().to_string(),
            rules: variant.rules().to_toml(),
            engines: engines
                .iter()
                .map(|e| EngineEntry {
                    label: e.label.clone(),
                    spec: e.text.clone(),
                })
                .collect(),
            pairings: schedule.pairings().iter().map(|&(a, b)| [a, b]).collect(),
            games_per_pairing: schedule.games_per_pairing(),
            openings: OpeningsEntry {
                source: openings_source.to_string(),
                positions: schedule
                    .openings()
                    .iter()
                    .map(|b| variant.format_position(b))
                    .collect(),
            },
            max_plies,
            seed: schedule.seed(),
            time_control: None,
            time_margin_ms: None,
            fingerprint: String::new(),
            shard: None,
        };
        header.fingerprint = header.digest();
        header
    }

    /// The same header with the match's clock settings: the `--tc`, and the margin when
    /// any engine is on a clock.
    pub fn with_clocks(
        mut self,
        time_control: Option<&crate::search::clock::TimeControl>,
        margin: Option<std::time::Duration>,
    ) -> Header {
        self.time_control = time_control.map(|t| t.to_string());
        self.time_margin_ms = margin.map(|m| m.as_millis() as u64);
        self.fingerprint = self.digest();
        self
    }

    /// The same header for one shard of the run, if any (its fingerprint stays the
    /// run's). A run given `--shard 1/1` is a shard too, so merge takes it.
    pub fn with_shard(mut self, shard: Option<Shard>) -> Header {
        self.shard = shard.map(|s| s.to_string());
        self
    }

    /// The engines' labels, in the header's order (the indices records name them by).
    pub fn labels(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.label.clone()).collect()
    }

    /// The shard the header names (the whole run when it names none).
    pub fn shard(&self) -> Result<Shard, RecordsError> {
        match &self.shard {
            None => Ok(Shard::WHOLE),
            Some(text) => text
                .parse()
                .map_err(|e| RecordsError::Header(format!("header shard: {e}"))),
        }
    }

    /// FNV-1a over the header's JSON with an empty fingerprint and no shard.
    pub(super) fn digest(&self) -> String {
        let mut unsigned = self.clone();
        unsigned.fingerprint.clear();
        unsigned.shard = None;
        fingerprint_of(&serde_json::to_string(&unsigned).expect("headers serialise"))
    }

    /// The header's line (no newline).
    pub(crate) fn to_line(&self) -> String {
        serde_json::to_string(self).expect("headers serialise")
    }

    /// The variant of the rules the header holds.
    pub fn variant(&self) -> Result<Variant, RecordsError> {
        let bad = |e: isolo_rules::RulesError| RecordsError::Header(format!("header rules: {e}"));
        let rules = Rules::from_toml(&self.rules, &self.variant).map_err(bad)?;
        Variant::new(rules).map_err(bad)
    }

    /// The schedule the header describes, checked against its variant.
    pub fn schedule(&self, variant: &Variant) -> Result<Schedule, RecordsError> {
        let openings = self
            .openings
            .positions
            .iter()
            .map(|p| variant.parse_position(p))
            .collect::<Result<Vec<Board>, _>>()
            .map_err(|e| RecordsError::Header(format!("header openings: {e}")))?;
        if openings.is_empty() {
            return Err(RecordsError::Header("header openings: none".into()));
        }
        if let Some(bad) = self
            .pairings
            .iter()
            .flatten()
            .find(|&&e| e >= self.engines.len())
        {
            return Err(RecordsError::Header(format!(
                "header pairings: no engine {bad}"
            )));
        }
        let pairings: Vec<(usize, usize)> = self.pairings.iter().map(|p| (p[0], p[1])).collect();
        Ok(
            Schedule::new(pairings, openings, self.games_per_pairing, self.seed)
                .with_shard(self.shard()?),
        )
    }

    /// Each way `file` (a header read back) differs from this run's header, named.
    pub fn differences(&self, file: &Header) -> Vec<String> {
        let mut out = Vec::new();
        let field = |out: &mut Vec<String>, name: &str, here: String, there: String| {
            if here != there {
                out.push(format!("{name}: {here} here, {there} in the file"));
            }
        };
        field(&mut out, "kind", self.kind.clone(), file.kind.clone());
        field(
            &mut out,
            "variant",
            self.variant.clone(),
            file.variant.clone(),
        );
        let rule_lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        let (here, there) = (rule_lines(&self.rules), rule_lines(&file.rules));
        for line in here.iter().filter(|l| !there.contains(l)) {
            let key = line.split(" = ").next().unwrap_or(line);
            let theirs = there
                .iter()
                .find(|l| l.split(" = ").next() == Some(key))
                .cloned()
                .unwrap_or_else(|| "absent".into());
            out.push(format!("rules: {line} here, {theirs} in the file"));
        }
        let engines = |h: &Header| {
            h.engines
                .iter()
                .map(|e| format!("{}={}", e.label, e.spec))
                .collect::<Vec<_>>()
                .join(" ")
        };
        field(&mut out, "engines", engines(self), engines(file));
        field(
            &mut out,
            "pairings",
            format!("{:?}", self.pairings),
            format!("{:?}", file.pairings),
        );
        field(
            &mut out,
            "games",
            self.games_per_pairing.to_string(),
            file.games_per_pairing.to_string(),
        );
        if self.openings.positions != file.openings.positions {
            out.push(format!(
                "openings: {} positions from {} here, {} from {} in the file (contents differ)",
                self.openings.positions.len(),
                self.openings.source,
                file.openings.positions.len(),
                file.openings.source
            ));
        }
        field(
            &mut out,
            "max-plies",
            self.max_plies.to_string(),
            file.max_plies.to_string(),
        );
        field(
            &mut out,
            "seed",
            self.seed.to_string(),
            file.seed.to_string(),
        );
        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
        field(
            &mut out,
            "tc",
            shown(&self.time_control),
            shown(&file.time_control),
        );
        let margin = |v: Option<u64>| shown(&v.map(|m| format!("{m} ms")));
        field(
            &mut out,
            "time-margin",
            margin(self.time_margin_ms),
            margin(file.time_margin_ms),
        );
        let shard = |v: &Option<String>| v.clone().unwrap_or_else(|| "whole run".into());
        field(&mut out, "shard", shard(&self.shard), shard(&file.shard));
        out
    }
}

/// A header's fingerprint: FNV-1a (64 bits, hex) over its JSON with an empty
/// fingerprint and no shard.
pub use crate::digest::fingerprint_of;
