/* ub-case
 * category: invalid-bool-enum
 * standard: C++17 [expr.static.cast]/10
 * summary: static_cast of 5 to an enum without fixed underlying type whose values fit in 2 bits
 * ub: yes
 * note: unexploited, the value stays 5 and the default branch runs
 * ub-line: 26
 * twin: enum-out-of-range.fixed.cpp
 */
#include <cstdio>

enum Colour { red, green, blue };

__attribute__((noinline)) static const char *name(Colour c)
{
    switch (c) {
    case red: return "red";
    case green: return "green";
    case blue: return "blue";
    default: return "unknown";
    }
}

int main(int argc, char **)
{
    Colour c = static_cast<Colour>(4 + argc);
    std::printf("%s %d\n", name(c), static_cast<int>(c) & 7);
    return 0;
}
