"""The set-wide options (seed, secret, placement): every constructor takes each of them by keyword, with
the same names, defaults and errors, and rejects an unknown keyword by naming it.

The expected placements come from tests/spec (SPEC.md in pure Python) and the frozen keyed vectors, not
from longstraw."""

import ast
import inspect
import json
import re
import sys
from pathlib import Path

import pytest

import longstraw
from longstraw import BoundedLoad, Rendezvous

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "spec"))
STUB = Path(longstraw.__file__).parent / "_longstraw.pyi"

SECRET = bytes.fromhex("c22e5a9d71fb048e3ca6d157e910b46f")
# A value for each set-wide option; test_the_options_are_declared_once checks that these are all of them.
SAMPLES = {"seed": 5, "secret": SECRET, "placement": 1}
DEFAULTS = {"seed": None, "secret": None, "placement": 1}


def flat(nodes, **options):
    return Rendezvous(nodes, **options)


def table(nodes, **options):
    return Rendezvous.table(nodes, partition_bits=6, **options)


def skeleton(nodes, **options):
    return Rendezvous.skeleton(nodes, fanout_bits=2, levels=1, **options)


def bounded(nodes, **options):
    return BoundedLoad(nodes, **options)


# Each constructor, the name Python's own argument errors give it, and the callable its signature is on.
CONSTRUCTORS = {
    "flat": (flat, "Rendezvous.__new__()", Rendezvous),
    "table": (table, "Rendezvous.table()", Rendezvous.table),
    "skeleton": (skeleton, "Rendezvous.skeleton()", Rendezvous.skeleton),
    "bounded": (bounded, "BoundedLoad.__new__()", BoundedLoad),
}
EVERY = pytest.mark.parametrize("which", list(CONSTRUCTORS))

NODES = [f"node-{i}" for i in range(12)]
KEYS = [f"user:{i}" for i in range(300)]


def owners(s, keys):
    """The owner of each key; for a BoundedLoad, the node of a lease taken with nothing in flight,
    which is the key's owner (SPEC.md §16)."""
    if isinstance(s, BoundedLoad):
        out = []
        for key in keys:
            with s.acquire(key) as node:
                out.append(node)
        return out
    return [s.owner(k) for k in keys]


def test_the_options_are_declared_once():
    stub = ast.parse(STUB.read_text())
    declared = {}
    unpacked = []
    for node in ast.walk(stub):
        if isinstance(node, ast.ClassDef) and node.name == "_SetOptions":
            declared = {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
        if isinstance(node, ast.FunctionDef) and node.name in ("__new__", "table", "skeleton"):
            named = {a.arg for a in node.args.args + node.args.kwonlyargs}
            assert not named & set(SAMPLES), f"{node.name} names a set-wide option outside _SetOptions"
            assert node.args.kwarg is not None and ast.unparse(node.args.kwarg.annotation) == "Unpack[_SetOptions]"
            unpacked.append(node.name)
    assert declared == set(SAMPLES)
    # Three overloads (str, bytes, mixed ids) of each Rendezvous constructor, and BoundedLoad.
    assert sorted(unpacked) == ["__new__"] * 4 + ["skeleton"] * 3 + ["table"] * 3


@EVERY
def test_the_signature_names_every_option(which):
    _, _, signed = CONSTRUCTORS[which]
    params = inspect.signature(signed).parameters
    shown = {n: p.default for n, p in params.items() if n in SAMPLES}
    assert shown == DEFAULTS
    assert all(params[n].kind is inspect.Parameter.KEYWORD_ONLY for n in SAMPLES)
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()), "the names, not **options"


@EVERY
def test_a_seed_places_as_the_spec_says(which):
    spec = pytest.importorskip("spec_reimpl", reason="tests/spec needs xxhash")
    scale = pytest.importorskip("spec_scale")
    make, _, _ = CONSTRUCTORS[which]
    model = spec.NodeSet([(n, 1.0) for n in NODES], seed=SAMPLES["seed"])
    if which == "table":
        model = scale.Table(model, 6)
    elif which == "skeleton":
        model = scale.Skeleton(model, 2, 1)
    s = make(NODES, seed=SAMPLES["seed"])
    assert owners(s, KEYS) == [NODES[model.owner(k)] for k in KEYS]
    # The default seed places differently: the option reached the set.
    assert owners(make(NODES), KEYS) != owners(s, KEYS)
    if not isinstance(s, BoundedLoad):
        assert (s.seed, s.keyed, s.snapshot().seed) == (SAMPLES["seed"], False, SAMPLES["seed"])


def keyed_case(mode):
    cases = json.loads((REPO / "tests/vectors/keyed-v1.json").read_text())["cases"]
    return max((c for c in cases if c["mode"] == mode), key=lambda c: len(c["nodes"]))


