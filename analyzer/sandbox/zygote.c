/* The sandbox's zygote: namespaces and the read-only root built once per worker,
 * each compile or run forked inside with its own PID, mount and IPC namespaces.
 *
 * Why a C helper: the sandbox used to build everything per run in a forked Python
 * (fork of a large interpreter, unshare, ~20 mounts, two more forks), about 17 ms of
 * CPU and 86 ms of wall per run. Here the expensive part -- the user namespace when
 * not root, the network, UTS and IPC namespaces, the bind mounts of the system
 * directories, /dev, the pivot -- is paid once when a worker starts; a run costs one
 * clone, six mounts and one fork, with no interpreter on the path.
 *
 *   zygote SOCKFD STAGING SYSTEM_ROOT|- USERNS(0|1) PARENT_PID WORKBASE
 *
 * L (this process) unshares mount, network, IPC, UTS and PID namespaces (and a user
 * namespace, USERNS=1, when not root), forks Z -- pid 1 of the new PID namespace --
 * and waits for it. Z builds the root on STAGING (the system directories of
 * SYSTEM_ROOT read-only, /dev with a few nodes, read-only too, a /proc, empty mount
 * points for the per-run file systems, and WORKBASE -- the host directory holding the
 * worker's compile workspaces -- at /.warnscope-work), pivots into it, says "R" (or "E
 * why") on the
 * socket and serves requests, one at a time:
 *
 *   request (SOCK_SEQPACKET, NUL-separated fields):
 *     "run", UID|-1, TMPFS_SIZE, WORK, NRLIMITS, (RESOURCE SOFT HARD)*,
 *     ARGC, ARGV*, ENVC, ENV*
 *   with four descriptors: MSG (pipe, write end), OUT, ERR (pipes) and DATA. WORK
 *   says what /work is: "@NAME" the workspace WORKBASE/NAME, bound there (DATA
 *   unused: a directory of another mount namespace cannot be bound through a
 *   descriptor); "+" a fresh empty tmpfs (DATA unused); else a fresh tmpfs holding
 *   DATA, a file, copied in under the name WORK. Each run unmounts /.warnscope-work
 *   before its program starts: it sees its own workspace and no other.
 *
 * Per request Z clones I with new PID, mount and IPC namespaces and says "P <pid>"
 * on MSG. I, pid 1 there, mounts /work, a fresh /proc and private size-capped tmpfs
 * on /tmp, /var/tmp, /dev/shm and /run/lock, forks D and reaps; when D ends it says
 * "S <status> <utime> <stime> <maxrss_kb>" and goes on reaping until SIGTERM, when it
 * kills every process left in the namespace, reaps them, says "L <count>" (how many
 * besides the program were left) and exits. D starts a session,
 * takes OUT, ERR and /dev/null as its stdio, sets the rlimits (as root before the
 * uid, so they cannot be raised), drops to UID, and execs ARGV (PATH of ENV); if the
 * exec fails it says "X <errno>". The parent (analyzer/sandbox/runner.py) reads OUT, ERR and
 * MSG, enforces the wall clock and the memory cap, and sends I
 * SIGTERM (SIGKILL if it does not end at once), which takes the whole PID namespace --
 * and with it the mount and IPC namespaces and their tmpfs -- down. Z reaps I, says
 * "R <status> <utime> <stime> <maxrss_kb>" (I's rusage, which includes everything of
 * the run, reaped by I) and closes MSG: the end of the run for the parent. Nothing a run creates is visible to the next: its
 * processes, files, SysV IPC objects, cwd and rlimits all belong to the clone.
 *
 * Each process has PR_SET_PDEATHSIG: L dies with the worker, Z with L, I with Z, D
 * with I. When the worker closes the socket, Z exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *SYSTEM_DIRS[] = {"/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32",
                                    "/lib64", "/libx32", NULL};
static const char *DEVICES[] = {"null", "zero", "full", "random", "urandom", NULL};
static const char *PRIVATE_TMP[] = {"/tmp", "/var/tmp", "/dev/shm", "/run/lock", NULL};

#define MAX_REQUEST (1 << 20)
#define WORKBASE_MOUNT "/.warnscope-work"
#define MAX_FIELDS 8192

static void say(int fd, const char *fmt, ...) {
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    ssize_t ignored = write(fd, line, n);
    (void)ignored;
}

/* One line "E <what>: <why>" on FD, then exit: the sandbox could not be built. */
static void fail(int fd, const char *what) {
    say(fd, "E %s: %s", what, strerror(errno));
    _exit(127);
}

