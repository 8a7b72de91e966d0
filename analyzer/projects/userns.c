/* A user namespace whose root is an unprivileged range of host ids, for the step that
 * installs a Debian package's build dependencies (analyzer/projects/debian.py).
 *
 *   warnscope-userns map BASE COUNT SRC DST -- ARGV...
 *     Makes a user namespace whose ids 0..COUNT-1 are the host's BASE..BASE+COUNT-1
 *     (uids and gids alike), makes DST an idmapped mount of SRC by it (a file SRC holds
 *     as owned by id N is seen at DST as owned by host id BASE+N, so root of the
 *     namespace owns what host root owns in SRC), and runs ARGV with the namespace open
 *     as fd 3. Run as host root, in a mount namespace of its own (the mount goes with it).
 *
 *   warnscope-userns enter FD -- ARGV...
 *     Joins the user namespace open as FD, closes FD, becomes its root (uid and gid 0,
 *     no supplementary group: host ids BASE) and runs ARGV. Whatever ARGV does as that
 *     root is done, on the host, by an id of the range: its capabilities reach only what
 *     the namespace owns (and files whose owners it maps), and a file it writes is owned
 *     by the range.
 *
 * Each failure is one line on stderr and exit status 125.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define OPEN_TREE_CLONE_ 1
#define OPEN_TREE_CLOEXEC_ O_CLOEXEC
#define AT_RECURSIVE_ 0x8000
#define MOUNT_ATTR_IDMAP_ 0x00100000
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x00000004

struct mount_attr_ {
    uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static int fail(const char *what) {
    fprintf(stderr, "warnscope-userns: %s: %s\n", what, strerror(errno));
    return 125;
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A new user namespace with the map, open as the returned fd (-1 on failure): a child
 * unshares it and waits while this process writes its maps (as host root), then goes. */
static int new_userns(unsigned long base, unsigned long count) {
    int ready[2], done[2];
    if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(done, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(ready[0]);
        close(done[1]);
        char c = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1)
            _exit(1);
        (void)!read(done[0], &c, 1);
        _exit(0);
    }
    close(ready[1]);
    close(done[0]);
    char c = 'n', path[64], map[96];
    int fd = -1;
    if (read(ready[0], &c, 1) == 1 && c == 'y') {
        snprintf(map, sizeof map, "0 %lu %lu\n", base, count);
        snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
        int ok = write_file(path, map) == 0;
        snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
        ok = ok && write_file(path, map) == 0;
        snprintf(path, sizeof path, "/proc/%d/ns/user", (int)pid);
        if (ok)
            fd = open(path, O_RDONLY | O_CLOEXEC);
    } else {
        errno = EPERM;
    }
    int saved = errno;
    close(done[1]); /* the child ends; the namespace lives on in fd */
    close(ready[0]);
    waitpid(pid, NULL, 0);
    errno = saved;
    return fd;
}

static int map(int argc, char **argv) {
    /* map BASE COUNT SRC DST -- ARGV... */
    if (argc < 8 || strcmp(argv[6], "--") != 0) {
        fprintf(stderr, "usage: warnscope-userns map BASE COUNT SRC DST -- ARGV...\n");
        return 125;
    }
    char *end;
    unsigned long base = strtoul(argv[2], &end, 10), count = strtoul(argv[3], &end, 10);
    if (base == 0 || count == 0) {
        fprintf(stderr, "warnscope-userns: BASE and COUNT must be positive\n");
        return 125;
    }
    int ns = new_userns(base, count);
    if (ns < 0)
        return fail("cannot make the user namespace");
    int tree = (int)syscall(SYS_open_tree, AT_FDCWD, argv[4],
                            OPEN_TREE_CLONE_ | OPEN_TREE_CLOEXEC_ | AT_RECURSIVE_);
    if (tree < 0)
        return fail("open_tree");
    struct mount_attr_ attr = {.attr_set = MOUNT_ATTR_IDMAP_, .userns_fd = (uint64_t)ns};
    if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE_, &attr, sizeof attr) < 0)
        return fail("an idmapped mount (mount_setattr)");
    if (syscall(SYS_move_mount, tree, "", AT_FDCWD, argv[5], MOVE_MOUNT_F_EMPTY_PATH_) < 0)
        return fail("move_mount");
    close(tree);
    if (dup2(ns, 3) < 0) /* dup2 clears close-on-exec: ARGV gets it */
        return fail("dup2");
    if (ns != 3)
        close(ns);
    execvp(argv[7], argv + 7);
    return fail(argv[7]);
}

static int enter(int argc, char **argv) {
    /* enter FD -- ARGV... */
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: warnscope-userns enter FD -- ARGV...\n");
        return 125;
    }
    int fd = atoi(argv[2]);
    if (setns(fd, CLONE_NEWUSER) < 0)
        return fail("cannot join the user namespace");
    close(fd);
    if (setgroups(0, NULL) < 0 || setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
        return fail("cannot become the namespace's root");
    execvp(argv[4], argv + 4);
    return fail(argv[4]);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_DFL);
    if (argc > 1 && strcmp(argv[1], "map") == 0)
        return map(argc, argv);
    if (argc > 1 && strcmp(argv[1], "enter") == 0)
        return enter(argc, argv);
    fprintf(stderr, "usage: warnscope-userns map|enter ...\n");
    return 125;
}
