//! `keyed`: keyed-v1 sets (SPEC.md §15) against a model whose hashes are
//! written out from the spec ([`crate::spec_hash`]), and membership files
//! whose secret comes from a file or an environment variable.
//!
//! - A keyed flat and a keyed table-mode [`Rendezvous`] go through random changes;
//!   after each, node hashes, owners, top-k, top-k distinct, partitions and
//!   every table row must equal the core's scalar oracle over the model's
//!   keyed hashes.
//! - A keyed set and an unkeyed one are never configured alike: `is_keyed`,
//!   `seed`, `options` and the membership they describe all differ, a
//!   secret with any seed (even 0) is refused, a secret of the wrong length is
//!   refused with its length, and a keyed set built in code never saves as an
//!   unkeyed file.
//! - A membership file naming a secret source (file or variable) holding
//!   arbitrary text: it round-trips through its TOML, and builds exactly when
//!   the source holds 32 hex digits (white space around them allowed), into
//!   the set the model predicts; otherwise the error is a secret error that
//!   does not quote the content. Nothing panics.

use std::sync::atomic::{AtomicU64, Ordering};

use arbitrary::{Result, Unstructured};
use longstraw::{Backend, Placement, Secret, SECRET_LEN};
use longstraw_membership::{ErrorKind, Membership, Mode, NodeSpec, SecretSource};
use longstraw_set::{ModeOptions, Options, Rendezvous, Snapshot, TableOptions};

use crate::input;
use crate::set_model::{firstn_by_domain, same_outcome, Change, Model};
use crate::spec_hash::{SpecHashing, SpecOracle};

/// The `keyed` target: the first byte picks sets or membership files.
pub fn check(data: &[u8]) {
    let u = &mut Unstructured::new(data);
    let _ = match u.int_in_range(0..=3u8) {
        Ok(0 | 1) => sets(u),
        Ok(2) => secrets(u),
        _ => files(u),
    };
}

fn secret_of(bytes: &[u8; SECRET_LEN]) -> Secret {
    Secret::from_bytes(bytes).expect("16 bytes make a secret")
}

/// A flat snapshot against the keyed model.
fn verify_flat(snap: &Snapshot, model: &Model, hashing: SpecHashing, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    assert!(snap.is_keyed(), "a set built with a secret says it is keyed");
    assert_eq!(snap.seed(), None, "a keyed set has no seed");
    assert_eq!(snap.len(), nodes.len(), "len");
    let oracle = SpecOracle::new(hashing, nodes.iter().map(|n| (n.0, n.1)));
    for (i, (id, ..)) in nodes.iter().enumerate() {
        assert_eq!(snap.node(i as u32).map(|n| n.id()), Some(*id), "id of node {i}");
    }
    let hashes: Vec<u64> = snap.nodes().map(|n| n.hash()).collect();
    assert_eq!(hashes, oracle.hashes(), "keyed node hashes (§15.2)");
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    for (key, k) in keys {
        let kh = oracle.key_hash(key);
        assert_eq!(snap.hashing().key_hash(key), kh, "keyed key hash of {key:?}");
        let want = oracle.top_k_of_hash(kh, *k);
        assert_eq!(
            snap.owner_index(key).ok(),
            oracle.top_k_of_hash(kh, 1).first().copied(),
            "owner of {key:?}"
        );
        let mut got = vec![u32::MAX; *k];
        let n = snap.top_k_into(key, &mut got);
        assert_eq!(got[..n], want[..], "top-{k} of {key:?}");
        let n = snap.top_k_distinct_into(key, &mut got);
        let want = firstn_by_domain(&oracle.rank_of_hash(kh), &labels, *k);
        assert_eq!(got[..n], want[..], "top-{k} distinct of {key:?}");
    }
}

/// A table snapshot against the keyed model: partitions and every row.
fn verify_table(snap: &Snapshot, model: &Model, hashing: SpecHashing, keys: &[(Vec<u8>, usize)]) {
    let nodes = model.ordered();
    assert!(snap.is_keyed(), "a keyed table says it is keyed");
    let table = snap.as_table().expect("a table-mode set");
    let oracle = SpecOracle::new(hashing, nodes.iter().map(|n| (n.0, n.1)));
    let labels: Vec<Option<&[u8]>> = nodes.iter().map(|n| n.2).collect();
    let bits = table.partition_bits();
    for (key, _) in keys {
        let kh = oracle.key_hash(key);
        let want = if bits == 0 { 0 } else { (kh >> (64 - bits)) as u32 };
        assert_eq!(
            snap.partition(key).ok(),
            Some(want),
            "partition of {key:?} (§15.3: the keyed key hash's top bits)"
        );
    }
    for p in 0..table.partitions() as u32 {
        let full = oracle.rank_of_hash(hashing.partition_key_hash(p));
        let want = if table.distinct_domains() {
            firstn_by_domain(&full, &labels, table.replicas())
        } else {
            full.into_iter().take(table.replicas()).collect()
        };
        assert_eq!(table.row(p), want, "row {p}: keyed table vs oracle");
    }
}

