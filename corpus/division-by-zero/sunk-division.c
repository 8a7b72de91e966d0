/* ub-case
 * category: division-by-zero
 * standard: C17 6.5.5p5
 * summary: a division by zero whose result is only used on the non-zero path; it may be moved there
 * ub: yes
 * note: executed as written, the division traps (SIGFPE on x86-64); the handler prints that and exits 0; aarch64's sdiv and riscv64's div by zero do not trap (the quotient is 0 and -1), so the program goes on (sunk-division.ARCH.output); libgcc's __aeabi_idiv0 of 32-bit ARM raises SIGFPE as x86-64 does
 * ub-line: 27
 * twin: sunk-division.fixed.c
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
    int q = 100 / d;
    if (d == 0)
        puts("divisor is zero");
    else
        printf("%d\n", q);
    return 0;
}
