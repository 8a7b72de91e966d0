/* ub-case
 * category: unreachable-reached
 * standard: C++23 [utility.unreachable]/2
 * summary: __builtin_unreachable() asserts that a mode is 0 or 2, and it is reached with mode 1
 * ub: yes
 * note: GCC documents __builtin_unreachable as undefined when reached, like std::unreachable; an unexploited run goes on and prints 'other'
 * ub-line: 20
 * twin: switch-default.fixed.cpp
 */
#include <cstdio>

__attribute__((noinline)) static const char *describe(int mode)
{
    const char *name = "other";
    if (mode == 0)
        name = "read";
    else if (mode == 2)
        name = "write";
    if (mode != 0 && mode != 2)
        __builtin_unreachable();
    return name;
}

int main(int argc, char **)
{
    std::puts(describe(argc));
    return 0;
}