/// Keyed flat set and keyed table through random changes, beside an
/// unkeyed twin that must never look configured alike.
fn sets(u: &mut Unstructured<'_>) -> Result<()> {
    let secret_bytes: [u8; SECRET_LEN] = u.arbitrary()?;
    let hashing = SpecHashing::keyed(secret_bytes);
    let seed: u64 = u.arbitrary()?;
    let backend = Some(input::backend(u)?);
    let keyed = Options {
        secret: Some(secret_of(&secret_bytes)),
        backend,
        ..Options::default()
    };
    let unkeyed = Options {
        seed: Some(seed),
        backend,
        ..Options::default()
    };
    // A secret and a seed exclude each other, even seed 0: never a silent choice.
    let both = Rendezvous::flat(
        std::iter::empty::<&[u8]>(),
        Options {
            seed: Some(seed),
            ..keyed.clone()
        },
    );
    assert!(
        matches!(both, Err(longstraw_set::Error::Core(longstraw::Error::SeedWithSecret))),
        "a secret with seed {seed} gave {both:?}"
    );
    let set = Rendezvous::flat(std::iter::empty::<&[u8]>(), keyed.clone()).expect("an empty keyed set");
    let twin = Rendezvous::flat(std::iter::empty::<&[u8]>(), unkeyed).expect("an empty set");
    let bits = u.int_in_range(0..=6u8)?;
    let table_options = TableOptions {
        partition_bits: Some(bits),
        replicas: u.int_in_range(1..=4usize)?,
        distinct_domains: u.arbitrary()?,
        balance: None,
    };
    let table = Rendezvous::new(
        std::iter::empty::<(&[u8], f64, Option<&[u8]>)>(),
        keyed,
        ModeOptions::Table(table_options),
    )
    .expect("an empty keyed table");
    let mut model = Model::default();
    for _ in 0..32 {
        if u.is_empty() {
            break;
        }
        let change = Change::arbitrary(u)?;
        let want = model.apply(&change);
        let apply_to = |on: &dyn Fn(&Change) -> longstraw_set::Result<()>| on(&change);
        let got = apply_to(&|c| match c {
            Change::Add(id, w, None) => set.add(id, *w),
            Change::Add(id, w, Some(d)) => set.add_in_domain(id, *w, d),
            Change::Remove(id) => set.remove(id),
            Change::SetWeight(id, w) => set.set_weight(id, *w),
            Change::SetDomain(id, d) => set.set_domain(id, d.as_deref()),
        });
        same_outcome(&got, &want, || format!("keyed set: {change:?}"));
        let got = apply_to(&|c| match c {
            Change::Add(id, w, None) => table.add(id, *w),
            Change::Add(id, w, Some(d)) => table.add_in_domain(id, *w, d),
            Change::Remove(id) => table.remove(id),
            Change::SetWeight(id, w) => table.set_weight(id, *w),
            Change::SetDomain(id, d) => table.set_domain(id, d.as_deref()),
        });
        same_outcome(&got, &want, || format!("keyed table: {change:?}"));
        let _ = apply_to(&|c| match c {
            Change::Add(id, w, None) => twin.add(id, *w),
            Change::Add(id, w, Some(d)) => twin.add_in_domain(id, *w, d),
            Change::Remove(id) => twin.remove(id),
            Change::SetWeight(id, w) => twin.set_weight(id, *w),
            Change::SetDomain(id, d) => twin.set_domain(id, d.as_deref()),
        });
        let keys = input::keys_with_k(u, model.len(), 4)?;
        verify_flat(&set.load(), &model, hashing, &keys);
        verify_table(&table.snapshot(), &model, hashing, &keys);
    }
    let (k, t) = (set.snapshot(), twin.snapshot());
    assert!(!t.is_keyed(), "a set built without a secret says it is not keyed");
    assert_eq!(t.seed(), Some(seed), "the unkeyed twin's seed");
    assert_ne!(k.options(), t.options(), "keyed and unkeyed options compare equal");
    assert_ne!(k.hashing(), t.hashing(), "keyed and unkeyed hashing compare equal");
    assert_eq!(
        k.options().secret,
        Some(secret_of(&secret_bytes)),
        "the keyed set's options keep its secret"
    );
    // Described as a membership, a keyed set names a secret source that no
    // file can hold: its text never reads back, and writing it is refused.
    let described = Membership::of(&k);
    assert_eq!(
        described.secret,
        Some(SecretSource::Unnamed),
        "a keyed set's membership"
    );
    assert_ne!(
        described,
        Membership::of(&t),
        "keyed and unkeyed memberships compare equal"
    );
    let text = described.to_toml();
    assert!(
        Membership::parse(&text, "keyed").is_err(),
        "a keyed set's saved text reads back:\n{text}"
    );
    let refused = described.write(std::env::temp_dir().join("longstraw-fuzz-never-written.toml"));
    assert!(
        matches!(&refused, Err(e) if matches!(e.kind, ErrorKind::Secret(_))),
        "writing a keyed set without a secret source gave {refused:?}"
    );
    Ok(())
}

