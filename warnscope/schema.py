"""The database schema: one commented SQL string, a version, and the migrations.

One module holds the tables of all four families (flags, UB, build overhead with its
attribution) because the database is one versioned contract: a single ``PRAGMA
user_version`` numbers the whole file, a migration may touch any family, and the base
(:mod:`warnscope.database`) creates and migrates the file without importing the
families (flagdb, analyzer), which import it. Each family's queries stay in its own
store, named in the header of its section below.

A new database gets ``SCHEMA`` and the current version; an older one gets each
migration after its version, in order, inside one transaction. A database newer than
this code is refused rather than guessed at.

Each migration is frozen: the literal SQL its version introduced, never derived from
``SCHEMA``. ``SCHEMA`` may be re-commented; an old database must still get exactly
what its next version defined. Changing a table therefore means a new version and a
migration of its own, and tests/unit/test_migrations.py checks that a database of every
earlier version (tests/fixtures/schema/) migrates to the tables ``SCHEMA`` creates.
"""

SCHEMA_VERSION = 15

#: The current schema, by family; what a new database is created with.
SCHEMA = """
-- ------------------------------------------------------------------ flags
-- Read and written by flagdb/store.py.
-- One row per ingested compiler version ('gcc-12', 'clang-16').
CREATE TABLE IF NOT EXISTS compiler (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,   -- 'gcc-12'
    family        TEXT NOT NULL,          -- 'gcc' | 'clang'
    version       TEXT NOT NULL,          -- exact: '12.2.0'
    source_kind   TEXT NOT NULL,          -- 'debian-package' | 'source-tree' | 'tarball' | 'binary' | 'inc-dir'
    source        TEXT NOT NULL,          -- package and version, or a path
    content_hash  TEXT NOT NULL,          -- sha256 of the parsed content: same hash, nothing to do
    ingested_at   TEXT NOT NULL,
    -- source_kind 'debian-package' only (else NULL):
    package        TEXT,                  -- 'gcc-14-source', 'libclang-18-dev'
    debian_version TEXT,                  -- exact: '14.2.0-19', '1:18.1.8-18+b1'
    suite          TEXT                   -- where it was taken from: 'trixie'
);

-- Every warning option of a compiler version, named as typed ('-Wformat=', '-Wall').
CREATE TABLE IF NOT EXISTS flag (
    compiler_id     INTEGER NOT NULL REFERENCES compiler(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    kind            TEXT NOT NULL,        -- 'warning' | 'remark'
    alias_of        TEXT,                 -- target as typed, with its value: '-Wformat=1'
    default_state   TEXT NOT NULL,        -- 'on' | 'off' | 'partial' | 'code' | a value
    languages       TEXT NOT NULL,        -- JSON list; [] = all
    takes_argument  INTEGER NOT NULL,
    argument        TEXT,                 -- '<0,2>', '[none|id|nfc|nfkc]'
    ignored         INTEGER NOT NULL,     -- accepted, does nothing
    removed         INTEGER NOT NULL,
    description     TEXT NOT NULL,
    origin          TEXT NOT NULL,        -- defining files
    c_family        INTEGER NOT NULL,     -- 0: only other front ends / targets
    facts           TEXT NOT NULL,        -- JSON object: GccFacts / ClangFacts (flagdb/model.py)
    PRIMARY KEY (compiler_id, name)
);

-- parent turns on child (EnabledBy, LangEnabledBy, clang subgroups).
CREATE TABLE IF NOT EXISTS edge (
    compiler_id  INTEGER NOT NULL REFERENCES compiler(id) ON DELETE CASCADE,
    parent       TEXT NOT NULL,
    child        TEXT NOT NULL,
    value        TEXT NOT NULL,           -- value given to the child: '1', '2', '0'
    parent_min   INTEGER,                 -- only when the parent's level is at least this
    requires     TEXT NOT NULL,           -- JSON list of flags that must be on as well
    languages    TEXT NOT NULL            -- JSON list; [] = all of the child's
);
CREATE INDEX IF NOT EXISTS edge_parent ON edge(compiler_id, parent);
CREATE INDEX IF NOT EXISTS edge_child ON edge(compiler_id, child);

-- The diagnostics a flag controls (clang DIAG rows).
CREATE TABLE IF NOT EXISTS message (
    compiler_id  INTEGER NOT NULL REFERENCES compiler(id) ON DELETE CASCADE,
    flag         TEXT NOT NULL,
    diag         TEXT NOT NULL,           -- 'warn_decl_shadow'
    diag_class   TEXT NOT NULL,           -- 'WARNING' | 'EXTENSION' | 'REMARK' …
    severity     TEXT NOT NULL,           -- default severity: 'Ignored' = off by default
    text         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS message_flag ON message(compiler_id, flag);

-- --------------------------------------------------------------------- UB
-- Read and written by analyzer/ub/store.py. A corpus is named by its resolved path; a case
-- id is the program's path under it without extension ('signed-integer-overflow/loop').
CREATE TABLE IF NOT EXISTS ub_case (
    corpus        TEXT NOT NULL,
    id            TEXT NOT NULL,
    category      TEXT NOT NULL,
    language      TEXT NOT NULL,          -- 'c' | 'c++'
    std           TEXT NOT NULL,          -- 'c17'
    standard      TEXT NOT NULL,          -- 'C17 6.5p5'; '' without metadata
    summary       TEXT NOT NULL,
    ub            INTEGER,                -- 1 UB, 0 control, NULL unknown (no metadata)
    expected_exit INTEGER NOT NULL,
    expectations  INTEGER NOT NULL,       -- number of expected outputs; 0 = none
    source_hash   TEXT NOT NULL,
    meta          TEXT NOT NULL,          -- JSON object of the ub-case block
    PRIMARY KEY (corpus, id)
);

-- One cell: a case compiled by one compiler at one level with one flag set, run N times.
CREATE TABLE IF NOT EXISTS ub_cell (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    compiler      TEXT NOT NULL,          -- 'gcc-12'
    level         TEXT NOT NULL,          -- '-O2'
    flags         TEXT NOT NULL,          -- extra flags, space separated; '' = none
    key           TEXT NOT NULL,          -- sha256 of everything the result depends on
    outcome       TEXT NOT NULL,          -- expected | unexpected-output | crash | hang |
                                          -- nonzero-exit | nondeterministic | compile-error | completed
    exploited     INTEGER,                -- NULL when the case has no expected output
    behaviour     TEXT NOT NULL,          -- outcome, with stdout digest where it tells cells apart
    exit          INTEGER,
    signal        INTEGER,
    stdout        TEXT NOT NULL,          -- first run, capped
    stderr        TEXT NOT NULL,
    compile_log   TEXT NOT NULL,
    compiler_version TEXT NOT NULL,
    runs          TEXT NOT NULL,          -- JSON list: status, exit, signal, wall, user, sys, maxrss
    host          TEXT NOT NULL,
    finished_at   TEXT NOT NULL,
    code          TEXT,                   -- ub_code.hash of the program's code; NULL: none
    code_note     TEXT,                   -- why there is no code; '' when there is; NULL: stored
                                          -- before code was kept (schema 7)
    PRIMARY KEY (corpus, case_id, compiler, level, flags),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);

-- The generated code of cells (analyzer/ub/disasm.py's normalised text), once per content:
-- cells whose programs compiled to the same code share a row.
CREATE TABLE IF NOT EXISTS ub_code (
    hash          TEXT PRIMARY KEY,       -- sha256 of the text
    size          INTEGER NOT NULL,       -- bytes of the text
    code          BLOB NOT NULL           -- the text, zlib-compressed
);

-- Warning options that fired for a case, compiler, level and flag set.
CREATE TABLE IF NOT EXISTS ub_warning (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    compiler      TEXT NOT NULL,
    level         TEXT NOT NULL,
    flags         TEXT NOT NULL,
    key           TEXT NOT NULL,
    tool          TEXT NOT NULL,          -- 'gcc-json' | 'libclang'
    options       TEXT NOT NULL,          -- JSON list: ['-Waggressive-loop-optimizations']
    PRIMARY KEY (corpus, case_id, compiler, level, flags),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);

-- Whether a sanitizer build (-O0) reports the case at run time.
CREATE TABLE IF NOT EXISTS ub_sanitizer (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    compiler      TEXT NOT NULL,
    sanitizer     TEXT NOT NULL,          -- 'undefined' | 'address' | 'memory'
    key           TEXT NOT NULL,
    detected      INTEGER,                -- NULL: the sanitizer build failed
    status        TEXT NOT NULL,          -- sandbox status of the run, or 'compile-error'
    report        TEXT NOT NULL,          -- the sanitizer's first lines
    PRIMARY KEY (corpus, case_id, compiler, sanitizer),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);

-- Why a divergent cell behaves as it does (``ub run --why``, analyzer/ub/why/why.py): the cause
-- found for the cell whose key it carries (a cell run again has a new key: its old cause
-- is not shown for it).
CREATE TABLE IF NOT EXISTS ub_why (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    compiler      TEXT NOT NULL,
    level         TEXT NOT NULL,
    flags         TEXT NOT NULL,
    key           TEXT NOT NULL,          -- ub_cell.key of the cell explained
    status        TEXT NOT NULL,          -- 'explained' | 'same' | 'unstable' | 'unknown'
    summary       TEXT NOT NULL,          -- the cause in one line
    cause         TEXT NOT NULL,          -- JSON object: analyzer/ub/results.py's Cause
    PRIMARY KEY (corpus, case_id, compiler, level, flags),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);

-- One detector tool run on one program (``ub detectors``, analyzer/ub/detectors/detect.py): a tool
-- (the warnings, the sanitizers or a static analyzer) of one compiler version on a UB case
-- or on its fixed twin, with its findings; the scores (analyzer/ub/detectors/scores.py) are computed
-- from these rows. A run whose key is stored with a lasting status is not run again.
CREATE TABLE IF NOT EXISTS ub_detector_run (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,          -- a UB case or a fixed twin
    tool          TEXT NOT NULL,          -- 'warnings' | 'sanitizers' | 'gcc-analyzer' |
                                          -- 'clang-analyzer' | 'clang-tidy' | 'cppcheck'
    version       TEXT NOT NULL,          -- the compiler's name, 'gcc-12'; 'cppcheck-2.10'
    level         TEXT NOT NULL,          -- the -O level of a warnings run; '' for the others
    key           TEXT NOT NULL,          -- sha256 of everything the run depends on
    status        TEXT NOT NULL,          -- 'ok' | 'unavailable' | 'failed' | 'timed-out' |
                                          -- 'unknown-output'
    note          TEXT NOT NULL,          -- why the status is not 'ok' (one line); '' when it is
    findings      TEXT NOT NULL,          -- JSON list of objects: detector, kind, line, message
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (corpus, case_id, tool, version, level),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);

-- ------------------------------------------------------------------ build overhead
-- Read and written by analyzer/overhead/store.py (studies, and the attribution below).
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
    runs          INTEGER NOT NULL,       -- counted runs per cell (after the warm-ups)
    jobs          INTEGER NOT NULL,       -- make -j
    nice          INTEGER NOT NULL,
    sched         TEXT,                   -- NULL | 'batch' | 'idle'
    noise         REAL NOT NULL,          -- spread threshold of a noisy cell: (max-min)/median
    host          TEXT NOT NULL,
    machine       TEXT NOT NULL,          -- JSON: cpu, cores, kernel, python, load at start
    started_at    TEXT NOT NULL,
    -- uncounted rounds of a whole-build study before its counted ones (a TU study's
    -- warm-up is its capturing build: 1)
    warmups       INTEGER NOT NULL DEFAULT 1
);

-- One compiler x level x injection of a study; written in one transaction once all its
-- runs are done.
CREATE TABLE IF NOT EXISTS oh_cell (
    id                 INTEGER PRIMARY KEY,
    study_id           INTEGER NOT NULL REFERENCES oh_study(id) ON DELETE CASCADE,
    compiler           TEXT NOT NULL,     -- 'gcc-12'
    compiler_version   TEXT NOT NULL,     -- first line of --version
    compiler_identity  TEXT NOT NULL,     -- analyzer.toolchain identity
    level              TEXT NOT NULL,     -- 'off' | 'default' | 'wall' | 'wextra' | 'all' | custom name
                                          -- | 'analyzer' | 'cppcheck' (a static analyzer)
    flags              TEXT NOT NULL,     -- JSON {"c": [...], "c++": [...]}: the level's exact flags
    -- how the flags reached the compiler: 'build' through the build system's own
    -- variables (CFLAGS, CMAKE_C_FLAGS, ...), 'wrapper' appended by the compiler wrapper
    -- (the compiler-only view; every tu-mode cell, and every cell before schema 7)
    inject             TEXT NOT NULL DEFAULT 'wrapper' CHECK (inject IN ('build', 'wrapper')),
    status             TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error              TEXT,              -- failed: what failed
    log_tail           TEXT,              -- failed: the last lines of the build's output
    warnings           INTEGER,           -- warning lines of one build (the last counted run)
    noisy              INTEGER NOT NULL DEFAULT 0,
    spread             REAL,              -- (max-min)/median of CPU
    max_load           REAL,              -- highest 1-minute load average seen at a run's start
    finished_at        TEXT NOT NULL,
    -- a static analyzer's cell ('analyzer', 'cppcheck'): the distinct diagnostics it
    -- reported in the last counted run; NULL for a warning level (and a failed cell)
    findings           INTEGER,
    UNIQUE (study_id, compiler, compiler_identity, level, flags, inject)
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
    -- every process of the build by program name, from the kernel's account of each
    -- (warnscope/accounting.py): JSON {"cc1": [cpu_s, processes], "libtool (bash)": ...};
    -- NULL where that accounting was not available (not root, no bpftrace)
    by_process     TEXT,
    residual_s     REAL,                  -- the tree's wait4 CPU minus by_process's sum
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

-- ------------------------------------------------------------------ overhead attribution
-- Which flags of a compiler's `all` set carry a project's cost (`overhead attribute`). The
-- same parameters resume: probes already stored are not measured again.
CREATE TABLE IF NOT EXISTS oh_attr (
    id                 INTEGER PRIMARY KEY,
    key                TEXT NOT NULL UNIQUE,   -- sha256 of the parameters below and the host
    project_id         INTEGER NOT NULL REFERENCES oh_project(id),
    compiler           TEXT NOT NULL,          -- 'gcc-12'
    compiler_version   TEXT NOT NULL,
    compiler_identity  TEXT NOT NULL,
    opt                TEXT NOT NULL,          -- '-O3'
    params             TEXT NOT NULL,          -- JSON: metric (cpu|instructions), top, runs, search_runs, min_share, instructions
    flags              TEXT NOT NULL,          -- JSON {"c": [...], "c++": [...]}: the `all` sets searched
    tus                TEXT,                   -- JSON: the TUs timed and where they were chosen; NULL until chosen
    host               TEXT NOT NULL,
    machine            TEXT NOT NULL,          -- JSON, as oh_study.machine
    started_at         TEXT NOT NULL,
    finished_at        TEXT                    -- NULL until every probe is stored
);

-- One configuration measured over the attribution's TUs, stored with its runs in one transaction.
CREATE TABLE IF NOT EXISTS oh_attr_probe (
    id           INTEGER PRIMARY KEY,
    attr_id      INTEGER NOT NULL REFERENCES oh_attr(id) ON DELETE CASCADE,
    role         TEXT NOT NULL,   -- 'off' | 'all' | 'rank-off' | 'rank-all' | 'subset' | 'alone' | 'without' | 'quiet' | 'plain'
    flags        TEXT NOT NULL,   -- JSON list appended to each TU (filtered to the TU's language's set)
    instrument   TEXT NOT NULL,   -- 'cpu' | 'instructions' (cachegrind) | 'time-report'
    runs         INTEGER NOT NULL,
    finished_at  TEXT NOT NULL,
    UNIQUE (attr_id, role, flags, instrument)
);

CREATE TABLE IF NOT EXISTS oh_attr_run (
    probe_id      INTEGER NOT NULL REFERENCES oh_attr_probe(id) ON DELETE CASCADE,
    tu            TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    user_s        REAL NOT NULL,
    sys_s         REAL NOT NULL,
    wall_s        REAL NOT NULL,
    maxrss_kb     INTEGER NOT NULL,
    instructions  INTEGER,            -- cachegrind 'I refs' of the compiler's process tree
    warnings      INTEGER NOT NULL,
    load1         REAL NOT NULL,
    host          TEXT NOT NULL,
    PRIMARY KEY (probe_id, tu, seq)
);

-- The compiler's own phase timings of a time-report probe (GCC -ftime-report timevars, clang timers).
CREATE TABLE IF NOT EXISTS oh_attr_phase (
    probe_id  INTEGER NOT NULL REFERENCES oh_attr_probe(id) ON DELETE CASCADE,
    tu        TEXT NOT NULL,
    phase     TEXT NOT NULL,          -- 'phase parsing', 'uninit var analysis'
    cpu_s     REAL NOT NULL,          -- usr + sys as the compiler reports it
    wall_s    REAL NOT NULL,
    PRIMARY KEY (probe_id, tu, phase)
);

-- A finished attribution as `overhead attribute --json` printed it when it finished (the
-- report site shows it without measuring again; its probes above stay the evidence).
CREATE TABLE IF NOT EXISTS oh_attr_result (
    attr_id  INTEGER PRIMARY KEY REFERENCES oh_attr(id) ON DELETE CASCADE,
    result   TEXT NOT NULL        -- JSON: the Attribution
);

-- ------------------------------------------------------------------ warnings of real builds
-- Read and written by analyzer/warnings/store.py.
-- One build of a project by one compiler at one level; a rerun (at any -O) replaces it.
CREATE TABLE IF NOT EXISTS wn_build (
    id               INTEGER PRIMARY KEY,
    project          TEXT NOT NULL,       -- a recipe's name, 'local:NAME'
    origin           TEXT NOT NULL,       -- the source package's directory, or the tree's path
    compiler         TEXT NOT NULL,
    compiler_version TEXT NOT NULL,
    level            TEXT NOT NULL,       -- 'all', 'wall', a --flag-set name
    opt              TEXT NOT NULL,       -- the -O level it was built at ('-O2')
    flags            TEXT NOT NULL,       -- JSON {language: [flags]}
    format           TEXT NOT NULL,       -- 'gcc-json' | 'sarif' | 'clang-text'
    status           TEXT NOT NULL,       -- 'ok' | 'failed'
    error            TEXT,                -- a failed build's reason, with the compiler's line
    finished_at      TEXT NOT NULL,
    keep_going       INTEGER NOT NULL DEFAULT 0,  -- built past errors (make -k): every error listed
    std_defaults     TEXT NOT NULL DEFAULT '{}',  -- JSON {language: the compiler's default
                                                  -- __STDC_VERSION__ / __cplusplus}
    project_options  TEXT NOT NULL DEFAULT '[]',  -- JSON: the -W and -std options of the
                                                  -- project's own compile commands
    tree_digest      TEXT NOT NULL DEFAULT '',    -- sha256 of the tree built (its files) and
                                                  -- its commands; '': built before schema 15
    passed_env       TEXT NOT NULL DEFAULT '[]',  -- JSON: the names of the caller's variables
                                                  -- passed to the build (--env), never values
    UNIQUE (project, compiler, level)
);

-- The configure checks of a build, as its build system logged them (config.log, the
-- CMake cache, meson-log.txt), and the macros of its generated configuration headers.
CREATE TABLE IF NOT EXISTS wn_check (
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,           -- the order the build system ran them in
    system    TEXT NOT NULL,              -- 'autoconf' | 'cmake' | 'meson'
    name      TEXT NOT NULL,              -- 'if libc defines __progname', 'HAVE_STDINT_H'
    result    TEXT NOT NULL,
    error     TEXT NOT NULL,              -- the compiler's first error of a failed check; ''
    PRIMARY KEY (build_id, seq)
);
CREATE TABLE IF NOT EXISTS wn_macro (
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    file      TEXT NOT NULL,              -- the header, relative to the tree: 'config.h'
    name      TEXT NOT NULL,
    value     TEXT,                       -- NULL: #undef
    PRIMARY KEY (build_id, file, name)
);

-- Each compile of a build (a source compiled twice is two TUs, '-> object').
CREATE TABLE IF NOT EXISTS wn_tu (
    build_id     INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    tu           TEXT NOT NULL,           -- source relative to the tree
    language     TEXT NOT NULL,           -- 'c' | 'c++'
    exit         INTEGER NOT NULL,
    diagnostics  INTEGER NOT NULL,        -- as it printed them (before merging with other TUs)
    problem      TEXT,                    -- why its output could not be read (truncated JSON, ...)
    PRIMARY KEY (build_id, tu)
);

-- A diagnostic of a build, once however many TUs printed it (a header's warning).
CREATE TABLE IF NOT EXISTS wn_diag (
    id        INTEGER PRIMARY KEY,
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    option    TEXT,                       -- '-Wunused-variable'; NULL: no option controls it
    severity  TEXT NOT NULL,              -- 'warning' | 'error' | 'fatal' | 'ice' | ...
    file      TEXT,                       -- relative to the tree; absolute outside it; NULL: none
    line      INTEGER,
    col       INTEGER,
    message   TEXT NOT NULL,
    printed   INTEGER NOT NULL            -- times printed over all its TUs (as a build log counts it)
);
CREATE INDEX IF NOT EXISTS wn_diag_build ON wn_diag (build_id, option);

-- The TUs that printed a diagnostic.
CREATE TABLE IF NOT EXISTS wn_diag_tu (
    diag_id  INTEGER NOT NULL REFERENCES wn_diag(id) ON DELETE CASCADE,
    tu       TEXT NOT NULL,
    PRIMARY KEY (diag_id, tu)
);
"""

