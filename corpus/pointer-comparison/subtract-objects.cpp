/* ub-case
 * category: pointer-comparison
 * standard: C++17 [expr.add]/5
 * summary: subtracting pointers into two different arrays
 * ub: yes
 * note: with flat addresses the difference is the distance between the arrays; its sign depends on the layout
 * ub-line: 18
 * twin: subtract-objects.fixed.cpp
 */
#include <cstddef>
#include <cstdio>

int first[4] = {1, 2, 3, 4};
int second[4] = {5, 6, 7, 8};

__attribute__((noinline)) static std::ptrdiff_t distance(const int *from, const int *to)
{
    return to - from;
}

int main(int argc, char **)
{
    std::ptrdiff_t gap = distance(first + argc - 1, second);
    std::puts(gap > 0 ? "second is after first" : gap < 0 ? "second is before first" : "same place");
    return 0;
}
