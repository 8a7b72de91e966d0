/* ub-case
 * category: use-after-free
 * standard: C17 7.22.3.5p2
 * summary: writing through the old pointer after realloc returned (the same address)
 * ub: yes
 * note: glibc keeps a same-size block in place, so both pointers name the same int when unexploited
 * ub-line: 20
 * twin: after-realloc.fixed.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int *p = malloc(sizeof(int) * argc);
    if (!p) return 1;
    int *q = realloc(p, sizeof(int) * argc);
    if (!q) { free(p); return 1; }
    *p = 1;
    *q = 2;
    printf("%d %d\n", *p, *q);
    free(q);
    return 0;
}
