"""warnscope's warning-flag database: parsers for GCC option files and clang
diagnostic tables, the SQLite store, and the queries over it."""