/// Secrets of arbitrary length: exactly 16 bytes work, others are refused
/// with their length, whatever they hold.
fn secrets(u: &mut Unstructured<'_>) -> Result<()> {
    let bytes: Vec<u8> = u.arbitrary()?;
    match (Secret::from_bytes(&bytes), bytes.len() == SECRET_LEN) {
        (Ok(s), true) => assert_eq!(s.expose_bytes()[..], bytes[..], "a secret's bytes"),
        (Err(longstraw::Error::BadSecretLength { len }), false) => assert_eq!(len, bytes.len(), "the refused length"),
        (got, _) => panic!("a secret of {} bytes gave {got:?}", bytes.len()),
    }
    assert!(
        !format!("{:?}", Secret::from_bytes(&[7u8; SECRET_LEN])).contains('7'),
        "Debug shows no byte"
    );
    Ok(())
}

/// What a secret source holds: 32 hex digits (mixed case, white space
/// around) or arbitrary bytes.
fn content(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    if u.ratio(1, 3)? {
        return Ok(u.arbitrary::<Vec<u8>>()?.into_iter().take(80).collect());
    }
    let bytes: [u8; SECRET_LEN] = u.arbitrary()?;
    let upper: bool = u.arbitrary()?;
    let mut text: Vec<u8> = Vec::new();
    for _ in 0..u.int_in_range(0..=2u8)? {
        text.push(*u.choose(b" \t\r\n")?);
    }
    for b in bytes {
        let pair = if upper { format!("{b:02X}") } else { format!("{b:02x}") };
        text.extend_from_slice(pair.as_bytes());
    }
    for _ in 0..u.int_in_range(0..=2u8)? {
        text.push(*u.choose(b" \t\r\n")?);
    }
    if u.ratio(1, 8)? {
        // One digit too many or too few, or one digit replaced.
        match u.int_in_range(0..=2u8)? {
            0 => text.push(b'0'),
            1 => {
                let at = text.iter().position(u8::is_ascii_hexdigit).expect("digits");
                text.remove(at);
            }
            _ => {
                let at = text.iter().position(u8::is_ascii_hexdigit).expect("digits");
                text[at] = *u.choose(b"g-x\0\xff")?;
            }
        }
    }
    Ok(text)
}

/// The model's reading of a secret source (SPEC.md §15, docs/MEMBERSHIP.md):
/// trimmed of ASCII white space, exactly 32 hex digits.
fn model_secret(text: &[u8]) -> Option<[u8; SECRET_LEN]> {
    let s = std::str::from_utf8(text).ok()?;
    let digits = s.trim_matches(|c: char| c.is_ascii_whitespace());
    if digits.len() != 2 * SECRET_LEN || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; SECRET_LEN];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

static UNIQUE: AtomicU64 = AtomicU64::new(0);

/// A name no other call in this process uses (replays run on several threads).
fn unique() -> String {
    format!("{}_{}", std::process::id(), UNIQUE.fetch_add(1, Ordering::Relaxed))
}

/// A membership file with a secret source holding arbitrary content.
fn files(u: &mut Unstructured<'_>) -> Result<()> {
    let content = content(u)?;
    let from_file: bool = u.arbitrary()?;
    let name = unique();
    let (source, cleanup): (SecretSource, Box<dyn Fn()>) = if from_file {
        let path = std::env::temp_dir().join(format!("longstraw-fuzz-secret-{name}"));
        std::fs::write(&path, &content).expect("a temporary secret file");
        let p = path.clone();
        (
            SecretSource::File(path),
            Box::new(move || drop(std::fs::remove_file(&p))),
        )
    } else {
        // An environment variable cannot hold NUL (a different error, from std).
        if content.contains(&0) {
            return Ok(());
        }
        let var = format!("LONGSTRAW_FUZZ_SECRET_{name}");
        std::env::set_var(&var, std::ffi::OsStr::from_encoded_bytes_unchecked_safe(&content));
        let v = var.clone();
        (SecretSource::Env(var), Box::new(move || std::env::remove_var(&v)))
    };
    let result = check_file(u, source, &content);
    cleanup();
    result
}

