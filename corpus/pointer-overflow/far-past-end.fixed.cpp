/* ub-case
 * category: pointer-overflow
 * standard: C++17 [expr.add]/4
 * summary: the fixed twin of far-past-end.cpp: the offsets are added as integers before a pointer is formed
 * ub: no
 * fixes: far-past-end.cpp
 * fixed-line: 14, 15
 */
#include <cstdio>

int main(int argc, char **)
{
    char buf[4] = {'a', 'b', 'c', 'd'};
    int far = 9 + argc;
    char *back = buf + (far - 8);
    std::printf("%c %d\n", *back, far);
    return 0;
}
