/* ub-case
 * category: const-object-modification
 * standard: C++17 [dcl.type.cv]/4
 * summary: the const member of an automatic object is changed through const_cast
 * ub: yes
 * note: unexploited, the store changes the member and both reads see 8
 * ub-line: 18
 * twin: const-member.fixed.cpp
 */
#include <cstdio>

struct Config {
    const int size;
};

__attribute__((noinline)) static void resize(const int *p, int v)
{
    *const_cast<int *>(p) = v;
}

int main(int argc, char **)
{
    Config c{4};
    int before = c.size;
    resize(&c.size, 4 + 4 * argc);
    std::printf("%d %d\n", before, c.size);
    return 0;
}