/// `OsStr::from_encoded_bytes_unchecked` without `unsafe`: on Unix any bytes are an `OsStr`.
trait FromBytes {
    fn from_encoded_bytes_unchecked_safe(bytes: &[u8]) -> &std::ffi::OsStr;
}

impl FromBytes for std::ffi::OsStr {
    fn from_encoded_bytes_unchecked_safe(bytes: &[u8]) -> &std::ffi::OsStr {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(bytes)
    }
}

fn check_file(u: &mut Unstructured<'_>, source: SecretSource, content: &[u8]) -> Result<()> {
    let count = u.int_in_range(0..=5usize)?;
    let nodes = (0..count)
        .map(|i| {
            let w = input::weight(u)?;
            let weight = if input::weight_is_valid(w) { w } else { 1.0 };
            let domain = if u.arbitrary()? {
                Some(format!("rack-{}", u.int_in_range(0..=2u8)?).into_bytes())
            } else {
                None
            };
            Ok(NodeSpec::new(format!("node-{i}"), weight, domain))
        })
        .collect::<Result<Vec<_>>>()?;
    let mode = if u.arbitrary()? {
        Mode::Flat
    } else {
        Mode::Table {
            bits: Some(u.int_in_range(0..=5u8)?),
            replicas: u.int_in_range(1..=3usize)?,
            distinct_domains: u.arbitrary()?,
            balance: None,
        }
    };
    // A keyed membership has no seed; a non-zero one is a contradiction
    // that must be refused by the build and survive saving (never dropped).
    let seed = if u.ratio(1, 8)? { u.arbitrary::<u64>()? | 1 } else { 0 };
    let m = Membership {
        seed,
        placement: Placement::V1,
        mode,
        secret: Some(source),
        nodes,
    };
    let text = m.to_toml();
    let back = Membership::parse(&text, "saved");
    if seed != 0 {
        assert!(
            back.is_err(),
            "a keyed membership with seed {seed} saved as text that reads back:\n{text}"
        );
    } else {
        let back = back.unwrap_or_else(|e| panic!("the saved text of a keyed membership does not parse: {e}\n{text}"));
        assert_eq!(back, m, "parse(save(x)) != x\n{text}");
    }
    let built = m.build_with(Some(Backend::SCALAR));
    let shown = String::from_utf8_lossy(content.trim_ascii()).into_owned();
    match (built, model_secret(content)) {
        (Ok(_), _) if seed != 0 => panic!("a keyed membership with seed {seed} built"),
        (Err(e), _) if seed != 0 => assert!(
            matches!(
                &e.kind,
                ErrorKind::Set(longstraw_set::Error::Core(longstraw::Error::SeedWithSecret))
            ) || matches!(e.kind, ErrorKind::Secret(_)),
            "a keyed membership with a seed failed with {e}"
        ),
        (Ok(loaded), Some(secret)) => {
            let hashing = SpecHashing::keyed(secret);
            let mut model = Model::default();
            for n in &m.nodes {
                model
                    .apply(&Change::Add(n.id.clone(), n.weight, n.domain.clone()))
                    .expect("the generated nodes are valid");
            }
            let keys = input::keys_with_k(u, model.len(), 4)?;
            let snap = loaded.snapshot();
            match loaded.mode() {
                longstraw_set::Mode::Flat => verify_flat(&snap, &model, hashing, &keys),
                longstraw_set::Mode::Table => verify_table(&snap, &model, hashing, &keys),
                longstraw_set::Mode::Skeleton => panic!("no skeleton was asked for"),
            }
        }
        (Ok(_), None) => panic!("a secret source holding {shown:?} built a set"),
        (Err(e), None) => {
            assert!(
                matches!(e.kind, ErrorKind::Secret(_)),
                "a bad secret {shown:?} failed with {e}"
            );
            let message = e.to_string();
            assert!(
                shown.len() < 12 || !message.contains(&shown),
                "the error quotes the secret source's content: {message}"
            );
        }
        (Err(e), Some(_)) => panic!("a valid secret source failed: {e}"),
    }
    Ok(())
}
