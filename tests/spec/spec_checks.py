"""The command-line runner the `test_spec_*.py` files share: each named check returns how many values it
checked, or fails an assertion; one line per check, then the plain `N passed, N failed` summary."""


def run_checks(checks):
    passed, failed = 0, 0
    for name, fn in checks:
        try:
            n = fn()
            print("%-8s ok   %d checked" % (name, n))
            passed += 1
        except AssertionError as e:
            print("%-8s FAIL %s" % (name, e))
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0
