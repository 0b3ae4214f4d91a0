//! UTF-8 from a string's UTF-16 code units.
//!
//! Node-API's UTF-8 reader measures the whole string (`Utf8Length`), then
//! walks it character by character (`WriteUtf8`), and replaces a lone
//! surrogate with U+FFFD, which then had to be told apart from a real U+FFFD.
//! Its UTF-16 reader is a length (stored in the string) and a copy. Under
//! `perf`, `Utf8Length` + `WriteUtf8` were 19% of `owners(string[])`; the
//! units also show a lone surrogate exactly, where it is.

/// Why a string has no UTF-8 encoding here.
pub enum Utf16Error {
    /// An unpaired surrogate `unit` at UTF-16 index `at`.
    LoneSurrogate { at: usize, unit: u16 },
    /// The output could not grow by `bytes`.
    OutOfMemory { bytes: usize },
}

/// The most UTF-8 bytes one UTF-16 unit becomes (a surrogate pair: 2 units, 4 bytes).
pub const MAX_UTF8_PER_UNIT: usize = 3;

/// Appends the UTF-8 encoding of `units` to `out`, growing it fallibly.
/// On error, `out` is as it was.
pub fn append_utf8(units: &[u16], out: &mut Vec<u8>) -> Result<(), Utf16Error> {
    if units.iter().all(|&u| u < 0x80) {
        reserve(out, units.len())?;
        out.extend(units.iter().map(|&u| u as u8));
        return Ok(());
    }
    let start = out.len();
    reserve(out, units.len().saturating_mul(MAX_UTF8_PER_UNIT))?;
    // Byte by byte into the reserved room (a copy call per character was
    // most of the time under `perf`).
    let mut at = 0usize;
    while at < units.len() {
        let u = units[at];
        if u < 0x80 {
            out.push(u as u8);
        } else if u < 0x800 {
            out.extend([0xC0 | (u >> 6) as u8, 0x80 | (u & 0x3F) as u8]);
        } else if !(0xD800..0xE000).contains(&u) {
            out.extend([
                0xE0 | (u >> 12) as u8,
                0x80 | ((u >> 6) & 0x3F) as u8,
                0x80 | (u & 0x3F) as u8,
            ]);
        } else {
            let Some(c) = pair(u, units.get(at + 1).copied()) else {
                out.truncate(start);
                return Err(Utf16Error::LoneSurrogate { at, unit: u });
            };
            out.extend([
                0xF0 | (c >> 18) as u8,
                0x80 | ((c >> 12) & 0x3F) as u8,
                0x80 | ((c >> 6) & 0x3F) as u8,
                0x80 | (c & 0x3F) as u8,
            ]);
            at += 1;
        }
        at += 1;
    }
    Ok(())
}

/// The code point of a high surrogate `high` followed by the low surrogate `next`.
fn pair(high: u16, next: Option<u16>) -> Option<u32> {
    let low = next.filter(|l| (0xDC00..0xE000).contains(l))?;
    (high < 0xDC00).then(|| 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00))
}

/// Writes the UTF-8 encoding of `units` to the start of `out`, which must
/// hold `MAX_UTF8_PER_UNIT` bytes per unit; returns how many it wrote.
pub fn encode(units: &[u16], out: &mut [u8]) -> Result<usize, Utf16Error> {
    assert!(out.len() >= units.len().saturating_mul(MAX_UTF8_PER_UNIT));
    let mut at = 0usize;
    let mut w = 0usize;
    while at < units.len() {
        let u = units[at];
        if u < 0x80 {
            out[w] = u as u8;
            w += 1;
        } else if u < 0x800 {
            out[w] = 0xC0 | (u >> 6) as u8;
            out[w + 1] = 0x80 | (u & 0x3F) as u8;
            w += 2;
        } else if !(0xD800..0xE000).contains(&u) {
            out[w] = 0xE0 | (u >> 12) as u8;
            out[w + 1] = 0x80 | ((u >> 6) & 0x3F) as u8;
            out[w + 2] = 0x80 | (u & 0x3F) as u8;
            w += 3;
        } else {
            let Some(c) = pair(u, units.get(at + 1).copied()) else {
                return Err(Utf16Error::LoneSurrogate { at, unit: u });
            };
            out[w] = 0xF0 | (c >> 18) as u8;
            out[w + 1] = 0x80 | ((c >> 12) & 0x3F) as u8;
            out[w + 2] = 0x80 | ((c >> 6) & 0x3F) as u8;
            out[w + 3] = 0x80 | (c & 0x3F) as u8;
            w += 4;
            at += 1;
        }
        at += 1;
    }
    Ok(w)
}

fn reserve(out: &mut Vec<u8>, more: usize) -> Result<(), Utf16Error> {
    out.try_reserve(more).map_err(|_| Utf16Error::OutOfMemory {
        bytes: out.len().saturating_add(more),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8_of(s: &str) -> Vec<u8> {
        let units: Vec<u16> = s.encode_utf16().collect();
        let mut out = b"prefix".to_vec();
        assert!(append_utf8(&units, &mut out).is_ok());
        out
    }

    #[test]
    fn matches_rusts_utf8_for_every_width() {
        for s in [
            "",
            "plain ascii",
            "é",
            "€uro",
            "😀 pair",
            "a\u{fffd}b",
            "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        ] {
            assert_eq!(utf8_of(s), [b"prefix".as_slice(), s.as_bytes()].concat(), "{s:?}");
        }
        let long: String = "ключ-键-😀-".repeat(500);
        assert_eq!(utf8_of(&long)[6..], *long.as_bytes());
    }

    #[test]
    fn every_code_point_encodes_as_rust_does() {
        let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
        assert_eq!(utf8_of(&all)[6..], *all.as_bytes());
    }

    #[test]
    fn lone_surrogates_are_found_where_they_are() {
        let cases: [(&[u16], usize, u16); 4] = [
            (&[0xD800], 0, 0xD800),
            (&[0x61, 0xDC00, 0x62], 1, 0xDC00),
            (&[0xD83D, 0xDE00, 0xD83D], 2, 0xD83D),
            (&[0xD83D, 0x61], 0, 0xD83D),
        ];
        for (units, want_at, want_unit) in cases {
            let mut out = b"kept".to_vec();
            let result = append_utf8(units, &mut out);
            assert_eq!(out, b"kept", "{units:x?}");
            match result {
                Err(Utf16Error::LoneSurrogate { at, unit }) => {
                    assert_eq!((at, unit), (want_at, want_unit), "{units:x?}")
                }
                _ => panic!("{units:x?} must be refused"),
            }
        }
    }
}
