/* ub-case
 * category: int-min-division
 * standard: C17 6.5.5p6
 * summary: the fixed twin of divide.c: the division is done in long long
 * ub: no
 * fixes: divide.c
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
    printf("%lld\n", (long long)n / d);
    return 0;
}
