/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: the fixed twin of long-bit.c: the flags are a long long, 64 bits on every target
 * ub: no
 * fixes: long-bit.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    long long flags = 0;
    int bit = 39 + argc;
    flags |= 1LL << bit;
    printf("%#llx\n", flags);
    return 0;
}
