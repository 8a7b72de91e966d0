/* ub-case
 * category: pointer-overflow
 * standard: C++17 [expr.add]/4
 * summary: a pointer moved 10 elements past a 4-element array and back again
 * ub: yes
 * ub-line: 14
 * twin: far-past-end.fixed.cpp
 */
#include <cstdio>

int main(int argc, char **)
{
    char buf[4] = {'a', 'b', 'c', 'd'};
    char *far = buf + 9 + argc;
    char *back = far - 8;
    std::printf("%c %d\n", *back, static_cast<int>(far - buf));
    return 0;
}
