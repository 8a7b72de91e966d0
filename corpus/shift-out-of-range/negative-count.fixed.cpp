/* ub-case
 * category: shift-out-of-range
 * standard: C++17 [expr.shift]/1
 * summary: the fixed twin of negative-count.cpp: the count is masked to 5 bits, as x86-64 does
 * ub: no
 * fixes: negative-count.cpp
 * fixed-line: 15
 */
#include <cstdio>

int main(int argc, char **)
{
    unsigned value = 1;
    int count = -argc;
    std::printf("%u\n", value << (count & 31));
    return 0;
}
