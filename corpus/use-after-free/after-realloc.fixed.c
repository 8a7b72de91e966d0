/* ub-case
 * category: use-after-free
 * standard: C17 7.22.3.5p2
 * summary: the fixed twin of after-realloc.c: the old pointer is replaced by realloc's result
 * ub: no
 * fixes: after-realloc.c
 * fixed-line: 20
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
    p = q;
    *p = 1;
    *q = 2;
    printf("%d %d\n", *p, *q);
    free(q);
    return 0;
}
