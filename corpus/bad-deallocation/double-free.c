/* ub-case
 * category: bad-deallocation
 * standard: C17 7.22.3.3p2
 * summary: the same block is freed twice
 * ub: yes
 * note: glibc detects the second free and aborts (SIGABRT); the handler prints that and exits 0
 * ub-line: 30
 * twin: double-free.fixed.c
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGABRT\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGABRT, on_signal);
    char *p = malloc(24 * argc);
    if (!p) return 1;
    free(p);
    free(p);
    puts("freed twice");
    return 0;
}
