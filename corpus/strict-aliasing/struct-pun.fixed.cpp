/* ub-case
 * category: strict-aliasing
 * standard: C++17 [basic.lval]/8
 * summary: the fixed twin of struct-pun.cpp: the value is copied in with memcpy
 * ub: no
 * fixes: struct-pun.cpp
 * fixed-line: 19, 18
 */
#include <cstdio>
#include <cstring>

struct Meters { int value; };
struct Feet { int value; };

__attribute__((noinline)) static int convert(Meters *m, Feet *f)
{
    m->value = 3;
    int ten = 10;
    std::memcpy(static_cast<void *>(f), &ten, sizeof ten);
    return m->value;
}

int main(int argc, char **)
{
    Meters m{argc};
    std::printf("%d\n", convert(&m, reinterpret_cast<Feet *>(&m)));
    return 0;
}
