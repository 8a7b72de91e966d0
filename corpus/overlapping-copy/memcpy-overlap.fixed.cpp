/* ub-case
 * category: overlapping-copy
 * standard: C17 7.24.2.1p2
 * summary: the fixed twin of memcpy-overlap.cpp: std::memmove
 * ub: no
 * fixes: memcpy-overlap.cpp
 * fixed-line: 15
 */
#include <cstdio>
#include <cstring>

int main(int argc, char **)
{
    int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    std::memmove(a, a + argc, sizeof(int) * 7);
    for (int v : a)
        std::printf("%d", v);
    std::printf("\n");
    return 0;
}
