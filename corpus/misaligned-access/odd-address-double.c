/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: a double is stored at an odd offset of a malloc'd buffer and read through a double pointer
 * ub: yes
 * note: the buffer has no declared type, so the memcpy gives those bytes the effective type double; only the alignment is wrong
 * ub-line: 22, 21
 * twin: odd-address-double.fixed.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argv;
    unsigned char *buf = malloc(16);
    if (!buf) return 1;
    double v = 1.5 * argc;
    memcpy(buf + argc, &v, sizeof v);
    const double *p = (const double *)(buf + argc);
    printf("%.2f\n", *p);
    free(buf);
    return 0;
}
