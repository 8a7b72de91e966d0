/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: 30 days in milliseconds computed in long: 2592000000 fits a 64-bit long and overflows a 32-bit one (arm-linux-gnueabihf)
 * ub: yes
 * note: UB only where long has 32 bits: on x86-64, aarch64 and riscv64 the product fits; on 32-bit ARM the multiplication wraps to -1702967296
 * ub-line: 16
 * twin: long-width.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    long days = 30 * argc;
    long ms = days * 24 * 60 * 60 * 1000;
    printf("%ld\n", ms);
    return 0;
}
