/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: the fixed twin of before-begin.c: the walk counts an index down, never forming a - 1
 * ub: no
 * fixes: before-begin.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int a[4] = {1, 2, 3, 4};
    int sum = 0;
    for (int i = 3 * argc; i >= 0; i--)
        sum = sum * 10 + a[i];
    printf("%d\n", sum);
    return 0;
}
