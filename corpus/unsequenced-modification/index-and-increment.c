/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: a[i] = i++ reads i for the index unsequenced with its increment (defined in C++17)
 * ub: yes
 * note: indexing with the old value writes a[1], with the new value a[2]
 * ub-line: 17
 * twin: index-and-increment.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int a[4] = {0, 0, 0, 0};
    int i = argc;
    a[i] = i++;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
    return 0;
}
