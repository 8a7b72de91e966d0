/* ub-case
 * category: dangling-pointer-value
 * standard: C17 7.22.3.5p2
 * summary: the fixed twin of stale-after-realloc.c: the old address is kept as an integer before realloc and compared as one
 * ub: no
 * fixes: stale-after-realloc.c
 * fixed-line: 21, 18
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    char *p = malloc(16 * argc);
    if (!p) return 1;
    uintptr_t old = (uintptr_t)p;
    char *q = realloc(p, 16 * argc);
    if (!q) { free(p); return 1; }
    puts((uintptr_t)q == old ? "kept in place" : "moved");
    free(q);
    return 0;
}
