/* ub-case
 * category: bad-deallocation
 * standard: C17 7.22.3.3p2
 * summary: the fixed twin of free-stack.c: the buffer comes from malloc
 * ub: no
 * fixes: free-stack.c
 * fixed-line: 27
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void on_signal(int sig)
{
    static const char abrt[] = "SIGABRT\n";
    static const char segv[] = "SIGSEGV\n";
    if (sig == SIGABRT)
        write(1, abrt, sizeof abrt - 1);
    else
        write(1, segv, sizeof segv - 1);
    _exit(0);
}

static void release(char *p)
{
    free(p);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    char *local = malloc(32);
    if (!local) return 1;
    local[0] = (char)argc;
    release(local);
    puts("freed a local");
    return 0;
}
