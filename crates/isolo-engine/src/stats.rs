//! Match statistics: Elo from pentanomial pair outcomes with a 95% interval and LOS, the
//! generalized SPRT, and maximum-likelihood ratings for tournaments.
//!
//! Sources of the formulas:
//! - Pentanomial model (games in colour-reversed pairs, each pair scoring 0, 1/2, 1, 3/2
//!   or 2): M. Van den Bergh, "pentanomial" (github.com/vdbergh/pentanomial), as used by
//!   fishtest and fastchess. The pair score, normalised to [0, 1], has mean `mu` and
//!   variance `var` from the five frequencies; the mean's standard error is
//!   `sqrt(var / pairs)`.
//! - Logistic Elo: `elo = -400 log10(1 / mu - 1)`; the interval maps `mu +- 1.96 se`.
//! - LOS = Phi((mu - 1/2) / se), the normal approximation of the likelihood of
//!   superiority.
//! - GSPRT: Van den Bergh, "Computing the log likelihood ratio for the GSPRT"
//!   (hardy.uhasselt.be/Toga/computeLLR.pdf): `LLR = N (LL(p, p1) - LL(p, p0))`, where
//!   `p_s` is the maximum-likelihood distribution on the five outcomes with expectation
//!   `s` (Proposition 1.1, solved by Newton's method) and `s0`, `s1` are the scores of
//!   `elo0`, `elo1`. Empty outcome classes get a small prior first (as fishtest does).
//!   Bounds: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)` (Wald).
//! - Ratings: Bradley-Terry maximum likelihood by Hunter's MM algorithm ("MM algorithms
//!   for generalized Bradley-Terry models", 2004), a draw counting half a win each way;
//!   95% intervals from the inverse of the observed Fisher information, with the anchor
//!   (or the mean) fixed.

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Counts of pair outcomes for the first engine: `[LL, LD, WL+DD, WD, WW]`.
pub type Pentanomial = [u64; 5];

/// The Wilson 95% interval of a rate `p` observed over `n` trials (`[0, 1]` without
/// trials). For a score with draws (points per game) it is conservative: a draw varies
/// less than a win or a loss, so the true interval is narrower.
pub(crate) fn wilson_interval(p: f64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The score (0..=1) of a logistic Elo difference.
pub(crate) fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of a score (infinite at 0 and 1).
pub(crate) fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The standard normal distribution function.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (W. J. Cody's rational Chebyshev approximation as
/// given in Numerical Recipes, `erfcc`; relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Elo, its 95% interval and LOS from pair outcomes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Complete colour-reversed pairs counted.
    pub pairs: u64,
    /// Mean score per game.
    pub score: f64,
    /// Infinite when one engine won every game.
    pub elo: f64,
    /// The 95% interval (a bound is infinite where the score's interval reaches 0 or 1).
    pub elo_ci95: [f64; 2],
    /// Likelihood of superiority: the chance the first engine is the stronger.
    pub los: f64,
    /// Why the interval means little, when it does.
    pub caveat: Option<EloCaveat>,
}

/// Why an Elo interval cannot be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EloCaveat {
    /// Every pair scored the same: the spread is zero, so no interval can be given.
    AllPairsAlike,
    /// One engine took every point: the difference has no finite estimate.
    OneSided,
}

impl EloCaveat {
    /// A sentence for the user.
    pub fn describe(&self) -> &'static str {
        match self {
            EloCaveat::AllPairsAlike => {
                "every pair scored the same, so the games give no interval (play more, from more openings)"
            }
            EloCaveat::OneSided => {
                "one engine took every point, so the difference has no finite estimate"
            }
        }
    }
}

/// The mean and variance of the normalised pair score (0, 1/4, 1/2, 3/4, 1) over the
/// pairs counted in `p` (which must not be all zero).
pub(crate) fn pair_mean_and_variance(p: &Pentanomial) -> (f64, f64) {
    const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
    let n = p.iter().sum::<u64>() as f64;
    let mu = p
        .iter()
        .zip(PAIR_SCORES)
        .map(|(&c, v)| c as f64 * v)
        .sum::<f64>()
        / n;
    let var = p
        .iter()
        .zip(PAIR_SCORES)
        .map(|(&c, v)| c as f64 * (v - mu).powi(2))
        .sum::<f64>()
        / n;
    (mu, var)
}

