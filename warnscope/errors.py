"""The errors a user can cause, typed by cause.

The CLI turns any :class:`WarnscopeError` into one line on stderr and a non-zero exit;
anything else is a bug and keeps its traceback. Code that wants to *branch* on a
failure catches the one subclass it means (a compiler not ingested yet may be
ingested; a busy or damaged database must never be answered with a download), never
:class:`WarnscopeError` as a whole.
"""
from __future__ import annotations


class WarnscopeError(Exception):
    """A user-facing error; its text is the one line the user sees."""


class BadInput(WarnscopeError):
    """An argument, option value or input file is wrong (an unknown compiler id, ``--runs
    nan``, a malformed option file)."""


class ParseError(BadInput):
    """Malformed input file; the message always names the file and, where known, the line."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path = path
        self.line = line
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


class UnsafeInput(BadInput):
    """A file of a corpus, tree or archive that warnscope refuses to read on its behalf
    (a link leading out, a device or FIFO, an absolute or ``..`` name, too large)."""


class NotIngested(WarnscopeError):
    """A compiler's flag data is not in the database (yet)."""


class NotInstalled(WarnscopeError):
    """A compiler or tool is not on this machine nor in a prepared root."""


class IncompleteInstallation(WarnscopeError):
    """A file of warnscope's own installation is missing (the site's templates)."""


class NeedsPrivilege(WarnscopeError):
    """The operation needs root here (debootstrap of a toolchain root, BPF accounting)."""


class ToolFailed(WarnscopeError):
    """A tool warnscope ran for itself failed: could not start, exited non-zero, said
    something that is not UTF-8, or was killed."""


class ToolTimeout(ToolFailed):
    """A tool warnscope ran for itself did not finish within its timeout (it and its
    process group were killed)."""


class BuildFailed(WarnscopeError):
    """A project's build or one of its compiles failed where warnscope needs it to
    succeed (a probe of an attribution)."""


class RunFailed(WarnscopeError):
    """A run finished with some of its cells, builds or jobs failed: what finished is
    stored, and the exit status says that not everything did."""


class AnalyzerUnavailable(WarnscopeError):
    """A static analyzer of a study's cell cannot say what it found: it is not installed
    or not in this compiler version, it crashed, hung, or printed output of a shape not
    understood. The cell says so ("analyzer unavailable: why"), never "found nothing"."""


class Unverified(WarnscopeError):
    """A compiler's stored entry disagrees with its binary where no known rule explains
    it (``flags verify``)."""


class WorkerDied(WarnscopeError):
    """A worker process warnscope started died under it (out of memory, killed)."""


class SchedulerUnsuitable(WarnscopeError):
    """The Dask cluster answers but cannot run the work as asked (no workers, workers
    not limited to one timing cell at a time)."""


class CannotWrite(WarnscopeError):
    """An output warnscope was asked to write cannot be written there (not a directory,
    read-only, disk full)."""


class CannotListen(WarnscopeError):
    """The local server cannot listen on the port asked for (taken, not permitted)."""


class PackageError(WarnscopeError):
    """A Debian package or its contents are not what warnscope needs (no such package in
    any suite, a file missing from it)."""


class NetworkUnreachable(PackageError):
    """Debian's archive could not be reached (no network, DNS, a proxy)."""


class Unsatisfiable(PackageError):
    """A Debian package's build dependencies cannot be installed in its suite: whether it
    builds with a compiler cannot be told."""


class SandboxUnavailable(WarnscopeError):
    """The sandbox for untrusted compiles and runs cannot be built on this machine."""


class DatabaseError(WarnscopeError):
    """The database file cannot be used as asked."""


class DatabaseBusy(DatabaseError):
    """Another process holds the database past the busy timeout."""


class CorruptDatabase(DatabaseError):
    """A warnscope database that is damaged (bad pages, a table missing)."""


class NotADatabase(DatabaseError):
    """The file is not a warnscope database (another application's, not SQLite, too new)."""


class ForeignSchema(NotADatabase):
    """The file's schema holds what warnscope did not put there (a trigger, a view, an
    index or table of its own, a table defined otherwise): refused before anything runs."""


class DatabaseUnwritable(DatabaseError):
    """The database cannot be written here (read-only, disk full, I/O error)."""


class OldSchema(DatabaseError):
    """The database's schema is older than this warnscope's: a writing command upgrades
    it, a query does not."""


class NoData(DatabaseError):
    """The database has nothing to answer the question with (missing or empty file, no
    study or run of that name)."""