static void deathsig(void) { prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The same ids inside as outside: the program runs as the user, without capabilities. */
static int map_ids(uid_t uid, gid_t gid) {
    char line[64];
    if (write_file("/proc/self/setgroups", "deny") != 0) return -1;
    snprintf(line, sizeof line, "%u %u 1", uid, uid);
    if (write_file("/proc/self/uid_map", line) != 0) return -1;
    snprintf(line, sizeof line, "%u %u 1", gid, gid);
    return write_file("/proc/self/gid_map", line);
}

/* Bind SOURCE read-only at TARGET, keeping the flags a user namespace may not drop. */
static int bind_ro(const char *source, const char *target) {
    struct statvfs st;
    if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    if (statvfs(source, &st) != 0) return -1;
    unsigned long keep = 0;
    if (st.f_flag & ST_NOSUID) keep |= MS_NOSUID;
    if (st.f_flag & ST_NODEV) keep |= MS_NODEV;
    if (st.f_flag & ST_NOEXEC) keep |= MS_NOEXEC;
    if (st.f_flag & ST_NOATIME) keep |= MS_NOATIME;
    if (st.f_flag & ST_NODIRATIME) keep |= MS_NODIRATIME;
    if (st.f_flag & ST_RELATIME) keep |= MS_RELATIME;
    return mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | keep, NULL);
}

