/* ub-case
 * category: float-to-int-overflow
 * standard: C17 6.3.1.4p1
 * summary: (unsigned)-1.0 is out of range of unsigned int
 * ub: yes
 * note: converting through a 64-bit signed integer gives 4294967295, saturating gives 0
 * ub-line: 17
 * twin: negative-to-unsigned.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    volatile double minus = -1.0;
    double d = minus * argc;
    unsigned u = (unsigned)d;
    printf("%u\n", u);
    return 0;
}