/// The pentanomial Elo estimate (`None` without pairs).
pub fn elo_estimate(p: &Pentanomial) -> Option<EloEstimate> {
    let pairs: u64 = p.iter().sum();
    if pairs == 0 {
        return None;
    }
    let n = pairs as f64;
    let (mu, var) = pair_mean_and_variance(p);
    let se = (var / n).sqrt();
    let los = if se > 0.0 {
        normal_cdf((mu - 0.5) / se)
    } else if mu > 0.5 {
        1.0
    } else if mu < 0.5 {
        0.0
    } else {
        0.5
    };
    let bound = |s: f64| elo_of_score(s.clamp(0.0, 1.0));
    let caveat = if mu <= 0.0 || mu >= 1.0 {
        Some(EloCaveat::OneSided)
    } else if var == 0.0 {
        Some(EloCaveat::AllPairsAlike)
    } else {
        None
    };
    Some(EloEstimate {
        pairs,
        score: mu,
        elo: bound(mu),
        elo_ci95: [bound(mu - Z95 * se), bound(mu + Z95 * se)],
        los,
        caveat,
    })
}

/// A GSPRT on pair outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// The verdict of an SPRT so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtVerdict {
    /// `elo >= elo1` accepted.
    H1,
    /// `elo <= elo0` accepted.
    H0,
    /// Neither yet: play on.
    Continue,
}

/// The SPRT's state for the results so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtState {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The log-likelihood ratio so far.
    pub llr: f64,
    /// The bound at which H0 is accepted.
    pub lower: f64,
    /// The bound at which H1 is accepted.
    pub upper: f64,
    /// The verdict so far.
    pub verdict: SprtVerdict,
}

/// The largest Elo difference an SPRT's bounds may name: a score of 99.7%, past which
/// the model's likelihoods underflow (and infinite or NaN bounds make no test).
pub const SPRT_MOST_ELO: f64 = 1000.0;

/// The smallest error rate an SPRT takes: below it (a subnormal number, say) the
/// bounds' logarithms grow without use and, at the extreme, become infinite, so that a
/// hypothesis could never be accepted.
pub const SPRT_LEAST_ERROR: f64 = 1e-9;

message_error! {
    /// An SPRT's bounds that do not parse or make no test (`elo0 >= elo1`, an error rate
    /// outside 0..0.5).
    SprtError
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let numbers: Vec<f64> = parts.iter().filter_map(|p| p.parse().ok()).collect();
        if parts.len() != 4 || numbers.len() != 4 {
            return Err(SprtError(format!(
                "expected elo0,elo1,alpha,beta (four numbers), found '{text}'"
            )));
        }
        let sprt = Sprt {
            elo0: numbers[0],
            elo1: numbers[1],
            alpha: numbers[2],
            beta: numbers[3],
        };
        let elo_range = -SPRT_MOST_ELO..=SPRT_MOST_ELO;
        if !(elo_range.contains(&sprt.elo0) && elo_range.contains(&sprt.elo1)) {
            return Err(SprtError(format!(
                "elo0 and elo1 must be numbers from -{SPRT_MOST_ELO} to {SPRT_MOST_ELO}, found '{}'",
                isolo_rules::quote(text)
            )));
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(SprtError(format!(
                "elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            )));
        }
        let errors = SPRT_LEAST_ERROR..0.5;
        if !(errors.contains(&sprt.alpha) && errors.contains(&sprt.beta)) {
            return Err(SprtError(format!(
                "alpha and beta must lie from {SPRT_LEAST_ERROR:e} up to 0.5, found '{}'",
                isolo_rules::quote(text)
            )));
        }
        Ok(sprt)
    }

    /// The log-likelihood ratio at which H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The log-likelihood ratio at which H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for the pair outcomes.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let total: u64 = p.iter().sum();
        if total == 0 {
            return 0.0;
        }
        let counts = with_prior(p);
        let n: f64 = counts.iter().sum();
        let pdf: Vec<(f64, f64)> = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / 4.0, c / n))
            .collect();
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (log_likelihood(&pdf, &mle(&pdf, s1)) - log_likelihood(&pdf, &mle(&pdf, s0)))
    }

    /// The test's state after the pair outcomes `p`.
    pub fn state(&self, p: &Pentanomial) -> SprtState {
        let llr = self.llr(p);
        let verdict = if llr >= self.upper() {
            SprtVerdict::H1
        } else if llr <= self.lower() {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        };
        SprtState {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            llr,
            lower: self.lower(),
            upper: self.upper(),
            verdict,
        }
    }
}

/// Frequencies with a small prior mixed in where a class is empty, so the likelihoods
/// stay finite (the regularisation of fishtest's LLR computation).
fn with_prior(p: &Pentanomial) -> [f64; 5] {
    const EPSILON: f64 = 1e-3;
    let n: f64 = p.iter().sum::<u64>() as f64;
    let mut out = p.map(|c| c as f64);
    if p.contains(&0) {
        for c in &mut out {
            *c = *c * (1.0 - EPSILON / n) + EPSILON / 5.0;
        }
    }
    out
}

