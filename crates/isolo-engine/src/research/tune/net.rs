//! Training the evaluation's small network (`eval::Net`) on top of fitted linear weights.
//!
//! The model predicts `sigmoid(K * (w . f) + v . relu(A (s * f) + b))`: the linear
//! weights `w` stay as fitted and the net learns the rest of the logit. Its output
//! weights `v` start at zero, so training starts from exactly the linear model, and the
//! net kept is the one with the lowest validation error after any epoch (none if no
//! epoch beats the linear model). Mini-batch Adam over the training samples in an order
//! shuffled from the seed, single-threaded: a run is reproducible bit for bit.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{as_floats, dot, sigmoid, Adam, Fit};
use crate::eval::net::{CompiledNet, MAX_HIDDEN};
use crate::eval::{Net, Weights, FEATURES};

/// How the net is trained.
#[derive(Clone, Debug)]
pub struct NetTraining {
    /// Hidden units (1..=`MAX_HIDDEN`).
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Seed of the starting weights and of the sample order.
    pub seed: u64,
}

/// Samples per Adam step.
const BATCH: usize = 256;
/// Adam's step size (the net's numbers are of order one: features are scaled to unit
/// spread, outputs are in units of the logit).
const NET_LEARNING_RATE: f64 = 1e-3;

/// How the net's training went.
#[derive(Clone, Debug)]
pub struct NetReport {
    /// Mean squared error on the training samples, linear weights alone.
    pub train_before: f64,
    /// The same with the net kept.
    pub train_after: f64,
    /// Mean squared error on the validation samples, linear weights alone.
    pub validation_before: f64,
    /// The same with the net kept.
    pub validation_after: f64,
    /// The epoch whose net was kept (0: none beat the linear weights).
    pub best_epoch: usize,
    /// Epochs trained (fewer than asked when the stop flag ended the training).
    pub epochs: usize,
}

/// The net's numbers while training: `v` in logit units.
struct Params {
    a: Vec<[f64; FEATURES]>,
    b: Vec<f64>,
    v: Vec<f64>,
}

impl Params {
    fn zeroed(hidden: usize) -> Params {
        Params {
            a: vec![[0.0; FEATURES]; hidden],
            b: vec![0.0; hidden],
            v: vec![0.0; hidden],
        }
    }

    /// Every number in one order (for Adam's moments).
    fn values_mut(&mut self) -> impl Iterator<Item = &mut f64> {
        self.a
            .iter_mut()
            .flat_map(|row| row.iter_mut())
            .chain(self.b.iter_mut())
            .chain(self.v.iter_mut())
    }
}

impl Fit {
    /// A net over `linear` (fitted at scale `k`), trained as `settings` say;
    /// `progress(epoch, validation error)` after each epoch. `None` when no epoch's net
    /// predicts the validation games better than the linear weights alone. Raising
    /// `stop` ends the training after the epoch under way (its net is judged too).
    pub(crate) fn train_net<'a>(
        &'a self,
        linear: &Weights,
        k: f64,
        settings: &NetTraining,
        progress: &mut dyn FnMut(usize, f64),
        stop: Option<&AtomicBool>,
    ) -> (Option<Net>, NetReport) {
        assert!((1..=MAX_HIDDEN).contains(&settings.hidden));
        let w = as_floats(linear);
        let scale = self.feature_scales();
        let prepare = |set: &'a [([f32; FEATURES], f32)]| -> Vec<Sample<'a>> {
            set.iter()
                .map(|(f, r)| Sample {
                    features: f,
                    base: k * dot(f, &w),
                    result: *r as f64,
                })
                .collect()
        };
        let (train, validation) = (prepare(&self.train), prepare(&self.validation));
        let mut rng = SmallRng::seed_from_u64(settings.seed);
        let mut params = Params::zeroed(settings.hidden);
        // Uniform starting weights of unit variance into each unit (He, for rectifiers).
        let bound = (6.0 / FEATURES as f64).sqrt();
        for row in &mut params.a {
            row.iter_mut()
                .for_each(|x| *x = rng.random_range(-bound..bound));
        }
        let numbers = settings.hidden * (FEATURES + 2);
        let mut adam = Adam::new(numbers, NET_LEARNING_RATE);
        let before = (error(&train, None, k), error(&validation, None, k));
        let (mut best, mut best_error, mut best_epoch) = (None, before.1, 0);
        let mut order: Vec<usize> = (0..train.len()).collect();
        let mut trained = 0;
        for epoch in 1..=settings.epochs {
            if crate::raised(stop) {
                break;
            }
            trained = epoch;
            order.shuffle(&mut rng);
            for batch in order.chunks(BATCH) {
                let samples = batch.iter().map(|&i| &train[i]);
                let mut gradient = batch_gradient(&params, &scale, samples);
                adam.step(params.values_mut(), gradient.values_mut().map(|g| *g));
            }
            let net = to_net(&params, &scale, k);
            let validation_error = error(&validation, Some(&net), k);
            progress(epoch, validation_error);
            if validation_error < best_error {
                (best, best_error, best_epoch) = (Some(net), validation_error, epoch);
            }
        }
        let report = NetReport {
            train_before: before.0,
            train_after: error(&train, best.as_ref(), k),
            validation_before: before.1,
            validation_after: best_error,
            best_epoch,
            epochs: trained,
        };
        (best, report)
    }

    /// One over each feature's standard deviation on the training samples (0 for a
    /// feature that never varies: the bias covers it).
    fn feature_scales(&self) -> [f64; FEATURES] {
        let n = self.train.len().max(1) as f64;
        std::array::from_fn(|i| {
            let mean = self.train.iter().map(|(f, _)| f[i] as f64).sum::<f64>() / n;
            let var = self
                .train
                .iter()
                .map(|(f, _)| (f[i] as f64 - mean).powi(2))
                .sum::<f64>()
                / n;
            if var > 1e-9 {
                1.0 / var.sqrt()
            } else {
                0.0
            }
        })
    }
}

