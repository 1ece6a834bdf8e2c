"""What the ``varlab`` command makes of the text it is given: one-line errors (CommandError), the
closest name to a misspelt one (the parser's errors and the simulate command's parameters), numbers,
a model's grid of parameters and its options, a paper's key."""
from __future__ import annotations

import argparse
import ast

import numpy as np

from ._validate import did_you_mean

__all__ = ["CommandError", "Parser", "paper_key"]


class CommandError(Exception):
    """A user error: ``varlab`` prints it as one line (``varlab: error: ...``) and exits with 2.

    Examples
    --------
    >>> str(CommandError("check: unknown paper(s) ['999']"))
    "check: unknown paper(s) ['999']"
    """


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors add the closest name to a misspelt choice or option.

    Examples
    --------
    >>> import contextlib, io
    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("--budget")
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     try:
    ...         parser.parse_args(["--budgt", "test"])
    ...     except SystemExit:
    ...         pass
    >>> err.getvalue().splitlines()[-1]
    "demo: error: unrecognized arguments: --budgt test (did you mean '--budget'?)"
    """

    def error(self, message: str):
        import re

        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            message += did_you_mean(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)))
        for option in re.findall(r"(--[\w-]+)", message.split("unrecognized arguments:")[-1]) \
                if "unrecognized arguments:" in message else ():
            message += did_you_mean(option, self._option_string_actions)
        super().error(message)


def _number(text: str):
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise CommandError(f"simulate: {text!r} is not a number") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CommandError(f"simulate: {text!r} is not a number")
    return value


def _model(model_name: str) -> type:
    """The registered model class, or a one-line error with the closest name."""
    from .mc import available_models, model_class

    if model_name not in available_models():
        raise CommandError(f"simulate: unknown model {model_name!r}{did_you_mean(model_name, available_models())}; "
                           "`varlab simulate --help` lists the models")
    return model_class(model_name)


def _grid_arguments(model_name: str, extra: list[str], own_options=()) -> dict:
    """``--name v1 v2 ...`` pairs for the model's declared parameters, each value checked against
    its parameter's domain (so that an error names the value as typed); ``own_options``: the
    command's own options, suggested for a misspelt one."""
    from .theory import parameter

    cls = _model(model_name)
    grid, name = {}, None
    for token in extra:
        if token.startswith("--"):
            name = token[2:].replace("-", "_")
            if name not in cls.parameters:
                options = [*cls.parameters, *(option[2:].replace("-", "_") for option in own_options)]
                raise CommandError(f"simulate: model {model_name!r} has parameters {list(cls.parameters)}; "
                                   f"unknown option --{name}{did_you_mean(name, options)}")
            grid[name] = []
        elif name is None:
            raise CommandError(f"simulate: unexpected argument {token!r}")
        else:
            value = _number(token)
            parameter(name).validate(value)
            grid[name].append(value)
    missing = [p for p in cls.parameters if not grid.get(p)]
    if missing:
        raise CommandError(f"simulate: model {model_name!r} needs "
                           + " ".join(f"--{p} VALUE [VALUE ...]" for p in missing))
    names = list(grid)
    # values of different parameters form a full grid (outer product), like separate axes
    return {name: np.reshape(values, [-1 if i == j else 1 for j in range(len(names))])
            for i, (name, values) in enumerate(grid.items())}


def _options(model_name: str, pairs) -> dict:
    """``--option NAME=VALUE`` pairs, checked against the options the model's class declares."""
    declared = [option.split("=")[0] for option in _model_options(_model(model_name))]
    options = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise CommandError(f"simulate: --option takes NAME=VALUE, got {pair!r}")
        name, text = pair.split("=", 1)
        if name not in declared:
            takes = f"takes the options {declared}" if declared else "takes no options"
            raise CommandError(f"simulate: model {model_name!r} {takes}; got {name!r}"
                               + did_you_mean(name, declared))
        try:
            options[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            options[name] = text
    return options


def paper_key(text: str) -> str:
    """A paper's key as typed: "2" and "02" are "002"; other keys ("beyond") as they are.

    Examples
    --------
    >>> paper_key("2"), paper_key("02"), paper_key("beyond")
    ('002', '002', 'beyond')
    """
    return text.zfill(3) if text.isdigit() else text


def _model_options(cls) -> list[str]:
    import inspect

    signature = inspect.signature(cls.__init__)
    return [f"{name}={parameter.default!r}" for name, parameter in list(signature.parameters.items())[1:]
            if parameter.default is not inspect.Parameter.empty]
