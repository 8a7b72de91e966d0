/* ub-case
 * category: uninitialized-read
 * standard: C++17 [dcl.init]/12
 * summary: the fixed twin of bool-flag.cpp: the flag starts false
 * ub: no
 * fixes: bool-flag.cpp
 * fixed-line: 16
 */
#include <cstdio>

__attribute__((noinline)) static void report(int argc)
{
    bool ready = false;
    if (argc > 1)
        ready = true;
    if (ready)
        std::puts("ready");
    if (!ready)
        std::puts("not ready");
}

int main(int argc, char **)
{
    report(argc);
    return 0;
}
