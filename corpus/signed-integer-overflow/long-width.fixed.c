/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: the fixed twin of long-width.c: the milliseconds are a long long, 64 bits on every target
 * ub: no
 * fixes: long-width.c
 * fixed-line: 15
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    long long days = 30 * argc;
    long long ms = days * 24 * 60 * 60 * 1000;
    printf("%lld\n", ms);
    return 0;
}
