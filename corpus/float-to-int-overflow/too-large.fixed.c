/* ub-case
 * category: float-to-int-overflow
 * standard: C17 6.3.1.4p1
 * summary: the fixed twin of too-large.c: values outside int's range are given the value x86-64 produces
 * ub: no
 * fixes: too-large.c
 * fixed-line: 17
 */
#include <limits.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    volatile double big = 1e10;
    double d = big * argc;
    int i = d >= 2147483648.0 || d < -2147483648.0 || d != d ? INT_MIN : (int)d;
    printf("%d\n", i);
    return 0;
}
