/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: 1u << 32 with the count from argc; x86-64 masks the count to 5 bits, giving 1
 * ub: yes
 * note: aarch64 and riscv64 mask the count as x86-64 does; 32-bit ARM shifts by the count's bottom byte, giving 0 (by-width.arm.output)
 * ub-line: 17
 * twin: by-width.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    unsigned one = 1;
    unsigned count = 31 + argc;
    printf("%u\n", one << count);
    return 0;
}
