"""How the command line reports errors: one line ``error: ...`` on stderr and exit status 2.

Two sources of errors reach the user. mafioso's own (:class:`~mafioso.engine.MafiosoError`) are
caught by :func:`friendly` around each command. Errors in the arguments themselves (an unknown
flag, ``--games abc``) are raised by click, the parser under typer, before any command runs;
:class:`FriendlyGroup` reports them the same way instead of click's boxed usage screen. With
``--json``, the error is also printed on stdout as ``{"error": ..., "type": ...}``, so a program
reading stdout always gets JSON.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from mafioso.engine import MafiosoError

err = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])

# typer 0.29 ships its own copy of click; older versions use click itself. Both raise
# ``BadParameter``, whose ancestors are the classes to catch, whichever copy they come from.
_CLICK = {cls.__name__: cls for cls in typer.BadParameter.__mro__}
CLICK_ERROR: type[Exception] = _CLICK["ClickException"]
NO_ARGS_IS_HELP: type[Exception] | None = getattr(sys.modules[CLICK_ERROR.__module__], "NoArgsIsHelpError", None)

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130


class CommandError(MafiosoError):
    """An error of one command, with details (``file``, ``field``, ``decision``) for ``--json``."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.details = {key: value for key, value in details.items() if value is not None}


def emit_json(data: Any) -> None:
    """Print JSON for machines: plain stdout, no colour, and never ``NaN`` (strict parsers refuse it)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n")


def one_line(text: str) -> str:
    """Error messages are one line, whatever text they quote."""
    return re.sub(r"\s*\n\s*", " ", text).strip()


def error_json(error: BaseException, kind: str | None = None) -> dict[str, Any]:
    """The ``--json`` form of an error: ``{"error": message, "type": class name, ...details}``."""
    out: dict[str, Any] = {"error": one_line(str(error)), "type": kind or type(error).__name__}
    out.update(getattr(error, "details", {}))
    field = getattr(error, "field", None)
    if isinstance(field, str):
        out.setdefault("field", field)
    return out


def fail(error: BaseException, as_json: bool = False, kind: str | None = None) -> NoReturn:
    """Report an error (one line on stderr; JSON on stdout with ``--json``) and exit with status 2."""
    err.print(f"[bold red]error:[/] {escape(one_line(str(error)))}", highlight=False, soft_wrap=True)
    if as_json:
        emit_json(error_json(error, kind))
    raise typer.Exit(EXIT_ERROR)


def friendly(func: F) -> F:
    """Turn mafioso's errors into one line on stderr and exit status 2, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MafiosoError as error:
            fail(error, bool(kwargs.get("as_json")))
        except OSError as error:  # a file the command did not expect to touch: still one line
            where = f"{error.filename}: " if error.filename else ""
            fail(CommandError(f"{where}{error.strerror or error}"), bool(kwargs.get("as_json")))

    return wrapper  # type: ignore[return-value]


def _plain(option: Any) -> Any:
    if option is not None and getattr(option, "metavar", None) is None:
        option.metavar = ""
    return option


class FriendlyGroup(TyperGroup):
    """The command group, reporting argument errors as one ``error:`` line, like every other error."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        """Run the command line; in standalone mode, exit with its status (0, 1, 2, or 130 on Ctrl-C)."""
        argv = list(sys.argv[1:] if args is None else args)
        if not standalone_mode:
            return super().main(argv, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            status = super().main(argv, prog_name, complete_var, False, windows_expand_args, **extra)
        except CLICK_ERROR as error:
            status = self._report(error, argv)
        except typer.Abort:
            err.print("\nAborted.", highlight=False)
            status = 1
        sys.exit(status if isinstance(status, int) else 0)

    def get_help_option(self, ctx: Any) -> Any:
        """``--help`` without a ``<bool>`` type beside it: it is a flag, and says so already."""
        return _plain(super().get_help_option(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """Each command, with the same plain ``--help``."""
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain(command.get_help_option(ctx))
        return command

    @staticmethod
    def _report(error: Exception, argv: list[str]) -> int:
        if NO_ARGS_IS_HELP is not None and isinstance(error, NO_ARGS_IS_HELP):
            return int(getattr(error, "exit_code", EXIT_ERROR))  # typer has printed the help screen already
        ctx = getattr(error, "ctx", None)
        message = str(error.format_message()) if hasattr(error, "format_message") else str(error)
        message = message[:1].lower() + message[1:]
        command = ctx.command_path if ctx is not None else "mafioso"
        try:
            fail(MafiosoError(f"{message.rstrip('.')} (see: {command} --help)"), "--json" in argv, "UsageError")
        except typer.Exit as exit_:
            return exit_.exit_code
