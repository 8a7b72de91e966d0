/* ub-case
 * category: missing-return
 * standard: C++17 [stmt.return]/2
 * summary: a value-returning function falls off its end; in C++ this is undefined even if the result is unused
 * ub: yes
 * o0-exploited: yes
 * note: clang++ puts a trap (ud2) at the end of the function even at -O0; g++ -O0 just returns
 * ub-line: 18
 * twin: value-unused.fixed.cpp
 */
#include <cstdio>

__attribute__((noinline)) static bool log_value(int x)
{
    std::printf("value %d\n", x);
    if (x > 1)
        return true;
}

int main(int argc, char **)
{
    log_value(argc);
    std::puts("done");
    return 0;
}
