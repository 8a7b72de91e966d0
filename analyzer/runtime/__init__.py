"""What every family runs on: the compilers (:mod:`~analyzer.runtime.toolchain`, and the
Debian roots of those the host cannot install, :mod:`~analyzer.runtime.roots`), the
worker processes (:mod:`~analyzer.runtime.executors`) and the progress protocol
(:mod:`~analyzer.runtime.progress`)."""
