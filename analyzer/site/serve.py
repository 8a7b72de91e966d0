"""``warnscope site serve``: a built site on 127.0.0.1, its own files and nothing else.

The served directory may hold what someone else put there (``shadow.html ->
/etc/shadow``, a directory linked out, a FIFO), and warnscope often runs as root. So a
request is answered only with a regular file reached from the directory without
following any link: each component of the path is opened with ``O_NOFOLLOW`` from the
descriptor of the directory before it (:class:`warnscope.extract.Tree`'s walk), and the
file opened is checked with ``fstat``. A directory is its ``index.html`` (reached the
same way); anything else -- a link, a FIFO, a device, ``..`` spelled in any way, a
missing file -- is 404. Only GET and HEAD are answered.

A slow or idle client cannot hold a thread for ever: every socket operation times out
after :data:`SOCKET_TIMEOUT` s, a connection is cut after :data:`REQUEST_DEADLINE` s
whatever it does, and at most :data:`MAX_CLIENTS` are served at once (more are
closed at once). The server ends with the process's signal (Ctrl-C, SIGTERM): the
handler threads are daemons and nothing waits for them.
"""
from __future__ import annotations

import http.server
import mimetypes
import os
import socket
import stat
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from warnscope.errors import BadInput, CannotListen
from warnscope.extract import Tree
from warnscope.text import one_line

#: Seconds any one operation on a client's socket may take (a read, a write, accept).
SOCKET_TIMEOUT = 10.0
#: Seconds a connection may last in all, however slowly it trickles.
REQUEST_DEADLINE = 60.0
#: Connections served at once; one more is closed on arrival.
MAX_CLIENTS = 32
#: Bytes read from a file per write to the client.
CHUNK = 64 << 10
INDEX = "index.html"


class NotServed(Exception):
    """A request path that names no file this server gives out (answered 404)."""


def request_parts(target: str) -> tuple[tuple[str, ...], bool]:
    """The path components of a request target (query and fragment dropped, ``%xx``
    decoded), and whether it ends with ``/``. ``..`` (``%2e%2e`` once decoded), a NUL
    or a backslash anywhere is :class:`NotServed`; empty and ``.`` components go."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(target).path, errors="strict")
    parts = tuple(p for p in path.split("/") if p not in ("", "."))
    if any(p == ".." or "\0" in p or "\\" in p for p in parts):
        raise NotServed(target)
    return parts, path.endswith("/")


def open_regular(tree: Tree, parts: tuple[str, ...], slash: bool = False
                 ) -> tuple[int, os.stat_result, str]:
    """An open descriptor on the regular file ``parts`` of ``tree``, its ``fstat`` and
    its name, every component entered without following a link; a directory gives its
    ``index.html`` (a request ending with ``/`` must name one). Anything else is
    :class:`NotServed`."""
    for attempt in ((*parts, INDEX),) if slash or not parts else (parts, (*parts, INDEX)):
        try:
            fd = tree._open(attempt)  # Tree's O_NOFOLLOW walk from the root's descriptor
        except (OSError, ValueError):
            raise NotServed("/".join(parts)) from None
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            return fd, st, attempt[-1]
        os.close(fd)
        if not stat.S_ISDIR(st.st_mode):
            break
    raise NotServed("/".join(parts))


def is_directory(tree: Tree, parts: tuple[str, ...]) -> bool:
    """Whether ``parts`` is a directory of ``tree`` reached without a link."""
    if not parts:
        return True
    try:
        fd = tree._open(parts)
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISDIR(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the site's regular files; see the module's docstring."""

    server: "SiteServer"
    timeout = SOCKET_TIMEOUT          # StreamRequestHandler sets it on the socket
    server_version = "warnscope"

    def version_string(self) -> str:
        return self.server_version

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def _answer(self, body: bool) -> None:
        tree = self.server.tree
        try:
            parts, slash = request_parts(self.path)
            if parts and not slash and is_directory(tree, parts):
                # as a static host does: relative links of dir/index.html need the slash
                self.send_response(301)
                self.send_header("Location", "/" + "/".join(urllib.parse.quote(p) for p in parts) + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            fd, st, name = open_regular(tree, parts, slash)
        except (NotServed, UnicodeDecodeError):
            self.send_error(404, "Not found")
            return
        with os.fdopen(fd, "rb") as fh:
            self.send_response(200)
            self.send_header("Content-Type", mimetypes.guess_type(name)[0] or "application/octet-stream")
            self.send_header("Content-Length", str(st.st_size))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            left = st.st_size if body else 0   # what fstat said: a file that grows is cut
            while left > 0:
                chunk = fh.read(min(CHUNK, left))
                if not chunk:
                    break
                self.wfile.write(chunk)
                left -= len(chunk)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 -- the base's name
        """One line per request on stderr, the client's text with its control characters
        made visible (a request line cannot drive the terminal)."""
        sys.stderr.write(one_line(f"{self.address_string()} - {format % args}") + "\n")


class SiteServer(http.server.ThreadingHTTPServer):
    """The server: 127.0.0.1 only, a bounded number of clients, each under a deadline
    that the serving loop enforces (:meth:`service_actions`, twice a second)."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, tree: Tree, port: int):
        self.tree = tree
        self._slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self._deadlines: dict[socket.socket, float] = {}
        self._lock = threading.Lock()
        super().__init__(("127.0.0.1", port), SiteHandler)
        self.socket.settimeout(SOCKET_TIMEOUT)  # accept too: a vanished client cannot block it

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        with self._lock:
            self._deadlines[request] = time.monotonic() + REQUEST_DEADLINE
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._done(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._done(request)

    def _done(self, request: Any) -> None:
        with self._lock:
            if self._deadlines.pop(request, None) is None:
                return
        self._slots.release()

    def service_actions(self) -> None:
        """Cut the connections past their deadline (their thread then ends)."""
        now = time.monotonic()
        with self._lock:
            late = [s for s, end in self._deadlines.items() if end < now]
        for s in late:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away mid-answer: one line, not a traceback."""
        exc = sys.exc_info()[1]
        sys.stderr.write(one_line(f"{client_address[0]} - {type(exc).__name__}: {exc}") + "\n")


def open_server(directory: str | Path, port: int) -> SiteServer:
    """A :class:`SiteServer` on 127.0.0.1:``port`` (0: any free one) for the built site
    in ``directory``, or a one-line error: no ``index.html`` there (as a regular file
    reached without a link), or the port taken."""
    tree = Tree(directory, "site")
    try:
        os.close(open_regular(tree, (), slash=True)[0])
    except NotServed:
        raise BadInput(f"{tree.shown('')}: no index.html: run 'warnscope site build -o "
                       f"{directory}' first") from None
    try:
        return SiteServer(tree, port)
    except OSError as exc:
        raise CannotListen(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}") from None
