/* ub-case
 * category: use-after-scope
 * standard: C17 6.2.4p2
 * summary: a function returns the address of its local variable and the caller reads through it
 * ub: yes
 * o0-exploited: yes
 * note: gcc replaces the returned address with NULL at every level (the read then faults); clang -O0 reads the stale stack value 42
 * ub-line: 34, 26
 * twin: return-local.fixed.c
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGSEGV\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

static int *make(int v)
{
    int local = v;
    return &local;
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGSEGV, on_signal);
    int *p = make(41 + argc);
    int v = *p;
    printf("%d\n", v);
    return 0;
}
