"""A click group that imports a command's module only when the command runs.

``warnscope flags diff`` should not pay for importing the UB runner or the GCC
plugin driver; start-up time is most of a quick query's cost.
"""
from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """``lazy`` maps a command name to ``"module:attribute"`` of its click command."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)
