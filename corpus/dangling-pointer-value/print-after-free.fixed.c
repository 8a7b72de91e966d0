/* ub-case
 * category: dangling-pointer-value
 * standard: C17 6.2.4p2
 * summary: the fixed twin of print-after-free.c: both texts are formatted before the free
 * ub: no
 * fixes: print-after-free.c
 * fixed-line: 20
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    char before[32], after[32];
    char *p = malloc(16 * argc);
    if (!p) return 1;
    snprintf(before, sizeof before, "%p", (void *)p);
    snprintf(after, sizeof after, "%p", (void *)p);
    free(p);
    puts(strcmp(before, after) == 0 ? "same text" : "different text");
    return 0;
}
