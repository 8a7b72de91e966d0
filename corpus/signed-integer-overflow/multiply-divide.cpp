/* ub-case
 * category: signed-integer-overflow
 * standard: C++17 [expr.pre]/4
 * summary: (a * 2) / 2 with a = INT_MAX, in two statements; the compiler may simplify it to a
 * ub: yes
 * note: wrapping gives -2 / 2 = -1
 * ub-line: 16
 * twin: multiply-divide.fixed.cpp
 */
#include <climits>
#include <cstdio>

int main(int argc, char **)
{
    int a = INT_MAX - 1 + argc;
    int twice = a * 2;
    int b = twice / 2;
    std::printf("%d\n", b);
    return 0;
}
