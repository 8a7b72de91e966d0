/* ub-case
 * category: bad-deallocation
 * standard: C17 7.22.3.3p2
 * summary: the fixed twin of double-free.c: the pointer is set to NULL after the first free, so the second frees nothing
 * ub: no
 * fixes: double-free.c
 * fixed-line: 30
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
    p = NULL;
    free(p);
    puts("freed twice");
    return 0;
}
