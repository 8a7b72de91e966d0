/* ub-case
 * category: signed-integer-overflow
 * standard: C++17 [expr.pre]/4
 * summary: x + 1 > x with x = INT_MAX; the compiler may fold the comparison to true
 * ub: yes
 * o0-exploited: yes
 * note: g++ folds x + 1 > x to true while parsing, even at -O0; clang++ -O0 wraps and prints 'wraps'
 * ub-line: 16
 * twin: increment-compare.fixed.cpp
 */
#include <climits>
#include <cstdio>

static bool grows(int x)
{
    return x + 1 > x;
}

int main(int argc, char **)
{
    volatile int start = INT_MAX;
    int x = start + (argc - 1);
    std::puts(grows(x) ? "grows" : "wraps");
    return 0;
}
