/* ub-case
 * category: strict-aliasing
 * standard: C++17 [basic.lval]/8
 * summary: two unrelated structs with the same layout are used to access the same storage
 * ub: yes
 * ub-line: 17
 * twin: struct-pun.fixed.cpp
 */
#include <cstdio>

struct Meters { int value; };
struct Feet { int value; };

__attribute__((noinline)) static int convert(Meters *m, Feet *f)
{
    m->value = 3;
    f->value = 10;
    return m->value;
}

int main(int argc, char **)
{
    Meters m{argc};
    std::printf("%d\n", convert(&m, reinterpret_cast<Feet *>(&m)));
    return 0;
}
