/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: the fixed twin of odd-address-double.c: the double is copied out with memcpy
 * ub: no
 * fixes: odd-address-double.c
 * fixed-line: 22, 21
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
    double w;
    memcpy(&w, buf + argc, sizeof w);
    printf("%.2f\n", w);
    free(buf);
    return 0;
}
