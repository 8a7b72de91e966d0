/* ub-case
 * category: use-after-free
 * standard: C17 6.2.4p2
 * summary: a byte of a freed block is written and read back
 * ub: yes
 * note: glibc reuses only the first 16 bytes of a freed small block, so byte 32 keeps its value
 * ub-line: 20, 21
 * twin: read-after-free.fixed.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    char *p = malloc(64);
    if (!p) return 1;
    p[32] = 'a';
    free(p);
    p[32] = (char)('a' + argc);
    printf("%c\n", p[32]);
    return 0;
}
