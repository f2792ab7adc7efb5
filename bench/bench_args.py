"""key=value arguments of the Python benchmark scripts (plus --json), checked against their defaults:
the counterpart of bench_args.h."""
import sys


def parse_bench_args(defaults: dict) -> tuple[dict, bool]:
    """Returns (arguments, as_json); exits naming the first argument that is not a known key=value."""
    args = dict(defaults)
    as_json = False
    for a in sys.argv[1:]:
        if a == "--json":
            as_json = True
            continue
        key, sep, value = a.partition("=")
        if not sep or key not in args:
            sys.exit(f"bad argument {a!r} (keys: {', '.join(args)})")
        args[key] = value
    return args, as_json
