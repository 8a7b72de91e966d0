/* ub-case
 * category: unreachable-reached
 * standard: C++23 [utility.unreachable]/2
 * summary: the fixed twin of switch-default.cpp: other modes keep the name 'other'
 * ub: no
 * fixes: switch-default.cpp
 * fixed-line: 18
 */
#include <cstdio>

__attribute__((noinline)) static const char *describe(int mode)
{
    const char *name = "other";
    if (mode == 0)
        name = "read";
    else if (mode == 2)
        name = "write";
    return name;
}

int main(int argc, char **)
{
    std::puts(describe(argc));
    return 0;
}
