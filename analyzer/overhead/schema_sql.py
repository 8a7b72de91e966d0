"""The tables of build-overhead studies (to be folded into flagdb.schema on merge)."""

OVERHEAD_SCHEMA = """
-- ------------------------------------------------------------------ build overhead
-- A project as built: a Debian source package at a version, a local tree, or a
-- compile_commands.json.
CREATE TABLE IF NOT EXISTS oh_project (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,          -- 'zlib', 'local:mytree', 'ccdb:/path/compile_commands.json'
    kind          TEXT NOT NULL,          -- 'debian' | 'local' | 'ccdb'
    origin        TEXT NOT NULL,          -- 'zlib_1.2.13.dfsg-1' or an absolute path
    build_system  TEXT NOT NULL,          -- 'make' | 'autotools' | 'cmake' | 'custom' | 'ccdb'
    languages     TEXT NOT NULL,          -- JSON list: ["c"], ["c++"]
    UNIQUE (name, origin)
);

-- One set of parameters; rerunning the same parameters resumes it (stored cells are skipped).
CREATE TABLE IF NOT EXISTS oh_study (
    id            INTEGER PRIMARY KEY,
    key           TEXT NOT NULL UNIQUE,   -- sha256 of the parameters below and the host
    project_id    INTEGER NOT NULL REFERENCES oh_project(id),
    mode          TEXT NOT NULL CHECK (mode IN ('build', 'tu')),
    opt           TEXT NOT NULL,          -- '-O2'
    runs          INTEGER NOT NULL,       -- counted runs per cell (after one warm-up)
    jobs          INTEGER NOT NULL,       -- make -j
    nice          INTEGER NOT NULL,
    sched         TEXT,                   -- NULL | 'batch' | 'idle'
    noise         REAL NOT NULL,          -- spread threshold of a noisy cell: (max-min)/median
    host          TEXT NOT NULL,
    machine       TEXT NOT NULL,          -- JSON: cpu, cores, kernel, python, load at start
    started_at    TEXT NOT NULL
);

-- One compiler x level of a study; written in one transaction once all its runs are done.
CREATE TABLE IF NOT EXISTS oh_cell (
    id                 INTEGER PRIMARY KEY,
    study_id           INTEGER NOT NULL REFERENCES oh_study(id) ON DELETE CASCADE,
    compiler           TEXT NOT NULL,     -- 'gcc-12'
    compiler_version   TEXT NOT NULL,     -- first line of --version
    compiler_identity  TEXT NOT NULL,     -- analyzer.toolchain identity
    level              TEXT NOT NULL,     -- 'off' | 'default' | 'wall' | 'wextra' | 'all' | custom name
    flags              TEXT NOT NULL,     -- JSON {"c": [...], "c++": [...]}: the exact flags appended
    status             TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error              TEXT,              -- failed: what failed
    log_tail           TEXT,              -- failed: the last lines of the build's output
    warnings           INTEGER,           -- warning lines of one build (the last counted run)
    noisy              INTEGER NOT NULL DEFAULT 0,
    spread             REAL,              -- (max-min)/median of CPU
    max_load           REAL,              -- highest 1-minute load average seen at a run's start
    finished_at        TEXT NOT NULL,
    UNIQUE (study_id, compiler, compiler_identity, level, flags)
);

-- Counted runs of a cell: a whole build, or (tu mode) the sum over its TUs.
CREATE TABLE IF NOT EXISTS oh_run (
    cell_id        INTEGER NOT NULL REFERENCES oh_cell(id) ON DELETE CASCADE,
    seq            INTEGER NOT NULL,      -- 1..runs, in the order they ran (interleaved with other cells)
    user_s         REAL NOT NULL,
    sys_s          REAL NOT NULL,
    wall_s         REAL NOT NULL,
    maxrss_kb      INTEGER NOT NULL,
    compiler_cpu_s REAL NOT NULL,         -- sum of the compiler processes' user+sys (wrapper log)
    compilers      INTEGER NOT NULL,      -- compiler processes run
    warnings       INTEGER NOT NULL,
    load1          REAL NOT NULL,
    host           TEXT NOT NULL,
    started_at     TEXT NOT NULL,
    PRIMARY KEY (cell_id, seq)
);

-- tu mode: each translation unit compiled alone, timed alone.
CREATE TABLE IF NOT EXISTS oh_tu_run (
    cell_id    INTEGER NOT NULL REFERENCES oh_cell(id) ON DELETE CASCADE,
    tu         TEXT NOT NULL,             -- source relative to the tree, '-> object' when compiled twice
    seq        INTEGER NOT NULL,
    user_s     REAL NOT NULL,
    sys_s      REAL NOT NULL,
    wall_s     REAL NOT NULL,
    maxrss_kb  INTEGER NOT NULL,
    warnings   INTEGER NOT NULL,
    exit       INTEGER NOT NULL,
    PRIMARY KEY (cell_id, tu, seq)
);
"""
