/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: the fixed twin of swapped-arguments.c: the arguments in the order of the conversions
 * ub: no
 * fixes: swapped-arguments.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    double d = 2.5 * argc;
    int i = 2 + argc;
    printf("%d %.2f\n", i, d);
    return 0;
}
