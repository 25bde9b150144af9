//! A small neural network added to the linear evaluation (the `[net]` table of a weights
//! file): one hidden layer of rectified units over the same features,
//! `output . relu(input * (scale * features) + bias)` hundredths of a seed. It is
//! trained on top of fitted linear weights (`isolo-ai tune --net H`), so it learns only
//! what a weighted sum of the features misses.

use serde::{Deserialize, Serialize};

use super::{Features, FEATURES};

/// The most hidden units a net may have (each costs a dot product per evaluation).
pub(crate) const MAX_HIDDEN: usize = 64;

/// The largest magnitude of any number in a net: far beyond what training produces, and
/// small enough that no sum of them overflows a float.
pub(crate) const MAX_NET_VALUE: f32 = 1.0e6;

/// A net's numbers as stored in a weights file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Net {
    /// What each feature is multiplied by before the hidden layer (one per feature, in
    /// the order of `Features`).
    pub scale: Vec<f32>,
    /// One row per hidden unit: its weight on each scaled feature.
    pub input: Vec<Vec<f32>>,
    /// Each hidden unit's bias.
    pub bias: Vec<f32>,
    /// Each hidden unit's weight in the evaluation, in hundredths of a seed.
    pub output: Vec<f32>,
}

impl Net {
    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.output.len()
    }

    /// Checks the shapes and that every number is finite and within `±MAX_NET_VALUE`,
    /// naming the first problem.
    pub(crate) fn validate(&self) -> Result<(), super::InvalidWeights> {
        let hidden = self.hidden();
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(super::InvalidWeights(format!(
                "`net.output` has {hidden} weights; a net has 1..={MAX_HIDDEN} hidden units"
            )));
        }
        if self.scale.len() != FEATURES {
            return Err(super::InvalidWeights(format!(
                "`net.scale` has {} numbers; there are {FEATURES} features",
                self.scale.len()
            )));
        }
        for (name, len) in [("input", self.input.len()), ("bias", self.bias.len())] {
            if len != hidden {
                return Err(super::InvalidWeights(format!(
                    "`net.{name}` has {len} rows; `net.output` has {hidden} hidden units"
                )));
            }
        }
        if let Some(row) = self.input.iter().position(|r| r.len() != FEATURES) {
            return Err(super::InvalidWeights(format!(
                "`net.input[{row}]` has {} weights; there are {FEATURES} features",
                self.input[row].len()
            )));
        }
        let tables = [
            ("scale", &self.scale),
            ("bias", &self.bias),
            ("output", &self.output),
        ];
        let rows = self.input.iter().map(|r| ("input", r));
        for (name, values) in tables.into_iter().chain(rows) {
            if let Some(x) = values
                .iter()
                .find(|x| !x.is_finite() || x.abs() > MAX_NET_VALUE)
            {
                return Err(super::InvalidWeights(format!(
                    "`net.{name}` holds {x}: numbers must be finite and within ±{MAX_NET_VALUE}"
                )));
            }
        }
        Ok(())
    }

    /// The net as the TOML table `[net]`.
    pub fn to_toml(&self) -> String {
        let list = |v: &[f32]| {
            let items: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
            format!("[{}]", items.join(", "))
        };
        let mut out = String::from("\n[net]\n");
        out.push_str(&format!("scale = {}\n", list(&self.scale)));
        out.push_str(&format!("bias = {}\n", list(&self.bias)));
        out.push_str(&format!("output = {}\n", list(&self.output)));
        out.push_str("input = [\n");
        for row in &self.input {
            out.push_str(&format!("  {},\n", list(row)));
        }
        out.push_str("]\n");
        out
    }
}

/// A validated net laid out for evaluation: the scales folded into the input weights,
/// stored feature by feature so that one feature updates every hidden unit at once (the
/// sums run side by side, not one long chain of dependent additions per unit).
#[derive(Clone, Debug)]
pub(crate) struct CompiledNet {
    /// `input[i * hidden + j]`: feature `i`'s weight into unit `j`, times its scale.
    input: Vec<f32>,
    bias: Vec<f32>,
    output: Vec<f32>,
}

impl CompiledNet {
    /// `net` (validated) ready to evaluate.
    pub(crate) fn new(net: &Net) -> CompiledNet {
        let input = (0..FEATURES)
            .flat_map(|i| net.input.iter().map(move |row| row[i] * net.scale[i]))
            .collect();
        CompiledNet {
            input,
            bias: net.bias.clone(),
            output: net.output.clone(),
        }
    }

