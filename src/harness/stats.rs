//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, and a
//! sequential probability ratio test on game pairs (pentanomial model).

/// The expected score of a side `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (0..1): infinite at 0 and 1, where no finite
/// difference explains the result.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Elo estimate with a 95% confidence interval, from wins, draws and losses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// Likelihood of superiority: the chance the first side is the stronger, from W and L.
    pub los: f64,
}

/// The score's maximum-likelihood Elo and the Wilson score interval for the score,
/// mapped to Elo. Wilson's interval stays honest at the extremes, where the normal
/// approximation collapses to a point (4-0 would be +2400..+2400): 4-0 gives +7..+inf.
/// It treats a draw as half a win, which makes it a little wide when games are drawn.
pub fn elo_estimate(wins: u32, draws: u32, losses: u32) -> EloEstimate {
    let games = (wins + draws + losses) as f64;
    if games == 0.0 {
        return EloEstimate {
            elo: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            los: 0.5,
        };
    }
    let score = (wins as f64 + 0.5 * draws as f64) / games;
    const Z: f64 = 1.959_964;
    let shrink = 1.0 + Z * Z / games;
    let centre = (score + Z * Z / (2.0 * games)) / shrink;
    let half = Z / shrink * (score * (1.0 - score) / games + Z * Z / (4.0 * games * games)).sqrt();
    let decisive = (wins + losses) as f64;
    let los = if decisive == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt()))
    };
    // At 0% and 100% one end is exactly the extreme (rounding would make it finite).
    let low = if score == 0.0 { 0.0 } else { centre - half };
    let high = if score == 1.0 { 1.0 } else { centre + half };
    EloEstimate {
        elo: elo_from_score(score),
        low: elo_from_score(low),
        high: elo_from_score(high),
        los,
    }
}

/// Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

const PSEUDO_PAIRS: f64 = 0.25;

/// SPRT settings: H0 says the Elo difference is `elo0`, H1 says `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// A test of H0 (`elo0`) against H1 (`elo1`) with error rates `alpha` (accepting H1
    /// when H0 holds) and `beta`: both strictly between 0 and 1, and elo0 below elo1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 1.0) {
                return Err(format!(
                    "{name} must be between 0 and 1 (exclusive), not {rate}"
                ));
            }
        }
        if !(elo0.is_finite() && elo1.is_finite()) {
            return Err("elo0 and elo1 must be finite".into());
        }
        if elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err("elo0 and elo1 must be within -1000..1000".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// H1 accepted: the first engine is stronger by about `elo1`.
    H1,
    /// H0 accepted.
    H0,
}

impl Sprt {
    /// Lower and upper log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 from game-pair counts: `pairs[k]` is the
    /// number of pairs in which the first engine scored `k / 2` points (k = 0..=4).
    /// Uses the normal approximation of the pair scores (the generalised SPRT that
    /// fastchess and OpenBench use).
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        if pairs.iter().sum::<u32>() < 2 {
            return 0.0;
        }
        // A quarter of a pseudo-pair in every bin keeps the variance positive when all
        // pairs end alike (a one-sided match would otherwise never stop).
        let counts = pairs.map(|c| c as f64 + PSEUDO_PAIRS);
        let n: f64 = counts.iter().sum();
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = counts.iter().zip(scores).map(|(c, s)| c * s).sum::<f64>() / n;
        let variance = counts
            .iter()
            .zip(scores)
            .map(|(c, s)| c * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let (mu0, mu1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * variance)
    }

