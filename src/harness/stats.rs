//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, and a
//! sequential probability ratio test on game pairs (pentanomial model).

/// The expected score of a side `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (0..1), clamped away from the infinities.
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / score - 1.0).log10()
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
    let variance = (wins as f64 * (1.0 - score).powi(2)
        + draws as f64 * (0.5 - score).powi(2)
        + losses as f64 * score.powi(2))
        / games;
    let margin = 1.959_964 * (variance / games).sqrt();
    let decisive = (wins + losses) as f64;
    let los = if decisive == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt()))
    };
    EloEstimate {
        elo: elo_from_score(score),
        low: elo_from_score(score - margin),
        high: elo_from_score(score + margin),
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
        // per-game variance: (6*(1/3)^2 + 4*(1/6)^2 + 2*(2/3)^2)/12 = 5/36; the mean's
        // standard error sqrt(5/36/12); the interval -30.79..+342.09 Elo.
        let margin = 1.959964 * (5.0f64 / 432.0).sqrt();
        assert!(close(
            estimate.low,
            elo_from_score(2.0 / 3.0 - margin),
            1e-6
        ));
        assert!(close(
            estimate.high,
            elo_from_score(2.0 / 3.0 + margin),
            1e-6
        ));
        assert!(close(estimate.low, -30.788, 0.01) && close(estimate.high, 342.085, 0.01));
        // LOS with W=6, L=2: 0.5 * (1 + erf(4 / sqrt(16))) = 0.5 * (1 + erf(1)) = 0.92135.
        assert!(close(estimate.los, 0.921_350, 1e-5));
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
