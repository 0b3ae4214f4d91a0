//! The command line itself: argument parsing and the subcommands, shared by the
//! `longstraw` binary and the Python package's console script.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use crate::{check, lab, lookup, plan};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use longstraw_membership::{LoadedSnapshot, Membership};

/// Rendezvous hashing from the command line, on one membership file (docs/MEMBERSHIP.md).
///
/// Keys read from stdin or a file are one per line: a key is the bytes of a
/// line without its `\n` or `\r\n`, taken as they are (no trimming, no
/// decoding; keys need not be UTF-8). An empty line is the empty key.
#[derive(Parser)]
#[command(name = "longstraw", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the owner of each key (`KEY<TAB>NODE`).
    Owner {
        /// The membership file.
        #[arg(short, long)]
        members: PathBuf,
        /// Read keys from this file, one per line (default: the KEY arguments, or stdin).
        #[arg(long, conflicts_with = "keys")]
        keys_file: Option<PathBuf>,
        /// How to write the answers.
        #[arg(short, long, value_enum, default_value_t = lookup::Format::Text)]
        format: lookup::Format,
        /// Keys (as given, UTF-8 from the shell); none: read lines from stdin.
        keys: Vec<String>,
    },
    /// Print the first K nodes of each key's ranking (`KEY<TAB>NODE<TAB>NODE...`).
    TopK {
        /// The membership file.
        #[arg(short, long)]
        members: PathBuf,
        /// How many nodes.
        #[arg(short, default_value_t = 3)]
        k: usize,
        /// At most one node per failure domain.
        #[arg(long)]
        distinct: bool,
        /// Read keys from this file, one per line.
        #[arg(long, conflicts_with = "keys")]
        keys_file: Option<PathBuf>,
        /// How to write the answers.
        #[arg(short, long, value_enum, default_value_t = lookup::Format::Text)]
        format: lookup::Format,
        /// Keys; none: read lines from stdin.
        keys: Vec<String>,
    },
    /// Validate a membership file and print the share each node should get.
    Check {
        /// The membership file.
        #[arg(short, long)]
        members: PathBuf,
    },
    /// Print what moves from one membership to another.
    Plan {
        /// The current membership.
        #[arg(long)]
        from: PathBuf,
        /// The new membership.
        #[arg(long)]
        to: PathBuf,
        /// Keys to plan, one per line ("-" for stdin).
        #[arg(long, conflicts_with = "partitions", required_unless_present = "partitions")]
        keys: Option<PathBuf>,
        /// Plan the partitions of two tables instead of keys.
        #[arg(long)]
        partitions: bool,
        /// Plan replica sets of this size: copies to create and to drop.
        #[arg(long)]
        replicas: Option<usize>,
        /// List every moved key (or partition) in this format.
        #[arg(long, value_enum)]
        moves: Option<plan::MovesFormat>,
        /// Write the moves here (default: stdout, and the summary goes to stderr).
        #[arg(long, requires = "moves")]
        moves_file: Option<PathBuf>,
    },
    /// Compare longstraw with a ring, jump, maglev, mod n and w*u on one corpus.
    Lab {
        /// The membership file (its nodes, weights and seed).
        #[arg(short, long)]
        members: PathBuf,
        /// Keys, one per line (held in memory).
        #[arg(long, conflicts_with = "synthetic")]
        keys: Option<PathBuf>,
        /// Use N synthetic keys `key:<i>` (default 1000000).
        #[arg(long)]
        synthetic: Option<usize>,
        /// Write SVG charts to this folder.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the command line `args` (the program name first, as `std::env::args_os`
/// gives it) and returns the process exit code. Output goes to this process's
/// stdout and stderr, so the native binary and the Python wheel's console script
/// behave the same.
pub fn main_with_args<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" that print to stdout and exit 0.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    match run(cli.command) {
        Ok(()) => 0,
        Err(message) => {
            let _ = writeln!(io::stderr(), "longstraw: {message}");
            1
        }
    }
}

fn load(path: &Path) -> Result<(Membership, LoadedSnapshot), String> {
    let m = Membership::read(path).map_err(|e| e.to_string())?;
    let built = m.build().map_err(|mut e| {
        e.origin = path.display().to_string();
        e.to_string()
    })?;
    Ok((m, built.snapshot()))
}

/// A progress bar on stderr, shown only when stderr is a terminal.
fn progress(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .expect("a fixed template"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {binary_bytes} {binary_bytes_per_sec}").expect("a fixed template"),
        ),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar
}

