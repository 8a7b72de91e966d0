/* ub-case
 * category: missing-return
 * standard: C++17 [stmt.return]/2
 * summary: the fixed twin of value-unused.cpp: a return of false at the end
 * ub: no
 * fixes: value-unused.cpp
 * fixed-line: 17, 16
 */
#include <cstdio>

__attribute__((noinline)) static bool log_value(int x)
{
    std::printf("value %d\n", x);
    if (x > 1)
        return true;
    return false;
}

int main(int argc, char **)
{
    log_value(argc);
    std::puts("done");
    return 0;
}
