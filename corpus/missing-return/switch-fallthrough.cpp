/* ub-case
 * category: missing-return
 * standard: C++17 [stmt.return]/2
 * summary: a switch covers only some values and the function falls off its end for the rest
 * ub: yes
 * o0-exploited: yes
 * note: clang++ traps (ud2) at the end of the function even at -O0; g++ -O0 returns what is in the register
 * ub-line: 19
 * twin: switch-fallthrough.fixed.cpp
 */
#include <cstdio>

__attribute__((noinline)) static const char *name(int n)
{
    switch (n) {
    case 2: return "two";
    case 3: return "three";
    }
}

int main(int argc, char **)
{
    const char *s = name(argc);
    std::puts(s == nullptr ? "no name" : "some name");
    return 0;
}
