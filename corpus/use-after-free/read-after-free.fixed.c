/* ub-case
 * category: use-after-free
 * standard: C17 6.2.4p2
 * summary: the fixed twin of read-after-free.c: the block is freed after its last use
 * ub: no
 * fixes: read-after-free.c
 * fixed-line: 18, 19
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    char *p = malloc(64);
    if (!p) return 1;
    p[32] = 'a';
    p[32] = (char)('a' + argc);
    printf("%c\n", p[32]);
    free(p);
    return 0;
}