#: The v1 ``extra`` object of a GCC flag -> the v2 ``facts`` object (:class:`GccFacts`).
#: v1 had two shapes: the option files' (``properties`` text, ``range`` "lo,hi",
#: ``enum_values`` {value: name}, ``warn``) and the binary's (``range`` [lo, hi],
#: ``enum_values`` [name …], ``warn_message``, ``not_a_warning``).
_GCC_FACTS_FROM_V1 = """
json_object(
    'var', json_extract(facts, '$.var'),
    'var_value', json_extract(facts, '$.var_value'),
    'init', json_extract(facts, '$.init'),
    'reject_negative', CASE WHEN instr(' ' || coalesce(json_extract(facts, '$.properties'), '') || ' ',
                                       ' RejectNegative ') THEN json('true') ELSE json('false') END,
    'range', CASE json_type(facts, '$.range')
        WHEN 'array' THEN json_extract(facts, '$.range')
        WHEN 'text' THEN json_array(
            CAST(substr(json_extract(facts, '$.range'), 1,
                        instr(json_extract(facts, '$.range'), ',') - 1) AS INTEGER),
            CAST(substr(json_extract(facts, '$.range'),
                        instr(json_extract(facts, '$.range'), ',') + 1) AS INTEGER))
        ELSE NULL END,
    'enum_values', CASE json_type(facts, '$.enum_values')
        WHEN 'object' THEN json_extract(facts, '$.enum_values')
        WHEN 'array' THEN (SELECT json_group_object(value, value) FROM json_each(facts, '$.enum_values'))
        ELSE json('{}') END,
    'alias_negative', json_extract(facts, '$.alias_negative'),
    'warn_message', coalesce(json_extract(facts, '$.warn'), json_extract(facts, '$.warn_message')),
    'byte_size', CASE WHEN instr(' ' || coalesce(json_extract(facts, '$.properties'), '') || ' ',
                                 ' ByteSize ') THEN json('true') ELSE json('false') END,
    'cpp', CASE WHEN instr(' ' || coalesce(json_extract(facts, '$.properties'), ''), ' CPP(')
                THEN json('true') ELSE json('false') END,
    'undocumented', CASE WHEN json_extract(facts, '$.undocumented') THEN json('true') ELSE json('false') END,
    'unlisted', CASE WHEN json_extract(facts, '$.unlisted') OR json_extract(facts, '$.not_a_warning')
                THEN json('true') ELSE json('false') END,
    'var_type', json_extract(facts, '$.var_type'),
    'var_offset', json_extract(facts, '$.var_offset'),
    'defaults', coalesce(json_extract(facts, '$.defaults'), json('{}')),
    'states', coalesce(json_extract(facts, '$.states'), json('{}'))
)"""

