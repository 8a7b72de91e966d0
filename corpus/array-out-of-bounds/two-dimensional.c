/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: m[0][i] for i up to 5 in int m[2][3] walks from the first row into the second
 * ub: yes
 * ub-line: 19
 * twin: two-dimensional.fixed.c
 */
#include <stdio.h>

static int m[2][3] = {{1, 2, 3}, {4, 5, 6}};

int main(int argc, char **argv)
{
    (void)argv;
    int n = 5 + argc;
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += m[0][i];
    printf("%d\n", sum);
    return 0;
}
