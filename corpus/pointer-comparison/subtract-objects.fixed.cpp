/* ub-case
 * category: pointer-comparison
 * standard: C++17 [expr.add]/5
 * summary: the fixed twin of subtract-objects.cpp: the addresses are subtracted as integers
 * ub: no
 * fixes: subtract-objects.cpp
 * fixed-line: 18
 */
#include <cstddef>
#include <cstdint>
#include <cstdio>

int first[4] = {1, 2, 3, 4};
int second[4] = {5, 6, 7, 8};

__attribute__((noinline)) static std::ptrdiff_t distance(const int *from, const int *to)
{
    return static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) / static_cast<std::ptrdiff_t>(sizeof(int));
}

int main(int argc, char **)
{
    std::ptrdiff_t gap = distance(first + argc - 1, second);
    std::puts(gap > 0 ? "second is after first" : gap < 0 ? "second is before first" : "same place");
    return 0;
}
