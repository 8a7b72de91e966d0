/* ub-case
 * category: shift-out-of-range
 * standard: C++17 [expr.shift]/1
 * summary: a shift by -1; x86-64 masks the count to 31
 * ub: yes
 * note: aarch64 and riscv64 mask the count as x86-64 does; 32-bit ARM shifts by the count's bottom byte (255), giving 0 (negative-count.arm.output)
 * ub-line: 16
 * twin: negative-count.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    unsigned value = 1;
    int count = -argc;
    std::printf("%u\n", value << count);
    return 0;
}