#: Migration 3, frozen: the tables of build-overhead studies as version 3 created them.
_V3_OVERHEAD = """
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

#: Migration 4, frozen: the attribution tables as version 4 created them.
_V4_ATTRIBUTION = """
-- ------------------------------------------------------------------ overhead attribution
-- Which flags of a compiler's `all` set carry a project's cost (`overhead attribute`). The
-- same parameters resume: probes already stored are not measured again.
CREATE TABLE IF NOT EXISTS oh_attr (
    id                 INTEGER PRIMARY KEY,
    key                TEXT NOT NULL UNIQUE,   -- sha256 of the parameters below and the host
    project_id         INTEGER NOT NULL REFERENCES oh_project(id),
    compiler           TEXT NOT NULL,          -- 'gcc-12'
    compiler_version   TEXT NOT NULL,
    compiler_identity  TEXT NOT NULL,
    opt                TEXT NOT NULL,          -- '-O3'
    params             TEXT NOT NULL,          -- JSON: top, runs, search_runs, min_share, instructions
    flags              TEXT NOT NULL,          -- JSON {"c": [...], "c++": [...]}: the `all` sets searched
    tus                TEXT,                   -- JSON: the TUs timed and where they were chosen; NULL until chosen
    host               TEXT NOT NULL,
    machine            TEXT NOT NULL,          -- JSON, as oh_study.machine
    started_at         TEXT NOT NULL,
    finished_at        TEXT                    -- NULL until every probe is stored
);

