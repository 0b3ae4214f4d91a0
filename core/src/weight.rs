//! Weight validation (SPEC.md §5.1).

use crate::error::{Error, WeightError};

pub use crate::limits::{MAX_WEIGHT, MIN_WEIGHT};

/// Checks that `weight` is `+0.0` (the node is drained) or a normal f64 in
/// `[2^-64, 2^64]`. Nothing is rounded or clamped.
pub fn validate_weight(weight: f64) -> Result<f64, Error> {
    let reason = if weight.is_nan() {
        WeightError::NaN
    } else if weight.is_infinite() {
        WeightError::Infinite
    } else if weight.is_sign_negative() {
        WeightError::Negative
    } else if weight == 0.0 {
        return Ok(weight);
    } else if weight < MIN_WEIGHT {
        WeightError::TooSmall
    } else if weight > MAX_WEIGHT {
        WeightError::TooLarge
    } else {
        return Ok(weight);
    };
    Err(Error::InvalidWeight { weight, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_documented_range() {
        for w in [0.0, MIN_WEIGHT, 1e-9, 1.0, 3.5, 1e9, MAX_WEIGHT] {
            assert_eq!(validate_weight(w), Ok(w));
        }
    }

    #[test]
    fn rejects_everything_else() {
        let cases = [
            (f64::NAN, WeightError::NaN),
            (f64::INFINITY, WeightError::Infinite),
            (f64::NEG_INFINITY, WeightError::Infinite),
            (-1.0, WeightError::Negative),
            (-0.0, WeightError::Negative),
            (f64::from_bits(1), WeightError::TooSmall),
            (MIN_WEIGHT / 2.0, WeightError::TooSmall),
            (MAX_WEIGHT * 2.0, WeightError::TooLarge),
            (f64::MAX, WeightError::TooLarge),
        ];
        for (w, reason) in cases {
            match validate_weight(w) {
                Err(Error::InvalidWeight { reason: r, .. }) => assert_eq!(r, reason, "{w:?}"),
                other => panic!("{w:?} gave {other:?}"),
            }
        }
    }
}