    /// The net's addition to the evaluation, in hundredths of a seed.
    pub(crate) fn evaluate(&self, features: &Features) -> f32 {
        // The shipped nets' width, fixed at compile time: the sums stay in registers.
        match self.bias.len() {
            16 => self.evaluate_fixed::<16>(features),
            _ => self.evaluate_any(features),
        }
    }

    /// `evaluate` for a net of `H` hidden units: the same operations in the same order
    /// (so the same value to the last bit) on arrays of known length.
    fn evaluate_fixed<const H: usize>(&self, features: &Features) -> f32 {
        let mut z: [f32; H] = self.bias[..H].try_into().expect("H hidden units");
        for (&f, column) in features.iter().zip(self.input.chunks_exact(H)) {
            if f != 0 {
                let x = f as f32;
                let column: &[f32; H] = column.try_into().expect("H weights a feature");
                for (z, w) in z.iter_mut().zip(column) {
                    *z += w * x;
                }
            }
        }
        z.iter()
            .zip(&self.output)
            .map(|(z, out)| out * z.max(0.0))
            .sum()
    }

    /// `evaluate` for a net of any width.
    fn evaluate_any(&self, features: &Features) -> f32 {
        let hidden = self.bias.len();
        let mut z = [0f32; MAX_HIDDEN];
        let z = &mut z[..hidden];
        z.copy_from_slice(&self.bias);
        let columns = self.input.chunks_exact(hidden);
        for (&f, column) in features.iter().zip(columns) {
            if f != 0 {
                let x = f as f32;
                z.iter_mut().zip(column).for_each(|(z, w)| *z += w * x);
            }
        }
        z.iter()
            .zip(&self.output)
            .map(|(z, out)| out * z.max(0.0))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Net {
        let mut scale = vec![0.0; FEATURES];
        scale[0] = 0.5;
        let mut row = vec![0.0; FEATURES];
        row[0] = 1.0;
        Net {
            scale,
            input: vec![row.clone(), row.iter().map(|w| -w).collect()],
            bias: vec![0.0, -1.0],
            output: vec![10.0, 100.0],
        }
    }

    #[test]
    fn a_net_of_a_fixed_width_evaluates_to_the_same_bits() {
        let mut net = tiny();
        let hidden = 16;
        net.bias = (0..hidden).map(|j| j as f32 * 0.37 - 2.0).collect();
        net.output = (0..hidden).map(|j| 1.5 - j as f32 * 0.21).collect();
        net.input = (0..hidden)
            .map(|j| {
                (0..FEATURES)
                    .map(|i| ((i * 7 + j * 3) % 11) as f32 * 0.13 - 0.6)
                    .collect()
            })
            .collect();
        net.scale = (0..FEATURES).map(|i| 0.5 + i as f32 * 0.01).collect();
        let compiled = CompiledNet::new(&net);
        let mut f = [0; FEATURES];
        for round in 0..50 {
            for (i, x) in f.iter_mut().enumerate() {
                *x = ((round * 13 + i * 5) % 9) as i32 - 4;
            }
            let fixed = compiled.evaluate_fixed::<16>(&f);
            assert_eq!(fixed.to_bits(), compiled.evaluate_any(&f).to_bits());
            assert_eq!(fixed.to_bits(), compiled.evaluate(&f).to_bits());
        }
    }

    #[test]
    fn a_net_is_a_sum_of_rectified_units() {
        let net = CompiledNet::new(&tiny());
        let mut f = [0; FEATURES];
        for (seeds, expected) in [(4, 20.0), (0, 0.0), (-6, 200.0)] {
            f[0] = seeds;
            assert_eq!(net.evaluate(&f), expected, "seeds {seeds}");
        }
    }

    #[test]
    fn bad_nets_are_named() {
        assert!(tiny().validate().is_ok());
        type Spoil = fn(&mut Net);
        let cases: [(Spoil, &str); 6] = [
            (|n| n.output.clear(), "1..=64 hidden units"),
            (
                |n| n.scale.pop().map(drop).unwrap_or(()),
                "`net.scale` has 27",
            ),
            (|n| n.bias.push(0.0), "`net.bias` has 3 rows"),
            (|n| n.input[1].push(0.0), "`net.input[1]` has 29"),
            (|n| n.output[0] = f32::NAN, "`net.output` holds NaN"),
            (|n| n.input[0][3] = 2.0e6, "`net.input` holds 2000000"),
        ];
        for (spoil, message) in cases {
            let mut net = tiny();
            spoil(&mut net);
            let error = net.validate().unwrap_err();
            assert!(error.message().contains(message), "{error}");
        }
    }
}
