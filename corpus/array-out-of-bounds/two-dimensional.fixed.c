/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: the fixed twin of two-dimensional.c: the walk indexes row and column
 * ub: no
 * fixes: two-dimensional.c
 * fixed-line: 19
 */
#include <stdio.h>

static int m[2][3] = {{1, 2, 3}, {4, 5, 6}};

int main(int argc, char **argv)
{
    (void)argv;
    int n = 5 + argc;
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += m[i / 3][i % 3];
    printf("%d\n", sum);
    return 0;
}
