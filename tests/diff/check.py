"""Compares the differential drivers' answers: every language and form must
give Rust's answer (owner, top-k, top-k-distinct, or the same error class) for
every case, and the string forms (Python, Node) must cover the same cases."""

import sys
from collections import defaultdict

from cases import read_sets


def load(path):
    answers = defaultdict(dict)  # form -> (set, item) -> answer
    with open(path) as f:
        for line in f:
            form, set_no, item, answer = line.rstrip("\n").split(" ", 3)
            answers[form][(set_no, item)] = answer
    return answers


def main(cases_path, outputs):
    sets = list(read_sets(cases_path))
    keys = sum(len(s[3]) for s in sets)
    lones = sum(len(s[4]) for s in sets)
    results = {lang: load(path) for lang, path in (o.split("=", 1) for o in outputs)}
    reference = results["rust"]["b"]
    problems = []

    def compare(lang, form, got, want_keys):
        missing = want_keys - got.keys()
        if missing:
            problems.append(f"{lang}/{form}: {len(missing)} cases missing, e.g. {sorted(missing)[:3]}")
        for case, answer in got.items():
            if case[1].startswith("L"):
                if answer != "ERR invalid_string":
                    problems.append(f"{lang}/{form} {case}: lone surrogate gave {answer!r}, not invalid_string")
                continue
            # A set that failed to build has no key lines in the reference.
            want = reference.get(case) or reference.get((case[0], "BUILD"))
            if answer != want:
                want = str(want)
                at = next((i for i, (x, y) in enumerate(zip(answer, want)) if x != y), min(len(answer), len(want)))
                problems.append(
                    f"{lang}/{form} {case}: differs from rust at char {at}: "
                    f"{answer[max(0, at - 20):at + 40]!r} vs {want[max(0, at - 20):at + 40]!r}"
                )

    compared = defaultdict(int)
    for lang, forms in results.items():
        for form, got in forms.items():
            if form == "b":
                compare(lang, form, got, set(reference))
            else:
                compare(lang, form, got, set(results["python"].get(form, {})))
            compared[f"{lang}/{form}"] = len(got)
    print(f"diff: {len(sets)} sets, {keys} keys, {lones} lone-surrogate strings; languages: {', '.join(results)}")
    print("diff: answers compared: " + ", ".join(f"{k} {v}" for k, v in sorted(compared.items())))
    if problems:
        print(f"diff: {len(problems)} DISAGREEMENTS with Rust, first 10:")
        for p in problems[:10]:
            print("  " + p)
        sys.exit(1)
    print("diff: every language and form agrees with Rust on every case")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
