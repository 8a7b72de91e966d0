/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: a hand-written rotate that shifts right by 32 when the rotation is 0
 * ub: yes
 * ub-line: 15
 * twin: rotate.fixed.c
 */
#include <stdint.h>
#include <stdio.h>

static uint32_t rotl(uint32_t x, unsigned n)
{
    uint32_t left = x << n;
    uint32_t right = x >> (32 - n);
    return left | right;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%08x\n", (unsigned)rotl(0x12345678u, argc - 1));
    return 0;
}
