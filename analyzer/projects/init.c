/* pid 1 of a build step's PID namespace (analyzer/projects/sandbox.py).
 *
 *   warnscope-build-init ARGV...
 *
 * Starts ARGV and reaps every process of the namespace (orphans are reparented to it).
 * When ARGV's process ends, it kills whatever is left (kill(-1) from pid 1 reaches
 * every other process of the namespace, and a fork racing the kill fails) and reaps
 * those too, then exits with ARGV's status (128 + N for a signal N). SIGTERM (the step's
 * timeout: warnscope/tool.py asks this process first) does the same at once, so the
 * killed processes are reaped here and their CPU still counts; it exits 128 + SIGTERM.
 *
 * Why not bubblewrap's own init: bwrap's monitor exits as soon as its init reports the
 * status, without reaping it, and a dying namespace init reaps the killed processes
 * with SIGCHLD ignored; either way their CPU never reaches the wait4 rusage that times
 * the build. Here every process is reaped by wait(), so its CPU is added to this
 * process's children's times, and bwrap (--as-pid-1) reaps this process in turn.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;

static void on_term(int sig) {
    (void)sig;
    stopping = 1;
    kill(-1, SIGKILL); /* async-signal-safe; at once, even if wait() is not entered yet */
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: warnscope-build-init ARGV...\n");
        return 127;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_term;   /* no SA_RESTART: wait() returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    pid_t child = fork();
    if (child < 0) {
        perror("warnscope-build-init: fork");
        return 127;
    }
    if (child == 0) {
        execvp(argv[1], argv + 1);
        fprintf(stderr, "warnscope-build-init: cannot run %s: ", argv[1]);
        perror(NULL);
        _exit(127);
    }
    int main_status = 127 << 8, ended = 0;
    for (;;) {
        int status;
        if (stopping) kill(-1, SIGKILL);
        pid_t pid = wait(&status);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break; /* ECHILD: nothing left */
        }
        if (pid == child) {
            main_status = status;
            ended = 1;
        }
        if (ended || stopping) kill(-1, SIGKILL);
    }
    if (stopping) return 128 + SIGTERM;
    if (WIFSIGNALED(main_status)) return 128 + WTERMSIG(main_status);
    return WIFEXITED(main_status) ? WEXITSTATUS(main_status) : 127;
}
