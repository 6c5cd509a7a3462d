"""Command line: `python -m referee replay FILE|-` and `python -m referee simulate`.

    python -m referee replay match.json        # table-result/1 JSON on stdout, exit 0
    python -m referee replay - < match.json    # read the record from stdin
    python -m referee simulate --rulebook union-2deck --seed 7 [--deals 3]

An invalid record exits 1 with one line `error: <message>` on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from referee.errors import RefereeError


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _replay(path: str) -> int:
    from referee.record import load_record, replay_document

    text = _read(path)
    result = replay_document(load_record(text))
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _simulate(rulebook_name: str, seed: int, deals: int | None) -> int:
    from referee.record import rulebook_of

    rulebook = rulebook_of({"rulebook": rulebook_name})
    if rulebook.game == "guandan":
        from referee.guandan import simulate_guandan

        record = simulate_guandan(rulebook, seed)
    else:
        from referee.shengji.simulate import simulate_match

        record = simulate_match(rulebook, seed, deals=deals)
    print(json.dumps(record, ensure_ascii=False, indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m referee", description="Table Referee engine")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a table record, print the result JSON")
    replay.add_argument("file", help="the record file, or - for stdin")
    simulate = commands.add_parser("simulate", help="print a random, fully legal table record")
    simulate.add_argument("--rulebook", required=True, help="preset name (union-2deck, …)")
    simulate.add_argument("--seed", type=int, default=0, help="random seed (deterministic)")
    simulate.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            return _replay(args.file)
        return _simulate(args.rulebook, args.seed, args.deals)
    except (RefereeError, OSError, UnicodeDecodeError, RecursionError) as error:
        message = str(error).replace("\n", " ")
        if isinstance(error, OSError) and error.filename is not None:
            message = f"cannot read {error.filename}: {error.strerror}"
        print(f"error: {message}", file=sys.stderr)
        return 1
    except Exception as error:  # never a traceback at the table; say what broke
        print(f"error: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
