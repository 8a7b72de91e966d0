/* ub-case
 * category: dangling-pointer-value
 * standard: C17 7.22.3.5p2
 * summary: the old pointer passed to realloc is compared with the result
 * ub: yes
 * note: glibc keeps a same-size block in place, so the pointers compare equal when unexploited
 * ub-line: 20
 * twin: stale-after-realloc.fixed.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    char *p = malloc(16 * argc);
    if (!p) return 1;
    char *q = realloc(p, 16 * argc);
    if (!q) { free(p); return 1; }
    puts(p == q ? "kept in place" : "moved");
    free(q);
    return 0;
}
