//! Keys as lines: read in chunks of whole lines, worked on by every core,
//! written back in input order, in memory that does not grow with the input.
//!
//! A key is the bytes of one line without its line ending (`\n`, or `\r\n`:
//! one `\r` before the `\n` is dropped). Nothing else is changed: no
//! trimming and no decoding, so keys that are not UTF-8 are fine. An empty
//! line is the empty key. A last line without a line ending is a key too.

use std::io::{self, Read, Write};

use indicatif::ProgressBar;

/// Bytes read per chunk; each worker takes one chunk per round.
const CHUNK: usize = 1 << 20;

/// The longest line (a key, without its line ending) any subcommand reads: 16 MiB.
pub const MAX_LINE: usize = 1 << 24;

/// The error for line `line` (1-based) when it is longer than `limit` bytes.
fn too_long(line: u64, limit: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "line {line}: longer than the limit of {limit} bytes ({} MiB) for one key; keys are one per line",
            limit >> 20
        ),
    )
}

/// The keys of a chunk of whole lines.
pub fn lines(chunk: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut rest = chunk;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    })
}

/// How many worker threads to use: every core.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Reads `input` in chunks of whole lines and calls `work(chunk, state, out)`
/// for each on `states.len()` threads, one state per thread. Whatever `work`
/// writes to `out` is written to `sink` in input order. Memory is bounded by
/// the chunk size plus [`MAX_LINE`], times the thread count: a longer line is
/// an [`io::ErrorKind::InvalidData`] error that names its line number.
/// Returns the bytes read.
pub fn for_each_chunk<S, R, W, F>(
    input: R,
    states: &mut [S],
    sink: &mut W,
    progress: &ProgressBar,
    work: F,
) -> io::Result<u64>
where
    S: Send,
    R: Read,
    W: Write,
    F: Fn(&[u8], &mut S, &mut Vec<u8>) + Sync,
{
    for_each_chunk_limited(input, MAX_LINE, states, sink, progress, work)
}

/// [`for_each_chunk`] with another line-length limit (for tests).
pub fn for_each_chunk_limited<S, R, W, F>(
    mut input: R,
    limit: usize,
    states: &mut [S],
    sink: &mut W,
    progress: &ProgressBar,
    work: F,
) -> io::Result<u64>
where
    S: Send,
    R: Read,
    W: Write,
    F: Fn(&[u8], &mut S, &mut Vec<u8>) + Sync,
{
    let workers = states.len().max(1);
    let mut bufs: Vec<Vec<u8>> = (0..workers).map(|_| Vec::with_capacity(CHUNK + 4096)).collect();
    let mut outs: Vec<Vec<u8>> = (0..workers).map(|_| Vec::new()).collect();
    let mut carry: Vec<u8> = Vec::new();
    let mut total = 0u64;
    let mut lines_done = 0u64;
    let mut eof = false;
    while !eof {
        let mut filled = 0;
        for buf in bufs.iter_mut() {
            buf.clear();
            buf.append(&mut carry);
            let start = buf.len();
            buf.resize(start + CHUNK, 0);
            let mut end = start;
            while end < buf.len() {
                let n = match input.read(&mut buf[end..]) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if n == 0 {
                    eof = true;
                    break;
                }
                end += n;
            }
            buf.truncate(end);
            total += (end - start) as u64;
            let cut = if eof {
                buf.len()
            } else {
                // Keep the partial last line for the next chunk (all of it
                // when a line is longer than a chunk: a key is never split).
                memchr::memrchr(b'\n', buf).map_or(0, |i| i + 1)
            };
            // Every line of this chunk, and the partial one carried on, within the limit.
            let mut start_of_line = 0;
            for end_of_line in memchr::memchr_iter(b'\n', &buf[..cut]).chain([buf.len()]) {
                let line = &buf[start_of_line..end_of_line];
                let len = line.len() - usize::from(line.last() == Some(&b'\r'));
                if len > limit {
                    return Err(too_long(lines_done + 1, limit));
                }
                if end_of_line < buf.len() {
                    lines_done += 1;
                }
                start_of_line = end_of_line + 1;
            }
            if !eof {
                carry.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
            }
            filled += 1;
            if eof {
                break;
            }
        }
        let chunks = &bufs[..filled];
        if filled == 1 {
            outs[0].clear();
            work(&chunks[0], &mut states[0], &mut outs[0]);
        } else {
            std::thread::scope(|s| {
                for ((chunk, state), out) in chunks.iter().zip(states.iter_mut()).zip(outs.iter_mut()) {
                    let work = &work;
                    s.spawn(move || {
                        out.clear();
                        work(chunk, state, out);
                    });
                }
            });
        }
        for out in &outs[..filled] {
            sink.write_all(out)?;
        }
        progress.set_position(total);
    }
    debug_assert!(carry.is_empty(), "the last chunk takes the rest");
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunking never splits or merges a key, whatever the line lengths, and keeps input order.
    #[test]
    fn chunks_give_the_same_keys_as_one_split() {
        let mut input = Vec::new();
        let mut state = 7u64;
        for i in 0..200_000u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = (state >> 58) as usize;
            input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, len));
            input.push(b'\n');
            if i == 100_000 {
                input.extend(std::iter::repeat_n(b'z', 3 * CHUNK / 2)); // a key longer than a chunk
                input.extend_from_slice(b"\r\n");
            }
        }
        input.extend_from_slice(b"no-newline-at-end");
        let expected: Vec<u8> = lines(&input).flat_map(|k| k.iter().copied().chain([b'\n'])).collect();
        let mut states = vec![0usize; 2];
        let mut out = Vec::new();
        let read = for_each_chunk(
            input.as_slice(),
            &mut states,
            &mut out,
            &ProgressBar::hidden(),
            |chunk, n, out| {
                for key in lines(chunk) {
                    *n += 1;
                    out.extend_from_slice(key);
                    out.push(b'\n');
                }
            },
        )
        .unwrap();
        assert_eq!(read, input.len() as u64);
        assert_eq!(states.iter().sum::<usize>(), 200_002);
        assert!(out == expected, "chunked keys differ from one split");
    }
}
