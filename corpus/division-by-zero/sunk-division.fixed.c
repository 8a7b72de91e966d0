/* ub-case
 * category: division-by-zero
 * standard: C17 6.5.5p5
 * summary: the fixed twin of sunk-division.c: the division is done only for a non-zero divisor
 * ub: no
 * fixes: sunk-division.c
 * fixed-line: 26
 */
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
    int d = argc - 1;
    int q = d != 0 ? 100 / d : 0;
    if (d == 0)
        puts("divisor is zero");
    else
        printf("%d\n", q);
    return 0;
}
