/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: the fixed twin of rotate.c: the right shift count is masked, so a rotation by 0 shifts by 0
 * ub: no
 * fixes: rotate.c
 * fixed-line: 15
 */
#include <stdint.h>
#include <stdio.h>

static uint32_t rotl(uint32_t x, unsigned n)
{
    uint32_t left = x << n;
    uint32_t right = x >> ((32 - n) & 31);
    return left | right;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%08x\n", (unsigned)rotl(0x12345678u, argc - 1));
    return 0;
}
