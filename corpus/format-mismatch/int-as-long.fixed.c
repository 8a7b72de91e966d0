/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: the fixed twin of int-as-long.c: %d for an int
 * ub: no
 * fixes: int-as-long.c
 * fixed-line: 15
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int v = -argc;
    printf("%d\n", v);
    return 0;
}