/* Z: the root every run of this zygote shares, read-only; then pivot into it. */
static void build_root(int sock, const char *new, const char *sysroot, const char *workbase) {
    char a[4096], b[4096];
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail(sock, "mount / private");
    if (mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
        fail(sock, "mount root tmpfs");
    for (const char **d = SYSTEM_DIRS; *d; d++) {
        struct stat st;
        snprintf(a, sizeof a, "%s%s", sysroot, *d);  /* a root's own /usr, /etc, /lib* */
        snprintf(b, sizeof b, "%s%s", new, *d);
        if (lstat(a, &st) != 0) continue;
        if (S_ISLNK(st.st_mode)) {
            char target[4096];
            ssize_t n = readlink(a, target, sizeof target - 1);
            if (n < 0) fail(sock, "readlink");
            target[n] = 0;
            if (symlink(target, b) != 0) fail(sock, "symlink");
        } else if (S_ISDIR(st.st_mode)) {
            if (mkdir(b, 0755) != 0 || bind_ro(a, b) != 0) fail(sock, *d);
        }
    }
    snprintf(b, sizeof b, "%s/dev", new);
    if (mkdir(b, 0755) != 0) fail(sock, "mkdir /dev");
    if (mount("tmpfs", b, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755") != 0)
        fail(sock, "mount /dev");
    for (const char **d = DEVICES; *d; d++) {
        snprintf(a, sizeof a, "/dev/%s", *d);
        snprintf(b, sizeof b, "%s/dev/%s", new, *d);
        int fd = open(b, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) fail(sock, b);
        close(fd);
        if (mount(a, b, NULL, MS_BIND, NULL) != 0) fail(sock, a);
    }
    const char *links[][2] = {{"/proc/self/fd/0", "stdin"}, {"/proc/self/fd/1", "stdout"},
                              {"/proc/self/fd/2", "stderr"}, {"/proc/self/fd", "fd"}};
    for (int i = 0; i < 4; i++) {
        snprintf(b, sizeof b, "%s/dev/%s", new, links[i][1]);
        if (symlink(links[i][0], b) != 0) fail(sock, "symlink /dev");
    }
    snprintf(b, sizeof b, "%s/dev/shm", new);
    if (mkdir(b, 0755) != 0) fail(sock, "mkdir /dev/shm");
    /* /dev read-only: in a user namespace its tmpfs is the user's, and runs share it */
    snprintf(b, sizeof b, "%s/dev", new);
    if (mount(NULL, b, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC, NULL) != 0)
        fail(sock, "remount /dev read-only");
    const char *dirs[] = {"/proc", "/var", "/run", "/tmp", "/var/tmp", "/run/lock", "/work",
                          WORKBASE_MOUNT, NULL};
    for (const char **d = dirs; *d; d++) {
        snprintf(b, sizeof b, "%s%s", new, *d);
        if (mkdir(b, 0755) != 0 && errno != EEXIST) fail(sock, *d);
    }
    /* This namespace's /proc: a mounted proc must be visible before a run (in a user
     * namespace) may mount its own over it. */
    snprintf(b, sizeof b, "%s/proc", new);
    if (mount("proc", b, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        fail(sock, "mount /proc");
    snprintf(b, sizeof b, "%s%s", new, WORKBASE_MOUNT);
    if (mount(workbase, b, NULL, MS_BIND, NULL) != 0) fail(sock, "bind the workspaces");
    if (mount(NULL, new, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
        fail(sock, "remount root read-only");
    if (chdir(new) != 0) fail(sock, "chdir");
    if (syscall(SYS_pivot_root, ".", ".") != 0) fail(sock, "pivot_root");
    if (umount2(".", MNT_DETACH) != 0) fail(sock, "umount old root");
    if (chdir("/") != 0) fail(sock, "chdir /");
}

struct request {
    int uid;
    long long tmpfs_size;
    const char *copy_name;
    int nrlimits;
    long long rlimits[64][3];
    char **argv;
    char **envp;
    int msg, out, err, data;
};

static char *fields[MAX_FIELDS];

/* Split the request into its fields; 0 on success. */
static int parse(char *buf, size_t len, struct request *r) {
    size_t nf = 0;
    for (size_t i = 0, start = 0; i < len; i++) {
        if (buf[i] == 0) {
            if (nf >= MAX_FIELDS - 2) return -1;
            fields[nf++] = buf + start;
            start = i + 1;
        }
    }
    size_t k = 0;
#define NEXT() (k < nf ? fields[k++] : NULL)
    const char *word = NEXT();
    if (!word || strcmp(word, "run") != 0) return -1;
    const char *f;
    if (!(f = NEXT())) return -1;
    r->uid = atoi(f);
    if (!(f = NEXT())) return -1;
    r->tmpfs_size = atoll(f);
    if (!(r->copy_name = NEXT())) return -1;
    if (!(f = NEXT())) return -1;
    r->nrlimits = atoi(f);
    if (r->nrlimits < 0 || r->nrlimits > 64) return -1;
    for (int i = 0; i < r->nrlimits; i++)
        for (int j = 0; j < 3; j++) {
            if (!(f = NEXT())) return -1;
            r->rlimits[i][j] = atoll(f);
        }
    if (!(f = NEXT())) return -1;
    int argc = atoi(f);
    if (argc < 1 || k + argc > nf) return -1;
    r->argv = &fields[k];
    k += argc;
    /* the argv array ends where the next field (ENVC) starts: terminate it there */
    if (!(f = NEXT())) return -1;
    int envc = atoi(f);
    if (envc < 0 || k + envc > nf) return -1;
    fields[k - 1] = NULL;  /* ENVC's slot, already read, ends argv */
    r->envp = &fields[k];
    k += envc;
    fields[k] = NULL;      /* within bounds: nf <= MAX_FIELDS - 2 */
#undef NEXT
    return 0;
}

/* D: the program. Never returns. */
static void become_program(struct request *r) {
    setsid();
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(r->out, 1) < 0 || dup2(r->err, 2) < 0) {
        say(r->msg, "X %d", errno);
        _exit(127);
    }
    /* everything else, MSG included, closes at exec */
    syscall(SYS_close_range, 3, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int sigs[] = {SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGPIPE, SIGHUP};
    for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) signal(sigs[i], SIG_DFL);
    for (int i = 0; i < r->nrlimits; i++) {
        struct rlimit rl = {(rlim_t)r->rlimits[i][1], (rlim_t)r->rlimits[i][2]};
        if (setrlimit((int)r->rlimits[i][0], &rl) != 0) {
            say(r->msg, "E setrlimit %lld: %s", r->rlimits[i][0], strerror(errno));
            _exit(127);
        }
    }
    if (r->uid >= 0) {
        if (setgroups(0, NULL) != 0 || setgid(r->uid) != 0 || setuid(r->uid) != 0) {
            say(r->msg, "E uid %d: %s", r->uid, strerror(errno));
            _exit(127);
        }
    }
    deathsig();
    environ = r->envp;
    execvp(r->argv[0], r->argv);
    say(r->msg, "X %d", errno);
    _exit(127);
}

static int copy_file(int in, const char *dst) {
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (out < 0) return -1;
    ssize_t n;
    while ((n = sendfile(out, in, NULL, 1 << 24)) > 0) {}
    close(out);
    return n < 0 ? -1 : 0;
}

/* "S": the program ended, with its wait status and rusage. */
static void told_ended(int msg, int status, const struct rusage *ru) {
    say(msg, "S %d %ld.%06ld %ld.%06ld %ld", status, (long)ru->ru_utime.tv_sec,
        (long)ru->ru_utime.tv_usec, (long)ru->ru_stime.tv_sec, (long)ru->ru_stime.tv_usec,
        ru->ru_maxrss);
}

/* Reap whatever has ended, saying "S" when the program is among it (once); the count of
 * the others, and *none set when no child is left. */
static int reap(int msg, pid_t program, int *told, int *none) {
    pid_t pid;
    int status, others = 0;
    struct rusage ru;
    while ((pid = wait4(-1, &status, WNOHANG, &ru)) > 0) {
        if (pid != program) {
            others++;
        } else if (!*told) {
            told_ended(msg, status, &ru);
            *told = 1;
        }
    }
    *none = pid < 0 && errno == ECHILD;
    return others;
}

/* I: pid 1 of the run's namespaces. Never returns. */
static void run_init(int sock, struct request *r) {
    char path[4200], opts[128];
    deathsig();
    close(sock);
    int bind = r->copy_name[0] == '@', empty = strcmp(r->copy_name, "+") == 0;
    if (bind) {
        const char *name = r->copy_name + 1;
        if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            errno = EINVAL;
            fail(r->msg, "workspace name");
        }
        snprintf(path, sizeof path, "%s/%s", WORKBASE_MOUNT, name);
        if (mount(path, "/work", NULL, MS_BIND, NULL) != 0) fail(r->msg, "bind /work");
    }
    if (umount2(WORKBASE_MOUNT, MNT_DETACH) != 0) fail(r->msg, "umount the workspaces");
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        fail(r->msg, "mount /proc");
    snprintf(opts, sizeof opts, "size=%lld,nr_inodes=4096,mode=1777", r->tmpfs_size);
    for (const char **d = PRIVATE_TMP; *d; d++)
        if (mount("tmpfs", *d, "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0) fail(r->msg, *d);
    if (!bind) {
        struct stat st = {0};
        if (!empty && fstat(r->data, &st) != 0) fail(r->msg, "fstat");
        snprintf(opts, sizeof opts, "size=%lld,nr_inodes=4096,mode=0700",
                 r->tmpfs_size + (long long)st.st_size);
        if (mount("tmpfs", "/work", "tmpfs", MS_NOSUID | MS_NODEV, opts) != 0)
            fail(r->msg, "mount /work");
        if (r->uid >= 0 && chown("/work", r->uid, r->uid) != 0) fail(r->msg, "chown /work");
        snprintf(path, sizeof path, "/work/%s", r->copy_name);
        if (!empty && (strchr(r->copy_name, '/') || copy_file(r->data, path) != 0))
            fail(r->msg, "copy in");
    }
    if (chdir("/work") != 0) fail(r->msg, "chdir /work");
    /* SIGCHLD and SIGTERM are taken with sigwaitinfo (the program unblocks them) */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, NULL);
    pid_t program = fork();
    if (program < 0) fail(r->msg, "fork");
    if (program == 0) become_program(r);
    close(r->out);
    close(r->err);
    close(r->data);
    /* Reap everything, saying when the program ends; on SIGTERM (the parent has counted
     * what is left) kill every other process of the namespace and reap them too, then
     * exit. Killed and reaped here, not by the kernel as the namespace's init exits:
     * the kernel autoreaps those, and their CPU time would reach no one's rusage. */
    int ending = 0, told = 0, left = 0;
    for (;;) {
        int none = 0, others = reap(r->msg, program, &told, &none);
        if (ending) left += others;  /* alive when the run ended: left behind by the program */
        if (none && ending) break;
        if (ending) kill(-1, SIGKILL);  /* whatever forked since */
        if (sigwaitinfo(&set, NULL) == SIGTERM && !ending) {
            reap(r->msg, program, &told, &none);  /* ended already: not left behind */
            ending = 1;
            kill(-1, SIGKILL);  /* from the namespace's init: every process but itself */
        }
    }
    say(r->msg, "L %d", left);
    _exit(0);
}

static char request_buf[MAX_REQUEST];

/* Z: one request at a time until the socket closes. */
static void serve(int sock) {
    for (;;) {
        struct request r;
        int fds[4];
        char control[CMSG_SPACE(sizeof fds)];
        struct iovec iov = {request_buf, sizeof request_buf - 1};
        struct msghdr mh = {0};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = control;
        mh.msg_controllen = sizeof control;
        ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(0);  /* the worker is gone */
        int nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                if (nfds > 4) nfds = 4;
                memcpy(fds, CMSG_DATA(c), nfds * sizeof(int));
            }
        }
        if (nfds != 4) {
            for (int i = 0; i < nfds; i++) close(fds[i]);
            continue;  /* not a request: the worker sees no answer and gives up on us */
        }
        r.msg = fds[0], r.out = fds[1], r.err = fds[2], r.data = fds[3];
        if ((mh.msg_flags & MSG_TRUNC) || parse(request_buf, (size_t)n, &r) != 0) {
            say(r.msg, "E bad request");
        } else {
            pid_t init = (pid_t)syscall(SYS_clone, CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC |
                                        SIGCHLD, NULL, NULL, NULL, NULL);
            if (init == 0) run_init(sock, &r);
            if (init < 0) {
                say(r.msg, "E clone: %s", strerror(errno));
            } else {
                say(r.msg, "P %d", init);
                close(r.out), close(r.err), close(r.data);
                r.out = r.err = r.data = -1;
                int status;
                struct rusage ru;
                while (wait4(init, &status, 0, &ru) < 0 && errno == EINTR) {}
                say(r.msg, "R %d %ld.%06ld %ld.%06ld %ld", status, (long)ru.ru_utime.tv_sec,
                    (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
                    (long)ru.ru_stime.tv_usec, ru.ru_maxrss);
            }
        }
        if (r.out >= 0) close(r.out), close(r.err), close(r.data);
        close(r.msg);
    }
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s SOCKFD STAGING SYSTEM_ROOT|- USERNS PARENT_PID WORKBASE\n",
                argv[0]);
        return 2;
    }
    int sock = atoi(argv[1]);
    const char *staging = argv[2];
    const char *sysroot = strcmp(argv[3], "-") == 0 ? "" : argv[3];
    int userns = argv[4][0] == '1';
    pid_t parent = (pid_t)atoi(argv[5]);
    deathsig();
    if (getppid() != parent) return 1;  /* the worker died before we could watch it */
    uid_t uid = getuid();
    gid_t gid = getgid();
    int flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID;
    if (userns) flags |= CLONE_NEWUSER;
    if (unshare(flags) != 0) fail(sock, "unshare");
    if (userns && map_ids(uid, gid) != 0) fail(sock, "map ids");
    pid_t z = fork();
    if (z < 0) fail(sock, "fork");
    if (z > 0) {
        /* L: hold nothing of Z's; live as long as Z does, so Z's death signal has a parent */
        close(sock);
        int status;
        while (waitpid(z, &status, 0) < 0 && errno == EINTR) {}
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    deathsig();
    build_root(sock, staging, sysroot, argv[6]);
    say(sock, "R");
    serve(sock);
    return 0;
}
