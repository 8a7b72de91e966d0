/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: flag bit 40 set with 1L << bit: long has 64 bits on x86-64 and 32 on arm-linux-gnueabihf, where the count is past the width
 * ub: yes
 * note: UB only where long has 32 bits; 32-bit ARM shifts by the count's bottom byte, so 1L << 40 is 0 there and the flag is lost
 * ub-line: 17
 * twin: long-bit.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    long flags = 0;
    int bit = 39 + argc;
    flags |= 1L << bit;
    printf("%#lx\n", flags);
    return 0;
}
