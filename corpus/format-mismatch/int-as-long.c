/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: printf %ld is given an int (-1)
 * ub: yes
 * note: x86-64 passes the int in a 64-bit register; zero-extended it prints 4294967295, sign-extended -1
 * ub-line: 16
 * twin: int-as-long.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int v = -argc;
    printf("%ld\n", v);
    return 0;
}