-- One configuration measured over the attribution's TUs, stored with its runs in one transaction.
CREATE TABLE IF NOT EXISTS oh_attr_probe (
    id           INTEGER PRIMARY KEY,
    attr_id      INTEGER NOT NULL REFERENCES oh_attr(id) ON DELETE CASCADE,
    role         TEXT NOT NULL,   -- 'off' | 'all' | 'rank-off' | 'rank-all' | 'subset' | 'alone' | 'without' | 'quiet' | 'plain'
    flags        TEXT NOT NULL,   -- JSON list appended to each TU (filtered to the TU's language's set)
    instrument   TEXT NOT NULL,   -- 'cpu' | 'instructions' (cachegrind) | 'time-report'
    runs         INTEGER NOT NULL,
    finished_at  TEXT NOT NULL,
    UNIQUE (attr_id, role, flags, instrument)
);

CREATE TABLE IF NOT EXISTS oh_attr_run (
    probe_id      INTEGER NOT NULL REFERENCES oh_attr_probe(id) ON DELETE CASCADE,
    tu            TEXT NOT NULL,
    seq           INTEGER NOT NULL,
    user_s        REAL NOT NULL,
    sys_s         REAL NOT NULL,
    wall_s        REAL NOT NULL,
    maxrss_kb     INTEGER NOT NULL,
    instructions  INTEGER,            -- cachegrind 'I refs' of the compiler's process tree
    warnings      INTEGER NOT NULL,
    load1         REAL NOT NULL,
    host          TEXT NOT NULL,
    PRIMARY KEY (probe_id, tu, seq)
);