/// The net a file stores: `v` turned from logit units into hundredths of a seed.
fn to_net(params: &Params, scale: &[f64; FEATURES], k: f64) -> Net {
    Net {
        scale: scale.iter().map(|&s| s as f32).collect(),
        input: params
            .a
            .iter()
            .map(|row| row.iter().map(|&x| x as f32).collect())
            .collect(),
        bias: params.b.iter().map(|&x| x as f32).collect(),
        output: params.v.iter().map(|&x| (x / k) as f32).collect(),
    }
}

/// A training position ready for the net: its features, the linear weights' logit, its
/// result.
struct Sample<'a> {
    features: &'a [f32; FEATURES],
    base: f64,
    result: f64,
}

/// Mean squared error of the predictions over `set`: with `net` evaluated as the
/// evaluator does (in hundredths of a seed, rounded), or the linear weights alone.
fn error(set: &[Sample], net: Option<&Net>, k: f64) -> f64 {
    let compiled = net.map(CompiledNet::new);
    let total: f64 = set
        .iter()
        .map(|s| {
            let extra = compiled.as_ref().map_or(0.0, |c| {
                let features = s.features.map(|f| f as i32);
                c.evaluate(&features).round() as f64
            });
            (sigmoid(s.base + k * extra) - s.result).powi(2)
        })
        .sum();
    total / set.len().max(1) as f64
}

/// The gradient of the summed squared error over `batch`, for every number of `params`.
fn batch_gradient<'a>(
    params: &Params,
    scale: &[f64; FEATURES],
    batch: impl Iterator<Item = &'a Sample<'a>>,
) -> Params {
    let hidden = params.v.len();
    let mut g = Params::zeroed(hidden);
    let mut z = vec![0.0; hidden];
    for s in batch {
        let x: [f64; FEATURES] = std::array::from_fn(|i| s.features[i] as f64 * scale[i]);
        let mut logit = s.base;
        for (zj, ((a, b), v)) in z
            .iter_mut()
            .zip(params.a.iter().zip(&params.b).zip(&params.v))
        {
            *zj = a.iter().zip(&x).map(|(a, x)| a * x).sum::<f64>() + b;
            logit += v * zj.max(0.0);
        }
        let p = sigmoid(logit);
        let d_logit = 2.0 * (p - s.result) * p * (1.0 - p);
        for (j, &zj) in z.iter().enumerate() {
            g.v[j] += d_logit * zj.max(0.0);
            if zj > 0.0 {
                let d_z = d_logit * params.v[j];
                g.b[j] += d_z;
                for (ga, xi) in g.a[j].iter_mut().zip(&x) {
                    *ga += d_z * xi;
                }
            }
        }
    }
    g
}
