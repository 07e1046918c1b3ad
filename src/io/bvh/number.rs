//! Number parsing for the hot path: a correctly rounded fast path for plain decimals, `str::parse` otherwise.

/// Exact powers of ten representable in an f64 (10^0 … 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Fast path for the plain decimals BVH files are made of (`-12.3456`, `.0083`, `7`): when the digits form an
/// integer below 2^53 and there are at most 22 decimals, `digits / 10^decimals` is one correctly rounded IEEE
/// division of two exact values (Clinger's fast path), so the result equals `str::parse`. Anything else
/// (exponents, long mantissas, `inf`) returns `None` and takes the general path.
#[inline]
fn parse_plain_decimal(text: &[u8]) -> Option<f64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, text.get(1..)?),
        Some(b'+') => (false, text.get(1..)?),
        _ => (false, text),
    };
    let mut mantissa: u64 = 0;
    let mut decimals: usize = 0;
    let mut seen_point = false;
    let mut seen_digit = false;
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
                seen_digit = true;
                if seen_point {
                    decimals += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => return None,
        }
    }
    if !seen_digit || mantissa >= (1u64 << 53) {
        return None;
    }
    let v = mantissa as f64 / POW10.get(decimals)?;
    Some(if negative { -v } else { v })
}

/// Parses a finite number (`str::parse::<f64>` semantics; `nan` and `inf` are rejected).
#[inline]
pub(crate) fn parse_finite(text: &[u8]) -> Option<f64> {
    if let Some(v) = parse_plain_decimal(text) {
        return Some(v);
    }
    let s = std::str::from_utf8(text).ok()?;
    let v: f64 = s.parse().ok()?;
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_path_equals_std_parse() {
        let cases = [
            "0",
            "-0",
            "17",
            "-17.3198",
            ".0083333",
            "9.3722",
            "1.",
            "-.5",
            "+3.25",
            "123456789012345",
            "0.1",
            "0.30000000000000004",
            "1e5",
            "-2.5E-3",
            "9007199254740993",
            "0.0000000000000000000000001",
        ];
        for c in cases {
            let ours = parse_finite(c.as_bytes());
            let std: Option<f64> = c.parse().ok();
            assert_eq!(ours.map(f64::to_bits), std.map(f64::to_bits), "{c}");
        }
        for bad in [
            "",
            "-",
            ".",
            "1.2.3",
            "nan",
            "inf",
            "-infinity",
            "1,5",
            "0x10",
            "--1",
        ] {
            assert_eq!(parse_finite(bad.as_bytes()), None, "{bad}");
        }
        // Random plain decimals: bit-identical to the standard library.
        let mut seed = 12345u64;
        for _ in 0..20000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let digits = (seed >> 40) % 10_000_000_000;
            let decimals = ((seed >> 20) % 12) as usize;
            let s = format!("{}", digits);
            let s = if decimals < s.len() {
                format!("{}.{}", &s[..s.len() - decimals], &s[s.len() - decimals..])
            } else {
                format!("0.{}{}", "0".repeat(decimals - s.len()), s)
            };
            let ours = parse_finite(s.as_bytes()).map(f64::to_bits);
            assert_eq!(ours, s.parse::<f64>().ok().map(f64::to_bits), "{s}");
        }
    }
}
