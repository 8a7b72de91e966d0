"""One untrusted compile or run, contained: :mod:`~analyzer.sandbox.runner` runs it and
measures it (through the namespaces when the kernel allows them, else the plain fallback:
the uid or process group, rlimits and the timeout, :mod:`~analyzer.sandbox.plain`), under
the :mod:`~analyzer.sandbox.limits` it is given; :mod:`~analyzer.sandbox.zygote` and its C
source ``zygote.c`` build the namespaces once per worker."""
