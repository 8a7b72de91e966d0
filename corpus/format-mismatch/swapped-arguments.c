/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: printf %d is given a double, then %f is given an int
 * ub: yes
 * note: on x86-64 the double goes in xmm0 and the int in esi, so each conversion finds the other's value: '3 2.50'
 * ub-line: 17
 * twin: swapped-arguments.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    double d = 2.5 * argc;
    int i = 2 + argc;
    printf("%d %.2f\n", d, i);
    return 0;
}
