/* ub-case
 * category: int-min-division
 * standard: C17 6.5.5p6
 * summary: INT_MIN / -1 overflows; x86-64 idiv traps, a negation would wrap
 * ub: yes
 * note: executed as written, idiv traps (SIGFPE); the handler prints that and exits 0; aarch64's sdiv and riscv64's div do not trap, nor does libgcc's __aeabi_idiv of 32-bit ARM: the quotient wraps to INT_MIN there (divide.ARCH.output)
 * ub-line: 29
 * twin: divide.fixed.c
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
    printf("%d\n", n / d);
    return 0;
}
