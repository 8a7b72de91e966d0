/* ub-case
 * category: uninitialized-read
 * standard: C++17 [dcl.init]/12
 * summary: an uninitialised bool is printed and tested both ways
 * ub: yes
 * note: unexploited, the flag holds some fixed value and exactly one of the tests succeeds
 * ub-line: 17
 * twin: bool-flag.fixed.cpp
 */
#include <cstdio>

__attribute__((noinline)) static void report(int argc)
{
    bool ready;
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
