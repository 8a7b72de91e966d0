/* ub-case
 * category: use-after-scope
 * standard: C17 6.2.4p2
 * summary: the fixed twin of return-local.c: the variable is static, so it outlives the call
 * ub: no
 * fixes: return-local.c
 * fixed-line: 33, 25
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
    static int local;
    local = v;
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
