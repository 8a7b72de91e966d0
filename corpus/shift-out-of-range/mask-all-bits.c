/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: (1u << bits) - 1 as the mask of the low bits, asked for all 32; the count is the width
 * ub: yes
 * note: x86-64, aarch64 and riscv64 take a 32-bit shift's count modulo 32, so 1u << 32 is 1 and the mask 0; 32-bit ARM shifts by the count's bottom byte, so 1u << 32 is 0 and the mask all ones
 * ub-line: 14
 * twin: mask-all-bits.fixed.c
 */
#include <stdio.h>

static unsigned low_bits(unsigned bits)
{
    return (1u << bits) - 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    unsigned bits = 31 + argc;
    printf("%08x\n", low_bits(bits));
    return 0;
}
