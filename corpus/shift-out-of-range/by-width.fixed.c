/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: the fixed twin of by-width.c: the count is masked to 5 bits, as x86-64 does
 * ub: no
 * fixes: by-width.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    unsigned one = 1;
    unsigned count = 31 + argc;
    printf("%u\n", one << (count & 31));
    return 0;
}
