/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: the fixed twin of overlapping-loop.c: no restrict: the arrays may overlap
 * ub: no
 * fixes: overlapping-loop.c
 * fixed-line: 21, 14
 */
#include <stdio.h>

__attribute__((noinline)) static void add_one(int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = b[i] + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    int buf[17] = {0};
    add_one(buf + 1, buf, 15 + argc);
    for (int i = 1; i < 17; i++)
        printf("%d ", buf[i]);
    printf("\n");
    return 0;
}
