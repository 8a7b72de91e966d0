/* ub-case
 * category: float-to-int-overflow
 * standard: C17 6.3.1.4p1
 * summary: (int)1e10; x86-64 cvttsd2si returns the 'integer indefinite' value INT_MIN
 * ub: yes
 * note: ARM, aarch64 and riscv64 saturate: INT_MAX (too-large.ARCH.output)
 * ub-line: 17
 * twin: too-large.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    volatile double big = 1e10;
    double d = big * argc;
    int i = (int)d;
    printf("%d\n", i);
    return 0;
}