@pytest.mark.parametrize("which, mode", [("flat", "flat"), ("table", "table"), ("skeleton", "skeleton"), ("bounded", "flat")])
def test_a_secret_places_as_the_keyed_vectors_say(which, mode):
    case = keyed_case(mode)
    ids = [bytes.fromhex(n["id_hex"]) for n in case["nodes"]]
    weights = [n["weight"] for n in case["nodes"]]
    secret = bytes.fromhex(case["secret_hex"])
    if which == "bounded":
        s = BoundedLoad(ids, weights=weights, secret=secret)
    elif which == "table":
        s = Rendezvous.table(ids, partition_bits=case["bits"], weights=weights, secret=secret)
    elif which == "skeleton":
        s = Rendezvous.skeleton(ids, fanout_bits=case["fanout_bits"], levels=case["levels"], weights=weights, secret=secret)
    else:
        s = Rendezvous(ids, weights=weights, secret=secret)
    keys = [bytes.fromhex(k["key_hex"]) for k in case["keys"]]
    assert owners(s, keys) == [ids[k["owner"]] for k in case["keys"]]
    if not isinstance(s, BoundedLoad):
        assert (s.keyed, s.seed, s.snapshot().keyed) == (True, None, True)
        assert "secret=<hidden>" in repr(s)


@EVERY
def test_a_placement_version_is_read_by_every_constructor(which):
    make, _, _ = CONSTRUCTORS[which]
    s = make(NODES, placement=SAMPLES["placement"])
    if not isinstance(s, BoundedLoad):
        assert s.placement == 1
    with pytest.raises(ValueError, match=re.escape("unknown placement version 2 (this build knows: 1)")):
        make(NODES, placement=2)


@EVERY
def test_every_option_together_and_the_defaults(which):
    make, _, _ = CONSTRUCTORS[which]
    given = {k: v for k, v in SAMPLES.items() if k != "seed"}  # a secret excludes a seed
    keyed = make(NODES, **given)
    plain = make(NODES, **DEFAULTS)  # None is each default, given explicitly
    assert owners(plain, KEYS) == owners(make(NODES), KEYS) != owners(keyed, KEYS)


@EVERY
def test_a_seed_with_a_secret_is_refused(which):
    make, _, _ = CONSTRUCTORS[which]
    for seed in (0, 5):
        with pytest.raises(ValueError, match="give either a seed .* or a secret .*, not both"):
            make(NODES, seed=seed, secret=SECRET)


@EVERY
@pytest.mark.parametrize(
    "option, value, message",
    [
        ("seed", "5", "argument 'seed': seed must be an int, not str"),
        ("seed", 1.5, "argument 'seed': seed must be an int, not float"),
        ("secret", "text", "argument 'secret': secret must be 16 random bytes"),
        ("secret", [1, 2], "argument 'secret': secret must be a bytes-like object of 16 bytes, not list"),
        ("placement", None, "argument 'placement': placement must be an int, not NoneType"),
    ],
)
def test_a_wrong_type_is_a_type_error_naming_the_option(which, option, value, message):
    make, _, _ = CONSTRUCTORS[which]
    with pytest.raises(TypeError) as err:
        make(NODES, **{option: value})
    assert str(err.value).startswith(message), str(err.value)


@EVERY
@pytest.mark.parametrize("option, value, message", [
    ("seed", -1, "seed must be an integer in [0, 18446744073709551615], got -1"),
    ("secret", SECRET[:15], "a keyed-v1 secret is exactly 16 bytes"),
])
def test_a_wrong_value_is_a_value_error(which, option, value, message):
    make, _, _ = CONSTRUCTORS[which]
    with pytest.raises(ValueError, match=re.escape(message)):
        make(NODES, **{option: value})


# Keywords no constructor of that kind takes: misspellings, a wrong case, another mode's parameters.
UNKNOWN = ["sed", "seeds", "Secret", "secret_hex", "placements", "backend"]
MODE_ONLY = {
    "flat": ["partition_bits", "replicas", "levels", "balance_factor"],
    "table": ["fanout_bits", "levels", "balance_factor"],
    "skeleton": ["partition_bits", "replicas", "balance", "balance_factor"],
    "bounded": ["domains", "partition_bits", "levels"],
}


@EVERY
def test_an_unknown_keyword_is_a_type_error_naming_it(which):
    make, name, _ = CONSTRUCTORS[which]
    for keyword in UNKNOWN + MODE_ONLY[which]:
        with pytest.raises(TypeError) as err:
            make(NODES, **{keyword: 1})
        assert str(err.value) == f"{name} got an unexpected keyword argument '{keyword}'"


@EVERY
def test_an_unknown_keyword_comes_before_a_bad_value_and_never_shows_the_value(which):
    make, name, _ = CONSTRUCTORS[which]
    # The misspelt secret's value is never shown, even though it is not known to be a secret.
    with pytest.raises(TypeError) as err:
        make(NODES, seed="not an int", secert=SECRET)
    shown = str(err.value) + repr(err.value)
    assert shown.startswith(f"{name} got an unexpected keyword argument 'secert'"), shown
    for form in (SECRET.hex(), repr(SECRET), SECRET.hex()[:8]):
        assert form not in shown


def test_bounded_load_takes_the_options_by_keyword_only():
    with pytest.raises(TypeError, match="positional argument"):
        BoundedLoad(NODES, 1.25, None, 7)  # type: ignore[misc]
    b = BoundedLoad(NODES, 1.25, None, seed=7)
    assert owners(b, KEYS[:20]) == [Rendezvous(NODES, seed=7).owner(k) for k in KEYS[:20]]
