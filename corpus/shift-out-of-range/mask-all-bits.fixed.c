/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: the fixed twin of mask-all-bits.c: a mask of 32 or more bits is all ones, never a shift by the width
 * ub: no
 * fixes: mask-all-bits.c
 * fixed-line: 13
 */
#include <stdio.h>

static unsigned low_bits(unsigned bits)
{
    return bits >= 32 ? ~0u : (1u << bits) - 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    unsigned bits = 31 + argc;
    printf("%08x\n", low_bits(bits));
    return 0;
}
