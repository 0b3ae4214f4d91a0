//! The command line itself: argument parsing and the subcommands, shared by the
//! `longstraw` binary and the Python package's console script.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{check, lab, lookup, plan};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use longstraw_membership::{Membership, Snapshot};

/// Rendezvous hashing from the command line, on one membership file (docs/MEMBERSHIP.md).
///
/// Keys read from stdin or a file (`--keys FILE`, `-` for stdin) are one per
/// line: a key is the bytes of a line without its `\n` or `\r\n`, taken as
/// they are (no trimming, no decoding; keys need not be UTF-8). An empty line
/// is the empty key. A line longer than 16 MiB is an error that names it.
///
/// JSON output writes every key and node id the same way: a string when its
/// bytes are UTF-8, `{"hex": "..."}` otherwise.
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
        /// Read keys from this file, one per line ("-": stdin; default: the KEY arguments, or stdin).
        #[arg(long, value_name = "FILE", alias = "keys-file", conflicts_with = "key")]
        keys: Option<PathBuf>,
        /// How to write the answers.
        #[arg(short, long, value_enum, default_value_t = lookup::Format::Text)]
        format: lookup::Format,
        /// Keys (as given, UTF-8 from the shell); none: read lines from stdin.
        #[arg(value_name = "KEY")]
        key: Vec<String>,
    },
    /// Print the first K nodes of each key's ranking (`KEY<TAB>NODE<TAB>NODE...`).
    TopK {
        /// The membership file.
        #[arg(short, long)]
        members: PathBuf,
        /// How many nodes; more than the file's eligible nodes gives all of them.
        #[arg(short, default_value_t = 3)]
        k: usize,
        /// At most one node per failure domain.
        #[arg(long)]
        distinct: bool,
        /// Read keys from this file, one per line ("-": stdin; default: the KEY arguments, or stdin).
        #[arg(long, value_name = "FILE", alias = "keys-file", conflicts_with = "key")]
        keys: Option<PathBuf>,
        /// How to write the answers.
        #[arg(short, long, value_enum, default_value_t = lookup::Format::Text)]
        format: lookup::Format,
        /// Keys; none: read lines from stdin.
        #[arg(value_name = "KEY")]
        key: Vec<String>,
    },
    /// Validate a membership file and print the share each node should get.
    Check {
        /// The membership file.
        #[arg(short, long)]
        members: PathBuf,
    },
    /// Print what moves from one membership to another.
    ///
    /// Without --replicas, a key moves when its owner changes. With
    /// --replicas K, each key has an old and a new replica set, and the plan
    /// lists the copies to create (nodes in the new set only) and to drop
    /// (nodes in the old set only). A replica set is exactly what
    /// `longstraw top-k -k K` prints for that file (the plain rule) or
    /// `top-k -k K --distinct` (at most one node per failure domain). The
    /// rule is never guessed: a table file's `table.distinct_domains` says it,
    /// a file without domains gives the same sets under both, and a flat or
    /// skeleton file with domains needs --plain or --distinct. The summary
    /// prints the rule as `replica_rule`.
    ///
    /// --moves lists every changed key. Every format has the old and the new
    /// placement: text `KEY<TAB>FROM<TAB>TO` (with replicas also
    /// `<TAB>CREATE<TAB>DROP`; lists joined by `,`, `-` for none); jsonl
    /// `{"key", "from", "to"}` (with replicas also `"create"`, `"drop"` and
    /// `"source"`); csv `key,key_hex,from,to`, or with replicas one row per
    /// copy action: `key,key_hex,action,node,source,from_1..from_K,to_1..to_K`.
    /// `source` is the node to copy a created replica from (the old owner); on
    /// a `drop` row it is empty, since a drop copies nothing: run every create
    /// first, switch readers to the new file, then drop.
    Plan {
        /// The current membership.
        #[arg(long)]
        from: PathBuf,
        /// The new membership.
        #[arg(long)]
        to: PathBuf,
        /// Keys to plan, one per line ("-" for stdin).
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "partitions",
            required_unless_present = "partitions"
        )]
        keys: Option<PathBuf>,
        /// Plan the partitions of two tables instead of keys.
        #[arg(long)]
        partitions: bool,
        /// Plan replica sets of this size: copies to create and to drop (a flat or skeleton file
        /// with failure domains also needs --plain or --distinct).
        #[arg(long)]
        replicas: Option<usize>,
        /// Replica sets are `top-k --distinct` answers: at most one node per failure domain.
        #[arg(long, requires = "replicas", conflicts_with = "plain")]
        distinct: bool,
        /// Replica sets are plain `top-k` answers: the first K nodes, domains ignored.
        #[arg(long, requires = "replicas")]
        plain: bool,
        /// List every moved key (or partition) in this format.
        #[arg(long, value_enum)]
        moves: Option<plan::MovesFormat>,
        /// Write the moves here (default: stdout, and the summary goes to stderr).
        #[arg(long, requires = "moves")]
        moves_file: Option<PathBuf>,
    },
    /// Compare longstraw with a ring, jump, maglev, mod n and w*u on one corpus.
    ///
    /// Every placement gets the same corpus and the same three changes: add a
    /// node of the mean weight, remove the last node, double the first node's
    /// weight (the output names them). Rows: longstraw flat, table (the file's
    /// partition bits, or the default), balanced table (the file's `balance`,
    /// or 1.05), skeleton; small reference implementations of a ring (V = 100,
    /// 256), jump, maglev (a prime table of at least 100 entries per node of
    /// the largest fleet, fixed across the changes), `mod n` and `w*u`. The
    /// lookup times name the CPU and longstraw's SIMD backend.
    ///
    /// The last lines recommend one row for --priority, computed from the
    /// measured rows with every step printed: rows that ignore weights are
    /// out when the file's weights differ; then, per criterion in order, rows
    /// within a printed tolerance of the best stay; the best of those left on
    /// the first criterion wins.
    Lab {
        /// The membership file (its nodes, weights and seed).
        #[arg(short, long)]
        members: PathBuf,
        /// Keys, one per line (held in memory; "-" for stdin).
        #[arg(long, value_name = "FILE", conflicts_with = "synthetic")]
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
        /// What matters most, first: e.g. `speed,moves` (unnamed criteria follow in the default order).
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "moves,balance,speed,memory"
        )]
        priority: Vec<lab::verdict::Criterion>,
    },
}

