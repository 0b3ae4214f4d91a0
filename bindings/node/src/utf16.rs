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

/// Appends the UTF-8 encoding of `units` to `out`, growing it fallibly.
/// On error, `out` keeps what it had plus possibly part of this string.
pub fn append_utf8(units: &[u16], out: &mut Vec<u8>) -> Result<(), Utf16Error> {
    if units.iter().all(|&u| u < 0x80) {
        reserve(out, units.len())?;
        out.extend(units.iter().map(|&u| u as u8));
        return Ok(());
    }
    // Every unit is at most 3 bytes (a surrogate pair: 2 units, 4 bytes).
    reserve(out, units.len().saturating_mul(3))?;
    let mut at = 0usize;
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) => {
                let mut utf8 = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                at += c.len_utf16();
            }
            Err(e) => {
                return Err(Utf16Error::LoneSurrogate {
                    at,
                    unit: e.unpaired_surrogate(),
                })
            }
        }
    }
    Ok(())
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
    fn lone_surrogates_are_found_where_they_are() {
        let cases: [(&[u16], usize, u16); 4] = [
            (&[0xD800], 0, 0xD800),
            (&[0x61, 0xDC00, 0x62], 1, 0xDC00),
            (&[0xD83D, 0xDE00, 0xD83D], 2, 0xD83D),
            (&[0xD83D, 0x61], 0, 0xD83D),
        ];
        for (units, want_at, want_unit) in cases {
            match append_utf8(units, &mut Vec::new()) {
                Err(Utf16Error::LoneSurrogate { at, unit }) => {
                    assert_eq!((at, unit), (want_at, want_unit), "{units:x?}")
                }
                _ => panic!("{units:x?} must be refused"),
            }
        }
    }
}
