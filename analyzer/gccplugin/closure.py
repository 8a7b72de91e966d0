"""What flags turn on, per GCC itself: the closure behind ``warnscope flags closure``.

It asks the GCC binary itself (through the warnscope plugin) what flags
turn on; where no plugin can be had (not a GCC, no plugin headers, compiler not
installed) it answers from the database's edges and says so.
"""
from __future__ import annotations


from flagdb import store
from flagdb.closure import Index, closure, lang_name
from warnscope.database import connect
from warnscope.errors import BadInput
from warnscope.paths import db_path

from analyzer.gccplugin import binary as gcc_binary
from analyzer.gccplugin import plugin as gcc_plugin
from analyzer.gccplugin.binary import ClosureEntry


def closure_from_plugin(compiler: str, flags: list[str], lang: str, std: str | None = None
                        ) -> tuple[list[ClosureEntry], str]:
    """GCC's own closure; the second value says where it came from."""
    plugin = gcc_plugin.locate(compiler)
    entries = gcc_binary.closure(plugin, flags, lang, std)
    note = f"from the GCC plugin ({plugin.compiler} {plugin.version}, plugin {plugin.origin})"
    return entries, note


def closure_from_database(db: str, compiler: str, flags: list[str], lang: str
                          ) -> tuple[list[ClosureEntry], str]:
    """The closure following the database's edges (for any compiler, no binary needed)."""
    data = store.load(connect(db_path(db), write=False), compiler)
    index = Index(data)
    unknown = [f for f in flags if index.resolve(f) is None]
    if unknown:
        raise BadInput(f"{compiler}: unknown flag {unknown[0]} (see: warnscope flags list {compiler})")
    # a flag given is not one it turns on, by whatever spelling it was given (-pedantic
    # is -Wpedantic: the plugin does not count the alias's target either)
    given = {index.resolve(f)[0].name for f in flags} | {index.target(f)[0].name for f in flags}
    on = closure(index, flags, lang_name(lang))
    entries = [ClosureEntry(name, value, "database edges")
               for name, value in sorted(on.items()) if name not in given and value != "0"]
    return entries, f"from the database's edges ({data.source_kind}: {data.source})"


def closure_entries(db: str, compiler: str, flags: list[str], lang: str,
                    use_plugin: bool = True, std: str | None = None
                    ) -> tuple[list[ClosureEntry], str]:
    """The plugin's closure where a plugin can be had, else the database's."""
    gcc_binary.check_lang(lang)
    if use_plugin and compiler.startswith("gcc-"):
        try:
            return closure_from_plugin(compiler, flags, lang, std)
        except gcc_plugin.PluginUnavailable as exc:
            entries, note = closure_from_database(db, compiler, flags, lang)
            return entries, f"{note}; no plugin: {exc}"
    return closure_from_database(db, compiler, flags, lang)