-- The compiler's own phase timings of a time-report probe (GCC -ftime-report timevars, clang timers).
CREATE TABLE IF NOT EXISTS oh_attr_phase (
    probe_id  INTEGER NOT NULL REFERENCES oh_attr_probe(id) ON DELETE CASCADE,
    tu        TEXT NOT NULL,
    phase     TEXT NOT NULL,          -- 'phase parsing', 'uninit var analysis'
    cpu_s     REAL NOT NULL,          -- usr + sys as the compiler reports it
    wall_s    REAL NOT NULL,
    PRIMARY KEY (probe_id, tu, phase)
);
"""

#: Migration 6, frozen: finished attributions kept as their result.
_V6_ATTRIBUTION_RESULT = """
-- A finished attribution as `overhead attribute --json` printed it when it finished (the
-- report site shows it without measuring again; its probes above stay the evidence).
CREATE TABLE IF NOT EXISTS oh_attr_result (
    attr_id  INTEGER PRIMARY KEY REFERENCES oh_attr(id) ON DELETE CASCADE,
    result   TEXT NOT NULL        -- JSON: the Attribution
);
"""

#: v7: a cell says how its flags reached the compiler (``inject``, part of its key, so
#: one study holds both views), and a run where every CPU second went (``by_process``,
#: ``residual_s``). SQLite cannot change a UNIQUE constraint, so the three tables are
#: rebuilt: the old ones renamed away (their foreign keys follow the rename), the new
#: ones created as this version's SCHEMA has them, the rows copied (every cell before
#: this version was measured through the wrapper), the old ones dropped, children first.
_V7_INJECT_AND_PROCESSES = """
ALTER TABLE oh_tu_run RENAME TO oh_tu_run_v6;
ALTER TABLE oh_run RENAME TO oh_run_v6;
ALTER TABLE oh_cell RENAME TO oh_cell_v6;
-- One compiler x level x injection of a study; written in one transaction once all its
-- runs are done.
CREATE TABLE oh_cell (
    id                 INTEGER PRIMARY KEY,
    study_id           INTEGER NOT NULL REFERENCES oh_study(id) ON DELETE CASCADE,
    compiler           TEXT NOT NULL,     -- 'gcc-12'
    compiler_version   TEXT NOT NULL,     -- first line of --version
    compiler_identity  TEXT NOT NULL,     -- analyzer.toolchain identity
    level              TEXT NOT NULL,     -- 'off' | 'default' | 'wall' | 'wextra' | 'all' | custom name
    flags              TEXT NOT NULL,     -- JSON {"c": [...], "c++": [...]}: the level's exact flags
    -- how the flags reached the compiler: 'build' through the build system's own
    -- variables (CFLAGS, CMAKE_C_FLAGS, ...), 'wrapper' appended by the compiler wrapper
    -- (the compiler-only view; every tu-mode cell, and every cell before schema 7)
    inject             TEXT NOT NULL DEFAULT 'wrapper' CHECK (inject IN ('build', 'wrapper')),
    status             TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error              TEXT,              -- failed: what failed
    log_tail           TEXT,              -- failed: the last lines of the build's output
    warnings           INTEGER,           -- warning lines of one build (the last counted run)
    noisy              INTEGER NOT NULL DEFAULT 0,
    spread             REAL,              -- (max-min)/median of CPU
    max_load           REAL,              -- highest 1-minute load average seen at a run's start
    finished_at        TEXT NOT NULL,
    UNIQUE (study_id, compiler, compiler_identity, level, flags, inject)
);

