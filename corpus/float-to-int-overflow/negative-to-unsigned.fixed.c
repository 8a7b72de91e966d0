/* ub-case
 * category: float-to-int-overflow
 * standard: C17 6.3.1.4p1
 * summary: the fixed twin of negative-to-unsigned.c: converted through long long, which holds -1
 * ub: no
 * fixes: negative-to-unsigned.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    volatile double minus = -1.0;
    double d = minus * argc;
    unsigned u = (unsigned)(long long)d;
    printf("%u\n", u);
    return 0;
}
