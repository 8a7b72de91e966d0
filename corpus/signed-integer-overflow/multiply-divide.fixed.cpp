/* ub-case
 * category: signed-integer-overflow
 * standard: C++17 [expr.pre]/4
 * summary: the fixed twin of multiply-divide.cpp: the product is computed in long long
 * ub: no
 * fixes: multiply-divide.cpp
 * fixed-line: 15
 */
#include <climits>
#include <cstdio>

int main(int argc, char **)
{
    int a = INT_MAX - 1 + argc;
    long long twice = static_cast<long long>(a) * 2;
    int b = static_cast<int>(twice / 2);
    std::printf("%d\n", b);
    return 0;
}
