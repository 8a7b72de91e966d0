/* ub-case
 * category: const-object-modification
 * standard: C++17 [dcl.type.cv]/4
 * summary: the fixed twin of const-member.cpp: the member is not const
 * ub: no
 * fixes: const-member.cpp
 * fixed-line: 17
 */
#include <cstdio>

struct Config {
    int size;
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
