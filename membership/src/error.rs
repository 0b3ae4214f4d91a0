//! Errors that name the file, the line and the field.

use std::fmt;

/// A membership file that cannot be read, parsed, validated or built.
#[derive(Debug)]
pub struct Error {
    /// The file (or the name given to [`crate::Membership::parse`]).
    pub origin: String,
    /// The 1-based line the problem is on, when there is one.
    pub line: Option<usize>,
    /// The field, as a path such as `nodes[3].weight`, when there is one.
    pub field: Option<String>,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// What is wrong with a membership file.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// The text is not TOML, or a field has the wrong type or is unknown.
    Syntax(String),
    /// A value is out of range or contradicts another.
    Invalid(String),
    /// The set refused a node (duplicate, hash collision, bad weight, ...).
    Set(longstraw_set::Error),
    /// The file asks for something this build of longstraw cannot do yet.
    NotSupported(String),
    /// A keyed set's secret could not be read from its source; the message
    /// names the source, never the secret.
    Secret(String),
}

/// `Result` with this crate's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub(crate) fn new(origin: &str, line: Option<usize>, field: Option<String>, kind: ErrorKind) -> Error {
        Error {
            origin: origin.to_string(),
            line,
            field,
            kind,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.origin)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        f.write_str(": ")?;
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        match &self.kind {
            ErrorKind::Io(e) => f.write_str(&crate::input::plain(e)),
            ErrorKind::Syntax(m) | ErrorKind::Invalid(m) => f.write_str(m),
            ErrorKind::Set(e) => write!(f, "{e}"),
            ErrorKind::NotSupported(m) => write!(f, "{m} is not supported by this build of longstraw"),
            ErrorKind::Secret(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            ErrorKind::Set(e) => Some(e),
            _ => None,
        }
    }
}
