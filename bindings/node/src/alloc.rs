//! Growing vectors whose size the caller chooses (key batches, node lists)
//! without aborting the process when memory runs out: a JavaScript `Error`
//! with code `ERR_LONGSTRAW_OUT_OF_MEMORY` instead.

use crate::error::{codes, JsErr, Kind, Res};

pub fn out_of_memory(what: &str, bytes: usize) -> JsErr {
    JsErr::new(
        Kind::Error,
        codes::OUT_OF_MEMORY,
        format!("out of memory: cannot allocate {bytes} bytes for {what}"),
    )
}

/// `v.push(x)`, growing fallibly.
pub fn push<T>(v: &mut Vec<T>, x: T, what: &str) -> Res<()> {
    if v.len() == v.capacity() {
        let more = v.len().max(16);
        v.try_reserve(more)
            .map_err(|_| out_of_memory(what, (v.len() + more).saturating_mul(std::mem::size_of::<T>())))?;
    }
    v.push(x);
    Ok(())
}

/// `v.extend_from_slice(items)`, growing fallibly.
pub fn extend<T: Copy>(v: &mut Vec<T>, items: &[T], what: &str) -> Res<()> {
    v.try_reserve(items.len())
        .map_err(|_| out_of_memory(what, (v.len() + items.len()).saturating_mul(std::mem::size_of::<T>())))?;
    v.extend_from_slice(items);
    Ok(())
}

/// `vec![value; len]`, allocated fallibly.
pub fn filled<T: Copy>(len: usize, value: T, what: &str) -> Res<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| out_of_memory(what, len.saturating_mul(std::mem::size_of::<T>())))?;
    v.resize(len, value);
    Ok(v)
}
