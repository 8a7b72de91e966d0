/* ub-case
 * category: dangling-pointer-value
 * standard: C17 6.2.4p2
 * summary: a pointer is formatted with %p before and after the block it points to is freed
 * ub: yes
 * note: free() cannot change the caller's copy of the pointer, so an unexploited run formats the same text twice
 * ub-line: 22
 * twin: print-after-free.fixed.c
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
    free(p);
    snprintf(after, sizeof after, "%p", (void *)p);
    puts(strcmp(before, after) == 0 ? "same text" : "different text");
    return 0;
}
