/* ub-case
 * category: invalid-bool-enum
 * standard: C++17 [basic.fundamental]/6
 * summary: a bool holding byte value 3 selects between two names
 * ub: yes
 * note: treating any non-zero byte as true picks 'yes'; testing only bit 0 also does, code that uses the byte as an index reads past the table
 * ub-line: 25
 * twin: bool-index.fixed.cpp
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
    std::memcpy(&b, &byte, 1);
    std::puts(name(b));
    return 0;
}