    pub fn verdict(&self, pairs: &[u32; 5]) -> SprtVerdict {
        let llr = self.llr(pairs);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtVerdict::H1
        } else if llr <= low {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_simple_scores() {
        // 75% is 400 * log10(3) = 190.85 Elo.
        assert!(close(elo_from_score(0.75), 190.848, 0.01));
        assert!(close(elo_from_score(0.5), 0.0, 1e-9));
        assert!(close(expected_score(190.848), 0.75, 1e-5));
        let estimate = elo_estimate(6, 4, 2);
        // score 8/12 = 2/3 -> 400*log10(2) = 120.41 Elo.
        assert!(close(estimate.elo, 120.412, 0.01));
        // Wilson, n = 12, z = 1.96: centre (2/3 + z^2/24) / (1 + z^2/12) = 0.62625, half
        // width z / (1 + z^2/12) * sqrt((2/9)/12 + z^2/576) = 0.23563: 0.39062..0.86188.
        assert!(
            close(estimate.low, elo_from_score(0.390_62), 0.1),
            "{estimate:?}"
        );
        assert!(
            close(estimate.high, elo_from_score(0.861_88), 0.1),
            "{estimate:?}"
        );
        // LOS with W=6, L=2: 0.5 * (1 + erf(4 / sqrt(16))) = 0.5 * (1 + erf(1)) = 0.92135.
        assert!(close(estimate.los, 0.921_350, 1e-5));
    }

    #[test]
    fn intervals_stay_honest_at_the_extremes() {
        let sweep = elo_estimate(4, 0, 0);
        assert_eq!(sweep.elo, f64::INFINITY);
        assert_eq!(sweep.high, f64::INFINITY);
        // Wilson's lower end for 4/4: (1 + z^2/8 - z^2/8) / (1 + z^2/4) = 0.5102.
        assert!(close(sweep.low, elo_from_score(0.510_2), 0.5), "{sweep:?}");
        assert!(sweep.low > 0.0 && sweep.low < 20.0, "{sweep:?}");
        let lost = elo_estimate(0, 0, 4);
        assert_eq!((lost.elo, lost.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(close(lost.high, -sweep.low, 1e-9), "{lost:?}");
        let even = elo_estimate(1, 0, 1);
        assert_eq!(even.elo, 0.0);
        assert!(even.low < -100.0 && even.high > 100.0, "{even:?}");
        assert!(close(even.low, -even.high, 1e-9));
        let long = elo_estimate(100, 0, 0);
        assert!(long.low > 500.0 && long.high == f64::INFINITY, "{long:?}");
        let none = elo_estimate(0, 0, 0);
        assert_eq!((none.low, none.high), (f64::NEG_INFINITY, f64::INFINITY));
        // Draws alone: 50%, with an interval that is not a point.
        let drawn = elo_estimate(0, 10, 0);
        assert_eq!(drawn.elo, 0.0);
        assert!(drawn.high > 100.0, "{drawn:?}");
    }

    #[test]
    fn sprt_needs_sane_parameters() {
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.05).is_ok());
        for (elo0, elo1, alpha, beta) in [
            (0.0, 10.0, 2.0, 0.05),
            (0.0, 10.0, 0.05, 0.0),
            (0.0, 10.0, 1.0, 0.05),
            (0.0, 10.0, -0.1, 0.05),
            (10.0, 0.0, 0.05, 0.05),
            (5.0, 5.0, 0.05, 0.05),
            (0.0, f64::INFINITY, 0.05, 0.05),
            (f64::NAN, 10.0, 0.05, 0.05),
            (0.0, 10.0, f64::NAN, 0.05),
        ] {
            assert!(
                Sprt::new(elo0, elo1, alpha, beta).is_err(),
                "{elo0} {elo1} {alpha} {beta}"
            );
        }
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (low, high) = sprt.bounds();
        assert!(close(low, -2.944_439, 1e-5) && close(high, 2.944_439, 1e-5));
        // 100 pairs: 10 x 0, 20 x 0.5, 40 x 1, 20 x 1.5, 10 x 2 points: mean 0.5,
        // pair scores 0, .25, .5, .75, 1 with a quarter pseudo-pair each: n 101.25, mean
        // 0.5, variance (10.25*.25*2 + 20.25*.0625*2)/101.25 = 0.0756173; LLR -0.13858.
        let pairs = [10, 20, 40, 20, 10];
        let (mu0, mu1) = (0.5, expected_score(10.0));
        let variance = (10.25 * 0.25 * 2.0 + 20.25 * 0.0625 * 2.0) / 101.25;
        let expected = 101.25 * (mu1 - mu0) * (1.0 - mu0 - mu1) / (2.0 * variance);
        assert!(close(sprt.llr(&pairs), expected, 1e-9));
        assert!(close(sprt.llr(&pairs), -0.138_578, 1e-5));
        assert!(sprt.llr(&pairs) < 0.0);
        assert_eq!(sprt.verdict(&pairs), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(&[0, 10, 100, 300, 300]), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&[300, 300, 100, 10, 0]), SprtVerdict::H0);
        // A one-sided match still decides.
        assert_eq!(sprt.verdict(&[0, 0, 0, 0, 60]), SprtVerdict::H1);
        assert_eq!(sprt.verdict(&[0, 0, 0, 0, 1]), SprtVerdict::Continue);
    }
}