/// The maximum-likelihood distribution on the same outcomes with expectation `s`:
/// `q_i = p_i / (1 + x (a_i - s))`, with `x` solving `sum p_i (a_i - s) / (1 + x (a_i -
/// s)) = 0` (Newton's method kept inside the interval where every `q_i` is positive).
fn mle(pdf: &[(f64, f64)], s: f64) -> Vec<(f64, f64)> {
    const TOLERANCE: f64 = 1e-12;
    const MAX_STEPS: usize = 200;
    let (lowest, highest) = (pdf[0].0, pdf[pdf.len() - 1].0);
    let (lo, hi) = (-1.0 / (highest - s), 1.0 / (s - lowest));
    let f = |x: f64| {
        pdf.iter()
            .map(|&(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum::<f64>()
    };
    let df = |x: f64| {
        -pdf.iter()
            .map(|&(a, p)| p * (a - s).powi(2) / (1.0 + x * (a - s)).powi(2))
            .sum::<f64>()
    };
    let mut x = 0.0;
    for _ in 0..MAX_STEPS {
        let fx = f(x);
        if fx == 0.0 {
            break;
        }
        let previous = x;
        x -= fx / df(x);
        if x <= lo {
            x = (10.0 * lo + previous) / 11.0;
        } else if x >= hi {
            x = (10.0 * hi + previous) / 11.0;
        }
        if (x - previous).abs() < TOLERANCE {
            break;
        }
    }
    pdf.iter()
        .map(|&(a, p)| (a, p / (1.0 + x * (a - s))))
        .collect()
}

fn log_likelihood(pdf: &[(f64, f64)], model: &[(f64, f64)]) -> f64 {
    pdf.iter()
        .zip(model)
        .map(|(&(_, p), &(_, q))| p * q.ln())
        .sum()
}

/// A tournament result between two players: points for `a` out of `games`.
#[derive(Clone, Copy, Debug)]
pub struct PairResult {
    /// The first player's index.
    pub a: usize,
    /// The second player's index.
    pub b: usize,
    /// Points of `a` (win 1, draw 1/2).
    pub points: f64,
    /// Games between them.
    pub games: f64,
}

/// A rating with its 95% interval half-width.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating, in Elo.
    pub elo: f64,
    /// The half-width of its 95% interval.
    pub ci95: f64,
}

/// Bradley-Terry maximum-likelihood ratings (logistic Elo). With `anchor`, that player
/// is fixed at 0; otherwise the mean is 0. Players who won or lost everything get no
/// finite maximum: their rating stops `RATING_SPAN` from the strongest's.
pub fn ratings(players: usize, results: &[PairResult], anchor: Option<usize>) -> Vec<Rating> {
    const STEPS: usize = 10_000;
    const TOLERANCE: f64 = 1e-10;
    // Far wider than any ladder of real players (the strength levels span some 4700
    // Elo from random to the top): a narrower bound would squeeze finite ratings too.
    const RATING_SPAN: f64 = 10_000.0;
    let mut strength = vec![1.0f64; players];
    let wins: Vec<f64> = (0..players)
        .map(|i| {
            results
                .iter()
                .map(|r| {
                    if r.a == i {
                        r.points
                    } else if r.b == i {
                        r.games - r.points
                    } else {
                        0.0
                    }
                })
                .sum()
        })
        .collect();
    let floor = 10f64.powf(-RATING_SPAN / 400.0);
    for _ in 0..STEPS {
        let mut change = 0.0f64;
        for i in 0..players {
            let denominator: f64 = results
                .iter()
                .filter(|r| r.a == i || r.b == i)
                .map(|r| {
                    let other = if r.a == i { r.b } else { r.a };
                    r.games / (strength[i] + strength[other])
                })
                .sum();
            if denominator > 0.0 {
                let updated = (wins[i] / denominator)
                    .max(floor * strength.iter().cloned().fold(0.0, f64::max));
                change = change.max((updated / strength[i]).ln().abs());
                strength[i] = updated;
            }
        }
        let mean_log = strength.iter().map(|s| s.ln()).sum::<f64>() / players as f64;
        for s in &mut strength {
            *s = (s.ln() - mean_log).exp();
        }
        if change < TOLERANCE {
            break;
        }
    }
    let elo: Vec<f64> = strength.iter().map(|s| 400.0 * s.log10()).collect();
    let shift = anchor
        .map(|a| elo[a])
        .unwrap_or_else(|| elo.iter().sum::<f64>() / players as f64);
    let ci = rating_intervals(players, results, &strength, anchor);
    elo.iter()
        .zip(ci)
        .map(|(&e, c)| Rating {
            elo: e - shift,
            ci95: c,
        })
        .collect()
}

/// 95% half-widths from the inverse observed information of the log-likelihood in Elo
/// units, with one player (the anchor, or the first) held fixed.
fn rating_intervals(
    players: usize,
    results: &[PairResult],
    strength: &[f64],
    anchor: Option<usize>,
) -> Vec<f64> {
    let scale = 10f64.ln() / 400.0;
    let mut info = vec![vec![0.0; players]; players];
    for r in results {
        let p = strength[r.a] / (strength[r.a] + strength[r.b]);
        let w = r.games * p * (1.0 - p) * scale * scale;
        info[r.a][r.a] += w;
        info[r.b][r.b] += w;
        info[r.a][r.b] -= w;
        info[r.b][r.a] -= w;
    }
    if players == 0 {
        return Vec::new();
    }
    let fixed = anchor.unwrap_or(0);
    let free: Vec<usize> = (0..players).filter(|&i| i != fixed).collect();
    let reduced: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| free.iter().map(|&j| info[i][j]).collect())
        .collect();
    let Some(inverse) = invert(reduced) else {
        return vec![f64::INFINITY; players];
    };
    let mut out = vec![0.0; players];
    for (k, &i) in free.iter().enumerate() {
        out[i] = Z95 * inverse[k][k].max(0.0).sqrt();
    }
    if anchor.is_none() {
        // Without an anchor the spread is shared: report each player's interval against
        // the fixed reference as an upper bound of its interval against the mean.
        out[fixed] = out.iter().cloned().fold(0.0, f64::max);
    }
    out
}