-- Counted runs of a cell: a whole build, or (tu mode) the sum over its TUs.
CREATE TABLE oh_run (
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
    -- every process of the build by program name, from the kernel's account of each
    -- (warnscope/accounting.py): JSON {"cc1": [cpu_s, processes], "libtool (bash)": ...};
    -- NULL where that accounting was not available (not root, no bpftrace)
    by_process     TEXT,
    residual_s     REAL,                  -- the tree's wait4 CPU minus by_process's sum
    PRIMARY KEY (cell_id, seq)
);

-- tu mode: each translation unit compiled alone, timed alone.
CREATE TABLE oh_tu_run (
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

INSERT INTO oh_cell (id, study_id, compiler, compiler_version, compiler_identity, level, flags,
                     inject, status, error, log_tail, warnings, noisy, spread, max_load, finished_at)
SELECT id, study_id, compiler, compiler_version, compiler_identity, level, flags,
       'wrapper', status, error, log_tail, warnings, noisy, spread, max_load, finished_at
  FROM oh_cell_v6;
INSERT INTO oh_run (cell_id, seq, user_s, sys_s, wall_s, maxrss_kb, compiler_cpu_s, compilers,
                    warnings, load1, host, started_at, by_process, residual_s)
SELECT cell_id, seq, user_s, sys_s, wall_s, maxrss_kb, compiler_cpu_s, compilers,
       warnings, load1, host, started_at, NULL, NULL
  FROM oh_run_v6;
INSERT INTO oh_tu_run SELECT * FROM oh_tu_run_v6;
DROP TABLE oh_tu_run_v6;
DROP TABLE oh_run_v6;
DROP TABLE oh_cell_v6;
"""


#: v8, frozen: the generated code of every cell, stored once per content.
_V8_CODE = """
-- The generated code of cells (analyzer/ub/disasm.py's normalised text), once per content:
-- cells whose programs compiled to the same code share a row.
CREATE TABLE IF NOT EXISTS ub_code (
    hash          TEXT PRIMARY KEY,       -- sha256 of the text
    size          INTEGER NOT NULL,       -- bytes of the text
    code          BLOB NOT NULL           -- the text, zlib-compressed
);
ALTER TABLE ub_cell ADD COLUMN code TEXT;
ALTER TABLE ub_cell ADD COLUMN code_note TEXT;
"""



#: v9, frozen: the warnings family (``warnings run``): builds, their compiles, their
#: diagnostics and the TUs of each. Self-contained (it only creates ``wn_*`` tables).
_V9_WARNINGS = """
-- ------------------------------------------------------------------ warnings of real builds
-- Read and written by analyzer/warnings/store.py.
-- One build of a project by one compiler at one level; a rerun (at any -O) replaces it.
CREATE TABLE IF NOT EXISTS wn_build (
    id               INTEGER PRIMARY KEY,
    project          TEXT NOT NULL,       -- a recipe's name, 'local:NAME'
    origin           TEXT NOT NULL,       -- the source package's directory, or the tree's path
    compiler         TEXT NOT NULL,
    compiler_version TEXT NOT NULL,
    level            TEXT NOT NULL,       -- 'all', 'wall', a --flag-set name
    opt              TEXT NOT NULL,       -- the -O level it was built at ('-O2')
    flags            TEXT NOT NULL,       -- JSON {language: [flags]}
    format           TEXT NOT NULL,       -- 'gcc-json' | 'sarif' | 'clang-text'
    status           TEXT NOT NULL,       -- 'ok' | 'failed'
    error            TEXT,                -- a failed build's reason, with the compiler's line
    finished_at      TEXT NOT NULL,
    UNIQUE (project, compiler, level)
);

-- Each compile of a build (a source compiled twice is two TUs, '-> object').
CREATE TABLE IF NOT EXISTS wn_tu (
    build_id     INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    tu           TEXT NOT NULL,           -- source relative to the tree
    language     TEXT NOT NULL,           -- 'c' | 'c++'
    exit         INTEGER NOT NULL,
    diagnostics  INTEGER NOT NULL,        -- as it printed them (before merging with other TUs)
    problem      TEXT,                    -- why its output could not be read (truncated JSON, ...)
    PRIMARY KEY (build_id, tu)
);

-- A diagnostic of a build, once however many TUs printed it (a header's warning).
CREATE TABLE IF NOT EXISTS wn_diag (
    id        INTEGER PRIMARY KEY,
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    option    TEXT,                       -- '-Wunused-variable'; NULL: no option controls it
    severity  TEXT NOT NULL,              -- 'warning' | 'error' | 'fatal' | 'ice' | ...
    file      TEXT,                       -- relative to the tree; absolute outside it; NULL: none
    line      INTEGER,
    col       INTEGER,
    message   TEXT NOT NULL,
    printed   INTEGER NOT NULL            -- times printed over all its TUs (as a build log counts it)
);
CREATE INDEX IF NOT EXISTS wn_diag_build ON wn_diag (build_id, option);

-- The TUs that printed a diagnostic.
CREATE TABLE IF NOT EXISTS wn_diag_tu (
    diag_id  INTEGER NOT NULL REFERENCES wn_diag(id) ON DELETE CASCADE,
    tu       TEXT NOT NULL,
    PRIMARY KEY (diag_id, tu)
);
"""


#: v10, frozen: the cause of a divergent cell (``ub run --why``).
_V10_WHY = """
-- Why a divergent cell behaves as it does (``ub run --why``, analyzer/ub/why/why.py): the cause
-- found for the cell whose key it carries (a cell run again has a new key: its old cause
-- is not shown for it).
CREATE TABLE IF NOT EXISTS ub_why (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,
    compiler      TEXT NOT NULL,
    level         TEXT NOT NULL,
    flags         TEXT NOT NULL,
    key           TEXT NOT NULL,          -- ub_cell.key of the cell explained
    status        TEXT NOT NULL,          -- 'explained' | 'same' | 'unstable' | 'unknown'
    summary       TEXT NOT NULL,          -- the cause in one line
    cause         TEXT NOT NULL,          -- JSON object: analyzer/ub/results.py's Cause
    PRIMARY KEY (corpus, case_id, compiler, level, flags),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);
"""


#: v11, frozen: the detectors' runs (``ub detectors``).
_V11_DETECTORS = """
-- One detector tool run on one program (``ub detectors``, analyzer/ub/detectors/detect.py): a tool
-- (the warnings, the sanitizers or a static analyzer) of one compiler version on a UB case
-- or on its fixed twin, with its findings; the scores (analyzer/ub/detectors/scores.py) are computed
-- from these rows. A run whose key is stored with a lasting status is not run again.
CREATE TABLE IF NOT EXISTS ub_detector_run (
    corpus        TEXT NOT NULL,
    case_id       TEXT NOT NULL,          -- a UB case or a fixed twin
    tool          TEXT NOT NULL,          -- 'warnings' | 'sanitizers' | 'gcc-analyzer' |
                                          -- 'clang-analyzer' | 'clang-tidy' | 'cppcheck'
    version       TEXT NOT NULL,          -- the compiler's name, 'gcc-12'; 'cppcheck-2.10'
    level         TEXT NOT NULL,          -- the -O level of a warnings run; '' for the others
    key           TEXT NOT NULL,          -- sha256 of everything the run depends on
    status        TEXT NOT NULL,          -- 'ok' | 'unavailable' | 'failed' | 'timed-out' |
                                          -- 'unknown-output'
    note          TEXT NOT NULL,          -- why the status is not 'ok' (one line); '' when it is
    findings      TEXT NOT NULL,          -- JSON list of objects: detector, kind, line, message
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (corpus, case_id, tool, version, level),
    FOREIGN KEY (corpus, case_id) REFERENCES ub_case(corpus, id) ON DELETE CASCADE
);
"""


#: v12, frozen: a static analyzer's findings in an overhead cell (``--levels analyzer,cppcheck``).
_V12_FINDINGS = """
ALTER TABLE oh_cell ADD COLUMN findings INTEGER;
"""


#: v13, frozen: a study's warm-up rounds (``overhead run --warmups``); every earlier study had one.
_V13_WARMUPS = """
ALTER TABLE oh_study ADD COLUMN warmups INTEGER NOT NULL DEFAULT 1;
"""


#: v14, frozen: what the upgrade report reads of a warnings build: whether it kept going
#: past errors, the compiler's default standards, the project's own options, its configure
#: checks and the macros of its generated headers.
_V14_UPGRADE = """
ALTER TABLE wn_build ADD COLUMN keep_going INTEGER NOT NULL DEFAULT 0;
ALTER TABLE wn_build ADD COLUMN std_defaults TEXT NOT NULL DEFAULT '{}';
ALTER TABLE wn_build ADD COLUMN project_options TEXT NOT NULL DEFAULT '[]';
CREATE TABLE IF NOT EXISTS wn_check (
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,           -- the order the build system ran them in
    system    TEXT NOT NULL,              -- 'autoconf' | 'cmake' | 'meson'
    name      TEXT NOT NULL,              -- 'if libc defines __progname', 'HAVE_STDINT_H'
    result    TEXT NOT NULL,
    error     TEXT NOT NULL,              -- the compiler's first error of a failed check; ''
    PRIMARY KEY (build_id, seq)
);
CREATE TABLE IF NOT EXISTS wn_macro (
    build_id  INTEGER NOT NULL REFERENCES wn_build(id) ON DELETE CASCADE,
    file      TEXT NOT NULL,              -- the header, relative to the tree: 'config.h'
    name      TEXT NOT NULL,
    value     TEXT,                       -- NULL: #undef
    PRIMARY KEY (build_id, file, name)
);
"""


#: v15, frozen: what a warnings build was built from (the digest of its tree and
#: commands: a stored build answers only for that tree) and the names of the caller's
#: variables it was given.
_V15_TREE_AND_ENV = """
ALTER TABLE wn_build ADD COLUMN tree_digest TEXT NOT NULL DEFAULT '';
ALTER TABLE wn_build ADD COLUMN passed_env TEXT NOT NULL DEFAULT '[]';
"""


#: version reached -> SQL that brings the previous version up to it.
MIGRATIONS: dict[int, str] = {
    # v2: the untyped ``extra`` column becomes ``facts``, one typed shape per family.
    # GCC objects are rewritten in place; clang's v1 keys are already the v2 fields.
    # The stored content hashes are cleared, so the next ingest of each compiler
    # rewrites its rows as this version builds them (facts a v1 binary entry never
    # recorded, such as RejectNegative, come back that way).
    2: f"""
ALTER TABLE flag RENAME COLUMN extra TO facts;
UPDATE flag SET facts = {_GCC_FACTS_FROM_V1}
 WHERE compiler_id IN (SELECT id FROM compiler WHERE family = 'gcc');
UPDATE compiler SET content_hash = 'migrated-from-schema-1';
""",
    # v3: the tables of build-overhead studies
    3: _V3_OVERHEAD,
    # v4: per-flag attribution of build overhead (`overhead attribute`)
    4: _V4_ATTRIBUTION,
    # v5: a Debian package's provenance in columns of its own. Earlier ingests took
    # the host's candidate, so the package and its version are read back from
    # ``source`` ('gcc-12-source 12.2.0-14+deb12u1'); the suite was not recorded (NULL).
    5: """
ALTER TABLE compiler ADD COLUMN package TEXT;
ALTER TABLE compiler ADD COLUMN debian_version TEXT;
ALTER TABLE compiler ADD COLUMN suite TEXT;
UPDATE compiler
   SET package = substr(source, 1, instr(source, ' ') - 1),
       debian_version = substr(source, instr(source, ' ') + 1)
 WHERE source_kind = 'debian-package' AND instr(source, ' ') > 0;
""",
    # v6: finished attributions kept as their result
    6: _V6_ATTRIBUTION_RESULT,
    # v7: a cell's injection (its key) and a run's CPU by process
    7: _V7_INJECT_AND_PROCESSES,
    # v8: a cell's generated code (ub_code, ub_cell.code and code_note)
    8: _V8_CODE,
    # v9: the warnings of real builds
    9: _V9_WARNINGS,
    # v10: the cause of a divergent cell (ub run --why)
    10: _V10_WHY,
    # v11: the detectors' runs on the UB cases and their twins (ub detectors)
    11: _V11_DETECTORS,
    # v12: a static analyzer's findings in an overhead cell
    12: _V12_FINDINGS,
    # v13: a study's warm-up rounds
    13: _V13_WARMUPS,
    # v14: what the upgrade report reads of a warnings build
    14: _V14_UPGRADE,
    # v15: the tree a warnings build was built from, the variables passed to it
    15: _V15_TREE_AND_ENV,
}
