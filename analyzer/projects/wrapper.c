/* The compiler wrapper of warnscope's build-overhead studies.
 *
 * Built once per real driver, with the driver's path baked in (-DREAL="/usr/bin/gcc-12")
 * and the name of the environment variable holding the warning flags of the level
 * (-DFLAGS_ENV="WARNSCOPE_BUILD_CFLAGS"). A build system is configured with this
 * program as CC/CXX; then:
 *
 *  - the level's warning flags (space separated, from FLAGS_ENV) are appended to every
 *    invocation, so one configured tree serves every level and the builds differ in
 *    the warning flags only (configure tests that treat any compiler output as failure
 *    would otherwise configure each level differently);
 *  - when WARNSCOPE_BUILD_LOG names a file, the driver runs as a child and its wait4
 *    rusage (user, sys, max RSS of the driver and everything it waited for: cc1, as,
 *    collect2, ld), exit status, working directory and arguments are appended to the
 *    log as one line in one write(2). The sum over the log is the compiler's CPU.
 *    Without the log variable the wrapper just execs the driver.
 *
 *  - an argument starting with MARKER ("--warnscope-level=NAME") is removed before the
 *    driver runs, so the compiler never sees it: a study that passes the level's flags
 *    through the build system (CFLAGS, CMAKE_C_FLAGS, ...) puts the marker in front of
 *    them, and the log, which keeps the arguments as the build system gave them, proves
 *    that every compile got the level's flags exactly once. A compile that bypasses the
 *    wrapper fails loudly instead (no compiler knows the option).
 *
 *  - when WARNSCOPE_BUILD_STDERR names a directory as well, the driver's stderr goes
 *    to a fresh file there (mkstemps), whose path ends the log line; once the driver is
 *    reaped the file is copied to the wrapper's own stderr, so the build's log still
 *    holds everything. That is how `warnscope warnings run` gets each compile's
 *    diagnostics apart from every other compile's, whatever make -j interleaves.
 *
 * A shell or Python wrapper would itself cost more than the warnings being measured.
 *
 * Log line: utime_us \t stime_us \t maxrss_kb \t status \t cwd \t REAL \x1f arg1 \x1f ...
 * [\t stderr_file] \n (the real driver, then the original arguments without the appended
 * flags; tabs and newlines in them are replaced by spaces).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef REAL
#error "build with -DREAL=\"/path/of/the/driver\""
#endif
#ifndef FLAGS_ENV
#define FLAGS_ENV "WARNSCOPE_BUILD_CFLAGS"
#endif
#define MARKER "--warnscope-level="

static char **build_argv(int argc, char **argv) {
    const char *flags = getenv(FLAGS_ENV);
    char *copy = flags ? strdup(flags) : NULL;
    size_t extra = 0;
    if (copy)
        for (char *p = copy; *p; p++)
            if (*p == ' ') extra++;
    char **out = calloc((size_t)argc + extra + 2, sizeof *out);
    if (!out) { perror("warnscope-wrapper"); exit(127); }
    int n = 0;
    out[n++] = (char *)REAL;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], MARKER, sizeof MARKER - 1) != 0) out[n++] = argv[i];
    if (copy)
        for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) out[n++] = tok;
    out[n] = NULL;
    return out;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s, int clean) {
    size_t n = strlen(s);
    if (*len + n + 64 > *cap) {
        *cap = (*len + n + 64) * 2;
        *buf = realloc(*buf, *cap);
        if (!*buf) { perror("warnscope-wrapper"); exit(127); }
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        (*buf)[(*len)++] = (clean && (c == '\t' || c == '\n' || c == '\x1f')) ? ' ' : c;
    }
    (*buf)[*len] = '\0';
}

int main(int argc, char **argv) {
    char **args = build_argv(argc, argv);
    const char *log = getenv("WARNSCOPE_BUILD_LOG");
    if (!log || !*log) {
        execv(REAL, args);
        perror("warnscope-wrapper: exec " REAL);
        return 127;
    }
    const char *errdir = getenv("WARNSCOPE_BUILD_STDERR");
    char errpath[4096] = "";
    int errfd = -1;
    if (errdir && *errdir) {
        snprintf(errpath, sizeof errpath, "%s/XXXXXX.err", errdir);
        errfd = mkostemps(errpath, 4, O_CLOEXEC);
        if (errfd < 0) { perror("warnscope-wrapper: stderr file"); return 127; }
    }
    pid_t pid = fork();
    if (pid < 0) { perror("warnscope-wrapper: fork"); return 127; }
    if (pid == 0) {
        if (errfd >= 0 && dup2(errfd, 2) < 0) _exit(127);
        execv(REAL, args);
        perror("warnscope-wrapper: exec " REAL);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) { perror("warnscope-wrapper: wait4"); return 127; }
    }
    char head[160], cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "?");
    snprintf(head, sizeof head, "%lld\t%lld\t%ld\t%d\t",
             (long long)ru.ru_utime.tv_sec * 1000000LL + ru.ru_utime.tv_usec,
             (long long)ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec,
             ru.ru_maxrss, status);
    size_t len = 0, cap = 0;
    char *buf = NULL;
    append(&buf, &len, &cap, head, 0);
    append(&buf, &len, &cap, cwd, 1);
    append(&buf, &len, &cap, "\t", 0);
    append(&buf, &len, &cap, REAL, 1);
    for (int i = 1; i < argc; i++) {
        append(&buf, &len, &cap, "\x1f", 0);
        append(&buf, &len, &cap, argv[i], 1);
    }
    if (errfd >= 0) {
        append(&buf, &len, &cap, "\t", 0);
        append(&buf, &len, &cap, errpath, 1);
        char chunk[65536];
        ssize_t got;
        if (lseek(errfd, 0, SEEK_SET) == 0)
            while ((got = read(errfd, chunk, sizeof chunk)) > 0)
                for (ssize_t off = 0; off < got;) {
                    ssize_t put = write(2, chunk + off, (size_t)(got - off));
                    if (put < 0 && errno == EINTR) continue;
                    if (put <= 0) break;
                    off += put;
                }
        close(errfd);
    }
    append(&buf, &len, &cap, "\n", 0);
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, buf, len);
        (void)w;
        close(fd);
    }
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}
