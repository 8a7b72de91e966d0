/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: the fixed twin of index-and-increment.c: the store and the increment are two statements
 * ub: no
 * fixes: index-and-increment.c
 * fixed-line: 16, 17
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int a[4] = {0, 0, 0, 0};
    int i = argc;
    a[i] = i;
    i++;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    return 0;
}
