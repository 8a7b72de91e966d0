/* ub-case
 * category: left-shift-negative
 * standard: C++17 [expr.shift]/2
 * summary: the fixed twin of negative-times-four.cpp: a multiplication by 4
 * ub: no
 * fixes: negative-times-four.cpp
 * fixed-line: 14
 */
#include <cstdio>

int main(int argc, char **)
{
    int x = -2 - argc;
    std::printf("%d\n", x * 4);
    return 0;
}
