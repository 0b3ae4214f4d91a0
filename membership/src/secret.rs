//! Reading a keyed set's secret from the source its file names (docs/MEMBERSHIP.md).
//!
//! The source holds the 16-byte secret as 32 hexadecimal digits (surrounding
//! white space, such as a final newline, is ignored), so that the same text
//! works in a file and in an environment variable. No error here ever quotes
//! the content: a message names the source and what is wrong with its shape.
//! A secret file may be a pipe (read once, until its writer closes it).

use longstraw::Secret;

use crate::model::SecretSource;

/// The secret `source` holds, or a message (without the content) saying why not.
pub(crate) fn read(source: &SecretSource) -> Result<Secret, String> {
    read_with(source, crate::input::read_secret_file)
}

/// [`read`], with a secret file read by `read_file` (a message on failure).
pub(crate) fn read_with(
    source: &SecretSource,
    read_file: impl FnOnce(&std::path::Path) -> Result<Vec<u8>, String>,
) -> Result<Secret, String> {
    let text = match source {
        SecretSource::File(path) => read_file(path)?,
        SecretSource::Env(var) => std::env::var_os(var)
            .ok_or_else(|| format!("environment variable {var} is not set"))?
            .into_encoded_bytes(),
        SecretSource::Unnamed => return Err("the set's secret source is not known".into()),
    };
    let digits = text.trim_ascii();
    if digits.len() != 2 * longstraw::SECRET_LEN || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(format!(
            "{} must hold the secret as {} hexadecimal digits (it holds {} bytes that are not)",
            source.describe(),
            2 * longstraw::SECRET_LEN,
            digits.len()
        ));
    }
    let mut bytes = [0u8; longstraw::SECRET_LEN];
    for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = (hex_value(pair[0]) << 4) | hex_value(pair[1]);
    }
    Secret::from_bytes(&bytes).map_err(|e| e.to_string())
}

pub(crate) fn hex_value(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => digit - b'A' + 10,
    }
}
