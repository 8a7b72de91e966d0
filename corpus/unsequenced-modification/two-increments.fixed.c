/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: the fixed twin of two-increments.c: the increments are separate statements
 * ub: no
 * fixes: two-increments.c
 * fixed-line: 15, 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int i = argc;
    int sum = i++;
    sum += i++;
    printf("%d %d\n", sum, i);
    return 0;
}
