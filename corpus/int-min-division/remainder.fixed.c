/* ub-case
 * category: int-min-division
 * standard: C17 6.5.5p6
 * summary: the fixed twin of remainder.c: a remainder by -1 is 0 without dividing
 * ub: no
 * fixes: remainder.c
 * fixed-line: 28
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGFPE\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGFPE, on_signal);
    volatile int n = INT_MIN;
    int d = -argc;
    printf("%d\n", d == -1 ? 0 : n % d);
    return 0;
}
