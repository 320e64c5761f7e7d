"""The `graphiq-ci` command line: option parsing only, one module per subcommand.

Each subcommand lives in `graphiq_ci/commands/<name>.py` and exposes `register(commands)`,
which adds its parser (`commands.common.add_command`) and the function that runs it.
Errors users can cause are `GraphiqError` → one line on stderr, exit 2; `--debug` shows
tracebacks. A usage error (an unknown option, a value out of range) prints the usage line
and exits 2 as well.
"""

from __future__ import annotations

import gc
import os
import sys

# The hook's shortcut (`run`) parses nothing, so argparse loads in `build_parser`; the name is
# for the type checker alone (mypy reads any `TYPE_CHECKING` as true), and importing typing
# for it would cost `--help` what it saves the hook.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

DESCRIPTION = "Turn a repository plus a task or PR description into the code that matters."
#: the exit status when the reader of the output left early: a shell's for a filter that
#: SIGPIPE ended (128 + 13), without Python's traceback
SIGPIPE_STATUS = 141


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of `command` alone when it names one (what a run needs), else of every
    command (the command list, a usage error)."""
    import argparse
    from importlib import import_module

    from graphiq_ci.commands import COMMANDS
    from graphiq_ci.commands.common import HelpFormatter

    parser = argparse.ArgumentParser(prog="graphiq-ci", description=DESCRIPTION,
                                     allow_abbrev=False, formatter_class=HelpFormatter)
    parser.add_argument("--debug", action="store_true",
                        help="Show a traceback instead of a one-line error (any position).")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, module in COMMANDS.items():
        if command in (None, name) or command not in COMMANDS:
            import_module(module).register(commands)
    return parser


def run(argv: list[str]) -> int:
    """Parse `argv` (without the program name), run its command, return the exit status."""
    if argv == ["index", "--hook"]:  # every commit runs this: nothing but the refresh loads
        from pathlib import Path

        from graphiq_ci.hook import refresh_quietly

        return refresh_quietly(Path("."))
    if "--debug" in argv:
        argv = [a for a in argv if a != "--debug"]
        os.environ["GRAPHIQ_DEBUG"] = "1"
    from graphiq_ci.commands.common import Exit

    parser = build_parser(argv[0] if argv else None)
    if not argv:  # the command list, as a usage error: nothing was asked
        parser.print_help()
        return 2
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has printed
        return exc.code if isinstance(exc.code, int) else 2
    if not hasattr(args, "run"):  # options but no command
        parser.print_usage(sys.stderr)
        return 2
    try:
        return args.run(args) or 0
    except Exit as exc:
        return exc.code


def main() -> None:
    # One command, then exit: what the cycle collector would free is freed at exit anyway,
    # and its passes over every live object were 15-20 ms of a refresh of zod's largest
    # file and 10 ms of a warm `context` (#14). The parse pool's workers and the MCP
    # server, which live longer, turn it back on.
    gc.disable()
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (`| head`): end quietly, as a filter does
        code = SIGPIPE_STATUS
    # Nor is the interpreter torn down: freeing every object and module one by one was
    # 12-15 ms of a refresh of zod's largest file and of a warm `context` (#14). Every
    # command has closed what it opened by now (the index, the process pools, files); only
    # the standard streams' buffers are left to write. A traceback (`--debug`) does not get
    # here: it exits the usual way, and so does a run under a profiler or a coverage tool,
    # which writes its report at exit.
    if sys.getprofile() or sys.gettrace():
        sys.exit(code)
    sys.stderr.flush()
    os._exit(code)
