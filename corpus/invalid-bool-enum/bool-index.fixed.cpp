/* ub-case
 * category: invalid-bool-enum
 * standard: C++17 [basic.fundamental]/6
 * summary: the fixed twin of bool-index.cpp: the bool is assigned from a comparison of the byte
 * ub: no
 * fixes: bool-index.cpp
 * fixed-line: 24
 */
#include <cstdio>
#include <cstring>

static const char *const names[2] = {"no", "yes"};

__attribute__((noinline)) static const char *name(bool b)
{
    return b ? names[1] : names[0];
}

int main(int argc, char **)
{
    bool b;
    unsigned char byte = static_cast<unsigned char>(2 + argc);
    b = byte != 0;
    std::puts(name(b));
    return 0;
}
