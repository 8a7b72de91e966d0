/* ub-case
 * category: left-shift-negative
 * standard: C++17 [expr.shift]/2
 * summary: -3 << 2 shifts a negative value (undefined in C++17, defined since C++20)
 * ub: yes
 * ub-line: 14
 * twin: negative-times-four.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    int x = -2 - argc;
    std::printf("%d\n", x << 2);
    return 0;
}
