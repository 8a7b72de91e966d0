/* ub-case
 * category: format-mismatch
 * standard: C17 7.21.6.1p9
 * summary: printf %d is given a double, then %f is given an int
 * ub: yes
 * note: on x86-64 the double goes in xmm0 and the int in esi, so each conversion finds the other's value: '3 2.50'; riscv64 passes a variadic double in an integer register, so %d finds the low half of 2.5's bits (0) and %f reads 3's bits as a tiny double: '0 0.00' (swapped-arguments.riscv64.output); on 32-bit ARM %d finds r1, which holds an address (no expected output)
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
