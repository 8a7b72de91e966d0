/* ub-case
 * category: signed-integer-overflow
 * standard: C++17 [expr.pre]/4
 * summary: the fixed twin of increment-compare.cpp: x + 1 is computed in long long
 * ub: no
 * fixes: increment-compare.cpp
 * fixed-line: 14
 */
#include <climits>
#include <cstdio>

static bool grows(int x)
{
    return static_cast<long long>(x) + 1 > x;
}

int main(int argc, char **)
{
    volatile int start = INT_MAX;
    int x = start + (argc - 1);
    std::puts(grows(x) ? "grows" : "wraps");
    return 0;
}