/// Gauss-Jordan inversion with partial pivoting (`None` if singular).
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| (i == j) as u8 as f64).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-15 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let d = m[col][col];
        for j in 0..n {
            m[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            if row != col {
                let factor = m[row][col];
                for j in 0..n {
                    m[row][j] -= factor * m[col][j];
                    inv[row][j] -= factor * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_matches_say_why_they_have_no_interval() {
        let alike = elo_estimate(&[0, 0, 5, 0, 0]).unwrap();
        assert_eq!(alike.caveat, Some(EloCaveat::AllPairsAlike));
        let one_sided = elo_estimate(&[0, 0, 0, 0, 4]).unwrap();
        assert_eq!(one_sided.caveat, Some(EloCaveat::OneSided));
        assert!(one_sided.elo.is_infinite() && one_sided.elo > 0.0);
        let spread = elo_estimate(&[1, 2, 5, 3, 2]).unwrap();
        assert_eq!(spread.caveat, None);
        assert!(spread.elo_ci95[0] < spread.elo && spread.elo < spread.elo_ci95[1]);
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_and_interval_from_pentanomial_counts() {
        // 50 pairs [0, 5, 10, 20, 15]: mu = 36.25 / 50 = 0.725, var = 0.055625,
        // se = sqrt(0.055625 / 50) = 0.0333542; Elo = -400 log10(1/0.725 - 1) = 168.40;
        // interval 0.725 -+ 0.0653727 -> [114.93, 230.55].
        let e = elo_estimate(&[0, 5, 10, 20, 15]).unwrap();
        assert!(close(e.score, 0.725, 1e-12));
        assert!(close(e.elo, 168.40, 0.01), "{}", e.elo);
        assert!(close(e.elo_ci95[0], 114.93, 0.02), "{:?}", e.elo_ci95);
        assert!(close(e.elo_ci95[1], 230.55, 0.02), "{:?}", e.elo_ci95);
        assert!(e.los > 0.999_999);
    }

    #[test]
    fn symmetric_results_are_even() {
        let e = elo_estimate(&[5, 10, 20, 10, 5]).unwrap();
        assert!(close(e.elo, 0.0, 1e-9) && close(e.los, 0.5, 1e-7));
        assert!(close(e.elo_ci95[0], -e.elo_ci95[1], 1e-9));
        assert_eq!(elo_estimate(&[0; 5]), None);
    }

    #[test]
    fn normal_cdf_matches_tables() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158655, 1e-6));
    }

    #[test]
    fn llr_agrees_with_the_normal_approximation_when_results_are_many() {
        // For many pairs the GSPRT LLR approaches N (s1 - s0)(2 mu - s0 - s1) / (2 var)
        // (Van den Bergh's approximation): here 1000 pairs [60, 210, 420, 230, 80].
        let p = [60, 210, 420, 230, 80];
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let n = 1000.0;
        let (mu, var) = pair_mean_and_variance(&p);
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(10.0));
        let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
        let llr = sprt.llr(&p);
        assert!(
            close(llr, approx, 0.02 * approx.abs().max(0.1)),
            "{llr} vs {approx}"
        );
        // mu = 515 / 1000, var = 62.275 / 1000, s1 = L(10) = 0.5143868:
        // approx = 1000 * 0.0143868 * (1.03 - 1.0143868) / 0.12455 = 1.8035.
        assert!(close(mu, 0.515, 1e-12) && close(var, 0.062275, 1e-12));
        assert!(close(approx, 1.8035, 0.001), "{approx}");
        assert_eq!(sprt.state(&p).verdict, SprtVerdict::Continue);
        // Twice the pairs, the same shares: the LLR doubles and passes the upper bound.
        let doubled = p.map(|c| 2 * c);
        assert!(close(sprt.llr(&doubled), 2.0 * llr, 1e-6));
        assert_eq!(sprt.state(&doubled).verdict, SprtVerdict::H1);
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        let sprt = Sprt::parse("0,5,0.05,0.05").unwrap();
        assert!(close(sprt.lower(), -2.944439, 1e-6) && close(sprt.upper(), 2.944439, 1e-6));
        assert_eq!(sprt.state(&[0; 5]).verdict, SprtVerdict::Continue);
        assert_eq!(sprt.state(&[200, 100, 50, 10, 5]).verdict, SprtVerdict::H0);
        assert!(Sprt::parse("5,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,5,0.05").is_err());
        assert!(Sprt::parse("0,5,0.7,0.05").is_err());
        // Bounds that make no test: infinite, NaN, or past the model's reach.
        for bounds in [
            "0,inf,0.05,0.05",
            "NaN,5,0.05,0.05",
            "0,5,NaN,0.05",
            "-5000,0,0.05,0.05",
            "0,10,1e-320,0.05",
            "0,10,0.05,5e-324",
        ] {
            assert!(Sprt::parse(bounds).is_err(), "{bounds}");
        }
        let least = Sprt::parse("0,10,1e-9,1e-9").unwrap();
        assert!(least.upper().is_finite() && least.lower().is_finite());
    }

    #[test]
    fn ratings_of_a_wide_ladder_are_not_squeezed() {
        // Eight steps of 97% (about 600 Elo each): some 4800 Elo from bottom to top.
        let results: Vec<PairResult> = (0..8)
            .map(|i| PairResult {
                a: i + 1,
                b: i,
                points: 970.0,
                games: 1000.0,
            })
            .collect();
        let r = ratings(9, &results, Some(0));
        let step = elo_of_score(0.97);
        for (i, rating) in r.iter().enumerate() {
            let expected = step * i as f64;
            assert!(
                (rating.elo - expected).abs() < 1.0,
                "{i}: {rating:?}, {expected}"
            );
        }
    }

    #[test]
    fn ratings_recover_a_known_difference() {
        // a scores 76% against b: exactly 400 log10(0.76/0.24) = 200.24 Elo.
        let results = [PairResult {
            a: 0,
            b: 1,
            points: 76.0,
            games: 100.0,
        }];
        let r = ratings(2, &results, Some(1));
        assert!(close(r[0].elo, 200.24, 0.05), "{:?}", r);
        assert_eq!(r[1].elo, 0.0);
        // The interval: se of the score sqrt(0.76 * 0.24 / 100) in Elo.
        let slope = 400.0 / 10f64.ln() / (0.76 * 0.24);
        let expected = Z95 * (0.76f64 * 0.24 / 100.0).sqrt() * slope;
        assert!(
            close(r[0].ci95, expected, 0.5),
            "{} vs {expected}",
            r[0].ci95
        );
    }

    #[test]
    fn ratings_of_a_transitive_round_robin() {
        // a beats b 60-40 and b beats c 60-40, a beats c 69-31 (consistent strengths).
        let results = [
            PairResult {
                a: 0,
                b: 1,
                points: 60.0,
                games: 100.0,
            },
            PairResult {
                a: 1,
                b: 2,
                points: 60.0,
                games: 100.0,
            },
            PairResult {
                a: 0,
                b: 2,
                points: 69.23,
                games: 100.0,
            },
        ];
        let r = ratings(3, &results, None);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
        assert!(close(r[0].elo + r[1].elo + r[2].elo, 0.0, 1e-6));
        assert!(close(r[0].elo - r[1].elo, 70.4, 1.5), "{:?}", r);
    }
}
