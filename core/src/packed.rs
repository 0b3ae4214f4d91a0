//! The packed layout for a batch of keys (SPEC.md §8).

use crate::error::Error;

/// A batch of keys: all key bytes concatenated, and `count + 1` offsets.
///
/// Key `i` is `bytes[offsets[i]..offsets[i + 1]]`. Offsets must be
/// non-decreasing and the last must not exceed `bytes.len()`; `offsets[0]`
/// need not be 0. An empty batch is `offsets = [x]` or `offsets = []`.
/// The same layout is used by the C batch call, Node's zero-copy batch and
/// Python's buffer batch.
#[derive(Clone, Copy, Debug)]
pub struct PackedKeys<'a, O = u64> {
    bytes: &'a [u8],
    offsets: &'a [O],
}

/// An integer type usable as a packed-key offset.
pub trait KeyOffset: Copy {
    /// The offset as a `usize`, or `None` if it does not fit.
    fn to_usize(self) -> Option<usize>;
}

impl KeyOffset for u32 {
    #[inline(always)]
    fn to_usize(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

impl KeyOffset for u64 {
    #[inline(always)]
    fn to_usize(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

impl KeyOffset for usize {
    #[inline(always)]
    fn to_usize(self) -> Option<usize> {
        Some(self)
    }
}

impl<'a, O: KeyOffset> PackedKeys<'a, O> {
    /// Validates the layout once, so iteration never has to.
    pub fn new(bytes: &'a [u8], offsets: &'a [O]) -> Result<Self, Error> {
        let mut prev = 0usize;
        for (at, off) in offsets.iter().enumerate() {
            let off = off.to_usize().ok_or(Error::BadOffsets { at })?;
            if off > bytes.len() || (at > 0 && off < prev) {
                return Err(Error::BadOffsets { at });
            }
            prev = off;
        }
        Ok(PackedKeys { bytes, offsets })
    }

    /// How many keys the batch holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether the batch holds no keys.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key `i`, or `None` past the end.
    #[inline]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        let start = self.offsets.get(i)?.to_usize()?;
        let end = self.offsets.get(i + 1)?.to_usize()?;
        self.bytes.get(start..end)
    }

    /// The keys in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        let bytes = self.bytes;
        self.offsets.windows(2).map(move |w| {
            // Validated in `new`: in bounds and non-decreasing.
            let (s, e) = (w[0].to_usize().unwrap_or(0), w[1].to_usize().unwrap_or(0));
            bytes.get(s..e).unwrap_or(&[])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_keys() {
        let bytes = b"abcde";
        let offsets: [u32; 4] = [0, 2, 2, 5];
        let p = PackedKeys::new(bytes, &offsets).unwrap();
        assert_eq!(p.len(), 3);
        let keys: [&[u8]; 3] = [b"ab", b"", b"cde"];
        assert!(p.iter().eq(keys.iter().copied()));
        assert_eq!(p.get(2), Some(&b"cde"[..]));
        assert_eq!(p.get(3), None);
    }

    #[test]
    fn rejects_bad_offsets() {
        assert_eq!(
            PackedKeys::new(b"ab", &[0u64, 3]).unwrap_err(),
            Error::BadOffsets { at: 1 }
        );
        assert_eq!(
            PackedKeys::new(b"ab", &[2u64, 1]).unwrap_err(),
            Error::BadOffsets { at: 1 }
        );
        assert!(PackedKeys::<u64>::new(b"", &[]).unwrap().is_empty());
    }
}
