/* ub-case
 * category: dangling-pointer-value
 * standard: C17 6.2.4p2
 * summary: a freed pointer is compared with the next allocation of the same size
 * ub: yes
 * note: glibc hands the just-freed block out again, so the addresses compare equal when unexploited
 * ub-line: 21
 * twin: compare-after-free.fixed.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int *p = malloc(sizeof(int) * argc);
    if (!p) return 1;
    free(p);
    int *q = malloc(sizeof(int) * argc);
    if (!q) return 1;
    puts(p == q ? "same" : "different");
    free(q);
    return 0;
}
