/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: the GNU __restrict extension in C++: an accumulator and its source are the same object
 * ub: yes
 * note: C++ has no restrict; g++ and clang++ give __restrict the C semantics. Unexploited, the total doubles each step: 1 2 4 8
 * ub-line: 24, 15
 * twin: gnu-restrict.fixed.cpp
 */
#include <cstdio>

__attribute__((noinline)) static void accumulate(int *__restrict total, const int *__restrict step, int n)
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
