/* ub-case
 * category: invalid-bool-enum
 * standard: C++17 [expr.static.cast]/10
 * summary: the fixed twin of enum-out-of-range.cpp: the enum has a fixed underlying type, so 5 is one of its values
 * ub: no
 * fixes: enum-out-of-range.cpp
 * fixed-line: 25
 */
#include <cstdio>

enum Colour : int { red, green, blue };

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
