/* ub-case
 * category: missing-return
 * standard: C++17 [stmt.return]/2
 * summary: the fixed twin of switch-fallthrough.cpp: a return of nullptr after the switch
 * ub: no
 * fixes: switch-fallthrough.cpp
 * fixed-line: 18, 17
 */
#include <cstdio>

__attribute__((noinline)) static const char *name(int n)
{
    switch (n) {
    case 2: return "two";
    case 3: return "three";
    }
    return nullptr;
}

int main(int argc, char **)
{
    const char *s = name(argc);
    std::puts(s == nullptr ? "no name" : "some name");
    return 0;
}
