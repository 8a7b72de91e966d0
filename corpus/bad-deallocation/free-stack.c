/* ub-case
 * category: bad-deallocation
 * standard: C17 7.22.3.3p2
 * summary: free() of the address of a local array
 * ub: yes
 * note: glibc either rejects the pointer and aborts or faults reading the fake chunk header before it; the handler prints the signal and exits 0
 * ub-line: 28
 * twin: free-stack.fixed.c
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
    char local[32];
    local[0] = (char)argc;
    release(local);
    puts("freed a local");
    return 0;
}
