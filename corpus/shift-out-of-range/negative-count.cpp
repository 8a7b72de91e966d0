/* ub-case
 * category: shift-out-of-range
 * standard: C++17 [expr.shift]/1
 * summary: a shift by -1; x86-64 masks the count to 31
 * ub: yes
 * ub-line: 15
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