/// Why a command stopped.
enum Failure {
    /// Print this and exit 1.
    Message(String),
    /// The reader of our output went away (`| head -1`): stop quietly, exit 0.
    Quiet,
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Message(m)
    }
}

impl From<&str> for Failure {
    fn from(m: &str) -> Failure {
        Failure::Message(m.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Quiet
        } else {
            Failure::Message(e.to_string())
        }
    }
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
        Ok(()) | Err(Failure::Quiet) => 0,
        Err(Failure::Message(message)) => {
            let _ = writeln!(io::stderr(), "longstraw: {message}");
            1
        }
    }
}

fn load(path: &Path) -> Result<(Membership, Arc<Snapshot>), String> {
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

/// Names the source of a read error: a line that is too long says which line of which input.
fn named_read(source: &Path) -> impl Fn(io::Error) -> Failure + '_ {
    move |e: io::Error| {
        if e.kind() == io::ErrorKind::InvalidData {
            let name = if source == Path::new("-") {
                "stdin".to_string()
            } else {
                source.display().to_string()
            };
            Failure::Message(format!("{name}: {e}"))
        } else {
            Failure::from(e)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    match command {
        Command::Owner {
            members,
            keys,
            format,
            key,
        } => lookups(&members, None, false, keys, format, key, &mut out)?,
        Command::TopK {
            members,
            k,
            distinct,
            keys,
            format,
            key,
        } => {
            if k == 0 {
                return Err("-k must be at least 1".into());
            }
            lookups(&members, Some(k), distinct, keys, format, key, &mut out)?
        }
        Command::Check { members } => check::run(&members, &mut out)?,
        Command::Plan {
            from,
            to,
            keys,
            partitions,
            replicas,
            distinct,
            plain,
            moves,
            moves_file,
        } => {
            if replicas == Some(0) {
                return Err("--replicas must be at least 1".into());
            }
            let (_, old) = load(&from)?;
            let (_, new) = load(&to)?;
            let nodes = plan::Nodes::of(&old, &new);
            let flag = match (distinct, plain) {
                (true, _) => Some(plan::ReplicaRule::Distinct),
                (_, true) => Some(plan::ReplicaRule::Plain),
                _ => None,
            };
            let rules = match replicas {
                Some(_) => Some(plan::replica_rules(
                    (&old, &from.display().to_string()),
                    (&new, &to.display().to_string()),
                    flag,
                )?),
                None => None,
            };
            let request = plan::Request {
                replicas,
                rules: rules
                    .as_ref()
                    .map_or((plan::ReplicaRule::Plain, plan::ReplicaRule::Plain), |r| (r.old, r.new)),
                moves,
            };
            let mut moves_sink: Box<dyn Write> = match (&moves, &moves_file) {
                (None, _) => Box::new(io::sink()),
                (Some(_), Some(path)) => Box::new(BufWriter::new(
                    File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                )),
                (Some(_), None) => Box::new(&mut out),
            };
            if moves == Some(plan::MovesFormat::Csv) {
                let columns = replicas.map(|_| request.set_size(&nodes));
                moves_sink.write_all(plan::csv_header(partitions, columns).as_bytes())?;
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
                let t = plan::plan_lines(&old, &new, &nodes, &request, input, &mut moves_sink, &bar)
                    .map_err(named_read(&path))?;
                bar.finish_and_clear();
                (t, "keys")
            };
            moves_sink.flush()?;
            drop(moves_sink);
            if totals.keys == 0 {
                return Err("the key corpus is empty: nothing to plan".into());
            }
            let summary = replicas.zip(rules.as_ref());
            if moves.is_some() && moves_file.is_none() {
                out.flush()?;
                let mut err = io::stderr().lock();
                plan::write_summary(&totals, &nodes, summary, unit, &mut err)?;
            } else {
                plan::write_summary(&totals, &nodes, summary, unit, &mut out)?;
            }
        }
        Command::Lab {
            members,
            keys,
            synthetic,
            svg,
            json,
            priority,
        } => {
            let m = Membership::read(&members).map_err(|e| e.to_string())?;
            let corpus = match keys {
                Some(path) => {
                    let (input, _) = open_keys(&path)?;
                    lab::Corpus::from_lines(input).map_err(named_read(&path))?
                }
                None => lab::Corpus::synthetic(synthetic.unwrap_or(1_000_000)),
            };
            if corpus.is_empty() {
                return Err("the key corpus is empty: nothing to measure".into());
            }
            let report = lab::run_with(&m, &corpus, &priority)?;
            if json {
                serde_json::to_writer_pretty(&mut out, &report).map_err(io::Error::from)?;
                writeln!(out)?;
            } else {
                lab::write_table(&report, &mut out)?;
            }
            if let Some(dir) = svg {
                let written = lab::svg::write_charts(&report, &dir)?;
                for path in written {
                    writeln!(out, "wrote {}", path.display())?;
                }
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn lookups(
    members: &Path,
    k: Option<usize>,
    distinct: bool,
    keys_file: Option<PathBuf>,
    format: lookup::Format,
    keys: Vec<String>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let (_, snap) = load(members)?;
    let query = lookup::Query { k, distinct, format };
    let counts = if !keys.is_empty() {
        let keys: Vec<Vec<u8>> = keys.into_iter().map(String::into_bytes).collect();
        lookup::run_args(&snap, &query, &keys, out)?
    } else {
        let path = keys_file.unwrap_or_else(|| PathBuf::from("-"));
        let (input, len) = open_keys(&path)?;
        let bar = progress(len);
        let counts = lookup::run_lines(&snap, &query, input, out, &bar).map_err(named_read(&path))?;
        bar.finish_and_clear();
        counts
    };
    if format == lookup::Format::Summary {
        lookup::write_summary(&snap, &counts, out)?;
    }
    if counts.unplaced > 0 {
        out.flush()?;
        return Err(format!(
            "{} key(s) had no eligible node (the set is empty or every weight is 0)",
            counts.unplaced
        )
        .into());
    }
    Ok(())
}
