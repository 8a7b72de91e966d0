/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.1p2
 * summary: std::memcpy shifting an int array left by one element over itself
 * ub: yes
 * note: C++17 [library.c] takes the C library rules over; copying left works with any forward copy
 * ub-line: 16
 * twin: memcpy-overlap.fixed.cpp
 */
#include <cstdio>
#include <cstring>

int main(int argc, char **)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    std::memcpy(a, a + argc, sizeof(int) * 7);
    for (int v : a)
        std::printf("%d", v);
    std::printf("\n");
    return 0;
}
