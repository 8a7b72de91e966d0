/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: a backwards walk whose last decrement forms a pointer before the first element
 * ub: yes
 * ub-line: 16
 * twin: before-begin.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int a[4] = {1, 2, 3, 4};
    int sum = 0;
    for (int *p = a + 3 * argc; p >= a; p--)
        sum = sum * 10 + *p;
    printf("%d\n", sum);
    return 0;
}
