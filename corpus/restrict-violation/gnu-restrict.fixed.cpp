/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: the fixed twin of gnu-restrict.cpp: no __restrict: the accumulator may be its own source
 * ub: no
 * fixes: gnu-restrict.cpp
 * fixed-line: 23, 14
 */
#include <cstdio>

__attribute__((noinline)) static void accumulate(int *total, const int *step, int n)
{
    for (int i = 0; i < n; i++) {
        *total += *step;
        std::printf("%d ", *total);
    }
}

int main(int argc, char **)
{
    int t = 1;
    std::printf("1 ");
    accumulate(&t, &t, 2 + argc);
    std::printf("\n");
    return 0;
}
