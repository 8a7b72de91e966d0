/* ub-case
 * category: dangling-pointer-value
 * standard: C17 6.2.4p2
 * summary: the fixed twin of compare-after-free.c: the address is kept as an integer before the free and compared as one
 * ub: no
 * fixes: compare-after-free.c
 * fixed-line: 22, 18
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int *p = malloc(sizeof(int) * argc);
    if (!p) return 1;
    uintptr_t old = (uintptr_t)p;
    free(p);
    int *q = malloc(sizeof(int) * argc);
    if (!q) return 1;
    puts((uintptr_t)q == old ? "same" : "different");
    free(q);
    return 0;
}