fn open_keys(path: &Path) -> Result<(Box<dyn Read>, Option<u64>), String> {
    if path == Path::new("-") {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let f = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = f.metadata().ok().map(|m| m.len());
    Ok((Box::new(f), len))
}

fn run(command: Command) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let io_err = |e: io::Error| e.to_string();
    match command {
        Command::Owner {
            members,
            keys_file,
            format,
            keys,
        } => lookups(&members, None, false, keys_file, format, keys, &mut out)?,
        Command::TopK {
            members,
            k,
            distinct,
            keys_file,
            format,
            keys,
        } => {
            if k == 0 {
                return Err("-k must be at least 1".into());
            }
            lookups(&members, Some(k), distinct, keys_file, format, keys, &mut out)?
        }
        Command::Check { members } => check::run(&members, &mut out)?,
        Command::Plan {
            from,
            to,
            keys,
            partitions,
            replicas,
            moves,
            moves_file,
        } => {
            if replicas == Some(0) {
                return Err("--replicas must be at least 1".into());
            }
            let (_, old) = load(&from)?;
            let (_, new) = load(&to)?;
            let nodes = plan::Nodes::of(&old, &new);
            let request = plan::Request { replicas, moves };
            let mut moves_sink: Box<dyn Write> = match (&moves, &moves_file) {
                (None, _) => Box::new(io::sink()),
                (Some(_), Some(path)) => Box::new(BufWriter::new(
                    File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )),
                (Some(_), None) => Box::new(&mut out),
            };
            if moves == Some(plan::MovesFormat::Csv) {
                moves_sink
                    .write_all(plan::csv_header(partitions, replicas.is_some()).as_bytes())
                    .map_err(io_err)?;
            }
            let (totals, unit) = if partitions {
                (
                    plan::plan_partitions(&old, &new, &nodes, &request, &mut moves_sink)?,
                    "partitions",
                )
            } else {
                let path = keys.expect("clap requires --keys without --partitions");
                let (input, len) = open_keys(&path)?;
                let bar = progress(len);
                let t = plan::plan_lines(&old, &new, &nodes, &request, input, &mut moves_sink, &bar).map_err(io_err)?;
                bar.finish_and_clear();
                (t, "keys")
            };
            moves_sink.flush().map_err(io_err)?;
            drop(moves_sink);
            if totals.keys == 0 {
                return Err("the key corpus is empty: nothing to plan".into());
            }
            if moves.is_some() && moves_file.is_none() {
                let mut err = io::stderr().lock();
                plan::write_summary(&totals, &nodes, replicas, unit, &mut err).map_err(io_err)?;
            } else {
                plan::write_summary(&totals, &nodes, replicas, unit, &mut out).map_err(io_err)?;
            }
        }
        Command::Lab {
            members,
            keys,
            synthetic,
            svg,
            json,
        } => {
            let m = Membership::read(&members).map_err(|e| e.to_string())?;
            let corpus = match keys {
                Some(path) => lab::Corpus::from_lines(&path)?,
                None => lab::Corpus::synthetic(synthetic.unwrap_or(1_000_000)),
            };
            if corpus.is_empty() {
                return Err("the key corpus is empty: nothing to measure".into());
            }
            let report = lab::run(&m, &corpus)?;
            if json {
                serde_json::to_writer_pretty(&mut out, &report).map_err(|e| e.to_string())?;
                writeln!(out).map_err(io_err)?;
            } else {
                lab::write_table(&report, &mut out).map_err(io_err)?;
            }
            if let Some(dir) = svg {
                let written = lab::svg::write_charts(&report, &dir)?;
                for path in written {
                    writeln!(out, "wrote {}", path.display()).map_err(io_err)?;
                }
            }
        }
    }
    out.flush().map_err(io_err)
}

fn lookups(
    members: &Path,
    k: Option<usize>,
    distinct: bool,
    keys_file: Option<PathBuf>,
    format: lookup::Format,
    keys: Vec<String>,
    out: &mut impl Write,
) -> Result<(), String> {
    let (_, snap) = load(members)?;
    let query = lookup::Query { k, distinct, format };
    let io_err = |e: io::Error| e.to_string();
    let counts = if !keys.is_empty() {
        let keys: Vec<Vec<u8>> = keys.into_iter().map(String::into_bytes).collect();
        lookup::run_args(&snap, &query, &keys, out).map_err(io_err)?
    } else {
        let (input, len) = open_keys(keys_file.as_deref().unwrap_or(Path::new("-")))?;
        let bar = progress(len);
        let counts = lookup::run_lines(&snap, &query, input, out, &bar).map_err(io_err)?;
        bar.finish_and_clear();
        counts
    };
    if format == lookup::Format::Summary {
        lookup::write_summary(&snap, &counts, out).map_err(io_err)?;
    }
    if counts.unplaced > 0 {
        out.flush().map_err(io_err)?;
        return Err(format!(
            "{} key(s) had no eligible node (the set is empty or every weight is 0)",
            counts.unplaced
        ));
    }
    Ok(())
}
